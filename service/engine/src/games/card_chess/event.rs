//! Card Chess events: [`Event`] holds every detail and stays on the server; [`EventView`] is
//! what one viewer may know of it (docs/rules/card_chess.md §7).
//!
//! No event ever names a base card that has not been face up: the deal of the board reports
//! only how many cards were dealt, even in the complete history of a finished game (§7).
//!
//! Both enums come from one declaration (see `event_view.rs`): the fields marked `#[secret]`
//! are the only secrets, each with who may see it, and the views and the full reveal follow.

use serde::{Deserialize, Serialize};

use super::spot::Spot;
use crate::cards::Card;
use crate::event_view::secret_events;
use crate::seat::Seat;

secret_events! {
    /// Something that happened, with every detail.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Event {
        /// §2.1: the 104 cards were shuffled.
        DeckShuffled {
            /// How many cards.
            cards: u32,
        },
        /// §2.2: one face-down base card was dealt to every spot.
        BoardDealt {
            /// How many spots.
            spots: u32,
        },
        /// §2.3, §3 end of turn, §3.B: a seat drew cards from the draw pile.
        CardsDrawn {
            /// Who drew.
            seat: Seat,
            /// The cards, in draw order.
            #[secret(to = seat, len = count)]
            cards: Vec<Card>,
        },
        /// §3 end of turn: the draw pile ran out and the discard pile was shuffled into a new one.
        DiscardReshuffled {
            /// How many cards the new draw pile holds.
            cards: u32,
        },
        /// §3.A: a card was played in.
        PlayedIn {
            /// The player.
            seat: Seat,
            /// The card, now a piece.
            card: Card,
            /// The castle spot.
            spot: Spot,
        },
        /// §3.B: a seat showed its hand and discarded it.
        Exchanged {
            /// The player.
            seat: Seat,
            /// The hand that was shown and discarded.
            cards: Vec<Card>,
        },
        /// §3.C, §4: a piece moved to a spot without a piece.
        Moved {
            /// The mover.
            seat: Seat,
            /// From.
            from: Spot,
            /// To.
            to: Spot,
            /// The moving piece.
            piece: Card,
            /// Whether it was an Ace's jump (§4).
            jump: bool,
        },
        /// §5: a piece captured and the spot was flipped.
        Captured {
            /// The capturer.
            seat: Seat,
            /// From.
            from: Spot,
            /// The spot of the capture.
            to: Spot,
            /// The capturing piece, now the spot's face-down (known) base card.
            piece: Card,
            /// The captured piece, now discarded.
            captured: Card,
            /// The old base card, turned face up: now the piece on the spot.
            revealed: Card,
        },
        /// §5.4: the revealed opponent-coloured card was replaced from the capturer's hand.
        Replaced {
            /// The capturer.
            seat: Seat,
            /// The spot.
            spot: Spot,
            /// The card from the hand, now the piece.
            card: Card,
            /// The revealed card, now discarded.
            discarded: Card,
        },
        /// §5.4: the capturer left the revealed opponent-coloured card in place.
        RevealedKept {
            /// The capturer.
            seat: Seat,
            /// The spot.
            spot: Spot,
        },
        /// §3 Check: a piece reached the opponent's castle and it and its spot are in check.
        Checked {
            /// The piece's owner.
            seat: Seat,
            /// The spot.
            spot: Spot,
            /// The piece.
            piece: Card,
        },
        /// §6: the seat to move had no legal action; both hands were shown to judge the result.
        NoLegalAction {
            /// The seat without a legal action.
            seat: Seat,
            /// Both hands, by seat.
            hands: [Vec<Card>; 2],
            /// Whether the opponent could have played in or moved: then `seat` lost, otherwise the
            /// game is a stalemate.
            opponent_could_act: bool,
        },
    }

    /// An event as one viewer may know it: the cards another seat drew are `None`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum EventView;
}
