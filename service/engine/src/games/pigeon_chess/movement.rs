//! §3 movement table: where a face-up card may move or attack.
//!
//! Every piece is blocked by any card, face up or face down, except the Knight, which jumps
//! (§3). A destination is open when it is empty, or holds a face-up card of the opponent (an
//! attack). Face-down cards can never be attacked, passed through or landed on, and a seat never
//! attacks its own cards (§3, §7.6).

use super::piece::{Role, Spot};
use super::state::{State, forward};
use crate::chess::{BISHOP_DIRECTIONS, KNIGHT_STEPS, ROOK_DIRECTIONS};
use crate::games::inline::InlineList;
use crate::seat::Seat;

/// The destinations of one card: distinct spots other than its own, so at most 11.
pub(crate) type Destinations = InlineList<Spot, 11>;

/// What stands on a destination, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Nothing: a plain move.
    Empty,
    /// A face-up card of the opponent: an attack.
    Enemy,
    /// A face-down card or an own card: not enterable.
    Blocked,
}

fn target(state: &State, seat: Seat, spot: Spot) -> Target {
    match state.card(spot) {
        None => Target::Empty,
        Some(card) if card.owner != seat && !card.face_down => Target::Enemy,
        Some(_) => Target::Blocked,
    }
}

/// Every spot the face-up card of `seat` on `from` may move to or attack, in a fixed order.
/// Empty when `from` holds no face-up card of `seat`.
pub(crate) fn destinations(state: &State, seat: Seat, from: Spot) -> Destinations {
    let mut out = Destinations::new(from);
    destinations_into(state, seat, from, &mut out);
    out
}

/// [`destinations`] into `out`, which is emptied first: listing every card's destinations
/// reuses one list, and most spots, holding no face-up card of the seat, leave it empty at once.
pub(crate) fn destinations_into(state: &State, seat: Seat, from: Spot, out: &mut Destinations) {
    out.clear();
    let Some(card) = state.card(from) else {
        return;
    };
    if card.owner != seat || card.face_down {
        return;
    }
    match card.piece {
        Role::Pawn => pawn(state, seat, from, out),
        Role::Knight => steps(state, seat, from, &KNIGHT_STEPS, out),
        Role::Bishop => slides(state, seat, from, &BISHOP_DIRECTIONS, out),
        Role::Rook => slides(state, seat, from, &ROOK_DIRECTIONS, out),
        Role::Queen => {
            slides(state, seat, from, &ROOK_DIRECTIONS, out);
            slides(state, seat, from, &BISHOP_DIRECTIONS, out);
        }
        Role::King => {
            steps(state, seat, from, &ROOK_DIRECTIONS, out);
            steps(state, seat, from, &BISHOP_DIRECTIONS, out);
        }
    }
}

/// Whether `seat` has any move or attack at all (cheaper than listing them).
pub(crate) fn has_any_move(state: &State, seat: Seat) -> bool {
    let mut out = Destinations::new(Spot::FIRST);
    Spot::all().any(|from| {
        destinations_into(state, seat, from, &mut out);
        !out.is_empty()
    })
}

/// Pawn: one step straight forward into an empty spot, or one step diagonally forward onto a
/// face-up enemy card; never two steps (§3).
fn pawn(state: &State, seat: Seat, from: Spot, out: &mut Destinations) {
    let ahead = forward(seat);
    if let Some(spot) = from.offset(0, ahead)
        && target(state, seat, spot) == Target::Empty
    {
        out.push(spot);
    }
    for side in [-1, 1] {
        if let Some(spot) = from.offset(side, ahead)
            && target(state, seat, spot) == Target::Enemy
        {
            out.push(spot);
        }
    }
}

/// Single steps (King) or jumps (Knight): nothing in between matters.
fn steps(state: &State, seat: Seat, from: Spot, deltas: &[(i8, i8)], out: &mut Destinations) {
    for (dc, dr) in deltas {
        if let Some(spot) = from.offset(*dc, *dr)
            && target(state, seat, spot) != Target::Blocked
        {
            out.push(spot);
        }
    }
}

/// Any distance along each direction, stopping at the first card: an enemy face-up card there
/// may be attacked, anything else blocks.
fn slides(state: &State, seat: Seat, from: Spot, directions: &[(i8, i8)], out: &mut Destinations) {
    for (dc, dr) in directions {
        let mut at = from;
        while let Some(spot) = at.offset(*dc, *dr) {
            match target(state, seat, spot) {
                Target::Empty => out.push(spot),
                Target::Enemy => {
                    out.push(spot);
                    break;
                }
                Target::Blocked => break,
            }
            at = spot;
        }
    }
}
