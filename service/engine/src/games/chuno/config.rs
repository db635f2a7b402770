//! Options (docs/rules/chuno.md §1 deck and colours, §9.4 strict castling, §10 caps).

use serde::{Deserialize, Serialize};

use super::card::{Card, Colour, Kind};
use crate::game::SetupError;
use crate::length::{Cap, CappedLength, LengthCaps};

/// §2: cards dealt to each player at the start.
pub const HAND_SIZE: usize = 7;

/// The most cards of one kind a deck may hold.
pub const MAX_PER_KIND: u16 = 200;

/// The config fields holding the card counts, in the order of [`Kind::ALL`].
const COUNT_FIELDS: [&str; 8] = [
    "zeros",
    "ones",
    "twos",
    "skips",
    "reverses",
    "draw_twos",
    "wilds",
    "wild_draw_fours",
];

/// CHUNO options. `Default` gives the rule file's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// §1, §9.1: cards of each kind in the deck, indexed by [`Kind::index`] (default 6 zeros,
    /// 30 ones, 20 twos, 8 Skips, 8 Reverses, 8 Draw Twos, 10 Wilds, 6 Wild Draw Fours: 96).
    pub deck: [u16; 8],
    /// §1, §9.2: how many colours the coloured cards are spread over, round-robin in the order
    /// red, yellow, green, blue (default 4; 1 to 4).
    pub colours: u8,
    /// §9.4: whether castling must avoid attacks (the chess core's `castling_avoids_attacks`:
    /// the King not attacked on its square, the square it crosses or its target). Default
    /// false: check does not exist, so castling ignores attacks too.
    pub strict_castling: bool,
    /// §10: the game is drawn after this many consecutive chess moves without a capture or a pawn
    /// move (default 150; 0 turns the limit off). New games take the range of [`crate::length`].
    pub no_progress_moves: u32,
    /// §10: the game is drawn after this many turns; skipped turns do not count (default 500; at
    /// least 1). New games take the range of [`crate::length`].
    pub max_turns: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            deck: [6, 30, 20, 8, 8, 8, 10, 6],
            colours: 4,
            strict_castling: false,
            no_progress_moves: 150,
            max_turns: 500,
        }
    }
}

impl Config {
    /// Cards of `kind` in the deck.
    pub fn count(&self, kind: Kind) -> u16 {
        self.deck[kind.index()]
    }

    /// Cards in the deck.
    pub fn deck_size(&self) -> usize {
        self.deck.iter().map(|count| usize::from(*count)).sum()
    }

    /// Coloured (not wild) cards in the deck.
    pub fn coloured_cards(&self) -> usize {
        Kind::ALL
            .into_iter()
            .filter(|kind| !kind.is_wild())
            .map(|kind| usize::from(self.count(kind)))
            .sum()
    }

    /// The colours in play: the first [`Config::colours`] of [`Colour::ALL`].
    pub fn colours_in_play(&self) -> &'static [Colour] {
        let count = usize::from(self.colours).clamp(1, Colour::ALL.len());
        &Colour::ALL[..count]
    }

    /// §1: the whole deck, unshuffled: kind by kind in the order of [`Kind::ALL`], the coloured
    /// kinds coloured round-robin red, yellow, green, blue (over the colours in play).
    pub fn build_deck(&self) -> Vec<Card> {
        let colours = self.colours_in_play();
        let mut deck = Vec::with_capacity(self.deck_size());
        for kind in Kind::ALL {
            for index in 0..usize::from(self.count(kind)) {
                deck.push(if kind.is_wild() {
                    Card { kind, colour: None }
                } else {
                    Card::coloured(colours[index % colours.len()], kind)
                });
            }
        }
        deck
    }

    /// Checks the ranges (§1, §9.1, §9.2, §10): at most [`MAX_PER_KIND`] cards of a kind, 1 to
    /// 4 colours, enough coloured cards that one is left to turn up after the deal (more than
    /// 2 × 7, §9.22) and a turn cap of at least 1. A problem of one option names its field (a
    /// count by its field, `zeros` to `wild_draw_fours`); too few coloured cards is a problem of the counts together.
    pub fn validate(&self) -> Result<(), SetupError> {
        for (field, count) in COUNT_FIELDS.into_iter().zip(self.deck) {
            if count > MAX_PER_KIND {
                return Err(SetupError::invalid_config(
                    field,
                    format!("at most {MAX_PER_KIND} cards, not {count}"),
                ));
            }
        }
        if !(1..=Colour::ALL.len()).contains(&usize::from(self.colours)) {
            return Err(SetupError::invalid_config(
                "colours",
                format!("1 to 4 colours, not {}", self.colours),
            ));
        }
        let needed = 2 * HAND_SIZE + 1;
        if self.coloured_cards() < needed {
            return Err(SetupError::invalid_config(
                "",
                format!(
                    "the deck needs at least {needed} coloured cards (two hands of {HAND_SIZE} \
                     and a starting card), not {}",
                    self.coloured_cards()
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
                field: "no_progress_moves",
                value: self.no_progress_moves,
                default: default.no_progress_moves,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_deck_holds_the_itemised_96_cards_coloured_round_robin() {
        let config = Config::default();
        assert_eq!(config.validate(), Ok(()));
        let deck = config.build_deck();
        assert_eq!(deck.len(), 96);
        let count = |card: Card| deck.iter().filter(|c| **c == card).count();
        use Colour::{Blue, Green, Red, Yellow};
        assert_eq!(
            [Red, Yellow, Green, Blue].map(|c| count(Card::coloured(c, Kind::One))),
            [8, 8, 7, 7]
        );
        assert_eq!(count(Card::WILD), 10);
        assert_eq!(count(Card::WILD_DRAW_FOUR), 6);
    }

    #[test]
    fn out_of_range_options_are_refused() {
        let bad = [
            Config {
                colours: 0,
                ..Config::default()
            },
            Config {
                colours: 5,
                ..Config::default()
            },
            Config {
                max_turns: 0,
                ..Config::default()
            },
            Config {
                deck: [0, 14, 0, 0, 0, 0, 10, 6],
                ..Config::default()
            },
            Config {
                deck: [0, 201, 0, 0, 0, 0, 0, 0],
                ..Config::default()
            },
        ];
        for config in bad {
            assert!(config.validate().is_err(), "{config:?}");
        }
    }
}
