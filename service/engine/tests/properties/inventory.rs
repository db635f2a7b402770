//! What a game holds, counted from its state: every card in every zone, each seat's pieces on
//! the board and each seat's hidden hand. The engine contract has no generic way to count
//! cards and pieces, so this is the one per-game helper, reading the state's serialized form
//! (the field names of each game's `State`); a game it does not know fails the properties
//! loudly, and a renamed field fails them the same way.
//!
//! The zones of each game (docs/rules/):
//!
//! * Pile Chess: decks, hands (counts by piece), reuse piles, the round's piles, captured piles
//!   and the removed zone; pieces are cards.
//! * Card Chess: the base card and the piece card of every spot, hands, the draw pile and the
//!   discard pile.
//! * CHUNO: the deck, the discard pile and hands; the chess pieces of the position.
//! * Pigeon Chess: decks, hands (counts by piece), the board, point piles and the discard (a
//!   secret first-player pick names a card that stays in the hand).
//! * Raindropchess: decks and the flipped cards; the chess pieces of the position.

use serde_json::Value;

/// A game's holdings at one moment.
#[derive(Debug, PartialEq)]
pub(crate) struct Inventory {
    /// Cards in every zone; no action creates or destroys one.
    pub(crate) cards: usize,
    /// Pieces on the board by seat, for games whose pieces are not cards (empty otherwise).
    pub(crate) pieces: Vec<usize>,
    /// Each seat's hidden hand as a sorted multiset of card names (empty when the game has no
    /// hidden hands).
    pub(crate) hands: Vec<Vec<String>>,
}

/// The inventory of a state of game `game` (its id).
pub(crate) fn inventory(game: &str, state: &Value) -> Inventory {
    match game {
        "pile_chess" => pile_chess(state),
        "card_chess" => card_chess(state),
        "chuno" => chuno(state),
        "pigeon_chess" => pigeon_chess(state),
        "raindrop_chess" => raindrop_chess(state),
        other => panic!(
            "{other}: the conservation property does not know this game's zones; add them to \
             tests/properties/inventory.rs"
        ),
    }
}

fn field<'a>(value: &'a Value, name: &str) -> &'a Value {
    value
        .get(name)
        .unwrap_or_else(|| panic!("the state has no field {name:?}: {value}"))
}

fn list<'a>(value: &'a Value, name: &str) -> &'a Vec<Value> {
    field(value, name)
        .as_array()
        .unwrap_or_else(|| panic!("{name:?} is not a list: {value}"))
}

/// A count-by-piece hand (`[pawns, knights, …]`) as card names.
fn counted_hand(hand: &Value) -> Vec<String> {
    let counts = hand.as_array().expect("a hand of counts");
    let mut cards = Vec::new();
    for (piece, count) in counts.iter().enumerate() {
        let count = count.as_u64().expect("a count");
        cards.extend((0..count).map(|_| format!("piece {piece}")));
    }
    cards
}

/// A hand listed card by card, as sorted card names.
fn listed_hand(hand: &Value) -> Vec<String> {
    let mut cards: Vec<String> = hand
        .as_array()
        .expect("a hand")
        .iter()
        .map(Value::to_string)
        .collect();
    cards.sort();
    cards
}

/// Chess pieces by colour (seat 0 plays White) in the board part of a FEN.
fn fen_pieces(fen: &str) -> Vec<usize> {
    let board = fen.split(' ').next().expect("a FEN board");
    let white = board.chars().filter(char::is_ascii_uppercase).count();
    let black = board.chars().filter(char::is_ascii_lowercase).count();
    vec![white, black]
}

fn pile_chess(state: &Value) -> Inventory {
    let players = list(state, "players");
    let hands: Vec<Vec<String>> = players
        .iter()
        .map(|p| counted_hand(field(p, "hand")))
        .collect();
    let held: usize = players
        .iter()
        .map(|p| list(p, "deck").len() + list(p, "reuse").len())
        .sum::<usize>()
        + hands.iter().map(Vec::len).sum::<usize>();
    let piles: usize = list(state, "piles")
        .iter()
        .filter(|pile| !pile.is_null())
        .map(|pile| list(pile, "cards").len())
        .sum();
    let captured: usize = list(state, "captured")
        .iter()
        .map(|side| side.as_array().expect("a captured pile").len())
        .sum();
    Inventory {
        cards: held + piles + captured + list(state, "removed").len(),
        pieces: Vec::new(),
        hands,
    }
}

fn card_chess(state: &Value) -> Inventory {
    let on_board: usize = list(state, "board")
        .iter()
        .map(|spot| {
            usize::from(!field(spot, "base").is_null())
                + usize::from(!field(spot, "piece").is_null())
        })
        .sum();
    let hands: Vec<Vec<String>> = list(state, "hands").iter().map(listed_hand).collect();
    Inventory {
        cards: on_board
            + hands.iter().map(Vec::len).sum::<usize>()
            + list(state, "draw_pile").len()
            + list(state, "discard").len(),
        pieces: Vec::new(),
        hands,
    }
}

fn chuno(state: &Value) -> Inventory {
    let hands: Vec<Vec<String>> = list(state, "hands").iter().map(listed_hand).collect();
    let position = field(state, "position").as_str().expect("a FEN position");
    Inventory {
        cards: list(state, "deck").len()
            + list(state, "discard").len()
            + hands.iter().map(Vec::len).sum::<usize>(),
        pieces: fen_pieces(position),
        hands,
    }
}

fn pigeon_chess(state: &Value) -> Inventory {
    let hands: Vec<Vec<String>> = list(state, "hands").iter().map(counted_hand).collect();
    let decks: usize = list(state, "decks")
        .iter()
        .map(|deck| deck.as_array().expect("a deck").len())
        .sum();
    let points: usize = list(state, "point_piles")
        .iter()
        .map(|pile| pile.as_array().expect("a point pile").len())
        .sum();
    let on_board = list(state, "board")
        .iter()
        .filter(|spot| !spot.is_null())
        .count();
    Inventory {
        cards: hands.iter().map(Vec::len).sum::<usize>()
            + decks
            + points
            + on_board
            + list(state, "discard").len(),
        pieces: Vec::new(),
        hands,
    }
}

fn raindrop_chess(state: &Value) -> Inventory {
    let in_lists = |name: &str| -> usize {
        list(state, name)
            .iter()
            .map(|cards| cards.as_array().expect("a card list").len())
            .sum()
    };
    let position = field(state, "position").as_str().expect("a FEN position");
    Inventory {
        cards: in_lists("decks") + in_lists("flipped"),
        pieces: fen_pieces(position),
        hands: Vec::new(),
    }
}
