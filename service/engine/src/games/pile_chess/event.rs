//! Pile Chess events. [`Event`] holds every detail and stays on the server; [`EventView`] is what
//! one viewer may know of it (docs/rules/pile_chess.md §6). Only the cards a player draws are
//! secret; everything else that happens is public and shared by every viewer as a
//! [`PublicEvent`].
//!
//! Both enums come from one declaration (see `event_view.rs`): the fields marked `#[secret]`
//! are the only secrets, each with who may see it, and the views and the full reveal follow.

use serde::{Deserialize, Serialize};

use super::piece::{Card, Role};
use crate::event_view::secret_events;
use crate::seat::Seat;

/// How a pile was opened (§3 step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PileSource {
    /// The top card of the owner's deck was revealed.
    DeckTop,
    /// The deck was empty, so the server picked a random card of the owner's hand.
    RandomFromHand,
}

/// Why a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OutReason {
    /// §3 step 3, §5: the player's King went to an opponent's captured pile.
    KingCaptured,
    /// §4: the player resigned (in a game of more than two seats, the others play on).
    Resigned,
    /// §4, docs/rules/conventions.md §8: the player's clock ran out (in a game of more than two
    /// seats, the others play on). The last variant, so that stored events keep their encoding.
    TimedOut,
}

/// One involved side's total in a pile (§3 step 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SideTotal {
    /// The side: the seat in free for all, the team's index in a team game.
    pub side: u8,
    /// The value of the side's cards in the pile.
    pub total: u32,
}

/// A card that went to a side's captured pile (§3 step 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CapturedCard {
    /// The side whose captured pile took it.
    pub side: u8,
    /// The card.
    pub card: Card,
}

/// Something public that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PublicEvent {
    /// §2, §3 step 4: a deck was shuffled (its order stays hidden from everyone).
    DeckShuffled {
        /// The deck's owner.
        seat: Seat,
    },
    /// §3: a round began.
    RoundStarted {
        /// The round number, from 1.
        round: u32,
        /// The player who acts first in the play step.
        first_player: Seat,
    },
    /// §3 step 1: a player's pile was opened with one card.
    PileOpened {
        /// The pile's owner.
        seat: Seat,
        /// The starting piece.
        piece: Role,
        /// Where it came from.
        source: PileSource,
    },
    /// §3 step 1, §7.9: the player had no card in deck or hand and has no pile this round.
    NoPile {
        /// The player.
        seat: Seat,
    },
    /// §3 step 2: a hand card was played on a pile.
    Played {
        /// The player.
        seat: Seat,
        /// The card.
        piece: Role,
        /// The seat whose pile it went on.
        pile: Seat,
    },
    /// §3 step 2: a player passed.
    Passed {
        /// The player.
        seat: Seat,
    },
    /// §3 step 2: a player castled: the Rook now opens their pile and the King is in their hand.
    Castled {
        /// The player.
        seat: Seat,
    },
    /// §3 step 2: a player moved own Pawns from one pile to another.
    EnPassant {
        /// The player.
        seat: Seat,
        /// The seat whose pile the Pawns left.
        from: Seat,
        /// The seat whose pile they went to.
        to: Seat,
        /// How many Pawns moved.
        pawns: u8,
    },
    /// §3 step 2: the round's play step ended.
    RoundEnded {
        /// The round number.
        round: u32,
    },
    /// §3 step 3: a pile was resolved.
    PileResolved {
        /// The pile's owner.
        pile: Seat,
        /// Each involved side's total, by side.
        totals: Vec<SideTotal>,
        /// The side with the single highest total; `None` on a shared highest total or an empty
        /// pile.
        winner: Option<u8>,
        /// Cards that went back to their owners' reuse piles.
        returned: Vec<Card>,
        /// Cards that went to captured piles.
        captured: Vec<CapturedCard>,
    },
    /// §3 step 3, §5: a player is out of the game.
    SeatOut {
        /// The player.
        seat: Seat,
        /// Why.
        reason: OutReason,
    },
    /// §5: a leaving teammate gave cards to a teammate's hand.
    Gifted {
        /// The leaving player.
        seat: Seat,
        /// The teammate.
        to: Seat,
        /// The cards, which become the teammate's own.
        pieces: Vec<Role>,
    },
    /// §5: a leaving player's cards went to the removed zone.
    CardsLeftGame {
        /// The player.
        seat: Seat,
        /// The cards (their remaining own cards, and in free for all their captured pile unless
        /// configured otherwise).
        cards: Vec<Card>,
    },
    /// §3 step 3 Promotion: a Pawn went to the removed zone and an own card came back.
    Promoted {
        /// The player.
        seat: Seat,
        /// The seat whose pile was won with Pawns only.
        pile: Seat,
        /// The captured pile the card came back from.
        captured_pile: u8,
        /// The card taken back into the reuse pile.
        piece: Role,
    },
    /// §3 step 3: a player let a promotion go.
    PromotionDeclined {
        /// The player.
        seat: Seat,
        /// The seat whose pile was won with Pawns only.
        pile: Seat,
    },
    /// §3 step 4: a player could not draw three cards.
    Shortfall {
        /// The player.
        seat: Seat,
        /// Cards the deck still held and the player drew.
        drawn: u32,
        /// The player's hand size after that draw, which the reshuffle restores.
        hand_size: u32,
        /// The player's reshuffle counter after this shortfall.
        reshuffles: u32,
        /// True when the counter was already at its limit, so the game ends as a stalemate.
        ends_game: bool,
    },
}

secret_events! {
    /// Something that happened, with every detail.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Event {
        /// §2, §3 step 4: a player drew cards from their deck into their hand.
        CardsDrawn {
            /// The player.
            seat: Seat,
            /// The cards, in draw order.
            #[secret(to = seat, len = count)]
            pieces: Vec<Role>,
        },
        /// Everything else, which every viewer sees.
        Public(PublicEvent),
    }

    /// An event as one viewer may know it.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum EventView;
}
