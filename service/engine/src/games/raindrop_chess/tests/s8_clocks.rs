//! §8.23 timeouts and mating material: a timeout loses unless the opponent could never win, and
//! then it is a draw.

use super::super::{Action, Card, RaindropChess, Stage};
use super::support::{play, position_state};
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::{time_out, time_out_refused};
use crate::seat::{Seat, SeatSet};
use crate::table::Table;

#[test]
fn s8_23_a_timeout_against_a_lone_king_is_a_draw() {
    // Black has its King alone and nothing left in its deck; White still has a card to flip.
    let pieces = ["Ka1", "Qd1", "kh8"];
    let decks = || [vec![Card::Pawn], vec![]];
    let state = position_state(&pieces, decks(), Seat(0));
    assert!(RaindropChess::can_win(&state, Seat(0)));
    assert!(!RaindropChess::can_win(&state, Seat(1)));
    let mut table = Table::<RaindropChess>::from_state(state);
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(0)));
    time_out_refused(&table, 1);
    time_out(&mut table, 0);
    assert_eq!(table.outcome(), Some(Outcome::draw(EndReason::Timeout)));
    // The other way round, the side with mating material wins on time.
    let mut table = Table::<RaindropChess>::from_state(position_state(&pieces, decks(), Seat(1)));
    time_out(&mut table, 1);
    assert_eq!(
        table.outcome(),
        Some(Outcome::win(Seat(0), EndReason::Timeout))
    );
}

#[test]
fn s8_23_material_still_in_the_deck_counts_and_a_king_card_does_not() {
    // Black has not placed its King yet: a deck holding only the King card cannot mate.
    let state = position_state(&["Ka1", "Qd1"], [vec![], vec![Card::King]], Seat(0));
    assert!(!RaindropChess::can_win(&state, Seat(1)));
    let state = position_state(
        &["Ka1", "Qd1"],
        [vec![], vec![Card::King, Card::Knight]],
        Seat(0),
    );
    assert!(RaindropChess::can_win(&state, Seat(1)));
    // A joker is no material.
    let state = position_state(
        &["Ka1", "Qd1", "kh8"],
        [vec![], vec![Card::Joker]],
        Seat(0),
    );
    assert!(!RaindropChess::can_win(&state, Seat(1)));
}

#[test]
fn s8_23_dead_material_leaves_neither_side_a_win_but_help_mate_material_counts() {
    // King and Knight against King, decks empty: the position is dead (§8.19).
    let state = position_state(&["Ka1", "Nb1", "kh8"], [vec![], vec![]], Seat(0));
    assert!(!RaindropChess::can_win(&state, Seat(0)));
    assert!(!RaindropChess::can_win(&state, Seat(1)));
    // With a black pawn on the board, White's Knight might mate with Black's help.
    let state = position_state(&["Ka1", "Nb1", "kh8", "pa6"], [vec![], vec![]], Seat(0));
    assert_eq!(state.outcome, None);
    assert!(RaindropChess::can_win(&state, Seat(0)));
    assert!(RaindropChess::can_win(&state, Seat(1)));
}

#[test]
fn s8_23_a_flipped_card_waiting_to_be_placed_counts() {
    // White flips its last card, a Queen; before it is placed, both decks are empty and only
    // the Kings stand on the board, yet White still has mating material.
    let mut state = position_state(&["Ka1", "kh8"], [vec![Card::Queen], vec![]], Seat(0));
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(state.stage, Stage::Place(Card::Queen));
    assert!(state.decks.iter().all(Vec::is_empty));
    assert!(RaindropChess::can_win(&state, Seat(0)));
    assert!(!RaindropChess::can_win(&state, Seat(1)));
    // White runs out of time while placing: Black could never mate, so it is a draw.
    let mut table = Table::<RaindropChess>::from_state(state);
    time_out(&mut table, 0);
    assert_eq!(table.outcome(), Some(Outcome::draw(EndReason::Timeout)));
}
