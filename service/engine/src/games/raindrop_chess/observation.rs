//! What one viewer sees (docs/rules/raindrop_chess.md §7, §13). Deck order cannot be represented
//! here.

use super::card::Card;
use super::config::Config;
use crate::chess::{Piece, Role};
use crate::seat::Seat;

/// Where the current turn stands (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Stage {
    /// §3: flip or make a chess move.
    Turn,
    /// §3: the flipped card must now be placed.
    Place(Card),
    /// §3 joker `REMOVE_PIECE`: choose the enemy piece to remove.
    Remove,
    /// §6: the game has ended.
    Finished,
}

/// One side as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SideView {
    /// Cards left in the deck (their order is hidden from everyone, §7).
    pub deck_count: u32,
    /// Every card this side has flipped, in order.
    pub flipped: Vec<Card>,
    /// §3.4: cards put back at the bottom of the deck that are still there, bottom-most first.
    pub returned: Vec<Card>,
    /// Whether this side's King is on the board.
    pub king_placed: bool,
    /// Whether this side's King is in check.
    pub in_check: bool,
    /// §5: the unused promotion pieces, strongest first.
    pub promotion_pool: Vec<Role>,
}

/// Raindropchess as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observation {
    /// The 64 squares, a1 first, h8 last (serialized as eight rank strings, rank 8 first).
    #[serde(serialize_with = "crate::chess::serialize_ranks")]
    pub board: [Option<Piece>; 64],
    /// Seat 0 (White), then seat 1 (Black).
    pub sides: Vec<SideView>,
    /// Whose turn it is.
    pub current_player: Seat,
    /// Where the turn stands.
    pub stage: Stage,
    /// Turns completed so far.
    pub plies: u32,
    /// §6: plies since the last capture, pawn move, placement or promotion.
    pub quiet_plies: u32,
    /// The effective config.
    pub config: Config,
}
