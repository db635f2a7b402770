//! Raindropchess events (docs/rules/raindrop_chess.md §7, §13). [`Event`] holds every detail and
//! stays on the server; [`EventView`] is what a viewer may know. Only a shuffle holds a secret
//! (the deck order): while the game runs its view tells just the deck size; the complete history
//! of a finished game shows the order. Every other event (flipped cards included) is public.
//!
//! Both enums come from one declaration (see `event_view.rs`): the fields marked `#[secret]`
//! are the only secrets, each with who may see it, and the views and the full reveal follow.

use serde::{Deserialize, Serialize};

use super::action::ChessMove;
use super::card::Card;
use crate::chess::{Role, Square};
use crate::event_view::secret_events;
use crate::seat::Seat;

secret_events! {
    /// Something that happened, with every detail.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Event {
        /// §2: a seat's deck was shuffled (hidden order).
        DeckShuffled {
            /// Whose deck.
            seat: Seat,
            /// The order, bottom card first (hidden from everyone while the game runs).
            #[secret(to = nobody, len = cards)]
            order: Vec<Card>,
        },
        /// §3: a seat turned over the top card of its deck; the card is public.
        Flipped {
            /// Who flipped.
            seat: Seat,
            /// The card.
            card: Card,
        },
        /// §3: the flipped piece was placed.
        Placed {
            /// Who placed it.
            seat: Seat,
            /// The piece.
            role: Role,
            /// Where.
            square: Square,
            /// Whether it gives check.
            check: bool,
        },
        /// §3.4, §8.6: the flipped piece had no legal square; the card went to the bottom of the
        /// deck.
        CardReturned {
            /// Whose card.
            seat: Seat,
            /// The card.
            card: Card,
        },
        /// §3 joker `EXTRA_TURN`: the seat takes another turn at once.
        ExtraTurn {
            /// Who plays again.
            seat: Seat,
        },
        /// §3 joker `REMOVE_PIECE`: an enemy piece was removed.
        PieceRemoved {
            /// Who removed it.
            seat: Seat,
            /// The piece.
            role: Role,
            /// Where it stood.
            square: Square,
        },
        /// §3 joker `REMOVE_PIECE` with no enemy piece but the King on the board: nothing happens.
        JokerUnused {
            /// Whose joker.
            seat: Seat,
        },
        /// §5: a chess move.
        Moved {
            /// Who moved.
            seat: Seat,
            /// The move.
            chess_move: ChessMove,
            /// The piece that moved (before any promotion).
            role: Role,
            /// The captured piece, if any.
            captured: Option<Role>,
            /// Whether it gives check.
            check: bool,
        },
        /// §4: the flip while in check revealed a card that cannot end the check: the seat loses.
        FlipFailed {
            /// Who lost.
            seat: Seat,
        },
    }

    /// An event as a viewer may know it.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum EventView;
}
