//! The position: pieces on the board, side to move, castling rights, en passant square and
//! clocks. Kings are optional: a side may have no king (set-up and drop variants).

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::castling::{CastleSide, CastlingRights};
use super::piece::{Color, Piece, Role};
use super::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A chess position. Serializes as its FEN string.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Position {
    /// What stands on each square (mirrors the bitboards, for quick look-up by square).
    pub(crate) board: [Option<Piece>; 64],
    /// The squares of each role, both colours together.
    pub(crate) by_role: [Bitboard; 6],
    /// The squares of each colour.
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
}

/// Why a piece could not be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// The square is not empty.
    #[error("square {0} is not empty")]
    Occupied(Square),
    /// The colour already has a king (a side has at most one).
    #[error("{0} already has a king")]
    SecondKing(Color),
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        let mut pos = Position::empty(Color::White);
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in (0u8..).zip(back) {
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                pos.put(square(file, back_rank), Piece::new(color, role));
                pos.put(square(file, pawn_rank), Piece::new(color, Role::Pawn));
            }
        }
        pos.castling = CastlingRights::ALL;
        pos
    }

    /// An empty board (no pieces, no kings, no castling rights) with `side_to_move` to move.
    pub fn empty(side_to_move: Color) -> Position {
        Position {
            board: [None; 64],
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: side_to_move,
            castling: CastlingRights::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index() as usize]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// Hands the move to `color` (for turns of several moves, or turns spent on drops).
    pub fn set_side_to_move(&mut self, color: Color) {
        self.turn = color;
    }

    /// The square a pawn may capture onto en passant (the square a double-stepping pawn passed).
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Forgets the en passant chance.
    pub fn clear_en_passant(&mut self) {
        self.ep = None;
    }

    /// The castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// Replaces the castling rights, keeping only those whose king and rook stand on their home
    /// squares (a right without them could never be used).
    pub fn set_castling_rights(&mut self, rights: CastlingRights) {
        let mut kept = CastlingRights::NONE;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if rights.has(color, side) && self.castling_pieces_home(color, side) {
                    kept = kept.with(color, side);
                }
            }
        }
        self.castling = kept;
    }

    /// Whether `color`'s king and the rook of `side` stand on their home squares.
    pub(crate) fn castling_pieces_home(&self, color: Color, side: CastleSide) -> bool {
        self.piece_at(CastleSide::king_from(color)) == Some(Piece::new(color, Role::King))
            && self.piece_at(side.rook_from(color)) == Some(Piece::new(color, Role::Rook))
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number: starts at 1 and grows after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Sets the two clocks (for variants that count differently).
    pub fn set_clocks(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove = halfmove_clock;
        self.fullmove = fullmove_number.max(1);
    }

    /// The square of `color`'s king, or `None` when that side has no king.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of `role`'s pieces of both colours.
    #[inline]
    pub fn role_pieces(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Every piece with its square, a1 first.
    pub fn iter_pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().map(|sq| {
            (
                sq,
                self.board[sq.index() as usize].expect("occupied square"),
            )
        })
    }

    /// Puts `piece` onto the empty square `sq` (drops and set-up). Castling rights and the en
    /// passant square are unchanged.
    pub fn place(&mut self, piece: Piece, sq: Square) -> Result<(), PlaceError> {
        if self.piece_at(sq).is_some() {
            return Err(PlaceError::Occupied(sq));
        }
        if piece.role == Role::King && self.king(piece.color).is_some() {
            return Err(PlaceError::SecondKing(piece.color));
        }
        self.put(sq, piece);
        Ok(())
    }

    /// Takes the piece off `sq`, if any. Castling rights that needed it are dropped.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.take(sq)?;
        self.castling = self.castling.touched(sq);
        Some(piece)
    }

    /// Whether any piece of `by` attacks `sq` (whatever stands on `sq`).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        (self.attackers_to(sq, self.occupied()) & self.by_color[by.index()]).has_any()
    }

    /// The pieces of `by` that attack `sq`.
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_to(sq, self.occupied()) & self.by_color[by.index()]
    }

    /// Whether `color`'s king is attacked; `false` when `color` has no king.
    pub fn in_check(&self, color: Color) -> bool {
        self.king(color)
            .is_some_and(|k| self.is_attacked(k, color.other()))
    }

    /// The pieces of both colours attacking `sq`, with sliders seeing through the squares not in
    /// `occupied`.
    #[inline]
    pub(crate) fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let diagonal = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        let straight = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let pawns = self.by_role[Role::Pawn.index()];
        (pawn_attacks(Color::White, sq) & pawns & self.by_color[Color::Black.index()])
            | (pawn_attacks(Color::Black, sq) & pawns & self.by_color[Color::White.index()])
            | (knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (king_attacks(sq) & self.by_role[Role::King.index()])
            | (bishop_attacks(sq, occupied) & diagonal)
            | (rook_attacks(sq, occupied) & straight)
    }

    /// Puts a piece on an empty square (no checks).
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index() as usize].is_none());
        self.board[sq.index() as usize] = Some(piece);
        self.by_role[piece.role.index()] ^= Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= Bitboard::from_square(sq);
    }

    /// Takes the piece off a square (no effect on rights).
    #[inline]
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index() as usize].take()?;
        self.by_role[piece.role.index()] ^= Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= Bitboard::from_square(sq);
        Some(piece)
    }
}

fn square(file: u8, rank: u8) -> Square {
    Square::from_coords(file, rank).expect("coordinates on the board")
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// The board as eight lines of FEN letters (`.` for empty), rank 8 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = self
                    .piece_at(square(file, rank))
                    .map_or('.', Piece::fen_char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn start_position_contents() {
        let pos = Position::startpos();
        assert_eq!(pos.occupied().count(), 32);
        assert_eq!(pos.king(Color::White), Some(Square::E1));
        assert_eq!(pos.king(Color::Black), Some(Square::E8));
        assert_eq!(
            pos.piece_at(sq("d8")),
            Some(Piece::new(Color::Black, Role::Queen))
        );
        assert_eq!(pos.pieces(Color::White, Role::Pawn), Bitboard::RANK_2);
        assert_eq!(pos.castling_rights(), CastlingRights::ALL);
        assert!(!pos.in_check(Color::White));
        assert!(pos.is_attacked(sq("f3"), Color::White));
        assert!(!pos.is_attacked(sq("e4"), Color::White));
        assert_eq!(pos.iter_pieces().count(), 32);
    }

    #[test]
    fn place_and_remove() {
        let mut pos = Position::empty(Color::Black);
        assert_eq!(pos.king(Color::White), None);
        assert!(!pos.in_check(Color::White));
        let wk = Piece::new(Color::White, Role::King);
        assert_eq!(pos.place(wk, sq("e1")), Ok(()));
        assert_eq!(
            pos.place(wk, sq("e2")),
            Err(PlaceError::SecondKing(Color::White))
        );
        let bq = Piece::new(Color::Black, Role::Queen);
        assert_eq!(pos.place(bq, sq("e1")), Err(PlaceError::Occupied(sq("e1"))));
        pos.place(bq, sq("e7")).unwrap();
        assert!(pos.in_check(Color::White));
        assert_eq!(
            pos.attackers(sq("e1"), Color::Black),
            Bitboard::from_square(sq("e7"))
        );
        assert_eq!(pos.remove(sq("e7")), Some(bq));
        assert_eq!(pos.remove(sq("e7")), None);
        assert!(!pos.in_check(Color::White));
    }

    #[test]
    fn removing_a_rook_drops_its_castling_right() {
        let mut pos = Position::startpos();
        pos.remove(Square::H1);
        assert_eq!(pos.castling_rights().fen(), "Qkq");
        pos.set_castling_rights(CastlingRights::ALL);
        assert_eq!(pos.castling_rights().fen(), "Qkq");
    }
}
