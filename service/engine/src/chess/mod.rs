//! The 8 × 8 chess core shared by the chess variants: positions, move generation and playing
//! moves, configurable through [`Rules`] (castling, en passant, double steps, promotion
//! choices, check enforced or not) and tolerant of positions without one or both kings.
//!
//! Positions are bitboards (one 64-bit set per colour and per role) with a square-indexed
//! mirror for look-ups; slider attacks come from magic multiplication tables. [`perft`] checks
//! the generator against the published move-tree counts.

mod attacks;
mod bitboard;
mod board_serde;
mod castling;
mod fen;
mod magic;
mod make_move;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
mod rules;
mod square;
mod steps;
mod uci;

pub use attacks::{
    attacks, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks,
};
pub use bitboard::Bitboard;
pub use board_serde::serialize_ranks;
pub use castling::{CastleSide, CastlingRights};
pub use fen::{FenError, START_FEN};
pub use magic::prepare_tables;
pub use make_move::MoveOutcome;
pub use moves::{Move, MoveKind, MoveList, MoveListIter, ParseMoveError};
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, Role, RoleSet};
pub use position::{PlaceError, Position};
pub use rules::{CheckRule, Rules};
pub use square::{ParseSquareError, Square};
pub use steps::{BISHOP_DIRECTIONS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRECTIONS};
pub use uci::{ChessMove, ParseUciError};
