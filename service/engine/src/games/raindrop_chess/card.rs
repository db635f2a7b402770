//! §1 cards: one per piece of each army, plus the optional jokers.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::chess::Role;

/// A Raindropchess card. The colour is the deck owner's and is not part of the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Card {
    /// A pawn card (8 per deck).
    Pawn,
    /// A knight card (2 per deck).
    Knight,
    /// A bishop card that may go on any free square (2 per deck by default).
    Bishop,
    /// §8.4 option: a bishop card that must go on a light square.
    LightBishop,
    /// §8.4 option: a bishop card that must go on a dark square.
    DarkBishop,
    /// A rook card (2 per deck).
    Rook,
    /// The queen card.
    Queen,
    /// The king card.
    King,
    /// §3 optional joker.
    Joker,
}

impl Card {
    /// The piece the card places; `None` for a joker.
    pub fn role(self) -> Option<Role> {
        match self {
            Card::Pawn => Some(Role::Pawn),
            Card::Knight => Some(Role::Knight),
            Card::Bishop | Card::LightBishop | Card::DarkBishop => Some(Role::Bishop),
            Card::Rook => Some(Role::Rook),
            Card::Queen => Some(Role::Queen),
            Card::King => Some(Role::King),
            Card::Joker => None,
        }
    }

    /// A short name: P, N, B, BL (light), BD (dark), R, Q, K, J.
    pub fn code(self) -> &'static str {
        match self {
            Card::Pawn => "P",
            Card::Knight => "N",
            Card::Bishop => "B",
            Card::LightBishop => "BL",
            Card::DarkBishop => "BD",
            Card::Rook => "R",
            Card::Queen => "Q",
            Card::King => "K",
            Card::Joker => "J",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
