//! Castling rights and the squares castling uses.

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The wing a king castles to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CastleSide {
    /// Towards the h-file (O-O): king e→g, rook h→f.
    King,
    /// Towards the a-file (O-O-O): king e→c, rook a→d.
    Queen,
}

impl CastleSide {
    /// Both wings, king side first.
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The king's start square.
    pub const fn king_from(color: Color) -> Square {
        match color {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        }
    }

    /// The king's square after castling.
    pub const fn king_to(self, color: Color) -> Square {
        relative(
            match self {
                CastleSide::King => Square::G1,
                CastleSide::Queen => Square::C1,
            },
            color,
        )
    }

    /// The rook's start square.
    pub const fn rook_from(self, color: Color) -> Square {
        relative(
            match self {
                CastleSide::King => Square::H1,
                CastleSide::Queen => Square::A1,
            },
            color,
        )
    }

    /// The rook's square after castling.
    pub const fn rook_to(self, color: Color) -> Square {
        relative(
            match self {
                CastleSide::King => Square::F1,
                CastleSide::Queen => Square::D1,
            },
            color,
        )
    }

    /// The squares that must be empty: every square between king and rook.
    pub(crate) const fn path(self, color: Color) -> Bitboard {
        let white = match self {
            CastleSide::King => 0x60,
            CastleSide::Queen => 0x0e,
        };
        match color {
            Color::White => Bitboard(white),
            Color::Black => Bitboard(white << 56),
        }
    }

    /// The wing whose king target is `to`, if `to` is one.
    pub(crate) fn from_king_target(to: Square, color: Color) -> Option<CastleSide> {
        CastleSide::ALL
            .into_iter()
            .find(|side| side.king_to(color) == to)
    }
}

const fn relative(white_square: Square, color: Color) -> Square {
    match color {
        Color::White => white_square,
        Color::Black => white_square.flip_rank(),
    }
}

/// Which castlings each side still has the right to (the king and that rook have not moved).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights (the start position).
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// Whether `color` may still castle to `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Whether `color` has any right left.
    #[inline]
    pub const fn any(self, color: Color) -> bool {
        self.0 >> (color as u8 * 2) & 0b11 != 0
    }

    /// Whether no right is left at all.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These rights plus one.
    #[must_use]
    pub const fn with(self, color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// These rights less one.
    #[must_use]
    pub const fn without(self, color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, side))
    }

    /// The rights that survive a piece leaving or arriving on `sq`: touching a king's or a
    /// rook's home square ends the rights that depend on it.
    #[inline]
    #[must_use]
    pub(crate) const fn touched(self, sq: Square) -> CastlingRights {
        let lost = match sq.index() {
            0 => 0b0010,  // a1
            4 => 0b0011,  // e1
            7 => 0b0001,  // h1
            56 => 0b1000, // a8
            60 => 0b1100, // e8
            63 => 0b0100, // h8
            _ => 0,
        };
        CastlingRights(self.0 & !lost)
    }

    /// The FEN field: `KQkq` letters, or `-`.
    pub fn fen(self) -> String {
        let mut text = String::with_capacity(4);
        self.write_fen(&mut text);
        text
    }

    /// Appends the FEN field to `text`.
    pub fn write_fen(self, text: &mut String) {
        let mut any = false;
        for (color, side, letter) in [
            (Color::White, CastleSide::King, 'K'),
            (Color::White, CastleSide::Queen, 'Q'),
            (Color::Black, CastleSide::King, 'k'),
            (Color::Black, CastleSide::Queen, 'q'),
        ] {
            if self.has(color, side) {
                text.push(letter);
                any = true;
            }
        }
        if !any {
            text.push('-');
        }
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CastlingRights({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        assert_eq!(CastleSide::King.king_to(Color::Black), Square::G8);
        assert_eq!(CastleSide::Queen.rook_to(Color::White), Square::D1);
        assert_eq!(CastleSide::Queen.rook_from(Color::Black), Square::A8);
        let path: Vec<String> = CastleSide::Queen
            .path(Color::Black)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(path, ["b8", "c8", "d8"]);
        assert_eq!(
            CastleSide::from_king_target(Square::C8, Color::Black),
            Some(CastleSide::Queen)
        );
        assert_eq!(CastleSide::from_king_target(Square::C1, Color::Black), None);
    }

    #[test]
    fn rights() {
        let all = CastlingRights::ALL;
        assert_eq!(all.fen(), "KQkq");
        assert_eq!(all.touched(Square::E1).fen(), "kq");
        assert_eq!(all.touched(Square::H8).fen(), "KQq");
        assert_eq!(all.touched(Square::A1).fen(), "Kkq");
        assert_eq!(CastlingRights::NONE.fen(), "-");
        assert!(
            !all.without(Color::White, CastleSide::King)
                .has(Color::White, CastleSide::King)
        );
        assert!(
            CastlingRights::NONE
                .with(Color::Black, CastleSide::Queen)
                .any(Color::Black)
        );
        assert!(
            !CastlingRights::NONE
                .with(Color::Black, CastleSide::Queen)
                .any(Color::White)
        );
    }
}
