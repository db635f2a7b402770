//! Property tests over every game of [`GameKind::ALL`] (docs/RELIABILITY.md, "Property
//! tests"): proptest generates seeds, seat counts, editions, configs within their ranges and
//! the decisions of whole games (listed actions, meta actions and actions of seats that may not
//! take them), and each property is checked after every decision:
//!
//! * conservation: no action creates or destroys a card, and a seat's pieces on the board never
//!   grow from another seat's action (captures only remove them);
//! * versions: every accepted action raises the version (the number of accepted actions) by one
//!   and the turn number never falls; a refused one leaves the table exactly as it was;
//! * replay: replaying the log of accepted actions from the seed gives the live table;
//! * round trip: the table and its state survive JSON and postcard unchanged;
//! * hidden cards: no viewer's observation holds another seat's hidden cards: redrawing what
//!   the viewer cannot see changes other seats' hands but never its observation.
//!
//! `PROPTEST_CASES` sets the games per game kind and property (default [`CASES`]).

use std::cell::RefCell;
use std::collections::BTreeMap;

use deckmate_engine::{Game, GameKind, GameRng, Seat, Table, Viewer, with_game};
use proptest::test_runner::{Config, TestRunner};
use rand::SeedableRng;

mod properties {
    pub(crate) mod inventory;
    pub(crate) mod playout;
}

use properties::inventory::{Inventory, inventory};
use properties::playout::{Scenario, Step, play, scenario};

/// Generated games per game kind and property, unless `PROPTEST_CASES` says otherwise.
const CASES: u32 = 24;

/// Runs `property` on generated scenarios for every game.
fn for_every_game(property: fn(GameKind, &Scenario)) {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(CASES);
    for kind in GameKind::ALL {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&scenario(), |scenario| {
                property(*kind, &scenario);
                Ok(())
            })
            .unwrap_or_else(|error| panic!("{}: {error}", kind.id()));
    }
}

fn inventory_of<G: Game>(table: &Table<G>) -> Inventory {
    let state = serde_json::to_value(table.state()).expect("states serialize");
    inventory(G::ID, &state)
}

#[test]
fn cards_and_pieces_are_conserved() {
    for_every_game(|kind, scenario| with_game!(kind, G => conservation::<G>(scenario)));
}

fn conservation<G: Game>(scenario: &Scenario) {
    let mut dealt: Option<usize> = None;
    play::<G>(scenario, |step: &Step<'_, G>| {
        let before = inventory_of(step.before);
        let after = inventory_of(step.after);
        let cards = *dealt.get_or_insert(before.cards);
        assert_eq!(
            after.cards,
            cards,
            "{}: {:?} changed the number of cards",
            G::ID,
            step.action
        );
        if matches!(step.action, deckmate_engine::TableAction::Game(_)) {
            for (seat, (was, is)) in before.pieces.iter().zip(&after.pieces).enumerate() {
                assert!(
                    seat == step.seat.index() || is <= was,
                    "{}: {:?} of {} added pieces of seat {seat} ({was} to {is})",
                    G::ID,
                    step.action,
                    step.seat
                );
            }
        }
    });
}

#[test]
fn versions_rise_by_one_per_accepted_action() {
    for_every_game(|kind, scenario| with_game!(kind, G => versions::<G>(scenario)));
}

fn versions<G: Game>(scenario: &Scenario) {
    let mut version = 0u64;
    let played = play::<G>(scenario, |step: &Step<'_, G>| {
        assert_eq!(step.version, version);
        assert_eq!(
            step.result.is_ok(),
            step.allowed,
            "{}: {:?} of {}: the contract allows it: {}, the table said {:?}",
            G::ID,
            step.action,
            step.seat,
            step.allowed,
            step.result.as_ref().err()
        );
        if step.result.is_ok() {
            version += 1;
            assert!(
                G::turn_number(step.after.state()) >= G::turn_number(step.before.state()),
                "{}: the turn number fell",
                G::ID
            );
        } else {
            assert!(
                step.after == step.before,
                "{}: a refused action changed the table",
                G::ID
            );
        }
    });
    assert_eq!(played.log.len() as u64, version);
}

#[test]
fn replaying_the_log_gives_the_live_table() {
    for_every_game(|kind, scenario| with_game!(kind, G => replay::<G>(scenario)));
}

fn replay<G: Game>(scenario: &Scenario) {
    let played = play::<G>(scenario, |_: &Step<'_, G>| {});
    let replayed = Table::<G>::replay_in(
        &played.config,
        played.seats,
        played.seed,
        played.edition,
        &played.log,
    )
    .unwrap_or_else(|error| panic!("{}: the log does not replay: {error}", G::ID));
    assert!(
        replayed == played.table,
        "{}: the replay differs from the live table",
        G::ID
    );
    let half = played.log.len() / 2;
    let mut partial = Table::<G>::replay_in(
        &played.config,
        played.seats,
        played.seed,
        played.edition,
        &played.log[..half],
    )
    .expect("a prefix of the log replays");
    for (seat, action) in &played.log[half..] {
        partial
            .apply(*seat, action)
            .expect("the rest of the log applies");
    }
    assert!(
        partial == played.table,
        "{}: replay then live play differs",
        G::ID
    );
}

#[test]
fn tables_and_states_round_trip() {
    for_every_game(|kind, scenario| with_game!(kind, G => round_trip::<G>(scenario)));
}

fn round_trip<G: Game>(scenario: &Scenario) {
    play::<G>(scenario, |step: &Step<'_, G>| {
        let table = step.after;
        let json = serde_json::to_string(table).expect("tables serialize");
        let back: Table<G> = serde_json::from_str(&json).expect("tables deserialize");
        assert!(back == *table, "{}: the table changed through JSON", G::ID);
        let bytes = postcard::to_allocvec(table).expect("tables serialize");
        let back: Table<G> = postcard::from_bytes(&bytes).expect("tables deserialize");
        assert!(
            back == *table,
            "{}: the table changed through postcard",
            G::ID
        );
        let state = postcard::to_allocvec(table.state()).expect("states serialize");
        let back: G::State = postcard::from_bytes(&state).expect("states deserialize");
        assert!(
            back == *table.state(),
            "{}: the state changed through postcard",
            G::ID
        );
    });
}

#[test]
fn observations_hold_no_other_seats_hidden_cards() {
    for_every_game(|kind, scenario| with_game!(kind, G => hidden_cards::<G>(scenario)));
    REDRAWN.with(|redrawn| {
        for (game, (hidden, changed)) in redrawn.borrow().iter() {
            assert!(
                *hidden == 0 || *changed > 0,
                "{game}: redrawing never changed another seat's hidden hand, so the property \
                 proved nothing"
            );
        }
    });
}

thread_local! {
    /// By game: resamples where another seat held hidden cards, and those that changed them.
    static REDRAWN: RefCell<BTreeMap<&'static str, (usize, usize)>> =
        const { RefCell::new(BTreeMap::new()) };
}

fn hidden_cards<G: Game>(scenario: &Scenario) {
    let mut rng = GameRng::seed_from_u64(scenario.seed);
    play::<G>(scenario, |step: &Step<'_, G>| {
        let table = step.after;
        let state = table.state();
        let seats = table.seat_count();
        let hands = inventory_of(table).hands;
        let viewers = (0..seats)
            .map(|seat| Viewer::Seat(Seat(seat as u8)))
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            let seen = G::observe(state, viewer);
            let other = G::resample(state, viewer, &mut rng);
            assert!(
                G::observe(&other, viewer) == seen,
                "{}: the observation of {viewer:?} depends on what it cannot see",
                G::ID
            );
            let other_hands = inventory(
                G::ID,
                &serde_json::to_value(&other).expect("states serialize"),
            )
            .hands;
            let others = |seat: &usize| !viewer.is(Seat(*seat as u8));
            let hidden = (0..hands.len())
                .filter(others)
                .any(|seat| !hands[seat].is_empty());
            let changed = (0..hands.len())
                .filter(others)
                .any(|seat| hands[seat] != other_hands[seat]);
            REDRAWN.with(|redrawn| {
                let mut redrawn = redrawn.borrow_mut();
                let entry = redrawn.entry(G::ID).or_default();
                entry.0 += usize::from(hidden);
                entry.1 += usize::from(changed);
            });
        }
    });
}
