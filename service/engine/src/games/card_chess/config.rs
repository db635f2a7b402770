//! Options (docs/rules/card_chess.md §8.2 Ace captures, §9 no-progress draw and hard cap).

use serde::{Deserialize, Serialize};

use crate::game::SetupError;
use crate::length::{Cap, CappedLength, LengthCaps};

/// What Aces may capture and what may capture them (§5, §8.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AceCapture {
    /// The rule file's recommendation (default): an Ace captures anything, and only an Ace
    /// captures an Ace.
    #[default]
    OnlyAces,
    /// The config alternative of §8.2: the Ace counts as a face card for captures, so it takes
    /// face cards (Aces included) and Pawns, and any face card may take it.
    AsFaceCard,
}

/// Card Chess options. `Default` gives the rule file's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// §8.2: capture rules of the Ace (default [`AceCapture::OnlyAces`]).
    pub ace_capture: AceCapture,
    /// §9: consecutive turns without a capture, a play-in or a new check that draw the game
    /// (default 100; 0 turns the limit off).
    /// New games take the range of [`crate::length`].
    pub no_progress_turns: u32,
    /// §9: hard cap on turns, after which the game is drawn (default 1000; at least 1).
    /// New games take the range of [`crate::length`].
    pub max_turns: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ace_capture: AceCapture::OnlyAces,
            no_progress_turns: 100,
            max_turns: 1000,
        }
    }
}

impl Config {
    /// Checks the ranges (§12): a turn cap of at least 1. A problem names its field.
    pub fn validate(&self) -> Result<(), SetupError> {
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
