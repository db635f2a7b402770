//! Stored events keep their encoding, and every viewer keeps its view of them.
//!
//! Session format 2 stores each game's full events with postcard, which is not self-describing:
//! any change to the serde layout of an `Event` (field order, field types, variant order) would
//! make stored sessions unreadable. This test replays every golden playthrough
//! (`tests/golden/<game>/playthroughs.json`, see `golden.rs`), collects every event the table
//! produced, and compares a SHA-256 of their postcard encoding with the digest recorded below.
//! A second digest covers what each seat, a spectator and the complete history see of those
//! events ([`Table::view_event`], [`Table::reveal_event`], written with `Debug`), so a change in
//! how events are projected shows here too.
//!
//! A digest must only change together with a new session format; never update one to make the
//! test pass.

use deckmate_engine::{
    Game, GameKind, MetaAction, Seat, Seed, Table, TableAction, TableEvent, Viewer, with_game,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Per game: the digest of the full events' postcard bytes, then of their views.
const DIGESTS: [(&str, &str, &str); 5] = [
    (
        "pile_chess",
        "a1a98374042b829761afa5f350d1e621f0edaba47754e41db7503dbd64ed5b46",
        "3af2bb7df0c2467dec0aa57419dec2a6c56612d5bf1ece15eab94c3ebbea40dc",
    ),
    (
        "card_chess",
        "80f8da589e928f3801027f70b3ae3b91a2013adaa899e82c7a621698b50fcbe8",
        "929d8491bb6d335e45be39f82ec24664cd5e0f4d8838d3379a0ba5fbba17b344",
    ),
    (
        "chuno",
        "b026069a3a42ade7072201cf245525ea222c16e99629e765219efa44d89e994d",
        "27129d22c425b43b7dcdf73df587326198b1ca9dc97d9524537995409507f3e6",
    ),
    (
        "pigeon_chess",
        "712ada28d2c2660911806e0d850c68d61121ba54ab90db7187febd054c5cdf9d",
        "d86812fe0825f1cd35e97bfa9874c62105ee8cd7186ff772e9149792368dfa26",
    ),
    (
        "raindrop_chess",
        "bbd7d78061e95112c61bb891bb79a82ee22d912b6169bcd0441f83080f0a2df6",
        "1ec0e62ae48193a410638462269bd353abc51c9f3de4ff8e7cc735983c813f02",
    ),
];

#[test]
fn stored_events_and_their_views_keep_their_encoding() {
    let mut mismatches = Vec::new();
    for kind in GameKind::ALL {
        let (id, encoding, views) = with_game!(*kind, G => digests::<G>());
        let (_, expected_encoding, expected_views) = DIGESTS
            .iter()
            .find(|(game, _, _)| *game == id)
            .unwrap_or_else(|| panic!("no digests recorded for {id}"));
        if encoding != *expected_encoding || views != *expected_views {
            mismatches.push(format!("(\"{id}\", \"{encoding}\", \"{views}\")"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "event encodings or views changed:\n{}",
        mismatches.join("\n")
    );
}

/// The game's id and the two digests over all its golden playthroughs.
fn digests<G: Game>() -> (&'static str, String, String) {
    let path = format!(
        "{}/tests/golden/{}/playthroughs.json",
        env!("CARGO_MANIFEST_DIR"),
        G::ID
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"));
    let mut encoding = Sha256::new();
    let mut views = Sha256::new();
    for playthrough in file["playthroughs"]
        .as_array()
        .expect("a list of playthroughs")
    {
        let (seats, events) = events_of::<G>(playthrough);
        let bytes = postcard::to_allocvec(&events).expect("events encode");
        let decoded: Vec<TableEvent<G::Event>> =
            postcard::from_bytes(&bytes).expect("events decode");
        assert!(decoded == events, "{}: events do not round-trip", G::ID);
        encoding.update(&bytes);
        for event in &events {
            let mut seen: Vec<String> = (0..seats)
                .map(|seat| Viewer::Seat(Seat(seat as u8)))
                .chain([Viewer::Spectator])
                .map(|viewer| format!("{:?}", Table::<G>::view_event(event, viewer)))
                .collect();
            seen.push(format!("{:?}", Table::<G>::reveal_event(event)));
            views.update(seen.join("\n").as_bytes());
            views.update(b"\n\n");
        }
    }
    (G::ID, hex(&encoding.finalize()), hex(&views.finalize()))
}

/// The seat count and every table event of one recorded playthrough, setup first.
fn events_of<G: Game>(playthrough: &Value) -> (usize, Vec<TableEvent<G::Event>>) {
    let config: G::Config =
        serde_json::from_value(playthrough["config"].clone()).expect("the recorded config");
    let seats = playthrough["seats"].as_u64().expect("a seat count") as usize;
    let seed = Seed::from_u64(playthrough["seed"].as_u64().expect("a seed"));
    let (mut table, mut events) = Table::<G>::new(&config, seats, seed).expect("setup");
    let steps = playthrough["steps"].as_array().expect("recorded steps");
    for step in steps.iter().skip(1) {
        let seat = Seat(step["seat"].as_u64().expect("the acting seat") as u8);
        let text = step["action"].as_str().expect("the action's notation");
        let action = recorded_action(&table, seat, text);
        events.extend(
            table
                .apply(seat, &action)
                .expect("a recorded action applies"),
        );
    }
    (seats, events)
}

/// The meta action or the listed game action that `text` names.
fn recorded_action<G: Game>(table: &Table<G>, seat: Seat, text: &str) -> TableAction<G::Action> {
    let meta = match text {
        "resign" => Some(MetaAction::Resign),
        "offer draw" => Some(MetaAction::OfferDraw),
        "accept draw" => Some(MetaAction::AcceptDraw),
        "decline draw" => Some(MetaAction::DeclineDraw),
        _ => None,
    };
    meta.map(TableAction::Meta).unwrap_or_else(|| {
        let action = table
            .legal_actions(seat)
            .into_iter()
            .find(|action| action.to_string() == text)
            .unwrap_or_else(|| panic!("{}: {seat} cannot play {text:?}", G::ID));
        TableAction::Game(action)
    })
}

/// Lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
