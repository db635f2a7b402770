//! Options (docs/rules/pigeon_chess.md §1 deck contents, §5(e) and §5(f) caps).

use serde::{Deserialize, Serialize};

use super::piece::Role;
use crate::game::SetupError;
use crate::length::{Cap, CappedLength, LengthCaps};

/// Pigeon Chess options. `Default` gives the rule file's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Cards per piece in each deck, indexed by [`Role::index`] (default 8 P, 2 N, 2 B, 2 R,
    /// 1 Q, 1 K; §1, §7.1).
    pub deck: [u8; 6],
    /// §5(e): consecutive turns without an attack, pawn move, pawn scoring or placement that end
    /// the game (default 20; 0 turns the limit off). New games take the range of [`crate::length`].
    pub no_progress_turns: u32,
    /// §5(f): hard cap on turns (default 300). New games take the range of [`crate::length`].
    pub max_turns: u32,
}

/// The config fields holding the card counts, in the order of [`Role::ALL`].
const COUNT_FIELDS: [&str; 6] = ["pawns", "knights", "bishops", "rooks", "queens", "kings"];

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
    pub fn count(&self, piece: Role) -> u8 {
        self.deck[piece.index()]
    }

    /// Total cards per deck.
    pub fn deck_size(&self) -> usize {
        self.deck.iter().map(|count| usize::from(*count)).sum()
    }

    /// Checks the ranges: at most [`MAX_DECK`] cards of a piece, at most one King, 8 to 64
    /// cards per deck, a turn cap of at least 1. A problem of one count names its field
    /// (`pawns` to `kings`); a deck size out of range is a problem of the counts together.
    pub fn validate(&self) -> Result<(), SetupError> {
        for (field, count) in COUNT_FIELDS.into_iter().zip(self.deck) {
            if usize::from(count) > MAX_DECK {
                return Err(SetupError::invalid_config(
                    field,
                    format!("at most {MAX_DECK} cards, not {count}"),
                ));
            }
        }
        if self.count(Role::King) > 1 {
            return Err(SetupError::invalid_config(
                "kings",
                format!("a deck holds 0 or 1 King, not {}", self.count(Role::King)),
            ));
        }
        let size = self.deck_size();
        if !(MIN_DECK..=MAX_DECK).contains(&size) {
            return Err(SetupError::invalid_config(
                "",
                format!(
                    "pawns + knights + bishops + rooks + queens + kings must total {MIN_DECK} to \
                     {MAX_DECK} cards per deck, not {size}"
                ),
            ));
        }
        self.length_caps().check_playable()
    }
}

impl CappedLength for Config {
    fn length_caps(&self) -> LengthCaps {
        let default = Config::default();
        LengthCaps {
            limit: Cap {
                field: "max_turns",
                value: self.max_turns,
                default: default.max_turns,
            },
            no_progress: Some(Cap {
                field: "no_progress_turns",
                value: self.no_progress_turns,
                default: default.no_progress_turns,
            }),
        }
    }
}
