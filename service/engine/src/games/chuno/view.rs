//! §8 hidden information: observations. The secrets of events are declared with the events
//! (`event.rs`).
//!
//! A seat sees its own hand; of the opponent only the hand size. Nobody sees the deck order.
//! Everything else is public: the board, the whole discard pile, the active colour, skip
//! counters, a pending CHUNO call and a draw offer. Drawn cards are shown only to the drawer.

use super::moves::display_fen;
use super::observation::Observation;
use super::state::{State, colour_of, seats};
use crate::chess::Square;
use crate::seat::Viewer;

/// The game as `viewer` may see it.
pub(crate) fn observe(state: &State, viewer: Viewer) -> Observation {
    let mut board = [None; 64];
    for square in Square::all() {
        board[usize::from(square.index())] = state.position.piece_at(square);
    }
    let hand = viewer.own(&state.hands).cloned().unwrap_or_default();
    Observation {
        board,
        fen: display_fen(&state.position, colour_of(state.current)),
        hand,
        hand_counts: seats()
            .map(|seat| state.hands[seat.index()].len() as u32)
            .collect(),
        deck_count: state.deck.len() as u32,
        discard: state.discard.clone(),
        top_card: state.top(),
        active_colour: state.active_colour,
        current_player: state.current,
        stage: state.stage,
        moves_left: u32::from(state.moves_left),
        cards_played_this_turn: u32::from(state.cards_this_turn),
        skips: state.skips.to_vec(),
        chuno_pending: state.chuno,
        draw_offered_by: state.draw_offer,
        en_passant: state.position.en_passant(),
        turn: state.turn_number(),
        quiet_moves: state.quiet_moves,
        config: state.config.clone(),
    }
}
