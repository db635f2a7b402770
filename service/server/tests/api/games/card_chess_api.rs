//! Card Chess through the API (docs/rules/card_chess.md): whole games played from the listed legal
//! actions only, by the typed SDK and by a client that knows nothing but server reflection; and
//! the §7 no-leak check: no observation, event or history sent to either seat or a spectator
//! names a base card that has never been face up.
//!
//! The no-leak check needs the truth, which only the finished game gives away: GetHistory then
//! returns the seed and every action, so the test rebuilds the game with the engine, version by
//! version, and knows every base card and whether it had been face up at each version. Every
//! message received while the game ran is then checked against it.

use std::collections::BTreeSet;
use std::str::FromStr;

use super::play_recorded;
use crate::server::{Server, run};
use crate::support::{assert_action_refused, assert_config_refused};
use deckmate::{Client, CreateOptions, Game, pb};
use deckmate_engine::cards::{Card, Suit};
use deckmate_engine::games::card_chess::{CardChess, SPOTS, Spot};
use deckmate_engine::{Seat, Seed, Table, TableAction, Viewer};
use deckmate_server::codec::GameCodec;
use deckmate_server::codec::common::decode_table_action;
use pb::card_chess_event::Kind as CardEvent;

/// Card Chess with every default.
fn card_chess() -> pb::GameConfig {
    card_chess_with(pb::CardChessConfig::default())
}

/// Card Chess with `config`.
fn card_chess_with(config: pb::CardChessConfig) -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::CardChess(config)),
    }
}

/// The Card Chess part of a view.
fn card_view(view: &pb::ObserveResponse) -> &pb::CardChessObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::CardChess(observation)) => observation,
        other => panic!("not a Card Chess observation: {other:?}"),
    }
}

/// The Card Chess part of an event, if it is one.
fn card_event(event: &pb::Event) -> Option<&CardEvent> {
    match &event.kind {
        Some(pb::event::Kind::CardChess(message)) => message.kind.as_ref(),
        _ => None,
    }
}

/// A card as the API writes it: the rank's usual number (Ace 1, King 13) and the suit.
fn wire_card(card: Card) -> pb::CardChessCard {
    let suit = match card.suit {
        Suit::Clubs => pb::CardChessSuit::Clubs,
        Suit::Diamonds => pb::CardChessSuit::Diamonds,
        Suit::Hearts => pb::CardChessSuit::Hearts,
        Suit::Spades => pb::CardChessSuit::Spades,
    };
    pb::CardChessCard {
        rank: i32::from(card.rank.value()),
        suit: suit.into(),
    }
}

async fn create(client: &Client, config: pb::GameConfig, seed: u64) -> Game {
    client
        .create_game(config, 2, CreateOptions::default().with_seed(seed))
        .await
        .expect("create a card_chess game")
}

#[test]
fn whole_games_are_played_from_the_legal_actions_and_finish() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;

        let variant = super::variant(&client, "card_chess").await;
        assert_eq!((variant.min_seats, variant.max_seats), (2, 2));
        assert_eq!(variant.name, "Card Chess");
        let Some(pb::game_config::Game::CardChess(defaults)) = variant
            .default_config
            .as_ref()
            .and_then(|config| config.game.clone())
        else {
            panic!("no card_chess default config");
        };
        assert_eq!(defaults.max_turns, Some(1000));
        assert_eq!(defaults.no_progress_turns, Some(100));

        let short = pb::CardChessConfig {
            ace_capture: Some(pb::CardChessAceCapture::AsFaceCard.into()),
            max_turns: Some(25),
            ..Default::default()
        };
        for (seed, config) in [
            (1, card_chess()),
            (2, card_chess()),
            (3, card_chess()),
            (4, card_chess_with(short)),
        ] {
            let recorded = play_recorded(&client, config, 2, seed, 50).await;
            assert_eq!(recorded.game.variant, "card_chess");
            assert!(
                recorded.version() < 3_000,
                "seed {seed}: the game takes too long"
            );
            let observation = card_view(&recorded.last()[0]);
            assert_eq!(observation.phase(), pb::CardChessPhase::Finished);
            assert_eq!(observation.current_player, None);
            if seed == 4 {
                assert!(observation.turn <= 25, "the configured cap holds");
                assert_eq!(
                    observation.config.as_ref().and_then(|c| c.ace_capture),
                    Some(pb::CardChessAceCapture::AsFaceCard as i32)
                );
            }
        }
    });
}

/// §12: every config field out of its range is refused with a field violation naming the
/// field's proto path; the edges of the ranges are accepted.
#[test]
fn out_of_range_configs_and_malformed_actions_name_the_field() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let refused = [
            (
                pb::CardChessConfig {
                    max_turns: Some(0),
                    ..Default::default()
                },
                "config.card_chess.max_turns",
            ),
            (
                pb::CardChessConfig {
                    ace_capture: Some(pb::CardChessAceCapture::Unspecified.into()),
                    ..Default::default()
                },
                "config.card_chess.ace_capture",
            ),
            (
                pb::CardChessConfig {
                    ace_capture: Some(3),
                    ..Default::default()
                },
                "config.card_chess.ace_capture",
            ),
        ];
        for (config, field) in refused {
            assert_config_refused(&client, card_chess_with(config), field).await;
        }
        let edges = pb::CardChessConfig {
            no_progress_turns: Some(0),
            max_turns: Some(1),
            ..Default::default()
        };
        let game = create(&client, card_chess_with(edges), 7).await;
        let view = game.seats[0].observe().await.expect("a view");
        let config = card_view(&view).config.expect("the config");
        assert_eq!(
            (config.no_progress_turns, config.max_turns),
            (Some(0), Some(1))
        );

        // An action naming a spot that does not exist.
        let unknown_spot = pb::Action {
            kind: Some(pb::action::Kind::CardChess(pb::CardChessAction {
                kind: Some(pb::card_chess_action::Kind::Move(pb::CardChessMove {
                    from: "red castle 1".into(),
                    to: "red castle 9".into(),
                })),
            })),
        };
        assert_action_refused(&client, &game, 0, unknown_spot, "action.card_chess.move.to").await;
        let after = game.seats[0].observe().await.expect("a view");
        assert_eq!(after.version, 0, "a refused action changes nothing");
    });
}

// ---------------------------------------------------------------------------------------------
// The no-leak check of §7.

/// Who received a message: a seat, or a spectator (`None`).
type Receiver = Option<u32>;

/// Everything one viewer received while the game ran (and once it had finished).
#[derive(Default)]
struct Received {
    /// Views from Observe and Watch, with where they came from.
    views: Vec<(Receiver, String, pb::ObserveResponse)>,
    /// Histories read while the game ran or after it finished.
    histories: Vec<(Receiver, String, pb::GetHistoryResponse)>,
}

/// The truth of one version, from the rebuilt game.
struct Truth {
    /// Every spot's base card and whether it had been face up by then.
    bases: [(Card, bool); SPOTS],
    /// What each viewer may see (seat 0, seat 1, spectator), as the API encodes it.
    observations: [pb::CardChessObservation; 3],
}

/// How much the checks met; a run that met nothing proved nothing.
#[derive(Debug, Default)]
struct Coverage {
    hidden_bases_checked: usize,
    known_bases_checked: usize,
    flips_checked: usize,
    hidden_draws_checked: usize,
    never_seen_at_the_end: usize,
    histories_checked: usize,
}

fn viewer_index(viewer: Receiver) -> usize {
    viewer.map_or(2, |seat| seat as usize)
}

fn engine_viewer(index: usize) -> Viewer {
    match index {
        0 | 1 => Viewer::Seat(Seat(index as u8)),
        _ => Viewer::Spectator,
    }
}

/// Rebuilds the finished game from its revealed seed and actions: the truth of every version.
fn rebuild(history: &pb::GetHistoryResponse) -> Vec<Truth> {
    let config = CardChess::decode_config(history.config.as_ref().expect("a config"))
        .expect("the history's config");
    let seed: [u8; 32] = history.seed.as_slice().try_into().expect("a 32-byte seed");
    let (mut table, _) = Table::<CardChess>::new(&config, 2, Seed(seed)).expect("the game");
    let truth = |table: &Table<CardChess>| Truth {
        bases: std::array::from_fn(|index| {
            table
                .state()
                .base_card(Spot::from_index(index).expect("a spot"))
        }),
        observations: std::array::from_fn(|index| {
            match CardChess::encode_observation(&table.observe(engine_viewer(index))).game {
                Some(pb::observation::Game::CardChess(observation)) => observation,
                other => panic!("not a card chess observation: {other:?}"),
            }
        }),
    };
    let mut out = vec![truth(&table)];
    for (index, logged) in history.actions.iter().enumerate() {
        assert_eq!(logged.version, index as u64 + 1);
        let action: TableAction<_> =
            decode_table_action::<CardChess>(logged.action.as_ref().expect("an action"))
                .expect("a card chess action");
        table
            .apply(Seat(logged.seat as u8), &action)
            .expect("the logged action replays");
        out.push(truth(&table));
    }
    assert!(table.is_over(), "the rebuilt game is over too");
    out
}

/// Checks one view against the truth of its version.
fn check_view(
    viewer: Receiver,
    what: &str,
    view: &pb::ObserveResponse,
    truth: &[Truth],
    coverage: &mut Coverage,
) {
    assert_eq!(view.seat, viewer, "{what}: the view is for its viewer");
    let now = &truth[view.version as usize];
    let observation = card_view(view);
    for (index, spot) in observation.board.iter().enumerate() {
        let (base, known) = now.bases[index];
        if known {
            coverage.known_bases_checked += 1;
            assert_eq!(spot.base, Some(wire_card(base)), "{what}: {}", spot.name);
        } else {
            coverage.hidden_bases_checked += 1;
            assert_eq!(
                spot.base, None,
                "{what}: {} shows a base card that was never face up",
                spot.name
            );
        }
    }
    // Everything else equals what the engine lets this viewer see.
    assert_eq!(
        observation,
        &now.observations[viewer_index(viewer)],
        "{what}: the view is the engine's view for {viewer:?}"
    );
    // Once the game has finished, its events may show every draw (never a base card).
    let finished = view.status() == pb::GameStatus::Finished;
    check_events(viewer, what, &view.recent_events, truth, finished, coverage);
}

/// Checks events: a capture reveals exactly the base card that lay on the spot, and nobody but
/// the drawer sees drawn cards while the game runs (`finished` is false).
fn check_events(
    viewer: Receiver,
    what: &str,
    events: &[pb::Event],
    truth: &[Truth],
    finished_history: bool,
    coverage: &mut Coverage,
) {
    for event in events {
        let Some(kind) = card_event(event) else {
            continue;
        };
        match kind {
            CardEvent::Captured(captured) => {
                let spot = Spot::from_str(&captured.to).expect("a spot name");
                let before = &truth[event.version as usize - 1];
                let after = &truth[event.version as usize];
                let (base, _) = before.bases[spot.index()];
                assert_eq!(
                    captured.revealed,
                    Some(wire_card(base)),
                    "{what}: a capture reveals the spot's base card"
                );
                assert!(after.bases[spot.index()].1, "{what}: now known");
                coverage.flips_checked += 1;
            }
            CardEvent::CardsDrawn(drawn) if viewer != Some(drawn.seat) && !finished_history => {
                coverage.hidden_draws_checked += 1;
                assert!(
                    drawn.cards.is_empty(),
                    "{what}: {viewer:?} sees the cards seat {} drew",
                    drawn.seat
                );
            }
            CardEvent::BoardDealt(dealt) => assert_eq!(dealt.spots, 25, "{what}"),
            _ => {}
        }
    }
}

/// Plays one random game, keeping everything both seats and a spectator receive, then checks it
/// all against the rebuilt game.
async fn play_and_check(client: &Client, seed: u64, coverage: &mut Coverage) {
    // Histories at every version; play_recorded checks that every watcher saw exactly the
    // views Observe returned, so checking those covers the watched ones too.
    let recorded = play_recorded(client, card_chess(), 2, seed, 1).await;
    let version = recorded.version();
    let mut received = Received::default();
    for (at, views) in recorded.views.iter().enumerate() {
        for (view, viewer) in views.iter().zip(recorded.viewers()) {
            let what = format!("seed {seed} v{at} {viewer:?} Observe and Watch");
            received.views.push((viewer, what, view.clone()));
        }
    }
    for histories in &recorded.histories {
        for (history, viewer) in histories.iter().zip(recorded.viewers()) {
            let what = format!("seed {seed} v{} {viewer:?} GetHistory", history.version);
            received.histories.push((viewer, what, history.clone()));
        }
    }
    for (seat, handle) in recorded.game.seats.iter().enumerate() {
        let history = handle.history().await.expect("the final history");
        let what = format!("seed {seed} final seat {seat} GetHistory");
        received.histories.push((Some(seat as u32), what, history));
    }
    let what = format!("seed {seed} final spectator GetHistory");
    received
        .histories
        .push((None, what, recorded.history.clone()));

    // The truth, from the finished game's seed and actions.
    let finished = &received.histories.last().expect("a final history").2;
    assert_eq!(finished.status(), pb::GameStatus::Finished);
    assert_eq!(finished.actions.len() as u64, version);
    let truth = rebuild(finished);

    // The base cards ever face up, from the revealed history alone; every other base card of the
    // deal must never have been named.
    let mut flipped = BTreeSet::new();
    for event in &finished.events {
        if let Some(CardEvent::Captured(captured)) = card_event(event) {
            flipped.insert(Spot::from_str(&captured.to).expect("a spot").index());
        }
    }
    let end = truth.last().expect("a final version");
    for spot in 0..SPOTS {
        assert_eq!(end.bases[spot].1, flipped.contains(&spot), "spot {spot}");
    }
    coverage.never_seen_at_the_end += SPOTS - flipped.len();

    for (viewer, what, view) in &received.views {
        check_view(*viewer, what, view, &truth, coverage);
    }
    check_catches_a_leak(&received, &truth);
    for (viewer, what, history) in &received.histories {
        let finished = history.status() == pb::GameStatus::Finished;
        if !finished {
            coverage.histories_checked += 1;
            assert!(history.seed.is_empty(), "{what}: the seed while running");
            assert!(history.actions.is_empty(), "{what}: actions while running");
        }
        check_events(*viewer, what, &history.events, &truth, finished, coverage);
    }
}

/// The check is not vacuous: a spectator view doctored to show a base card that was never face
/// up (its true identity, taken from the rebuilt game) is caught.
fn check_catches_a_leak(received: &Received, truth: &[Truth]) {
    let (viewer, what, view) = received
        .views
        .iter()
        .find(|(viewer, _, _)| viewer.is_none())
        .expect("a spectator view");
    let hidden = truth[view.version as usize]
        .bases
        .iter()
        .position(|(_, known)| !known)
        .expect("a base card not yet face up");
    let mut doctored = view.clone();
    if let Some(pb::observation::Game::CardChess(observation)) = doctored
        .observation
        .as_mut()
        .and_then(|observation| observation.game.as_mut())
    {
        observation.board[hidden].base =
            Some(wire_card(truth[view.version as usize].bases[hidden].0));
    }
    let caught = std::panic::catch_unwind(|| {
        check_view(*viewer, what, &doctored, truth, &mut Coverage::default())
    });
    assert!(caught.is_err(), "a leaked base card went unnoticed");
}

#[test]
fn no_base_card_that_was_never_face_up_reaches_a_seat_or_a_spectator() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut coverage = Coverage::default();
        for seed in [11, 12, 13] {
            play_and_check(&client, seed, &mut coverage).await;
        }
        assert!(coverage.hidden_bases_checked > 0, "{coverage:?}");
        assert!(coverage.known_bases_checked > 0, "{coverage:?}");
        assert!(coverage.flips_checked > 0, "{coverage:?}");
        assert!(coverage.hidden_draws_checked > 0, "{coverage:?}");
        assert!(coverage.never_seen_at_the_end > 0, "{coverage:?}");
        assert!(coverage.histories_checked > 0, "{coverage:?}");
    });
}
