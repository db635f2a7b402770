//! CHUNO events: [`Event`] holds every detail and stays on the server; [`EventView`] is what
//! one viewer may know of it (docs/rules/chuno.md §8).
//!
//! Both enums come from one declaration (see `event_view.rs`): the fields marked `#[secret]`
//! are the only secrets, each with who may see it, and the views and the full reveal follow.

use serde::{Deserialize, Serialize};

use super::action::ChessMove;
use super::card::{Card, Colour};
use crate::chess::Role;
use crate::event_view::secret_events;
use crate::seat::Seat;

/// Why cards were drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DrawReason {
    /// §2: the deal.
    Deal,
    /// §4.4: the player chose to draw.
    Draw,
    /// §4.3: the opponent played a Draw Two.
    DrawTwo,
    /// §4.3: the opponent played a Wild Draw Four.
    WildDrawFour,
    /// §6: a CHUNO call was missed.
    Penalty,
}

/// A chess move as it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The moving seat.
    pub seat: Seat,
    /// The move.
    pub chess_move: ChessMove,
    /// The piece that moved (before any promotion).
    pub role: Role,
    /// The piece captured, if any (en passant included).
    pub captured: Option<Role>,
    /// Whether the move was castling.
    pub castle: bool,
    /// Whether the move captured en passant.
    pub en_passant: bool,
    /// §7: whether the move captured the enemy King.
    pub king_captured: bool,
}

secret_events! {
    /// Something that happened, with every detail.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Event {
        /// §2: the deck was shuffled.
        DeckShuffled {
            /// Cards in the deck.
            cards: u32,
        },
        /// A seat drew cards (fewer than asked when nothing was left to draw, §4).
        CardsDrawn {
            /// Who drew.
            seat: Seat,
            /// The cards, in draw order.
            #[secret(to = seat, len = count)]
            cards: Vec<Card>,
            /// Why.
            reason: DrawReason,
        },
        /// §2.3: the turned-up starting card was a wild card and went back into the deck at a
        /// random position.
        StarterReburied {
            /// The card.
            card: Card,
        },
        /// §2.3: the starting card was turned up; its effect is not applied.
        StarterTurned {
            /// The card.
            card: Card,
        },
        /// §4: a seat's turn began.
        TurnStarted {
            /// Whose turn.
            seat: Seat,
            /// Turn number from 1.
            turn: u32,
        },
        /// §4: a seat lost its turn to a skip; the other seat plays again.
        TurnSkipped {
            /// The seat that lost its turn.
            seat: Seat,
            /// Its counter afterwards.
            remaining: u32,
        },
        /// §4: a card was played.
        CardPlayed {
            /// Who played.
            seat: Seat,
            /// The card.
            card: Card,
            /// The active colour afterwards (chosen with a wild card).
            active_colour: Colour,
        },
        /// §4.3: a Skip, Draw Two or Wild Draw Four added to a seat's skip counter.
        SkipAdded {
            /// The seat that will lose a turn.
            seat: Seat,
            /// Its counter afterwards.
            counter: u32,
        },
        /// §5: a chess move.
        Moved(MoveRecord),
        /// §4.2: a Wild was played but no chess move was possible; the turn ends.
        NoMovePossible {
            /// The player.
            seat: Seat,
        },
        /// §4: the discards under the top card were shuffled into a new deck.
        Reshuffled {
            /// Cards in the new deck.
            cards: u32,
        },
        /// §6: a played card left the seat with one card: it must call CHUNO.
        ChunoObliged {
            /// The seat.
            seat: Seat,
        },
        /// §6: the seat called CHUNO.
        ChunoCalled {
            /// The seat.
            seat: Seat,
        },
        /// §6: the opponent acted before the seat called; it draws 2 penalty cards.
        ChunoMissed {
            /// The seat.
            seat: Seat,
        },
    }

    /// An event as one viewer may know it: drawn cards are `None` for viewers other than the
    /// drawer.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum EventView;
}
