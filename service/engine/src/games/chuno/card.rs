//! CHUNO cards (docs/rules/chuno.md §1): four colours, eight card kinds, and the short notation
//! people read and type (`R2`, `YS`, `GR`, `B+2`, `W`, `W+4`).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

use crate::{NameTable, Notation};
use std::str::FromStr;

/// A card colour (§1, §9.2): the four UNO colours, in the order cards are coloured round-robin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Red, `R`.
    Red,
    /// Yellow, `Y`.
    Yellow,
    /// Green, `G`.
    Green,
    /// Blue, `B`.
    Blue,
}

impl Colour {
    /// Every colour, in round-robin order (§1).
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Green, Colour::Blue];

    /// 0 (red) to 3 (blue).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name: R, Y, G or B.
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Yellow => 'Y',
            Colour::Green => 'G',
            Colour::Blue => 'B',
        }
    }

    /// The colour named by a letter of either case, or `None`.
    pub fn from_letter(letter: char) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|colour| colour.letter() == letter.to_ascii_uppercase())
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
        })
    }
}

/// What a card is, apart from its colour (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Number 0: no chess move (§4.1).
    Zero,
    /// Number 1: up to one chess move.
    One,
    /// Number 2: up to two chess moves.
    Two,
    /// Skip: the opponent loses their next turn (§4.3).
    Skip,
    /// Reverse: the player may at once play another card (§4.3).
    Reverse,
    /// Draw Two: the opponent draws 2 and loses their next turn (§4.3).
    DrawTwo,
    /// Wild: choose the colour, then one chess move (§4.2). Colourless.
    Wild,
    /// Wild Draw Four: choose the colour; the opponent draws 4 and loses their next turn
    /// (§4.3). Colourless.
    WildDrawFour,
}

impl Kind {
    /// Every kind, in the order of the deck table of §1.
    pub const ALL: [Kind; 8] = [
        Kind::Zero,
        Kind::One,
        Kind::Two,
        Kind::Skip,
        Kind::Reverse,
        Kind::DrawTwo,
        Kind::Wild,
        Kind::WildDrawFour,
    ];

    /// 0 (zero) to 7 (wild draw four), for per-kind arrays (`Kind::ALL[k.index()] == k`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the card is colourless (Wild or Wild Draw Four).
    pub fn is_wild(self) -> bool {
        matches!(self, Kind::Wild | Kind::WildDrawFour)
    }

    /// The number of a number card (0, 1 or 2), which is also the moves it grants (§4.1).
    pub fn number(self) -> Option<u8> {
        match self {
            Kind::Zero => Some(0),
            Kind::One => Some(1),
            Kind::Two => Some(2),
            _ => None,
        }
    }

    /// The notation after the colour letter: `0`, `1`, `2`, `S`, `R`, `+2`; `W` and `W+4` for
    /// the colourless cards.
    pub fn symbol(self) -> &'static str {
        match self {
            Kind::Zero => "0",
            Kind::One => "1",
            Kind::Two => "2",
            Kind::Skip => "S",
            Kind::Reverse => "R",
            Kind::DrawTwo => "+2",
            Kind::Wild => "W",
            Kind::WildDrawFour => "W+4",
        }
    }

    /// The name people use ("Draw Two").
    pub fn name(self) -> &'static str {
        match self {
            Kind::Zero => "0",
            Kind::One => "1",
            Kind::Two => "2",
            Kind::Skip => "Skip",
            Kind::Reverse => "Reverse",
            Kind::DrawTwo => "Draw Two",
            Kind::Wild => "Wild",
            Kind::WildDrawFour => "Wild Draw Four",
        }
    }
}

/// One card: a kind and, unless the kind is wild, a colour. Cards of the same kind and colour
/// are not told apart. Cards order by colour (red first, colourless last), then kind, so a sorted
/// hand is canonical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// What the card is.
    pub kind: Kind,
    /// Its colour; `None` exactly for the wild kinds.
    pub colour: Option<Colour>,
}

impl Card {
    /// A coloured card. `kind` must not be wild.
    pub fn coloured(colour: Colour, kind: Kind) -> Card {
        debug_assert!(!kind.is_wild(), "{kind:?} has no colour");
        Card {
            kind,
            colour: Some(colour),
        }
    }

    /// The plain Wild.
    pub const WILD: Card = Card {
        kind: Kind::Wild,
        colour: None,
    };

    /// The Wild Draw Four.
    pub const WILD_DRAW_FOUR: Card = Card {
        kind: Kind::WildDrawFour,
        colour: None,
    };

    /// Whether the card is colourless (Wild or Wild Draw Four).
    pub fn is_wild(self) -> bool {
        self.kind.is_wild()
    }

    /// Whether kind and colour agree: wild kinds have no colour, every other kind has one.
    pub fn is_well_formed(self) -> bool {
        self.kind.is_wild() == self.colour.is_none()
    }

    fn sort_key(self) -> (usize, usize) {
        (
            self.colour.map_or(Colour::ALL.len(), Colour::index),
            self.kind.index(),
        )
    }
}

impl Ord for Card {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key().cmp(&other.sort_key())
    }
}

impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Card {
    /// The card's notation, such as `R2`, `B+2` or `W+4`.
    pub fn notation(self) -> Notation {
        let name = match self.colour {
            Some(colour) => Notation::new().push(colour.letter() as u8),
            None => Notation::new(),
        };
        name.push_str(self.kind.symbol())
    }

    /// The card's notation, spelled once for the program's life.
    pub fn name(self) -> &'static str {
        static NAMES: NameTable<{ Card::INDICES }> =
            NameTable::new(|index| Card::from_index(index).notation());
        NAMES.name(self.index())
    }

    /// How many numbers [`Card::index`] gives: every kind with every colour and with none
    /// (including pairs no deck holds, such as a coloured wild card), for per-card tables.
    pub const INDICES: usize = Kind::ALL.len() * COLOURS_OR_NONE;

    /// The card's number below [`Card::INDICES`]: the kind, then the colour (0–3, or 4 for none).
    pub fn index(self) -> usize {
        let colour = self.colour.map_or(Colour::ALL.len(), Colour::index);
        self.kind.index() * COLOURS_OR_NONE + colour
    }

    /// The card [`Card::index`] numbers `index` (below [`Card::INDICES`]).
    pub const fn from_index(index: usize) -> Card {
        let colour = index % COLOURS_OR_NONE;
        Card {
            kind: Kind::ALL[index / COLOURS_OR_NONE],
            colour: if colour < Colour::ALL.len() {
                Some(Colour::ALL[colour])
            } else {
                None
            },
        }
    }
}

/// A card's colour slot in [`Card::index`]: one of the colours, or none.
const COLOURS_OR_NONE: usize = Colour::ALL.len() + 1;

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

/// A string that is not a card: a colour letter then `0`, `1`, `2`, `S`, `R` or `+2`, or `W` or
/// `W+4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {0:?} (expected R2, YS, GR, B+2, W or W+4)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(text: &str) -> Result<Card, ParseCardError> {
        let error = || ParseCardError(text.to_string());
        let upper = text.trim().to_ascii_uppercase();
        if upper == Kind::Wild.symbol() {
            return Ok(Card::WILD);
        }
        if upper == Kind::WildDrawFour.symbol() {
            return Ok(Card::WILD_DRAW_FOUR);
        }
        let mut chars = upper.chars();
        let colour = chars
            .next()
            .and_then(Colour::from_letter)
            .ok_or_else(error)?;
        let rest = chars.as_str();
        let kind = Kind::ALL
            .into_iter()
            .filter(|kind| !kind.is_wild())
            .find(|kind| kind.symbol() == rest)
            .ok_or_else(error)?;
        Ok(Card::coloured(colour, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_has_its_own_index() {
        let mut seen = [false; Card::INDICES];
        for kind in Kind::ALL {
            for colour in Colour::ALL.map(Some).into_iter().chain([None]) {
                let card = Card { kind, colour };
                let index = card.index();
                assert!(index < Card::INDICES && !seen[index], "{card:?}");
                seen[index] = true;
                assert_eq!(Card::from_index(index), card);
            }
        }
        assert!(seen.iter().all(|&taken| taken), "every index names a card");
    }

    #[test]
    fn names_are_the_notation() {
        for kind in Kind::ALL {
            let colours: Vec<Option<Colour>> = if kind.is_wild() {
                vec![None]
            } else {
                Colour::ALL.into_iter().map(Some).collect()
            };
            for colour in colours {
                let card = Card { kind, colour };
                assert_eq!(card.name(), card.notation().as_str());
            }
        }
    }

    #[test]
    fn notation_round_trips_for_every_card() {
        let mut all = vec![Card::WILD, Card::WILD_DRAW_FOUR];
        for colour in Colour::ALL {
            for kind in Kind::ALL.into_iter().filter(|kind| !kind.is_wild()) {
                all.push(Card::coloured(colour, kind));
            }
        }
        for card in &all {
            assert!(card.is_well_formed());
            assert_eq!(card.to_string().parse::<Card>(), Ok(*card), "{card}");
        }
        assert_eq!(
            "r2".parse::<Card>(),
            Ok(Card::coloured(Colour::Red, Kind::Two))
        );
        assert_eq!("B+2".parse::<Card>().unwrap().to_string(), "B+2");
        for bad in ["", "X2", "R3", "RW", "W+2", "R", "+4"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn cards_sort_by_colour_then_kind_with_wilds_last() {
        let mut cards: Vec<Card> = ["W", "B1", "R+2", "W+4", "R0", "YS"]
            .iter()
            .map(|text| text.parse().unwrap())
            .collect();
        cards.sort();
        let names: Vec<String> = cards.iter().map(Card::to_string).collect();
        assert_eq!(names, ["R0", "R+2", "YS", "B1", "W", "W+4"]);
    }
}
