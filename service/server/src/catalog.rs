//! The hosted games as the API sees them: create a [`LiveGame`] from a `GameConfig`, restore one
//! from its stored bytes, and describe every variant. Generic over [`GameKind::ALL`]: nothing here
//! names a game.

use deckmate_engine::{GameKind, Seed, with_game};
use deckmate_proto::v1 as pb;

use crate::codec::GameCodec;
use crate::error::ApiError;
use crate::live::LiveGame;
use crate::session::Session;

/// The game a config names; `None` when it names none. Every game's codec knows its own member
/// of the `GameConfig` oneof ([`GameCodec::own_config`]), so nothing here names a game.
pub fn kind_of(config: &pb::GameConfig) -> Option<GameKind> {
    let game = config.game.as_ref()?;
    GameKind::ALL
        .iter()
        .copied()
        .find(|kind| with_game!(*kind, G => G::own_config(game).is_some()))
}

/// Deals a new game. `seats` 0 means the game's smallest seat count. A config naming no game
/// ([`crate::codec::no_game_set`]), an unsupported seat count (`seats`) and invalid options,
/// including those that do not fit the seat count (a Pile Chess team list), are
/// [`ApiError::InvalidField`] naming the field.
pub fn new_game(
    config: &pb::GameConfig,
    seats: u32,
    seed: Seed,
) -> Result<Box<dyn LiveGame>, ApiError> {
    let kind = kind_of(config).ok_or_else(crate::codec::no_game_set)?;
    with_game!(kind, G => new_session::<G>(config, seats, seed))
}

fn new_session<G: GameCodec>(
    config: &pb::GameConfig,
    seats: u32,
    seed: Seed,
) -> Result<Box<dyn LiveGame>, ApiError> {
    let config = G::decode_config(config)?;
    let seats = match seats {
        0 => *G::SEATS.start(),
        // Beyond usize (never on 64-bit targets) is as unsupported as any other large count.
        count => usize::try_from(count).unwrap_or(usize::MAX),
    };
    // Dealing checks the seat count, then the options against it, reporting either through
    // the one mapping of setup errors.
    Ok(Box::new(Session::<G>::new(config, seats, seed)?))
}

/// Loads a game of `kind` written by [`LiveGame::encode`]. Bytes that do not hold such a game
/// (corrupt, another game, an unknown format version) are [`ApiError::Internal`].
pub fn restore(kind: GameKind, bytes: &[u8]) -> Result<Box<dyn LiveGame>, ApiError> {
    with_game!(kind, G => restore_session::<G>(bytes))
}

fn restore_session<G: GameCodec>(bytes: &[u8]) -> Result<Box<dyn LiveGame>, ApiError> {
    Ok(Box::new(Session::<G>::decode(bytes)?))
}

/// Loads a game of `kind` kept as [`LiveGame::encode_head`] plus its
/// [`LiveGame::encode_entries`]: all of them when `held` is 0, else those after the first
/// `held`, which `previous` (an earlier copy of the same game) holds; errors as for
/// [`restore`]. The parts of the log both copies hold are shared rather than rebuilt (with the
/// snapshots the earlier copy has made).
pub fn restore_split(
    kind: GameKind,
    head: &[u8],
    entries: &[Vec<u8>],
    previous: Option<&dyn LiveGame>,
    held: u64,
) -> Result<Box<dyn LiveGame>, ApiError> {
    with_game!(kind, G => restore_split_session::<G>(head, entries, previous, held))
}

fn restore_split_session<G: GameCodec>(
    head: &[u8],
    entries: &[Vec<u8>],
    previous: Option<&dyn LiveGame>,
    held: u64,
) -> Result<Box<dyn LiveGame>, ApiError> {
    let previous = previous.and_then(|game| game.as_any().downcast_ref::<Session<G>>());
    let session = Session::<G>::decode_split(head, entries, previous, held)?;
    Ok(Box::new(session))
}

/// Every hosted game, in the order of [`GameKind::ALL`].
pub fn variants() -> Vec<pb::Variant> {
    GameKind::ALL
        .iter()
        .map(|kind| with_game!(*kind, G => variant::<G>()))
        .collect()
}

fn variant<G: GameCodec>() -> pb::Variant {
    pb::Variant {
        id: G::ID.to_string(),
        name: G::NAME.to_string(),
        min_seats: *G::SEATS.start() as u32,
        max_seats: *G::SEATS.end() as u32,
        default_config: Some(G::encode_config(&G::Config::default())),
        summary: G::SUMMARY.to_string(),
    }
}

/// A two-seat Pigeon Chess game with the default options dealt from `seed`, the game unit tests
/// use when any game will do.
#[cfg(test)]
pub(crate) fn test_game(seed: u64) -> Box<dyn LiveGame> {
    let config = pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(Default::default())),
    };
    new_game(&config, 2, Seed::from_u64(seed)).expect("the default options deal a game")
}

/// [`test_game`] dealt from `seed` and resigned by seat 0: a finished game, for tests of what
/// counts only running games.
#[cfg(test)]
pub(crate) fn resigned_test_game(seed: u64) -> Box<dyn LiveGame> {
    let mut game = test_game(seed);
    let resign = pb::Action {
        kind: Some(pb::action::Kind::Meta(pb::MetaAction {
            kind: pb::MetaActionKind::Resign as i32,
        })),
    };
    game.act(deckmate_engine::Seat(0), &resign)
        .expect("seat 0 may resign");
    assert!(game.is_over());
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use deckmate_engine::games::pigeon_chess;
    use deckmate_engine::{Seat, Viewer};

    fn pigeon_chess(config: pb::PigeonChessConfig) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(pb::game_config::Game::PigeonChess(config)),
        }
    }

    #[test]
    fn kind_of_names_the_configured_game() {
        assert_eq!(
            kind_of(&pigeon_chess(Default::default())),
            Some(GameKind::PigeonChess)
        );
        assert_eq!(kind_of(&pb::GameConfig { game: None }), None);
    }

    #[test]
    fn new_game_defaults_seats_and_fills_the_config() {
        let game = new_game(&pigeon_chess(Default::default()), 0, Seed::from_u64(9)).unwrap();
        assert_eq!(game.kind(), GameKind::PigeonChess);
        assert_eq!(game.seats(), 2);
        assert_eq!(game.version(), 0);
        assert_eq!(game.seed(), Seed::from_u64(9));
        let Some(pb::game_config::Game::PigeonChess(config)) = game.config().game else {
            panic!("not a pigeon chess config");
        };
        assert_eq!(config.pawns, Some(8));
        assert_eq!(config.max_turns, Some(300));

        let custom = pigeon_chess(pb::PigeonChessConfig {
            queens: Some(0),
            no_progress_turns: Some(0),
            ..Default::default()
        });
        let game = new_game(&custom, 2, Seed::from_u64(9)).unwrap();
        let Some(pb::game_config::Game::PigeonChess(config)) = game.config().game else {
            panic!("not a pigeon chess config");
        };
        assert_eq!(
            (config.queens, config.no_progress_turns),
            (Some(0), Some(0))
        );
    }

    #[test]
    fn new_game_rejects_bad_requests() {
        let seed = Seed::from_u64(1);
        let no_game = new_game(&pb::GameConfig { game: None }, 2, seed).unwrap_err();
        assert!(
            matches!(&no_game, ApiError::InvalidField { field, description }
                if field == "config" && description == "no game is set"),
            "{no_game:?}"
        );
        assert_eq!(no_game.to_string(), "config: no game is set");
        let seats = new_game(&pigeon_chess(Default::default()), 3, seed).unwrap_err();
        assert!(
            matches!(&seats, ApiError::InvalidField { field, description }
                if field == "seats" && description == "this game is for 2 seats, not 3"),
            "{seats:?}"
        );
        let huge = new_game(&pigeon_chess(Default::default()), u32::MAX, seed).unwrap_err();
        assert!(matches!(huge, ApiError::InvalidField { field, .. } if field == "seats"));
        let config = pigeon_chess(pb::PigeonChessConfig {
            kings: Some(5),
            ..Default::default()
        });
        let bad = new_game(&config, 2, seed).unwrap_err();
        assert!(
            matches!(bad, ApiError::InvalidField { field, .. } if field == "config.pigeon_chess.kings")
        );
    }

    #[test]
    fn restore_round_trips_through_the_store_format() {
        let mut game = new_game(&pigeon_chess(Default::default()), 2, Seed::from_u64(3)).unwrap();
        let legal = game.view(Viewer::Seat(Seat(0))).legal_actions;
        game.act(Seat(0), &legal[0]).unwrap();
        let bytes = game.encode().unwrap();
        let restored = restore(GameKind::PigeonChess, &bytes).unwrap();
        assert_eq!(restored.version(), 1);
        assert_eq!(restored.encode().unwrap(), bytes);
        for viewer in [
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ] {
            assert_eq!(restored.view(viewer), game.view(viewer));
        }
        let garbage = restore(GameKind::PigeonChess, &[1, 0xFF, 0xFF]).unwrap_err();
        assert!(matches!(garbage, ApiError::Internal(_)));
        let unknown = restore(GameKind::PigeonChess, &[99]).unwrap_err();
        assert!(matches!(unknown, ApiError::Internal(_)));
    }

    #[test]
    fn games_dealt_under_caps_wider_than_new_games_take_still_load_and_replay() {
        let seed = Seed::from_u64(4);
        let wide = pb::PigeonChessConfig {
            max_turns: Some(1_000_000),
            no_progress_turns: Some(0),
            ..Default::default()
        };
        // CreateGame refuses these caps now; a game dealt before the ranges keeps them.
        let refused = new_game(&pigeon_chess(wide), 2, seed).unwrap_err();
        assert!(
            matches!(refused, ApiError::InvalidField { field, .. } if field == "config.pigeon_chess.max_turns")
        );
        let config = pigeon_chess::Config {
            max_turns: 1_000_000,
            no_progress_turns: 0,
            ..Default::default()
        };
        let mut game: Box<dyn LiveGame> =
            Box::new(Session::<pigeon_chess::PigeonChess>::new(config, 2, seed).unwrap());
        for _ in 0..2 {
            let seat = (0..2)
                .map(Seat)
                .find(|seat| !game.view(Viewer::Seat(*seat)).legal_actions.is_empty())
                .unwrap();
            let legal = game.view(Viewer::Seat(seat)).legal_actions;
            game.act(seat, &legal[0]).unwrap();
        }
        let restored = restore(GameKind::PigeonChess, &game.encode().unwrap()).unwrap();
        let Some(pb::game_config::Game::PigeonChess(kept)) = restored.config().game else {
            panic!("not a pigeon chess config");
        };
        assert_eq!(
            (kept.max_turns, kept.no_progress_turns),
            (Some(1_000_000), Some(0))
        );
        for version in 0..=2 {
            assert_eq!(
                restored.view_at(Viewer::Spectator, version).unwrap(),
                game.view_at(Viewer::Spectator, version).unwrap()
            );
        }
    }

    #[test]
    fn variants_describe_every_game_with_full_defaults() {
        let variants = variants();
        assert_eq!(variants.len(), GameKind::ALL.len());
        let pigeon = variants
            .iter()
            .find(|variant| variant.id == "pigeon_chess")
            .expect("pigeon_chess is hosted");
        assert_eq!(pigeon.id, "pigeon_chess");
        assert_eq!(pigeon.name, "Pigeon Chess");
        assert_eq!((pigeon.min_seats, pigeon.max_seats), (2, 2));
        assert!(!pigeon.summary.is_empty());
        let Some(pb::game_config::Game::PigeonChess(config)) =
            pigeon.default_config.clone().and_then(|config| config.game)
        else {
            panic!("no pigeon chess default config");
        };
        let every_field = [
            config.pawns,
            config.knights,
            config.bishops,
            config.rooks,
            config.queens,
            config.kings,
            config.no_progress_turns,
            config.max_turns,
        ];
        assert!(every_field.iter().all(Option::is_some));
        // The advertised defaults create a game.
        assert!(
            new_game(
                pigeon.default_config.as_ref().unwrap(),
                0,
                Seed::from_u64(1)
            )
            .is_ok()
        );
    }
}
