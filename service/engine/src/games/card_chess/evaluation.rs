//! How good a Card Chess position is for one seat, for bots ([`crate::Game::evaluate`]).
//!
//! The game is won by five checks (§6), so checks weigh most. Next come the pieces in play:
//! how far each has come towards the opponent's castle (where it would be in check, §3) and how
//! much it can capture (§5: an Ace takes anything, a face card any face card or Pawn, a Pawn only
//! a lower or equal Pawn). Cards of the seat's colour in hand are pieces it can still play in
//! (§3.A).

use super::spot::Spot;
use super::state::{State, colour_of, forward, owner_of, seats};
use crate::bots::side_against_side;
use crate::cards::{Card, Rank};
use crate::seat::Seat;

/// A check in advantage units: one is worth more than any single piece's progress.
const CHECK: f32 = 3.0;
/// Reaching the far castle from the own castle (four ranks) is worth this much.
const PROGRESS: f32 = 1.2;
/// A piece's capturing power, scaled by [`strength`].
const MATERIAL: f32 = 0.6;
/// A card of the own colour in hand (a piece that can still be played in).
const IN_HAND: f32 = 0.15;
/// The advantage that gives about 0.76.
const SCALE: f32 = 5.0;

/// The value of `state` for `seat` in `[0, 1]`.
pub(crate) fn evaluate(state: &State, seat: Seat) -> f32 {
    side_against_side(state.outcome.as_ref(), seat, seats(), SCALE, |side| {
        side_value(state, side)
    })
}

/// Everything `side` has going for it, in advantage units.
fn side_value(state: &State, side: Seat) -> f32 {
    let mut value = CHECK * state.checks(side) as f32;
    for spot in Spot::all() {
        let here = state.spot(spot);
        let Some(card) = here.piece else { continue };
        if here.in_check || owner_of(card) != side {
            continue;
        }
        value += PROGRESS * progress(spot, side) + MATERIAL * strength(card);
    }
    let colour = colour_of(side);
    let playable = state
        .hand(side)
        .iter()
        .filter(|card| card.colour() == colour)
        .count();
    value + IN_HAND * playable as f32
}

/// How far `spot` is from `side`'s own castle towards the opponent's, from 0 to 1 (§1 ranks).
fn progress(spot: Spot, side: Seat) -> f32 {
    let rank = f32::from(spot.rank().index());
    let ranks = if forward(side) > 0 { rank } else { 4.0 - rank };
    ranks / 4.0
}

/// §5: what a piece can capture, from 0.2 (a Two) to 1.5 (an Ace, which takes anything).
fn strength(card: Card) -> f32 {
    match card.rank {
        Rank::Ace => 1.5,
        rank if rank.is_face() => 1.0,
        rank => f32::from(rank.value()) / 10.0,
    }
}
