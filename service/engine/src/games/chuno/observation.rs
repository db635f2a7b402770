//! What one viewer sees (docs/rules/chuno.md §8). Other hands and the deck order cannot be
//! represented here.

use serde::{Deserialize, Serialize};

use super::card::{Card, Colour};
use super::config::Config;
use crate::chess::{Piece, Square};
use crate::seat::Seat;

/// Where the current turn stands (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// §4: the turn has begun: play a card or draw one.
    Start,
    /// §4.1: chess moves granted by a number card; the player may end the turn early.
    Moves,
    /// §4.2: the Wild's one chess move, compulsory.
    WildMove,
    /// §4.3: a Reverse was played: play a card matching it, or end the turn.
    AfterReverse,
    /// §7: the game has ended.
    Finished,
}

/// CHUNO as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observation {
    /// The 64 squares, a1 first, h8 last (serialized as eight rank strings, rank 8 first).
    #[serde(serialize_with = "crate::chess::serialize_ranks")]
    pub board: [Option<Piece>; 64],
    /// The position in FEN (side to move is the player whose turn it is).
    pub fen: String,
    /// The viewer's own hand, sorted (colour, then kind; wild cards last); empty for spectators.
    pub hand: Vec<Card>,
    /// Cards in each seat's hand, by seat.
    pub hand_counts: Vec<u32>,
    /// Cards in the draw deck.
    pub deck_count: u32,
    /// The discard pile, oldest first; its last card is the top card.
    pub discard: Vec<Card>,
    /// The top card of the discard pile.
    pub top_card: Card,
    /// §1: the colour to match.
    pub active_colour: Colour,
    /// Whose turn it is.
    pub current_player: Seat,
    /// Where the turn stands.
    pub stage: Stage,
    /// §4.1, §4.2: chess moves still allowed this turn.
    pub moves_left: u32,
    /// §4.3: cards played so far this turn.
    pub cards_played_this_turn: u32,
    /// §4: each seat's "turns to skip" counter, by seat.
    pub skips: Vec<u32>,
    /// §6: the seat whose CHUNO call is pending (it must call before the opponent's next game
    /// action).
    pub chuno_pending: Option<Seat>,
    /// §7, §9.13: the seat whose draw offer stands; always the table's
    /// ([`crate::Table::draw_offer`]).
    pub draw_offered_by: Option<Seat>,
    /// §5, §9.10: the en passant square left by the last double step, open to the other side
    /// until the next chess move of either side.
    pub en_passant: Option<Square>,
    /// §9.15: the number of the current turn, from 1. A skipped turn is not a turn; a turn a
    /// skip gives back is a new one.
    pub turn: u32,
    /// §10: consecutive chess moves without a capture or a pawn move.
    pub quiet_moves: u32,
    /// The effective config.
    pub config: Config,
}
