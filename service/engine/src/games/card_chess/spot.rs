//! The 5 × 5 board's ranks, files and spots (docs/rules/card_chess.md §1).
//!
//! Ranks are numbered from Red's side: 0 = red castle, 1 = red kingdom, 2 = middle,
//! 3 = black kingdom, 4 = black castle. Files are numbered 1–5. A spot is written
//! `<rank name> <file>`, such as `red castle 3` (§1); parsing also accepts the rank ids of the
//! rule file (`RED_CASTLE 3`) and any letter case.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::{NameTable, Notation};
use crate::cards::Colour;

/// Number of files (1–5) and of ranks.
pub const SIZE: u8 = 5;
/// Number of spots.
pub const SPOTS: usize = (SIZE as usize) * (SIZE as usize);

/// One rank (row) of the board, from Red's castle to Black's (§1, §8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BoardRank {
    /// Rank 0: Red's castle.
    RedCastle,
    /// Rank 1: Red's kingdom.
    RedKingdom,
    /// Rank 2: the middle rank (its real name is unknown, §8.1).
    Middle,
    /// Rank 3: Black's kingdom.
    BlackKingdom,
    /// Rank 4: Black's castle.
    BlackCastle,
}

impl BoardRank {
    /// Every rank, from Red's side.
    pub const ALL: [BoardRank; 5] = [
        BoardRank::RedCastle,
        BoardRank::RedKingdom,
        BoardRank::Middle,
        BoardRank::BlackKingdom,
        BoardRank::BlackCastle,
    ];

    /// The rank id 0–4 of §1.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The display name, such as `red castle`.
    pub fn name(self) -> &'static str {
        match self {
            BoardRank::RedCastle => "red castle",
            BoardRank::RedKingdom => "red kingdom",
            BoardRank::Middle => "middle",
            BoardRank::BlackKingdom => "black kingdom",
            BoardRank::BlackCastle => "black castle",
        }
    }

    /// The castle rank of `colour`.
    pub fn castle(colour: Colour) -> BoardRank {
        match colour {
            Colour::Red => BoardRank::RedCastle,
            Colour::Black => BoardRank::BlackCastle,
        }
    }
}

impl fmt::Display for BoardRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One spot of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
// Decoding checks the index, so that a stored or received spot is always on the board.
#[serde(try_from = "u8", into = "u8")]
pub struct Spot(u8);

impl Spot {
    /// The first spot, red castle 1 (also what fills a spot list's unused room).
    pub(crate) const FIRST: Spot = Spot(0);

    /// Every spot, rank by rank from the red castle, files 1 to 5 within a rank.
    pub fn all() -> impl Iterator<Item = Spot> {
        (0..SPOTS as u8).map(Spot)
    }

    /// The spot on `rank` and `file` (1–5), if the file exists.
    pub fn new(rank: BoardRank, file: u8) -> Option<Spot> {
        (1..=SIZE)
            .contains(&file)
            .then(|| Spot(rank.index() * SIZE + file - 1))
    }

    /// The spot at 0-based `file` and `rank` coordinates, if on the board.
    pub fn at(file: i8, rank: i8) -> Option<Spot> {
        let range = 0..SIZE as i8;
        (range.contains(&file) && range.contains(&rank))
            .then(|| Spot(rank as u8 * SIZE + file as u8))
    }

    /// Index 0–24 in the order of [`Spot::all`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The spot with index `index` (0–24), if any.
    pub fn from_index(index: usize) -> Option<Spot> {
        (index < SPOTS).then_some(Spot(index as u8))
    }

    /// The rank.
    pub fn rank(self) -> BoardRank {
        BoardRank::ALL[usize::from(self.0 / SIZE)]
    }

    /// The file, 1–5.
    pub fn file(self) -> u8 {
        self.0 % SIZE + 1
    }

    /// The spot `files` files and `ranks` ranks away (ranks counted from Red's side), if on the
    /// board.
    pub fn offset(self, files: i8, ranks: i8) -> Option<Spot> {
        Spot::at((self.0 % SIZE) as i8 + files, (self.0 / SIZE) as i8 + ranks)
    }
}

impl Spot {
    /// The spot's name, such as `red castle 3`.
    pub fn notation(self) -> Notation {
        Notation::new()
            .push_str(self.rank().name())
            .push(b' ')
            .push_small_number(self.file())
    }

    /// The spot's name, such as `red castle 3`, spelled once for the program's life.
    pub fn name(self) -> &'static str {
        static NAMES: NameTable<SPOTS> = NameTable::new(|index| Spot(index as u8).notation());
        NAMES.name(self.index())
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

/// A spot name that is not `<rank name> <file>`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a spot name (such as \"red castle 3\": a rank name and a file 1 to 5)")]
pub struct BadSpot;

impl FromStr for Spot {
    type Err = BadSpot;

    fn from_str(name: &str) -> Result<Spot, BadSpot> {
        let normal = name.trim().to_ascii_lowercase().replace('_', " ");
        let (rank_name, file) = normal.rsplit_once(' ').ok_or(BadSpot)?;
        let rank_words: Vec<&str> = rank_name.split_whitespace().collect();
        let rank = BoardRank::ALL
            .into_iter()
            .find(|rank| rank.name().split(' ').eq(rank_words.iter().copied()))
            .ok_or(BadSpot)?;
        let file = match file.as_bytes() {
            [digit @ b'1'..=b'5'] => digit - b'0',
            _ => return Err(BadSpot),
        };
        Spot::new(rank, file).ok_or(BadSpot)
    }
}

impl TryFrom<u8> for Spot {
    type Error = String;
    fn try_from(index: u8) -> Result<Spot, String> {
        if index < SPOTS as u8 {
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
    fn spot_names_round_trip_and_order() {
        for spot in Spot::all() {
            assert_eq!(spot.to_string().parse::<Spot>(), Ok(spot));
            assert_eq!(Spot::new(spot.rank(), spot.file()), Some(spot));
        }
        let first = Spot::all().next().unwrap();
        assert_eq!(first.to_string(), "red castle 1");
        assert_eq!(Spot::all().last().unwrap().to_string(), "black castle 5");
        assert_eq!(
            "RED_CASTLE 3".parse::<Spot>().unwrap().to_string(),
            "red castle 3"
        );
        assert_eq!("Black  Kingdom 1".parse::<Spot>().unwrap().index(), 15);
        assert_eq!("middle 5".parse::<Spot>().unwrap().index(), 14);
        for bad in [
            "red castle 0",
            "red castle 6",
            "castle 1",
            "red 1",
            "middle",
            "",
            "a1",
        ] {
            assert_eq!(bad.parse::<Spot>(), Err(BadSpot), "{bad}");
        }
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let corner = Spot::new(BoardRank::RedCastle, 1).unwrap();
        assert_eq!(corner.offset(-1, 0), None);
        assert_eq!(corner.offset(0, -1), None);
        assert_eq!(corner.offset(1, 1), Spot::new(BoardRank::RedKingdom, 2));
        let far = Spot::new(BoardRank::BlackCastle, 5).unwrap();
        assert_eq!(far.offset(1, 0), None);
        assert_eq!(far.offset(0, 1), None);
    }
}
