//! Pigeon Chess events: [`Event`] holds every detail and stays on the server; [`EventView`] is
//! what one viewer may know of it (docs/rules/pigeon_chess.md §6).
//!
//! Both enums come from one declaration (see `event_view.rs`): the fields marked `#[secret]`
//! are the only secrets, each with who may see it, and the views and the full reveal follow.

use serde::{Deserialize, Serialize};

use super::piece::{Role, Spot};
use crate::event_view::secret_events;
use crate::seat::Seat;

/// Which of a seat's two rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RowSide {
    /// The row next to the centre line.
    Front,
    /// The row behind it.
    Back,
}

secret_events! {
    /// Something that happened, with every detail.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Event {
        /// §2.1: a deck was shuffled.
        DeckShuffled {
            /// The deck's owner.
            seat: Seat,
        },
        /// A seat drew cards.
        CardsDrawn {
            /// Who drew.
            seat: Seat,
            /// The cards, in draw order.
            #[secret(to = seat, len = count)]
            pieces: Vec<Role>,
        },
        /// §2.2 / §2.3: a seat chose a row in secret.
        RowCommitted {
            /// Who chose.
            seat: Seat,
            /// Which row.
            side: RowSide,
            /// Columns a, b, c.
            #[secret(to = seat)]
            pieces: [Role; 3],
        },
        /// §2.2 / §2.5: both seats' rows were turned face up.
        RowsRevealed {
            /// Which rows.
            side: RowSide,
            /// Each seat's row, by seat.
            rows: [[Role; 3]; 2],
        },
        /// §2.4: a seat picked its first-player card in secret.
        FirstPlayerPicked {
            /// Who picked.
            seat: Seat,
            /// The card.
            #[secret(to = seat)]
            piece: Role,
        },
        /// §2.4: the first player was decided.
        FirstPlayerChosen {
            /// Each seat's revealed cards: the pick, then on a tie the other card.
            reveals: [Vec<Role>; 2],
            /// The first player.
            first_player: Seat,
            /// Whether two ties left the back-row arrival order to decide.
            decided_by_arrival: bool,
        },
        /// §3.1: a seat's turn began.
        TurnStarted {
            /// Whose turn.
            seat: Seat,
            /// Turn number from 1.
            turn: u32,
        },
        /// §3.1: a face-down card was turned face up.
        Flipped {
            /// Its owner.
            seat: Seat,
            /// Where.
            spot: Spot,
            /// The card.
            piece: Role,
        },
        /// §3.3: a card moved, possibly attacking.
        Moved {
            /// The mover.
            seat: Seat,
            /// From.
            from: Spot,
            /// To.
            to: Spot,
            /// The moving piece.
            piece: Role,
            /// The attacked piece, if any.
            captured: Option<Role>,
            /// Whether the attacked card went to the mover's point pile (not the group discard).
            captured_scored: bool,
            /// Whether a pawn reached the opponent's back row and scored.
            pawn_scored: bool,
        },
        /// §3.3: a card was placed face down.
        Placed {
            /// The placer.
            seat: Seat,
            /// Where.
            spot: Spot,
            /// The card.
            #[secret(to = seat)]
            piece: Role,
        },
        /// §3.4: the seat had no legal action and passed.
        Passed {
            /// Who passed.
            seat: Seat,
        },
        /// §3.2, §7.10: the seat chose to pass ([`super::Action::Pass`]) rather than end the game.
        /// A variant of its own, added last, so that events stored before it existed still decode.
        PassedByChoice {
            /// Who passed.
            seat: Seat,
        },
    }

    /// An event as one viewer may know it: the secret parts are `None` for viewers who may not
    /// see them.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum EventView;
}
