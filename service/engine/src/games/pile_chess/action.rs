//! Pile Chess actions (docs/rules/pile_chess.md §3 step 2 plays, §3 step 3 promotion, §5 the
//! gift of a leaving teammate; §9 gives their messages on the wire).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::piece::Role;
use crate::seat::Seat;

/// One Pile Chess decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// §3 step 2 Play: put a hand card on the pile of `pile` (any seat's pile of this round,
    /// the own one included). The card keeps its owner.
    Play {
        /// The card from the hand.
        piece: Role,
        /// The seat whose pile it goes on.
        pile: Seat,
    },
    /// §3 step 2 Pass: always legal during the play step.
    Pass,
    /// §3 step 2 Castle: the hand's Rook takes the place of the King that opened the own pile,
    /// and the King goes to the hand.
    Castle,
    /// §3 step 2 En passant: move `pawns` of the own Pawns from the pile of `from` to the pile of
    /// `to`, instead of playing a card.
    EnPassant {
        /// The seat whose pile the Pawns leave.
        from: Seat,
        /// The seat whose pile they go to.
        to: Seat,
        /// How many of the own Pawns move (at least 1).
        pawns: u8,
    },
    /// §5: a player whose King was captured gives up to two of their remaining cards (deck, hand
    /// or reuse pile) to the hand of a teammate still in the game. `pieces` is listed in
    /// decreasing piece order ([`Role`] order, King first); it may be empty, and then `to` is
    /// the first teammate still in, in seat order (§7.13).
    Gift {
        /// The teammate.
        to: Seat,
        /// The cards, King side first.
        pieces: Vec<Role>,
    },
    /// §3 step 3 Promotion: one Pawn of the won pile goes from the reuse pile to the removed
    /// zone, and the own card `piece` comes back from captured pile `captured_pile` (its index
    /// in [`super::Observation::captured_piles`]) to the reuse pile.
    Promote {
        /// The captured pile the card comes back from.
        captured_pile: u8,
        /// The own card taken back.
        piece: Role,
    },
    /// §3 step 3: the player does not promote for this pile.
    DeclinePromotion,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play { piece, pile } => write!(f, "play {piece} on pile {}", pile.0),
            Action::Pass => write!(f, "pass"),
            Action::Castle => write!(f, "castle"),
            Action::EnPassant { from, to, pawns } => {
                write!(
                    f,
                    "en passant {pawns}P from pile {} to pile {}",
                    from.0, to.0
                )
            }
            Action::Gift { to, pieces } => {
                let names: String = pieces.iter().map(|piece| piece.letter()).collect();
                write!(f, "gift [{names}] to seat {}", to.0)
            }
            Action::Promote {
                captured_pile,
                piece,
            } => write!(
                f,
                "promote, taking back {piece} from captured pile {captured_pile}"
            ),
            Action::DeclinePromotion => write!(f, "decline promotion"),
        }
    }
}
