//! Sets of squares as 64-bit words: bit `n` stands for square `n` (a1 = 0, h8 = 63).

use super::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit per square (bit 0 = a1, bit 63 = h8).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(u64::MAX);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// Rank 2.
    pub const RANK_2: Bitboard = Bitboard(0xff << 8);
    /// Rank 3.
    pub const RANK_3: Bitboard = Bitboard(0xff << 16);
    /// Rank 6.
    pub const RANK_6: Bitboard = Bitboard(0xff << 40);
    /// Rank 7.
    pub const RANK_7: Bitboard = Bitboard(0xff << 48);
    /// Rank 8.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn has_any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Every square moved one rank up (towards rank 8); squares leaving the board are dropped.
    #[inline]
    #[must_use]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square moved one rank down (towards rank 1); squares leaving the board are dropped.
    #[inline]
    #[must_use]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Shifts by `delta` squares (positive: towards h8). Callers mask away file wrap-around.
    #[inline]
    #[must_use]
    pub const fn shift(self, delta: i8) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta)
        } else {
            Bitboard(self.0 >> -delta)
        }
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

/// Iterates over the squares of a set, lowest first.
impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

/// Shows the set as a board, rank 8 on top, `1` for a member square.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let bit = self.0 >> (rank * 8 + file) & 1;
                write!(f, "{}", if bit == 1 { '1' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_yields_squares_lowest_first() {
        let bb = Bitboard(0b1010_0001);
        let squares: Vec<u8> = bb.map(Square::index).collect();
        assert_eq!(squares, vec![0, 5, 7]);
        assert_eq!(bb.len(), 3);
    }

    #[test]
    fn set_operations() {
        let a1 = Square::new_unchecked(0);
        let h8 = Square::new_unchecked(63);
        let bb = Bitboard::EMPTY.with(a1).with(h8);
        assert!(bb.contains(a1) && bb.contains(h8));
        assert!(bb.has_several());
        assert!(!bb.without(a1).has_several());
        assert_eq!(bb.without(a1).first(), Some(h8));
        assert_eq!(Bitboard::RANK_2.north(), Bitboard::RANK_3);
        assert_eq!(Bitboard::RANK_8.north(), Bitboard::EMPTY);
        assert_eq!(Bitboard::RANK_7.shift(8), Bitboard::RANK_8);
        assert_eq!(Bitboard::RANK_3.shift(-8), Bitboard::RANK_2);
    }
}
