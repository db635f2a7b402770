//! How good a Raindropchess position is for one seat, for bots ([`crate::Game::evaluate`]).
//!
//! The game is won by checkmate (§6), so material decides most: every piece of the army counts,
//! on the board or still in the deck (§1: a piece enters play only when its card is flipped, and
//! a captured one is gone). Standing in check costs a little (§4: the answer is forced), and a
//! King not yet on the board cannot move or capture (§3).

use super::state::{State, colour_of, seats};
use crate::bots::side_against_side;
use crate::chess::Role;
use crate::seat::Seat;

/// Being in check, in pawns.
const IN_CHECK: f32 = 0.8;
/// A King still in the deck: the side can only flip.
const KING_IN_DECK: f32 = 0.5;
/// The advantage that gives about 0.76, in pawns.
const SCALE: f32 = 6.0;

/// The value of `state` for `seat` in `[0, 1]`.
pub(crate) fn evaluate(state: &State, seat: Seat) -> f32 {
    side_against_side(state.outcome.as_ref(), seat, seats(), SCALE, |side| {
        let colour = colour_of(side);
        let on_board: f32 = Role::ALL
            .iter()
            .map(|role| value(*role) * state.position.pieces(colour, *role).count() as f32)
            .sum();
        let in_deck: f32 = state.decks[side.index()]
            .iter()
            .filter_map(|card| card.role())
            .map(value)
            .sum();
        let mut total = on_board + in_deck;
        if state.position.in_check(colour) {
            total -= IN_CHECK;
        }
        if state.position.king(colour).is_none() {
            total -= KING_IN_DECK;
        }
        total
    })
}

/// A piece's value in pawns (the King counts nothing: it is never captured, §4).
fn value(role: Role) -> f32 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight | Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}
