//! §5 chess inside CHUNO: the moves a player may make with the card just played, and playing
//! one.
//!
//! The board uses the shared chess core with check ignored (so moves may leave the King
//! attacked and capturing the King is a move, §5, §7), castling without the check-based limits
//! unless [`super::Config::strict_castling`] (§9.4), en passant and promotion to Q, R, B or N.
//!
//! **En passant window (§5, §9.10).** The core sets the en passant square after a double step.
//! Within a multi-move turn the mover keeps the move, so the square its own double step created
//! is never offered to it (the capture would be of its own pawn); the mover's next chess move
//! clears the square as any move does. If the turn ends right after the double step, the square
//! stands for the opponent's very next chess move, whenever that comes (even after turns without
//! chess moves, or a skipped turn); the next chess move of either side closes it.

use super::event::{Event, MoveRecord};
use super::state::{State, colour_of};
use crate::chess::ChessMove;
use crate::chess::{Color, Move, MoveKind, Position, Role};
use crate::seat::Seat;

/// The chess moves `seat` may make now under §5 (its own en passant square excluded).
pub(crate) fn chess_moves(state: &State, seat: Seat) -> Vec<Move> {
    let rules = state.rules();
    match as_mover(&state.position, colour_of(seat)) {
        Some(position) => position.legal_moves(&rules).into_iter().collect(),
        None => state.position.legal_moves(&rules).into_iter().collect(),
    }
}

/// Whether the position's en passant square was made by `mover`'s own double step (a square
/// on rank 3 behind a White pawn, on rank 6 behind a Black one).
fn own_en_passant(position: &Position, mover: Color) -> bool {
    position.en_passant().is_some_and(|square| {
        let behind_own_pawn = match mover {
            Color::White => 2,
            Color::Black => 5,
        };
        square.rank() == behind_own_pawn
    })
}

/// The position as `mover` plays it: `mover` to move, without an en passant square of its own
/// making. `None` when the stored position is that already.
///
/// The stored position always stays a valid FEN position: while a player's own en passant square
/// stands, the stored side to move is the opponent, for whom the square exists.
fn as_mover(position: &Position, mover: Color) -> Option<Position> {
    let own = own_en_passant(position, mover);
    if position.side_to_move() == mover && !own {
        return None;
    }
    let mut view = position.clone();
    if own {
        view.clear_en_passant();
    }
    view.set_side_to_move(mover);
    Some(view)
}

/// Gives the move to `mover` at the start of its turn, unless its own en passant square stands:
/// then the opponent keeps the square (and the stored side to move) until the next chess move.
pub(crate) fn hand_over(position: &mut Position, mover: Color) {
    if !own_en_passant(position, mover) {
        position.set_side_to_move(mover);
    }
}

/// The FEN as the current player plays the position: that player to move, and an en passant
/// square only if that player may capture there.
pub(crate) fn display_fen(position: &Position, mover: Color) -> String {
    as_mover(position, mover).map_or_else(|| position.fen(), |shown| shown.fen())
}

/// The move of `moves` that `chess_move` names, if any.
pub(crate) fn find_move(moves: &[Move], chess_move: ChessMove) -> Option<Move> {
    moves.iter().copied().find(|mv| {
        mv.from == chess_move.from && mv.to == chess_move.to && mv.promotion == chess_move.promotion
    })
}

/// How a player names `mv`.
pub(crate) fn notation(mv: &Move) -> ChessMove {
    ChessMove {
        from: mv.from,
        to: mv.to,
        promotion: mv.promotion,
    }
}

/// What playing one move did.
pub(crate) struct Played {
    /// The event's record.
    pub(crate) record: MoveRecord,
    /// Whether it captured or moved a pawn (§10: progress).
    pub(crate) progress: bool,
}

/// Plays `mv` (one of [`chess_moves`]) for `seat` and reports it. Afterwards the stored side to
/// move is the opponent (as after any chess move); [`chess_moves`] lists the mover's next moves
/// all the same.
pub(crate) fn play(state: &mut State, seat: Seat, mv: Move, events: &mut Vec<Event>) -> Played {
    let mover = colour_of(seat);
    // The mover's own en passant square ends with its next chess move (§9.10).
    if own_en_passant(&state.position, mover) {
        state.position.clear_en_passant();
    }
    state.position.set_side_to_move(mover);
    let outcome = state.position.play(&mv);
    let role = outcome.moved.role;
    let captured = outcome.captured.map(|piece| piece.role);
    let record = MoveRecord {
        seat,
        chess_move: notation(&mv),
        role,
        captured,
        castle: outcome.castled.is_some(),
        en_passant: mv.kind == MoveKind::EnPassant,
        king_captured: outcome.king_captured,
    };
    events.push(Event::Moved(record));
    Played {
        record,
        progress: captured.is_some() || role == Role::Pawn,
    }
}
