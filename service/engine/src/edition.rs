//! Rules editions: a game plays to its end under the rules it was created with.
//!
//! When a rule changes in a way that changes play (what is legal, what an action does, how or
//! why a game ends), the change belongs to a new [`Edition`], and rule code asks the state's
//! edition before applying it. New games get [`Edition::LATEST`]; a stored game keeps the edition
//! it was dealt under, so its past views and history never change and its future follows the
//! rules its players started with (docs/ARCHITECTURE.md §7).
//!
//! Edition 1 is the first release's rules. Edition 2 changed (docs/rules/conventions.md §6):
//!
//! * draw offers: one per seat per turn, renewable on a later turn, answered only by the
//!   offeree's own turn action (docs/rules/conventions.md §4);
//! * Pigeon Chess: a seat that could only end the game may pass (docs/rules/pigeon_chess.md §7.10);
//! * Pile Chess: how a pile tied among three or more sides is shared out, and a player already
//!   out who resigns no longer wins with their side (docs/rules/pile_chess.md §4, §7.2, §13);
//! * Raindropchess: flips legal on public information only (in any check while a joker is left);
//!   checkmate (failed flips included), stalemate, repetition and dead material end the game with
//!   their own reasons, dead material found before the no-progress limit
//!   (docs/rules/raindrop_chess.md §4, §6, §10);
//! * CHUNO: the deadlock draw is a stalemate, and a CHUNO call leaves a draw offer standing
//!   (docs/rules/chuno.md §9.13, §9.14, §14);
//! * Card Chess: a draw without a legal action is a stalemate, and the discard pile is reshuffled
//!   as soon as the draw pile becomes empty (docs/rules/card_chess.md §10).

use serde::{Deserialize, Serialize};
use std::fmt;

/// An edition of the rules of every game. Ordered: later editions compare greater.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Edition(u16);

impl Edition {
    /// The first release's rules: every game stored in session format 1 was dealt under it.
    pub const FIRST: Edition = Edition(1);
    /// The rules of the second release (see the module documentation for what changed).
    pub const SECOND: Edition = Edition(2);
    /// The edition new games are dealt under.
    pub const LATEST: Edition = Edition::SECOND;

    /// The edition numbered `number`, if it exists.
    pub fn from_number(number: u16) -> Option<Edition> {
        (Edition::FIRST.0..=Edition::LATEST.0)
            .contains(&number)
            .then_some(Edition(number))
    }

    /// The edition's number, from 1.
    pub fn number(self) -> u16 {
        self.0
    }

    /// Whether this edition has the rules introduced by `edition`.
    pub fn has(self, edition: Edition) -> bool {
        self >= edition
    }
}

impl Default for Edition {
    fn default() -> Self {
        Edition::LATEST
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "edition {}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_are_ordered_and_numbered() {
        assert!(Edition::FIRST < Edition::SECOND);
        assert_eq!(Edition::default(), Edition::LATEST);
        assert!(Edition::LATEST.has(Edition::SECOND));
        assert!(!Edition::FIRST.has(Edition::SECOND));
        assert_eq!(Edition::from_number(1), Some(Edition::FIRST));
        assert_eq!(Edition::from_number(2), Some(Edition::SECOND));
        assert_eq!(Edition::from_number(0), None);
        assert_eq!(Edition::from_number(Edition::LATEST.number() + 1), None);
        assert_eq!(Edition::SECOND.to_string(), "edition 2");
    }
}
