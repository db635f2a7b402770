//! §14 games created under edition 1 keep the first release's rules: the deadlock draw is
//! reported as `NoLegalAction`, a CHUNO call declines a draw offer made to the caller, and draw
//! offers follow the first edition's table rules.

use super::super::Colour::Red;
use super::super::{Chuno, Config, Event, State};
use super::support::*;
use crate::edition::Edition;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::meta;
use crate::rng::Seed;
use crate::seat::{Seat, Viewer};
use crate::table::{MetaAction, MetaEvent, TableAction, TableEvent};

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2"];

#[test]
fn s14_new_games_are_dealt_under_the_latest_edition_and_old_ones_keep_theirs() {
    let (state, _) = new_game(1);
    assert_eq!(state.edition, Edition::LATEST);
    let (first, _) =
        Chuno::new_game_in(&Config::default(), 2, Seed::from_u64(1), Edition::FIRST).unwrap();
    assert_eq!(first.edition, Edition::FIRST);
    // Same deal, different rules.
    assert_eq!((first.deck, first.hands), (state.deck, state.hands));
}

#[test]
fn s14_1_under_edition_1_a_deadlock_is_reported_as_no_legal_action() {
    let mut state = table(0, [&["B1", "B0"], &["G0", "B1"]], "R2", Red, &[]);
    state.discard = cards(&["Y1", "R2"]);
    state.edition = Edition::FIRST;
    act(&mut state, 0, "draw");
    assert_eq!(
        Chuno::outcome(&state),
        Some(Outcome::draw(EndReason::NoLegalAction))
    );
    assert!(Chuno::to_act(&state).is_empty());
}

/// Seat 0 plays R1 from a hand of two and ends its turn: in seat 1's turn, seat 0 owes its call.
fn call_owed_out_of_turn() -> State {
    let mut state = table(0, [&["R1", "B1"], &["R2", "G1", "G2"]], "R0", Red, DECK);
    act(&mut state, 0, "play R1");
    act(&mut state, 0, "end");
    state
}

#[test]
fn s14_2_under_edition_1_a_chuno_call_by_the_offeree_declined_the_draw_offer() {
    let mut table = table_with(call_owed_out_of_turn(), Edition::FIRST, Some(Seat(1)));
    let events = table
        .apply(Seat(0), &TableAction::Game(action("chuno")))
        .unwrap();
    assert_eq!(
        events,
        [
            TableEvent::Game(Event::ChunoCalled { seat: Seat(0) }),
            TableEvent::Meta(MetaEvent::DrawDeclined(Seat(0))),
        ]
    );
    assert_eq!(table.draw_offer(), None);
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        assert_eq!(table.observe(viewer).draw_offered_by, None, "{viewer:?}");
    }
    // Edition 1's table: the declined seat may not offer again before a game action of its own.
    assert!(!table.meta_actions(Seat(1)).contains(&MetaAction::OfferDraw));
    table
        .apply(Seat(1), &TableAction::Game(action("draw")))
        .unwrap();
    assert!(table.meta_actions(Seat(1)).contains(&MetaAction::OfferDraw));
}

#[test]
fn s14_3_under_edition_1_offers_are_not_limited_to_one_per_turn() {
    let mut state = table(0, [&["R2", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    state.edition = Edition::FIRST;
    let mut table = table_with(state, Edition::FIRST, None);
    meta(&mut table, 0, MetaAction::OfferDraw);
    table
        .apply(Seat(1), &TableAction::Meta(MetaAction::DeclineDraw))
        .unwrap();
    table
        .apply(Seat(0), &TableAction::Game(action("play R2")))
        .unwrap();
    // Within the same turn, after a game action of its own, the seat offers again.
    assert_eq!(Chuno::turn_number(table.state()), 1);
    assert!(table.meta_actions(Seat(0)).contains(&MetaAction::OfferDraw));
    meta(&mut table, 0, MetaAction::OfferDraw);
    assert_eq!(
        table.observe(Viewer::Spectator).draw_offered_by,
        Some(Seat(0))
    );
}
