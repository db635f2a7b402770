//! Squares of the 8 × 8 board, numbered a1 = 0, b1 = 1, …, h8 = 63.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::{NameTable, Notation};
use std::str::FromStr;

/// One of the 64 squares: `file + 8 * rank`, both counted from zero (a1 = 0, h8 = 63).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square(u8);

/// A string that does not name a square (expected a file `a`–`h` then a rank `1`–`8`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?}")]
pub struct ParseSquareError(pub String);

impl Square {
    /// Square a1.
    pub const A1: Square = Square(0);
    /// Square b1.
    pub const B1: Square = Square(1);
    /// Square c1.
    pub const C1: Square = Square(2);
    /// Square d1.
    pub const D1: Square = Square(3);
    /// Square e1.
    pub const E1: Square = Square(4);
    /// Square f1.
    pub const F1: Square = Square(5);
    /// Square g1.
    pub const G1: Square = Square(6);
    /// Square h1.
    pub const H1: Square = Square(7);
    /// Square a8.
    pub const A8: Square = Square(56);
    /// Square b8.
    pub const B8: Square = Square(57);
    /// Square c8.
    pub const C8: Square = Square(58);
    /// Square d8.
    pub const D8: Square = Square(59);
    /// Square e8.
    pub const E8: Square = Square(60);
    /// Square f8.
    pub const F8: Square = Square(61);
    /// Square g8.
    pub const G8: Square = Square(62);
    /// Square h8.
    pub const H8: Square = Square(63);

    /// The square with this index (0–63), or `None`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the index must be below 64 (checked in debug builds).
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a … 7 = h) and `rank` (0 = rank 1 … 7 = rank 8), or `None`.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Every square, a1 first, h8 last.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The index, 0–63.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square `files` to the right and `ranks` up, or `None` off the board.
    #[inline]
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        let file = self.file() as i8 + files;
        let rank = self.rank() as i8 + ranks;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// The same file on the mirrored rank (a1 ↔ a8).
    #[inline]
    #[must_use]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }
}

impl TryFrom<u8> for Square {
    type Error = ParseSquareError;
    fn try_from(index: u8) -> Result<Square, ParseSquareError> {
        Square::new(index).ok_or_else(|| ParseSquareError(index.to_string()))
    }
}

impl From<Square> for u8 {
    fn from(sq: Square) -> u8 {
        sq.0
    }
}

impl Square {
    /// The square's name, such as `e4`.
    pub const fn notation(self) -> Notation {
        Notation::new()
            .push(b'a' + self.file())
            .push(b'1' + self.rank())
    }

    /// The square's name, such as `e4`, spelled once for the program's life.
    pub fn name(self) -> &'static str {
        static NAMES: NameTable<64> = NameTable::new(|index| Square(index as u8).notation());
        NAMES.name(usize::from(self.0))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                Ok(Square((rank - b'1') * 8 + (file - b'a')))
            }
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_notation() {
        for index in 0..64u8 {
            let square = Square::new(index).unwrap();
            assert_eq!(square.name(), square.notation().as_str());
        }
    }

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
        }
        assert_eq!("e4".parse::<Square>().map(Square::index), Ok(28));
        assert_eq!(Square::H8.to_string(), "h8");
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
    }

    #[test]
    fn coordinates_and_offsets() {
        let e4: Square = "e4".parse().unwrap();
        assert_eq!((e4.file(), e4.rank()), (4, 3));
        assert_eq!(e4.offset(1, 1), "f5".parse().ok());
        assert_eq!(Square::H8.offset(1, 0), None);
        assert_eq!(Square::A1.offset(0, -1), None);
        assert_eq!(Square::E1.flip_rank(), Square::E8);
        assert_eq!(Square::new(64), None);
    }

    #[test]
    fn serde_rejects_out_of_range() {
        assert!(serde_json::from_str::<Square>("64").is_err());
        assert_eq!(serde_json::from_str::<Square>("63").unwrap(), Square::H8);
    }
}
