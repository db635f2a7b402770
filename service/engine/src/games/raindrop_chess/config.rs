//! Options (docs/rules/raindrop_chess.md §12): §1 jokers, §3 joker effect, §6 draw rules, §8.3
//! and §8.4 flags, §9 cap.

use serde::{Deserialize, Serialize};

use super::card::Card;
use crate::game::SetupError;
use crate::length::{Cap, CappedLength, LengthCaps};

/// §3: what a flipped joker does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JokerEffect {
    /// The flipper takes another full turn at once (the default when jokers are on).
    ExtraTurn,
    /// The flipper removes one enemy piece other than the King; the turn then ends.
    RemovePiece,
}

/// Raindropchess options. `Default` gives the rule file's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// §1, §8.7: jokers shuffled into each deck (default 0; 0 to 2).
    pub jokers_per_deck: u8,
    /// §3: the joker's effect (default [`JokerEffect::ExtraTurn`]).
    pub joker_effect: JokerEffect,
    /// §8.3 alternative: a captured (or removed) promotion piece goes back to its owner's pool
    /// (default false: each pool piece is used at most once).
    pub captured_promotion_returns: bool,
    /// §8.4: one bishop card must go on a light square, the other on a dark one (default false:
    /// any free square).
    pub bishop_card_fixes_square_colour: bool,
    /// §6.6: the game is drawn after this many turns without a capture, pawn move, placement,
    /// promotion or joker (default 150, the 75-move rule; 0 turns it off). New games take the range of [`crate::length`].
    pub no_progress_plies: u32,
    /// §6.7: the game is drawn when a position occurs this many times (default 5; 0 turns it
    /// off; 1 is refused).
    pub repetitions: u32,
    /// §6.9, §9: the game is drawn after this many turns (default 1000; at least 1). New games take the range of [`crate::length`].
    pub max_plies: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            jokers_per_deck: 0,
            joker_effect: JokerEffect::ExtraTurn,
            captured_promotion_returns: false,
            bishop_card_fixes_square_colour: false,
            no_progress_plies: 150,
            repetitions: 5,
            max_plies: 1000,
        }
    }
}

impl Config {
    /// Checks the ranges of §1, §6.7 and §9 (listed in §12). A problem names its field.
    pub fn validate(&self) -> Result<(), SetupError> {
        if self.jokers_per_deck > 2 {
            return Err(SetupError::invalid_config(
                "jokers_per_deck",
                format!("must be 0, 1 or 2, not {}", self.jokers_per_deck),
            ));
        }
        if self.repetitions == 1 {
            return Err(SetupError::invalid_config(
                "repetitions",
                "must be 0 (off) or at least 2, not 1",
            ));
        }
        self.length_caps().check_playable()
    }

    /// §1: one deck before the shuffle: K, Q, R, R, B, B, N, N, 8 P and the jokers.
    pub fn build_deck(&self) -> Vec<Card> {
        let mut deck = vec![Card::King, Card::Queen, Card::Rook, Card::Rook];
        if self.bishop_card_fixes_square_colour {
            deck.extend([Card::LightBishop, Card::DarkBishop]);
        } else {
            deck.extend([Card::Bishop, Card::Bishop]);
        }
        deck.extend([Card::Knight, Card::Knight]);
        deck.extend([Card::Pawn; 8]);
        deck.extend(std::iter::repeat_n(
            Card::Joker,
            usize::from(self.jokers_per_deck),
        ));
        deck
    }
}

impl CappedLength for Config {
    fn length_caps(&self) -> LengthCaps {
        let default = Config::default();
        LengthCaps {
            limit: Cap {
                field: "max_plies",
                value: self.max_plies,
                default: default.max_plies,
            },
            no_progress: Some(Cap {
                field: "no_progress_plies",
                value: self.no_progress_plies,
                default: default.no_progress_plies,
            }),
        }
    }
}
