//! Moves, their UCI notation, and the move list.

use super::piece::Role;
use super::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

use super::uci::uci_notation;
use crate::Notation;

/// What kind of move a [`Move`] is, so that playing it needs no further look-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveKind {
    /// Any move or capture not listed below (promotions included: see [`Move::promotion`]).
    Normal,
    /// A pawn's two-square advance that opens an en passant chance for the opponent. Generated
    /// only when the rules allow en passant; otherwise a double step is [`MoveKind::Normal`].
    DoubleStep,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, written as the king's move (e1g1, e1c1, e8g8, e8c8).
    Castle,
}

/// A chess move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The square the piece leaves (the king's square for castling).
    pub from: Square,
    /// The square the piece reaches (the king's target for castling).
    pub to: Square,
    /// The role a promoting pawn becomes; `None` for every other move.
    pub promotion: Option<Role>,
    /// The kind of move.
    pub kind: MoveKind,
}

/// Why a UCI string names no move of the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Not of the form `e2e4` or `e7e8q`.
    #[error("not a move in UCI notation: {0:?}")]
    Syntax(String),
    /// Well formed, but not a move of the position under the rules.
    #[error("not a legal move here: {0}")]
    Illegal(String),
}

impl Move {
    /// A plain move with no promotion.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            promotion: None,
            kind,
        }
    }

    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    pub fn uci(&self) -> String {
        self.to_string()
    }

    /// The move of `position` under `rules` that the UCI string names.
    pub fn parse_uci(
        text: &str,
        position: &super::Position,
        rules: &super::Rules,
    ) -> Result<Move, ParseMoveError> {
        let syntax = || ParseMoveError::Syntax(text.to_owned());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) if c.is_ascii_lowercase() => Some(Role::from_letter(c).ok_or_else(syntax)?),
            Some(_) => return Err(syntax()),
        };
        position
            .legal_moves(rules)
            .into_iter()
            .find(|m| m.from == from && m.to == to && m.promotion == promotion)
            .ok_or_else(|| ParseMoveError::Illegal(text.to_owned()))
    }
}

impl Move {
    /// The move in UCI notation, such as `e2e4` or `e7e8q`.
    pub const fn notation(&self) -> Notation {
        uci_notation(self.from, self.to, self.promotion)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.notation(), f)
    }
}

/// Moves kept inline up to this many; positions with more (possible only in set-up
/// positions with many pieces) spill onto the heap.
const INLINE: usize = 256;

/// A list of moves, stored inline (no allocation) for every position of ordinary play.
#[derive(Clone)]
pub struct MoveList {
    inline: [Move; INLINE],
    len: usize,
    spill: Vec<Move>,
}

const FILLER: Move = Move::new(Square::A1, Square::A1, MoveKind::Normal);

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            inline: [FILLER; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.len < INLINE {
            self.inline[self.len] = mv;
            self.len += 1;
        } else {
            self.spill.push(mv);
        }
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in generation order.
    pub fn iter(&self) -> impl Iterator<Item = &Move> + '_ {
        self.inline[..self.len].iter().chain(self.spill.iter())
    }

    /// The move at `index`, if any.
    pub fn get(&self, index: usize) -> Option<&Move> {
        if index < self.len {
            Some(&self.inline[index])
        } else {
            self.spill.get(index - self.len)
        }
    }

    /// Whether the list holds `mv`.
    pub fn contains(&self, mv: &Move) -> bool {
        self.iter().any(|m| m == mv)
    }

    /// The moves as a vector.
    pub fn to_vec(&self) -> Vec<Move> {
        self.iter().copied().collect()
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for MoveList {}

/// Iterates over a [`MoveList`] by value.
pub struct MoveListIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let mv = self.list.get(self.next).copied();
        self.next += usize::from(mv.is_some());
        mv
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let rest = self.list.len() - self.next;
        (rest, Some(rest))
    }
}

impl ExactSizeIterator for MoveListIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIter;
    fn into_iter(self) -> MoveListIter {
        MoveListIter {
            list: self,
            next: 0,
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::iter::Chain<std::slice::Iter<'a, Move>, std::slice::Iter<'a, Move>>;
    fn into_iter(self) -> Self::IntoIter {
        self.inline[..self.len].iter().chain(self.spill.iter())
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for mv in iter {
            self.push(mv);
        }
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> MoveList {
        let mut list = MoveList::new();
        list.extend(iter);
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_text() {
        let e2: Square = "e2".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(Move::new(e2, e4, MoveKind::DoubleStep).uci(), "e2e4");
        let promo = Move {
            from: "e7".parse().unwrap(),
            to: "e8".parse().unwrap(),
            promotion: Some(Role::Queen),
            kind: MoveKind::Normal,
        };
        assert_eq!(promo.uci(), "e7e8q");
    }

    #[test]
    fn list_spills_past_inline_capacity() {
        let mut list = MoveList::new();
        let moves: Vec<Move> = (0..300)
            .map(|i| {
                Move::new(
                    Square::new((i % 64) as u8).unwrap(),
                    Square::A1,
                    MoveKind::Normal,
                )
            })
            .collect();
        list.extend(moves.iter().copied());
        assert_eq!(list.len(), 300);
        assert_eq!(list.to_vec(), moves);
        assert_eq!(list.clone().into_iter().collect::<Vec<_>>(), moves);
        assert_eq!((&list).into_iter().count(), 300);
        assert_eq!(list.get(299), Some(&moves[299]));
        assert_eq!(list.get(300), None);
        assert!(list.contains(&moves[270]));
    }
}
