//! Card Chess actions (docs/rules/card_chess.md §3 A–C, §5.4 replacement).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::spot::Spot;
use crate::cards::Card;

/// One Card Chess decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// §3.A: play a card of the own colour from the hand onto a free spot of the own castle.
    PlayIn {
        /// The card.
        card: Card,
        /// The free castle spot.
        spot: Spot,
    },
    /// §3.B: show the hand, discard it and draw five.
    Exchange,
    /// §3.C: move one of the own pieces (a move, a jump or a capture; §4, §5).
    Move {
        /// Where the piece stands.
        from: Spot,
        /// Where it goes.
        to: Spot,
    },
    /// §5.4: replace the revealed opponent-coloured card with this opponent-coloured card from
    /// the hand.
    Replace {
        /// The card from the hand.
        card: Card,
    },
    /// §5.4: leave the revealed opponent-coloured card as it is.
    KeepRevealed,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::PlayIn { card, spot } => write!(f, "play {card} in on {spot}"),
            Action::Exchange => f.write_str("exchange"),
            Action::Move { from, to } => write!(f, "{from} to {to}"),
            Action::Replace { card } => write!(f, "replace with {card}"),
            Action::KeepRevealed => f.write_str("keep the revealed card"),
        }
    }
}
