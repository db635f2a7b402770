//! CHUNO actions (docs/rules/chuno.md §4 turn, §6 CHUNO call) and their notation: `play R2`,
//! `play W G` (a Wild choosing green), `e2e4`, `e7e8q`, `end`, `draw`, `chuno`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use super::card::{Card, Colour};
use crate::Notation;
// The event module names the move through this module.
pub(super) use crate::chess::ChessMove;

/// One CHUNO decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// §4.1–§4.3: play a card from the hand. `colour` is the new active colour chosen with a Wild
    /// or Wild Draw Four, and `None` for every coloured card.
    Play {
        /// The card.
        card: Card,
        /// The colour chosen with a wild card.
        colour: Option<Colour>,
    },
    /// §4.1, §4.2, §5: one chess move granted by the card just played.
    Move(ChessMove),
    /// §4.1, §4.3: end the turn early (moves left after a number card, or no follow-up card after
    /// a Reverse).
    EndTurn,
    /// §4.4: draw one card; the turn ends at once.
    Draw,
    /// §6: call CHUNO with one card left; accepted out of turn.
    CallChuno,
}

impl Action {
    /// The action in notation, such as `play R2`, `play W+4 G`, `e2e4` or `end`.
    pub fn notation(&self) -> Notation {
        match self {
            Action::Play { card, colour } => {
                let name = Notation::new()
                    .push_str("play ")
                    .push_notation(card.notation());
                match colour {
                    Some(colour) => name.push(b' ').push(colour.letter() as u8),
                    None => name,
                }
            }
            Action::Move(chess_move) => chess_move.notation(),
            Action::EndTurn => Notation::new().push_str("end"),
            Action::Draw => Notation::new().push_str("draw"),
            Action::CallChuno => Notation::new().push_str("chuno"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

/// A string that is not an action (`play R2`, `play W G`, `e2e4`, `end`, `draw`, `chuno`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an action: {0:?} (expected play R2, play W G, e2e4, e7e8q, end, draw or chuno)")]
pub struct ParseActionError(pub String);

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let error = || ParseActionError(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["end"] => Ok(Action::EndTurn),
            ["draw"] => Ok(Action::Draw),
            ["chuno"] => Ok(Action::CallChuno),
            ["play", card] => {
                let card: Card = card.parse().map_err(|_| error())?;
                Ok(Action::Play { card, colour: None })
            }
            ["play", card, colour] => {
                let card: Card = card.parse().map_err(|_| error())?;
                let mut letters = colour.chars();
                let colour = match (letters.next(), letters.next()) {
                    (Some(letter), None) => Colour::from_letter(letter).ok_or_else(error)?,
                    _ => return Err(error()),
                };
                Ok(Action::Play {
                    card,
                    colour: Some(colour),
                })
            }
            [uci] => uci.parse().map(Action::Move).map_err(|_| error()),
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Role, Square};

    #[test]
    fn notation_reads_back_what_it_writes() {
        for text in [
            "play R2",
            "play YS",
            "play W G",
            "play W+4 B",
            "e2e4",
            "e7e8q",
            "a2a1n",
            "e1g1",
            "end",
            "draw",
            "chuno",
        ] {
            let action: Action = text.parse().unwrap_or_else(|error| panic!("{error}"));
            assert_eq!(action.to_string(), text);
        }
        let promotion: Action = "e7e8q".parse().unwrap();
        assert_eq!(
            promotion,
            Action::Move(ChessMove {
                from: Square::from_coords(4, 6).unwrap(),
                to: Square::E8,
                promotion: Some(Role::Queen),
            })
        );
    }

    #[test]
    fn malformed_notation_is_refused() {
        for text in [
            "",
            "play",
            "play X9",
            "play W GG",
            "play W Q",
            "e2e9",
            "e7e8k",
            "e7e8qq",
            "jump",
            "play R2 G H",
        ] {
            assert!(text.parse::<Action>().is_err(), "{text:?} parsed");
        }
    }
}
