//! The one-pass encoder the server answers with (`deckmate_proto::wire`) writes the same bytes
//! as prost for every message a game produces: for every game the server hosts, random games at
//! its smallest and largest seat counts, where at every ply every viewer's view (alone and as an
//! `Act` answer, and as the server writes it without building it), and at the end the history of every viewer and the views of every version, are
//! encoded both ways and compared byte for byte.

use deckmate_engine::{Seat, Seed, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::{ReverseWriter, WireEncode};
use deckmate_server::catalog;
use deckmate_server::live::LiveGame;
use prost::Message;

#[path = "shared/in_process.rs"]
#[allow(dead_code)]
mod in_process;
use in_process::Picker;

/// Random games per game and seat count.
const GAMES: u64 = 3;

/// Plies per game at most: enough to reach every phase of the shorter games and the middle of
/// the longer ones, kept short for debug builds.
const MAX_PLIES: usize = 400;

/// Both encoders agree on `message`.
fn same_bytes<M: Message + WireEncode + std::fmt::Debug>(message: &M) {
    let wire = message.encode_wire();
    assert_eq!(wire, message.encode_to_vec(), "{message:?}");
}

/// The view `game` writes without building it ([`LiveGame::write_view`], how `Act` and
/// `Observe` answer) is `view` with its game id, byte for byte.
fn written_as_built(game: &dyn LiveGame, viewer: Viewer, view: &pb::ObserveResponse) {
    const GAME_ID: &str = "g-wire";
    let mut writer = ReverseWriter::new();
    game.write_view(viewer, GAME_ID, &mut writer);
    let mut named = view.clone();
    named.game_id = GAME_ID.to_string();
    assert_eq!(
        writer.as_slice(),
        named.encode_to_vec().as_slice(),
        "{} at version {} as {viewer:?}: {named:?}",
        game.kind().id(),
        game.version()
    );
}

fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    (0..seats as u8)
        .map(|seat| Viewer::Seat(Seat(seat)))
        .chain([Viewer::Spectator])
}

/// Plays one random game, checking every message it produces.
fn play(game: &mut dyn LiveGame, picker: &mut Picker) -> usize {
    let seats = game.seats();
    let mut checked = 0;
    for _ in 0..MAX_PLIES {
        for viewer in viewers(seats) {
            let view = game.view(viewer);
            same_bytes(&view);
            written_as_built(game, viewer, &view);
            same_bytes(&pb::ActResponse {
                version: game.version(),
                observation: Some(view),
            });
            checked += 2;
        }
        if game.is_over() {
            break;
        }
        let to_act = game.to_act();
        let seat = to_act[picker.index(to_act.len())];
        let view = game.view(Viewer::Seat(seat));
        // Now and then a meta action (a draw offer, its answer, a resignation), so that their
        // events and outcomes are encoded too.
        let action = if !view.meta_actions.is_empty() && picker.index(200) == 0 {
            let meta = view.meta_actions[picker.index(view.meta_actions.len())];
            pb::Action {
                kind: Some(pb::action::Kind::Meta(meta)),
            }
        } else if view.legal_actions.is_empty() {
            break;
        } else {
            view.legal_actions[picker.index(view.legal_actions.len())].clone()
        };
        same_bytes(&action);
        game.act(seat, &action).expect("a listed action applies");
    }
    let version = game.version();
    for viewer in viewers(seats) {
        let (events, actions) = game.history(viewer, 0..=version).expect("history");
        same_bytes(&pb::GetHistoryResponse {
            game_id: "wire".to_string(),
            variant: game.kind().id().to_string(),
            config: Some(game.config()),
            seats: seats as u32,
            events,
            version,
            status: pb::GameStatus::InProgress.into(),
            actions,
            seed: Vec::new(),
            seed_commitment: vec![7; 32],
            next_page_token: String::new(),
        });
        for view in game.views_between(viewer, 0, version).expect("views") {
            same_bytes(&view);
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_game_message_encodes_as_prost_encodes_it() {
    let variants = catalog::variants();
    same_bytes(&pb::ListVariantsResponse {
        variants: variants.clone(),
    });
    for variant in &variants {
        let config = variant.default_config.clone().expect("a default config");
        let mut checked = 0;
        for seats in [variant.min_seats, variant.max_seats] {
            for seed in 0..GAMES {
                let mut game = catalog::new_game(&config, seats, Seed::from_u64(seed))
                    .unwrap_or_else(|error| panic!("{}: {error}", variant.id));
                let mut picker = Picker(seed ^ u64::from(seats) << 8);
                checked += play(game.as_mut(), &mut picker);
            }
        }
        assert!(checked > 100, "{}: only {checked} messages", variant.id);
    }
}
