//! How good a Pigeon Chess position is for one seat, for bots ([`crate::Game::evaluate`]).
//!
//! The game is decided by score (§4): the point pile plus 3 for a King never attacked, which
//! [`State::score`] counts. Cards still on the grid or in hand are future points and the means
//! to stay in the game (§5(d)), so they count a little too.

use super::state::{State, hand_size, seats};
use crate::bots::side_against_side;
use crate::seat::Seat;

/// A card still on the grid or in hand, against a point already scored.
const CARD: f32 = 0.2;
/// The advantage that gives about 0.76.
const SCALE: f32 = 3.0;

/// The value of `state` for `seat` in `[0, 1]`.
pub(crate) fn evaluate(state: &State, seat: Seat) -> f32 {
    side_against_side(state.outcome.as_ref(), seat, seats(), SCALE, |side| {
        let cards = state.board_count(side) + hand_size(&state.hands[side.index()]);
        state.score(side) as f32 + CARD * cards as f32
    })
}
