//! §7.16 clocks and timeouts: both seats on the clock during the simultaneous setup, a timeout
//! ending the game, and a draw when the other seat could no longer outscore the one that ran out
//! of time.

use super::super::{Config, PigeonChess};
use super::support::*;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::{time_out, time_out_refused};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet};
use crate::table::{Table, TableAction, TableEvent};

/// A new game at its first setup step.
fn new_table() -> Table<PigeonChess> {
    Table::new(&Config::default(), 2, Seed::from_u64(1))
        .expect("default config")
        .0
}

#[test]
fn s7_16_both_seats_are_on_the_clock_during_setup() {
    for seat in 0..2 {
        let mut table = new_table();
        assert_eq!(table.clock_seats(), SeatSet::first(2));
        let events = time_out(&mut table, seat);
        let outcome = Outcome::win(Seat(1 - seat), EndReason::Timeout);
        assert_eq!(events.last(), Some(&TableEvent::Ended(outcome.clone())));
        assert_eq!(table.outcome(), Some(outcome));
    }
}

#[test]
fn s7_16_a_seat_that_has_chosen_is_off_the_clock_until_the_step_resolves() {
    let mut table = new_table();
    let row = table.legal_actions(Seat(0))[0];
    table.apply(Seat(0), &TableAction::Game(row)).unwrap();
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(1)));
    time_out_refused(&table, 0);
    time_out(&mut table, 1);
    assert_eq!(
        table.outcome(),
        Some(Outcome::win(Seat(0), EndReason::Timeout))
    );
}

#[test]
fn s7_16_a_timeout_is_a_draw_when_the_other_seat_can_no_longer_outscore() {
    // Seat 0 has one Knight left and lost its King; seat 1, to move, has one Rook and 5 points.
    // At best seat 0 takes the Rook: 1 point, not more than 5.
    let mut state = position(1, &[up("a1", 0, N), up("c4", 1, R)]);
    state.king_attacked[0] = true;
    state.point_piles[1] = vec![P; 5];
    assert!(!PigeonChess::can_win(&state, Seat(0)));
    assert!(PigeonChess::can_win(&state, Seat(1)));
    let mut table = Table::<PigeonChess>::from_state(state.clone());
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(1)));
    time_out(&mut table, 1);
    assert_eq!(table.outcome(), Some(Outcome::draw(EndReason::Timeout)));
    // With 5 points of its own, taking the Rook would put seat 0 ahead: the timeout wins.
    state.point_piles[0] = vec![P; 5];
    assert!(PigeonChess::can_win(&state, Seat(0)));
    let mut table = Table::<PigeonChess>::from_state(state);
    time_out(&mut table, 1);
    assert_eq!(
        table.outcome(),
        Some(Outcome::win(Seat(0), EndReason::Timeout))
    );
}
