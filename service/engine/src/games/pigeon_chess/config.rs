//! Options (docs/rules/pigeon_chess.md §1 deck contents, §5(e) and §5(f) caps).

use serde::{Deserialize, Serialize};

use super::piece::Piece;
use crate::game::SetupError;

/// Pigeon Chess options. `Default` gives the rule file's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Cards per piece in each deck, indexed by [`Piece::index`] (default 8 P, 2 N, 2 B, 2 R,
    /// 1 Q, 1 K; §1, §7.1).
    pub deck: [u8; 6],
    /// §5(e): consecutive turns without an attack, pawn move, pawn scoring or placement that end
    /// the game (default 20; 0 turns the limit off).
    pub no_progress_turns: u32,
    /// §5(f): hard cap on turns (default 300).
    pub max_turns: u32,
}

/// The fewest cards a deck may hold: setup places six and keeps two in hand (§7.1).
pub const MIN_DECK: usize = 8;
/// The most cards a deck may hold.
pub const MAX_DECK: usize = 64;

impl Default for Config {
    fn default() -> Self {
        Config {
            deck: [8, 2, 2, 2, 1, 1],
            no_progress_turns: 20,
            max_turns: 300,
        }
    }
}

impl Config {
    /// Number of cards of `piece` in each deck.
    pub fn count(&self, piece: Piece) -> u8 {
        self.deck[piece.index()]
    }

    /// Total cards per deck.
    pub fn deck_size(&self) -> usize {
        self.deck.iter().map(|count| usize::from(*count)).sum()
    }

    /// Checks the ranges: 8 to 64 cards per deck, at most one King, a turn cap of at least 1.
    pub fn validate(&self) -> Result<(), SetupError> {
        let size = self.deck_size();
        if !(MIN_DECK..=MAX_DECK).contains(&size) {
            return Err(SetupError::InvalidConfig(format!(
                "a deck must hold {MIN_DECK} to {MAX_DECK} cards, not {size}"
            )));
        }
        if self.count(Piece::King) > 1 {
            return Err(SetupError::InvalidConfig(
                "a deck holds at most one King".into(),
            ));
        }
        if self.max_turns == 0 {
            return Err(SetupError::InvalidConfig(
                "max_turns must be at least 1".into(),
            ));
        }
        Ok(())
    }
}
