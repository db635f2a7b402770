//! Pigeon Chess actions (docs/rules/pigeon_chess.md §2 setup choices, §3 turn actions).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::piece::{Role, Spot};

/// One Pigeon Chess decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// §2.2: the three hand cards for columns a, b, c of the own front row (secret).
    PlaceFrontRow([Role; 3]),
    /// §2.3: the three hand cards for columns a, b, c of the own back row (secret).
    PlaceBackRow([Role; 3]),
    /// §2.4: the hand card revealed to choose the first player (secret until both picked).
    RevealForFirst(Role),
    /// §3.3: move a face-up card, attacking what stands on `to`.
    Move {
        /// Where the card stands.
        from: Spot,
        /// Where it goes.
        to: Spot,
    },
    /// §3.3: put a hand card face down on an empty spot of the own back row.
    Place {
        /// The card.
        piece: Role,
        /// The spot.
        spot: Spot,
    },
    /// §3.2 / §5(a): end the game, with exactly one card on the board and none in hand.
    EndGame,
    /// §3.2, §7.10: let the turn go by instead of ending the game. Edition 2 on, and only while
    /// ending the game is the seat's one other choice.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::PlaceFrontRow([a, b, c]) => write!(f, "front {a}{b}{c}"),
            Action::PlaceBackRow([a, b, c]) => write!(f, "back {a}{b}{c}"),
            Action::RevealForFirst(piece) => write!(f, "reveal {piece}"),
            Action::Move { from, to } => write!(f, "{from}{to}"),
            Action::Place { piece, spot } => write!(f, "place {piece}@{spot}"),
            Action::EndGame => write!(f, "end"),
            Action::Pass => write!(f, "pass"),
        }
    }
}
