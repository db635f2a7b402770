//! §6 the CHUNO call: the obligation, the call accepted out of turn, the 2-card penalty when the
//! opponent acts first, and no penalty once the game has ended.

use super::super::Colour::Red;
use super::super::{Chuno, DrawReason, Event, State};
use super::support::*;
use crate::game::{EndReason, Game, Outcome, PlayError};
use crate::games::testing::{time_out, time_out_refused};
use crate::seat::{Seat, SeatSet};
use crate::table::{MetaAction, Table, TableAction, TableEvent};

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2", "G2", "Y1"];

/// Seat 0 plays R1 from a hand of two and ends its turn: its call is pending in seat 1's turn.
fn obliged() -> State {
    let mut state = table(0, [&["R1", "B1"], &["R2", "G1", "Y1"]], "R0", Red, DECK);
    let events = act(&mut state, 0, "play R1");
    assert!(events.contains(&Event::ChunoObliged { seat: Seat(0) }));
    act(&mut state, 0, "end");
    state
}

#[test]
fn s6_one_card_left_starts_an_obligation_and_the_call_is_listed_out_of_turn() {
    let state = obliged();
    assert_eq!(state.current, Seat(1));
    assert_eq!(state.chuno, Some(Seat(0)));
    assert_eq!(Chuno::to_act(&state), SeatSet::first(2));
    assert_eq!(listed(&state, 0), ["chuno"]);
    assert!(!lists(&state, 1, "chuno"));
    let observation = Chuno::observe(&state, crate::seat::Viewer::Spectator);
    assert_eq!(observation.chuno_pending, Some(Seat(0)));
}

#[test]
fn s6_a_seat_owing_the_call_is_not_on_the_clock() {
    // §9.26: both seats may act, but only the one whose turn it is runs its clock.
    let state = obliged();
    assert_eq!(Chuno::to_act(&state), SeatSet::first(2));
    assert_eq!(Chuno::clock_seats(&state), SeatSet::only(Seat(1)));
    let mut table = Table::<Chuno>::from_state(state);
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(1)));
    time_out_refused(&table, 0);
    // The player to move runs out of time: the opponent wins, and the call owed costs nothing.
    let events = time_out(&mut table, 1);
    let outcome = Outcome::win(Seat(0), EndReason::Timeout);
    assert_eq!(events.last(), Some(&TableEvent::Ended(outcome.clone())));
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(table.outcome(), Some(outcome));
    assert_eq!(table.state().hands[0].len(), 1);
    assert_eq!(table.clock_seats(), SeatSet::EMPTY);
}

#[test]
fn s6_a_call_out_of_turn_is_accepted_and_spares_the_penalty() {
    let mut state = obliged();
    let events = act(&mut state, 0, "chuno");
    assert_eq!(events, [Event::ChunoCalled { seat: Seat(0) }]);
    assert_eq!(state.chuno, None);
    assert_eq!(Chuno::to_act(&state), SeatSet::only(Seat(1)));
    act(&mut state, 1, "draw");
    assert_eq!(state.hands[0].len(), 1);
    // Outside its turn and with nothing to call, seat 0 may not act.
    let mut copy = state.clone();
    copy.current = Seat(1);
    assert_eq!(
        Chuno::apply(&mut copy, Seat(0), &action("chuno")),
        Err(PlayError::NotYourTurn)
    );
}

#[test]
fn s6_the_opponents_next_action_first_gives_two_penalty_cards() {
    let mut state = obliged();
    let events = act(&mut state, 1, "play R2");
    assert_eq!(events[0], Event::ChunoMissed { seat: Seat(0) });
    assert!(matches!(
        &events[1],
        Event::CardsDrawn { seat: Seat(0), cards, reason: DrawReason::Penalty } if cards.len() == 2
    ));
    assert!(matches!(events[2], Event::CardPlayed { seat: Seat(1), .. }));
    assert_eq!(state.hands[0].len(), 3);
    assert_eq!(state.chuno, None);
    assert!(!lists(&state, 0, "chuno"));
}

#[test]
fn s6_only_the_obliged_seat_acts_out_of_turn_and_only_to_call() {
    let state = obliged();
    let message = rejected(&state, 0, "draw");
    assert!(message.contains("only call CHUNO"), "{message}");
    let mut copy = state.clone();
    copy.chuno = None;
    assert_eq!(
        Chuno::apply(&mut copy, Seat(0), &action("draw")),
        Err(PlayError::NotYourTurn)
    );
    assert!(rejected(&state, 1, "chuno").contains("no CHUNO call"));
}

#[test]
fn s6_the_penalty_applies_even_after_the_hand_changed_size() {
    // A Skip leaves seat 0 with one card and another turn, in which it draws.
    let mut state = table(0, [&["RS", "B1"], &["R2", "G1"]], "R0", Red, DECK);
    act(&mut state, 0, "play RS");
    assert_eq!((state.current, state.chuno), (Seat(0), Some(Seat(0))));
    act(&mut state, 0, "draw");
    assert_eq!(state.hands[0].len(), 2);
    assert_eq!(
        state.chuno,
        Some(Seat(0)),
        "its own actions keep the window open"
    );
    act(&mut state, 1, "draw");
    assert_eq!(state.hands[0].len(), 4);
}

#[test]
fn s6_no_penalty_when_the_game_ends_first() {
    let state = table(0, [&["R2", "B1"], &["R2", "G1"]], "R0", Red, DECK);
    let mut state = with_fen(state, "4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1");
    act(&mut state, 0, "play R2");
    assert_eq!(state.chuno, Some(Seat(0)));
    act(&mut state, 0, "e1e8");
    assert!(Chuno::outcome(&state).is_some());
    assert_eq!(state.chuno, None);
    assert_eq!(state.hands[0].len(), 1);
}

#[test]
fn s6_meta_actions_of_the_opponent_close_the_window_too() {
    for meta in [MetaAction::OfferDraw, MetaAction::Resign] {
        let mut table = Table::<Chuno>::from_state(obliged());
        let events = table.apply(Seat(1), &TableAction::Meta(meta)).unwrap();
        assert_eq!(
            events[0],
            TableEvent::Game(Event::ChunoMissed { seat: Seat(0) }),
            "{meta:?}"
        );
        assert_eq!(table.state().hands[0].len(), 3, "{meta:?}");
    }
    // The obliged seat's own offer leaves the window open.
    let mut table = Table::<Chuno>::from_state(obliged());
    let events = table
        .apply(Seat(0), &TableAction::Meta(MetaAction::OfferDraw))
        .unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(table.state().chuno, Some(Seat(0)));
    assert_eq!(table.state().draw_offer, Some(Seat(0)));
    // Declining it is the opponent's action: the penalty comes first.
    let events = table
        .apply(Seat(1), &TableAction::Meta(MetaAction::DeclineDraw))
        .unwrap();
    assert_eq!(
        events[0],
        TableEvent::Game(Event::ChunoMissed { seat: Seat(0) })
    );
    assert_eq!(table.state().draw_offer, None);
}
