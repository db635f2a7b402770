//! Raindropchess actions (docs/rules/raindrop_chess.md §3 turn, §5 chess moves, §11 on the wire)
//! and their notation: `flip`, `place e4`, `remove e4`, `e2e3`, `e7e8q`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::chess::Square;

// The event module names the move through this module.
pub(super) use crate::chess::ChessMove;

/// One Raindropchess decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// §3: turn over the top card of the own deck.
    Flip,
    /// §3: put the piece of the card just flipped on this empty square.
    Place(Square),
    /// §3 joker `REMOVE_PIECE`: take this enemy piece (not the King) off the board.
    Remove(Square),
    /// §3, §5: one chess move.
    Move(ChessMove),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Flip => f.write_str("flip"),
            Action::Place(square) => write!(f, "place {square}"),
            Action::Remove(square) => write!(f, "remove {square}"),
            Action::Move(chess_move) => write!(f, "{chess_move}"),
        }
    }
}

/// A string that is not an action (`flip`, `place e4`, `remove e4`, `e2e3`, `e7e8q`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an action: {0:?} (expected flip, place e4, remove e4, e2e3 or e7e8q)")]
pub struct ParseActionError(pub String);

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let error = || ParseActionError(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["flip"] => Ok(Action::Flip),
            ["place", square] => square.parse().map(Action::Place).map_err(|_| error()),
            ["remove", square] => square.parse().map(Action::Remove).map_err(|_| error()),
            [uci] => uci.parse().map(Action::Move).map_err(|_| error()),
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_reads_back_what_it_writes() {
        for text in ["flip", "place e4", "remove h8", "e2e3", "e7e8q", "a2a1n"] {
            let action: Action = text.parse().unwrap_or_else(|error| panic!("{error}"));
            assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn malformed_notation_is_refused() {
        for text in ["", "flop", "place", "place z9", "e2e9", "e7e8k", "remove"] {
            assert!(text.parse::<Action>().is_err(), "{text:?} parsed");
        }
    }
}
