//! What one viewer sees (docs/rules/pile_chess.md §6). Other players' hands and every deck's order
//! cannot be represented here: a deck shows only its count, another player's hand only its
//! count.

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::event::PileSource;
use super::piece::{Card, Role};
use crate::seat::Seat;

/// Where in the round the game is. Steps 1, 3 and 4 of §3 (opening piles, resolution, draws)
/// need no decision and happen at once; the game waits only in these steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// §3 step 2: players take turns playing, passing, castling or moving Pawns.
    Play,
    /// §5: a leaving teammate chooses a gift.
    Gift,
    /// §3 step 3: a player who won a pile with Pawns only chooses whether to promote.
    Promotion,
    /// §4: the game has ended.
    Finished,
}

/// A decision the game waits for after a resolution, in the order it will be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pending {
    /// §5: the seat, whose King was captured, gives up to two cards to a teammate.
    Gift {
        /// The leaving seat.
        seat: Seat,
    },
    /// §3 step 3: the seat may promote for the pile it won with Pawns only.
    Promotion {
        /// The promoting seat.
        seat: Seat,
        /// The seat whose pile was won.
        pile: Seat,
    },
}

impl Pending {
    /// The seat the decision belongs to.
    pub fn seat(self) -> Seat {
        match self {
            Pending::Gift { seat } | Pending::Promotion { seat, .. } => seat,
        }
    }
}

/// One pile of the current round.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PileView {
    /// The seat whose pile it is.
    pub owner: Seat,
    /// Its cards, the starting piece first, then in the order they arrived.
    pub cards: Vec<Card>,
    /// How it was opened.
    pub source: PileSource,
}

/// One player's public state.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerView {
    /// The index of the captured pile the player wins cards into (in a team game the team's
    /// shared pile).
    pub captured_pile: u8,
    /// Whether the player is out of the game (King captured, resigned, or timed out).
    pub out: bool,
    /// Whether the player resigned or ran out of time (and so never shares a win, §4); the
    /// table's [`crate::MetaEvent::Resigned`] or [`crate::MetaEvent::TimedOut`] tells which.
    pub resigned: bool,
    /// Cards in the deck.
    pub deck_count: u32,
    /// Cards in the hand.
    pub hand_count: u32,
    /// The reuse pile, oldest first.
    pub reuse_pile: Vec<Role>,
    /// The reshuffle counter (§3 step 4).
    pub reshuffles: u32,
    /// Whether the player has castled in this game.
    pub castled: bool,
    /// Whether the player has acted in this round's play step.
    pub acted: bool,
    /// Whether the player has passed since the round's last play.
    pub passed: bool,
    /// Plays this round (cards played, castling and en passant).
    pub plays: u32,
    /// Whether every play this round was a Pawn (or an en passant move), which en passant
    /// requires (§3 step 2, §7.6).
    pub pawns_only: bool,
    /// En passant moves made this round.
    pub en_passant_used: u32,
}

/// One captured pile: a player's in free for all, a team's shared pile in a team game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CapturedPileView {
    /// The seats it belongs to.
    pub seats: Vec<Seat>,
    /// The captured cards, oldest first.
    pub cards: Vec<Card>,
    /// Their total value: the stalemate score (§4).
    pub value: u32,
}

/// Pile Chess as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observation {
    /// Where in the round the game is.
    pub step: Step,
    /// The round number, from 1.
    pub round: u32,
    /// The player who acted first this round.
    pub first_player: Seat,
    /// Whose turn it is during the play step.
    pub current_player: Option<Seat>,
    /// The seats that may act now.
    pub to_act: Vec<Seat>,
    /// The last player who played this round (castling and en passant count).
    pub last_player: Option<Seat>,
    /// This round's piles, by owner; empty between rounds.
    pub piles: Vec<PileView>,
    /// Every player's public state, by seat.
    pub players: Vec<PlayerView>,
    /// The captured piles, by index (seat in free for all, team in a team game).
    pub captured_piles: Vec<CapturedPileView>,
    /// Cards out of the game: Pawns spent on promotion and the cards of players who left.
    pub removed: Vec<Card>,
    /// The viewer's own hand, King first; empty for spectators.
    pub hand: Vec<Role>,
    /// Decisions the game waits for after the last resolution, the current one first.
    pub pending: Vec<Pending>,
    /// The effective config.
    pub config: Config,
}
