//! Standard playing cards (52 per deck, no jokers), shared by the games that use them.
//!
//! A [`Card`] is a [`Rank`] and a [`Suit`]; its [`Colour`] follows from the suit (hearts and
//! diamonds are red, spades and clubs black). Cards of several decks shuffled together are not
//! told apart: two `7♥` are equal values. Cards order by rank, then suit, so a sorted hand is
//! canonical.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A card's suit, in the order clubs, diamonds, hearts, spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// ♣, black.
    Clubs,
    /// ♦, red.
    Diamonds,
    /// ♥, red.
    Hearts,
    /// ♠, black.
    Spades,
}

impl Suit {
    /// Every suit, in order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's colour: hearts and diamonds are red, spades and clubs black.
    pub fn colour(self) -> Colour {
        match self {
            Suit::Diamonds | Suit::Hearts => Colour::Red,
            Suit::Clubs | Suit::Spades => Colour::Black,
        }
    }

    /// The one-letter name: C, D, H, S.
    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }
}

/// The colour of a suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Hearts and diamonds.
    Red,
    /// Spades and clubs.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Black => "black",
        })
    }
}

/// A card's rank, Two to Ace. The numeric value ([`Rank::value`]) is 2–10 for number cards,
/// 11–13 for Jack, Queen, King and 1 for the Ace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rank {
    /// 2.
    Two,
    /// 3.
    Three,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7.
    Seven,
    /// 8.
    Eight,
    /// 9.
    Nine,
    /// 10.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Ace.
    Ace,
}

impl Rank {
    /// Every rank, Two to Ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The usual number: 2–10, Jack 11, Queen 12, King 13, Ace 1.
    pub fn value(self) -> u8 {
        match self {
            Rank::Ace => 1,
            other => other as u8 + 2,
        }
    }

    /// The rank with the usual number [`Rank::value`], if any.
    pub fn from_value(value: u8) -> Option<Rank> {
        match value {
            1 => Some(Rank::Ace),
            2..=13 => Some(Rank::ALL[usize::from(value) - 2]),
            _ => None,
        }
    }

    /// Whether this is a number card (2–10).
    pub fn is_number(self) -> bool {
        self <= Rank::Ten
    }

    /// Whether this is a Jack, Queen or King.
    pub fn is_face(self) -> bool {
        matches!(self, Rank::Jack | Rank::Queen | Rank::King)
    }

    /// The short name: 2–10, J, Q, K, A.
    pub fn short_name(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }
}

/// One playing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Card {
    /// The rank.
    pub rank: Rank,
    /// The suit.
    pub suit: Suit,
}

impl Card {
    /// The card of `rank` and `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// The card's colour, from its suit.
    pub fn colour(self) -> Colour {
        self.suit.colour()
    }
}

impl fmt::Display for Card {
    /// Short form such as `10H`, `QS` or `AD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.short_name(), self.suit.letter())
    }
}

/// `decks` standard 52-card decks, unshuffled: each deck in suit order, ranks Two to Ace.
pub fn standard_decks(decks: usize) -> Vec<Card> {
    let one_deck = Suit::ALL
        .iter()
        .flat_map(|suit| Rank::ALL.iter().map(move |rank| Card::new(*rank, *suit)));
    std::iter::repeat_n(one_deck, decks).flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_holds_52_distinct_cards_half_of_each_colour() {
        let mut deck = standard_decks(1);
        assert_eq!(deck.len(), 52);
        let red = deck
            .iter()
            .filter(|card| card.colour() == Colour::Red)
            .count();
        assert_eq!(red, 26);
        deck.sort();
        deck.dedup();
        assert_eq!(deck.len(), 52);
        assert_eq!(standard_decks(2).len(), 104);
    }

    #[test]
    fn rank_values_and_names() {
        for rank in Rank::ALL {
            assert_eq!(Rank::from_value(rank.value()), Some(rank));
        }
        assert_eq!(Rank::from_value(0), None);
        assert_eq!(Rank::from_value(14), None);
        assert_eq!(Rank::Ten.value(), 10);
        assert_eq!(Rank::Ace.value(), 1);
        assert!(Rank::Ten.is_number() && !Rank::Jack.is_number() && !Rank::Ace.is_number());
        assert!(Rank::King.is_face() && !Rank::Ace.is_face() && !Rank::Two.is_face());
        assert_eq!(Card::new(Rank::Ten, Suit::Hearts).to_string(), "10H");
        assert_eq!(Card::new(Rank::Queen, Suit::Spades).to_string(), "QS");
        assert_eq!(Colour::Red.other(), Colour::Black);
    }
}
