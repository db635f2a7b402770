//! How good a CHUNO position is for one seat, for bots ([`crate::Game::evaluate`]).
//!
//! Two ways to win (§7): empty the hand, or capture the enemy King. So the hand sizes weigh most;
//! then the chess material, and a King that stands attacked, which with no check (§5) the
//! opponent may simply take. A pending CHUNO call of the seat (§6) costs two cards if the
//! opponent acts first.

use super::state::{State, colour_of, seats};
use crate::bots::side_against_side;
use crate::chess::{Color, Position, Role};
use crate::seat::Seat;

/// One card fewer in hand than the opponent, in advantage units.
const CARD: f32 = 0.8;
/// One pawn of material.
const PAWN: f32 = 0.25;
/// Own King attacked by the opponent: it may be taken next.
const KING_ATTACKED: f32 = 2.5;
/// The opponent's King attacked by the seat.
const KING_THREAT: f32 = 1.2;
/// An open CHUNO call of the seat: two penalty cards, half the time.
const OPEN_CALL: f32 = 0.8;
/// The advantage that gives about 0.76.
const SCALE: f32 = 4.0;

/// The value of `state` for `seat` in `[0, 1]`.
pub(crate) fn evaluate(state: &State, seat: Seat) -> f32 {
    side_against_side(state.outcome.as_ref(), seat, seats(), SCALE, |side| {
        let colour = colour_of(side);
        let mut value = -CARD * state.hands[side.index()].len() as f32
            + PAWN * material(&state.position, colour);
        if king_attacked(&state.position, colour) {
            value -= if side == seat {
                KING_ATTACKED
            } else {
                KING_THREAT
            };
        }
        if state.chuno == Some(side) {
            value -= OPEN_CALL;
        }
        value
    })
}

/// `colour`'s chess material in pawns (P 1, N 3, B 3, R 5, Q 9).
fn material(position: &Position, colour: Color) -> f32 {
    [
        (Role::Pawn, 1.0),
        (Role::Knight, 3.0),
        (Role::Bishop, 3.0),
        (Role::Rook, 5.0),
        (Role::Queen, 9.0),
    ]
    .iter()
    .map(|(role, value)| value * position.pieces(colour, *role).count() as f32)
    .sum()
}

/// Whether `colour`'s King stands where the other side attacks it.
fn king_attacked(position: &Position, colour: Color) -> bool {
    position
        .king(colour)
        .is_some_and(|square| position.is_attacked(square, colour.other()))
}
