//! §4 movement: the grids of every piece, the castle grids, the 10's double step and the Ace's
//! jumps. Whether a capture is allowed comes from `capture.rs` (§5).
//!
//! Offsets are (file change, rank change) with the rank change counted forward, towards the
//! opponent's castle, and turned into board ranks with [`forward`].

use super::capture::{Class, may_capture};
use super::spot::Spot;
use super::state::{State, forward, own_castle, owner_of};
use crate::cards::{Card, Rank};
use crate::games::inline::InlineList;
use crate::seat::Seat;

/// What a grid cell allows (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// M: move only, to a spot with no piece that is not in check.
    Move,
    /// C: capture only, of an enemy piece this piece may capture.
    Capture,
    /// *: move or capture.
    Either,
}

use Mark::{Capture as C, Either as X, Move as M};

/// Pawn 2–9 anywhere, Pawn 10 outside its own castle.
const PAWN: &[(i8, i8, Mark)] = &[(0, 1, M), (-1, 1, C), (1, 1, C)];
/// Pawn 10 in its own castle; the double step (0, +2) is added separately.
const TEN_IN_CASTLE: &[(i8, i8, Mark)] = PAWN;
/// Jack outside its own castle.
const JACK: &[(i8, i8, Mark)] = &[(-1, 1, X), (1, 1, X), (-1, -1, X), (1, -1, X)];
/// Jack in its own castle.
const JACK_IN_CASTLE: &[(i8, i8, Mark)] = &[(-1, 1, X), (0, 1, C), (1, 1, X)];
/// Queen outside its own castle.
const QUEEN: &[(i8, i8, Mark)] = &[(0, 1, X), (-1, 0, X), (1, 0, X), (0, -1, X)];
/// Queen in its own castle.
const QUEEN_IN_CASTLE: &[(i8, i8, Mark)] =
    &[(-1, 1, C), (0, 1, X), (1, 1, C), (-1, 0, M), (1, 0, M)];
/// King anywhere, and the Ace's steps.
const KING: &[(i8, i8, Mark)] = &[
    (-1, 1, X),
    (0, 1, X),
    (1, 1, X),
    (-1, 0, X),
    (1, 0, X),
    (-1, -1, X),
    (0, -1, X),
    (1, -1, X),
];
/// The Ace's jump directions (the target is twice this away, §4 "Ace jumps").
const JUMPS: &[(i8, i8)] = &[
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// One destination of a piece and what happens there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A move to a spot with no piece.
    Move,
    /// An Ace's jump over a piece to a spot with no piece.
    Jump,
    /// A capture of the enemy piece on the spot.
    Capture,
}

/// The grid of `rank` standing on `from`, for its owner `seat` (§4: the castle grid replaces the
/// general one in the piece's own castle, §8.3).
fn grid(rank: Rank, seat: Seat, from: Spot) -> &'static [(i8, i8, Mark)] {
    let in_castle = from.rank() == own_castle(seat);
    match (rank, in_castle) {
        (Rank::Ten, true) => TEN_IN_CASTLE,
        (Rank::Jack, false) => JACK,
        (Rank::Jack, true) => JACK_IN_CASTLE,
        (Rank::Queen, false) => QUEEN,
        (Rank::Queen, true) => QUEEN_IN_CASTLE,
        (Rank::King | Rank::Ace, _) => KING,
        _ => PAWN,
    }
}

/// Whether the spot may be entered by a move: no piece and not in check (§4 M).
fn open(state: &State, spot: Spot) -> bool {
    let target = state.spot(spot);
    target.piece.is_none() && !target.in_check
}

/// Whether `attacker` of `seat` may capture on `spot` (§4 C, §5).
fn capturable(state: &State, seat: Seat, attacker: Card, spot: Spot) -> bool {
    let target = state.spot(spot);
    match target.piece {
        Some(victim) => {
            owner_of(victim) != seat
                && !target.in_check
                && may_capture(state.config.ace_capture, attacker.rank, victim.rank)
        }
        None => false,
    }
}

/// The destinations of one piece: at most 16, an Ace's eight steps and eight jumps (the King
/// grid is the largest, and only the Ace adds jumps).
pub(crate) type Steps = InlineList<(Spot, Step), 16>;

/// Every destination of the piece on `from` and what happens there, in spot order; empty when
/// the spot holds no piece of `seat` or its piece is in check (§3.C).
pub(crate) fn steps(state: &State, seat: Seat, from: Spot) -> Steps {
    let mut out = Steps::new((from, Step::Move));
    steps_into(state, seat, from, &mut out);
    out
}

/// [`steps`] into `out`, which is emptied first: listing every piece's steps reuses one list,
/// and most spots, holding no piece of the seat, leave it empty at once.
#[inline]
pub(crate) fn steps_into(state: &State, seat: Seat, from: Spot, out: &mut Steps) {
    out.clear();
    let here = state.spot(from);
    if let Some(piece) = here.piece
        && owner_of(piece) == seat
        && !here.in_check
    {
        piece_steps(state, seat, from, piece, out);
    }
}

/// The steps of `piece` of `seat` on `from` (not in check) into the empty `out`.
fn piece_steps(state: &State, seat: Seat, from: Spot, piece: Card, out: &mut Steps) {
    let ahead = forward(seat);
    for &(files, ranks, mark) in grid(piece.rank, seat, from) {
        let Some(to) = from.offset(files, ranks * ahead) else {
            continue;
        };
        if mark != Mark::Capture && open(state, to) {
            out.push((to, Step::Move));
        } else if mark != Mark::Move && capturable(state, seat, piece, to) {
            out.push((to, Step::Capture));
        }
    }
    // §4: a 10 in its own castle may step twice forward if the spot in front has no piece.
    if piece.rank == Rank::Ten && from.rank() == own_castle(seat) {
        let front = from.offset(0, ahead);
        let double = from.offset(0, 2 * ahead);
        if let (Some(front), Some(double)) = (front, double)
            && state.piece(front).is_none()
            && open(state, double)
        {
            out.push((double, Step::Move));
        }
    }
    // §4 Ace jumps: over a piece of either side (§8.7: in check or not) to an open spot.
    if Class::of(piece.rank) == Class::Ace {
        for &(files, ranks) in JUMPS {
            let middle = from.offset(files, ranks);
            let target = from.offset(2 * files, 2 * ranks);
            if let (Some(middle), Some(target)) = (middle, target)
                && state.piece(middle).is_some()
                && open(state, target)
            {
                out.push((target, Step::Jump));
            }
        }
    }
    // Destinations are distinct spots (steps, the double step and jumps reach different
    // distances), so an unstable sort gives the one spot order.
    out.as_mut_slice().sort_unstable_by_key(|(spot, _)| *spot);
}

/// Whether `seat` has any legal move or capture (§3.C, §6).
pub(crate) fn has_any_move(state: &State, seat: Seat) -> bool {
    let mut out = Steps::new((Spot::FIRST, Step::Move));
    Spot::all().any(|from| {
        steps_into(state, seat, from, &mut out);
        !out.is_empty()
    })
}
