//! What one viewer sees (docs/rules/card_chess.md §7). Base cards never seen face up, other hands
//! and the draw-pile order cannot be represented here.

use super::config::Config;
use super::spot::{SPOTS, Spot};
use crate::cards::{Card, Colour};
use crate::seat::Seat;

/// The stage of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// §3: the current player chooses a play-in, an exchange or a move.
    Play,
    /// §5.4: the current player, who just captured and revealed an opponent-coloured card,
    /// chooses whether to replace it.
    Replacement,
    /// §6, §9: the game has ended.
    Finished,
}

/// One spot as the viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct SpotView {
    /// The face-up piece on the spot, if any.
    pub piece: Option<Card>,
    /// The seat owning the piece (by its colour); `None` without a piece.
    pub owner: Option<Seat>,
    /// Whether the spot and its piece are in check (§3 Check).
    pub in_check: bool,
    /// The face-down base card, only once it has been seen face up (§1 `baseKnown`).
    pub base: Option<Card>,
}

/// One seat's public state.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerView {
    /// The seat's colour (seat 0 Red, seat 1 Black).
    pub colour: Colour,
    /// Cards in hand.
    pub hand_count: u32,
    /// Pieces on the board that are not in check (§3.A).
    pub pieces_in_play: u32,
    /// Spots of the opponent's castle in check with this seat's pieces (§6: five win).
    pub checks: u32,
    /// Whether the seat's previous turn was an exchange (§3.B: then it may not exchange).
    pub exchanged_last_turn: bool,
    /// The hand shown to judge a game without a legal action (§6); `None` otherwise.
    pub shown_hand: Option<Vec<Card>>,
}

/// Card Chess as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observation {
    /// The stage.
    pub phase: Phase,
    /// The 25 spots in the order of [`super::Spot::all`].
    pub board: [SpotView; SPOTS],
    /// Both seats' public state, by seat.
    pub players: Vec<PlayerView>,
    /// The viewer's own hand, sorted; empty for spectators.
    pub hand: Vec<Card>,
    /// Cards in the draw pile.
    pub draw_count: u32,
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
    /// The seat to act; `None` once the game is over.
    pub current_player: Option<Seat>,
    /// During [`Phase::Replacement`], the spot whose revealed card may be replaced.
    pub replacement_spot: Option<Spot>,
    /// Turns completed so far.
    pub turn: u32,
    /// Consecutive turns without a capture, play-in or new check (§9).
    pub turns_without_progress: u32,
    /// The effective config.
    pub config: Config,
}
