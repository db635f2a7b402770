//! §4 end of game and scoring: King loss, stalemate by captured value, resignation.

use super::super::{Config, PileChess};
use super::support::*;
use crate::game::{EndReason, Game};
use crate::seat::{Seat, SeatSet};
use crate::table::{MetaAction, Table, TableAction};

/// A two-player position where the round's end brings a third shortfall for seat 0.
fn stalemate_with(captured: [Vec<super::super::Card>; 2]) -> super::super::State {
    let mut state = table(&ffa(), 2, &[], 0);
    state.players[0].reshuffles = 2;
    set_deck(&mut state, 0, &[]);
    state.captured = captured.to_vec();
    pass_all(&mut state, &[0, 1]);
    state
}

#[test]
fn s4_a_stalemate_is_won_by_the_higher_captured_value() {
    let state = stalemate_with([vec![c(1, R)], vec![c(0, N), c(0, P), c(0, P), c(0, P)]]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.reason, EndReason::OutOfCards);
    assert_eq!(outcome.scores, vec![5, 6]);
    assert_eq!(outcome.winners, SeatSet::only(Seat(1)));
}

#[test]
fn s4_equal_stalemate_scores_draw() {
    let state = stalemate_with([vec![c(1, R)], vec![c(0, N), c(0, P), c(0, P)]]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.scores, vec![5, 5]);
    assert!(outcome.is_draw());
}

#[test]
fn s4_the_player_whose_king_is_captured_loses_even_when_ahead_on_captures() {
    let mut state = table(&ffa(), 2, &[&[c(0, K), c(1, R)], &[]], 0);
    state.captured[0] = vec![c(1, Q), c(1, Q), c(1, R)];
    pass_all(&mut state, &[0, 1]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(1)));
    assert_eq!(outcome.reason, EndReason::KingCaptured);
}

#[test]
fn s4_a_player_may_resign_at_any_time_and_with_two_seats_the_other_wins() {
    let (mut table, _) =
        Table::<PileChess>::new(&Config::default(), 2, crate::rng::Seed::from_u64(4)).unwrap();
    // Seat 1 is not to act, and may still resign.
    assert!(!table.to_act().contains(Seat(1)));
    assert!(table.meta_actions(Seat(1)).contains(&MetaAction::Resign));
    table
        .apply(Seat(1), &TableAction::Meta(MetaAction::Resign))
        .expect("resignation is always possible");
    let outcome = table.outcome().expect("over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(0)));
    assert_eq!(outcome.reason, EndReason::Resignation);
}
