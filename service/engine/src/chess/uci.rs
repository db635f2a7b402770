//! A chess move as a player names it, in UCI notation (`e2e4`, `e7e8q`): the notation of the
//! chess moves of CHUNO and Raindropchess actions.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::Notation;
use std::str::FromStr;

use super::piece::Role;
use super::square::Square;

/// One chess move as a player names it (UCI): from, to and the promotion choice. Castling is the
/// King's move (`e1g1`); en passant is the pawn's diagonal step. Which moves are legal, and
/// which promotions a game offers, is each game's own rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChessMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it goes to.
    pub to: Square,
    /// The piece a pawn reaching the last rank becomes (Q, R, B or N); `None` for every other
    /// move, and for a pawn that stays a pawn where a game allows it.
    pub promotion: Option<Role>,
}

impl ChessMove {
    /// The move in UCI notation, such as `e2e4` or `e7e8q`.
    pub const fn notation(&self) -> Notation {
        uci_notation(self.from, self.to, self.promotion)
    }
}

impl fmt::Display for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

/// A move from `from` to `to` in UCI notation, with the promotion's lower-case letter.
pub(crate) const fn uci_notation(from: Square, to: Square, promotion: Option<Role>) -> Notation {
    let name = Notation::new()
        .push(b'a' + from.file())
        .push(b'1' + from.rank())
        .push(b'a' + to.file())
        .push(b'1' + to.rank());
    match promotion {
        Some(role) => name.push((role.letter() as u8).to_ascii_lowercase()),
        None => name,
    }
}

/// A string that is not a move in UCI notation (`e2e4`, `e7e8q`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a move: {0:?} (expected UCI such as e2e4 or e7e8q)")]
pub struct ParseUciError(pub String);

impl FromStr for ChessMove {
    type Err = ParseUciError;

    fn from_str(text: &str) -> Result<ChessMove, ParseUciError> {
        let error = || ParseUciError(text.to_string());
        let text = text.trim();
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(error());
        }
        let from = text[0..2].parse().map_err(|_| error())?;
        let to = text[2..4].parse().map_err(|_| error())?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(letter) => match Role::from_letter(letter) {
                Some(role @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(role),
                _ => return Err(error()),
            },
        };
        Ok(ChessMove {
            from,
            to,
            promotion,
        })
    }
}
