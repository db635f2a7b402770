//! Pieces and spots of the 3 × 4 grid (docs/rules/pigeon_chess.md §1).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::{NameTable, Notation};
use std::str::FromStr;

/// A card shows a chess [`Role`]. Its order (Pawn lowest, King highest) is the worth order of
/// §2.4 (K > Q > R > B > N > P), which the first-player reveal compares.
pub(super) use crate::chess::Role;

/// Number of columns (a–c).
pub const COLUMNS: u8 = 3;
/// Number of rows (1–4).
pub const ROWS: u8 = 4;

/// One spot of the grid. Row 1 is seat 0's back row, row 2 its front row, row 3 seat 1's front
/// row and row 4 seat 1's back row (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
// Decoding checks the index, so that a stored or received spot is always on the board.
#[serde(try_from = "u8", into = "u8")]
pub struct Spot(u8);

impl Spot {
    /// The first spot, a1 (also what fills a spot list's unused room).
    pub(crate) const FIRST: Spot = Spot(0);

    /// Every spot in the order a1, b1, c1, a2, …, c4.
    pub fn all() -> impl DoubleEndedIterator<Item = Spot> + ExactSizeIterator {
        (0..COLUMNS * ROWS).map(Spot)
    }

    /// The spot at `column` (0 = a) and `row` (0 = row 1), if on the grid.
    pub fn at(column: i8, row: i8) -> Option<Spot> {
        if (0..COLUMNS as i8).contains(&column) && (0..ROWS as i8).contains(&row) {
            Some(Spot(row as u8 * COLUMNS + column as u8))
        } else {
            None
        }
    }

    /// Index 0..12 in the order of [`Spot::all`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Column, 0 = a.
    pub fn column(self) -> i8 {
        (self.0 % COLUMNS) as i8
    }

    /// Row, 0 = row 1.
    pub fn row(self) -> i8 {
        (self.0 / COLUMNS) as i8
    }

    /// The spot `(dc, dr)` away, if on the grid.
    pub fn offset(self, dc: i8, dr: i8) -> Option<Spot> {
        Spot::at(self.column() + dc, self.row() + dr)
    }
}

impl Spot {
    /// The spot's name, such as `b3`.
    pub fn notation(self) -> Notation {
        Notation::new()
            .push(b'a' + self.column() as u8)
            .push_small_number(self.row() as u8 + 1)
    }

    /// The spot's name, such as `b3`, spelled once for the program's life.
    pub fn name(self) -> &'static str {
        static NAMES: NameTable<{ (COLUMNS * ROWS) as usize }> = NameTable::new(|index| Spot(index as u8).notation());
        NAMES.name(self.index())
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

/// A spot name that is not `a1` … `c4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a spot name (a1 to c4)")]
pub struct BadSpot;

impl FromStr for Spot {
    type Err = BadSpot;

    fn from_str(name: &str) -> Result<Spot, BadSpot> {
        match name.as_bytes() {
            [column @ b'a'..=b'c', row @ b'1'..=b'4'] => {
                Spot::at((column - b'a') as i8, (row - b'1') as i8).ok_or(BadSpot)
            }
            _ => Err(BadSpot),
        }
    }
}

impl TryFrom<u8> for Spot {
    type Error = String;
    fn try_from(index: u8) -> Result<Spot, String> {
        if index < COLUMNS * ROWS {
            Ok(Spot(index))
        } else {
            Err(format!("spot index {index} is off the board"))
        }
    }
}

impl From<Spot> for u8 {
    fn from(spot: Spot) -> u8 {
        spot.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_notation() {
        for spot in Spot::all() {
            assert_eq!(spot.name(), spot.notation().as_str());
        }
    }

    #[test]
    fn spot_names_round_trip() {
        for spot in Spot::all() {
            assert_eq!(spot.to_string().parse::<Spot>(), Ok(spot));
        }
        assert_eq!("a1".parse::<Spot>().unwrap().index(), 0);
        assert_eq!("c4".parse::<Spot>().unwrap().index(), 11);
        assert!("d1".parse::<Spot>().is_err());
        assert!("a5".parse::<Spot>().is_err());
        assert!("a10".parse::<Spot>().is_err());
    }
}
