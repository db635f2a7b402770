//! §6 hidden information: observations. The secrets of events are declared with the events
//! (`event.rs`).
//!
//! A seat sees its own hand and its own face-down cards; of the opponent it sees counts, face-up
//! cards and where face-down cards lie. A spectator sees only the public part. Secret setup
//! choices are shown only to the seat that made them, until the step resolves.

use super::observation::{Observation, PlayerView, SpotView};
use super::piece::Spot;
use super::state::{State, hand_cards, seats};
use crate::seat::Viewer;

/// The game as `viewer` may see it.
pub(crate) fn observe(state: &State, viewer: Viewer) -> Observation {
    let mut board = [SpotView::default(); 12];
    for spot in Spot::all() {
        if let Some(card) = state.card(spot) {
            let visible = !card.face_down || viewer.is(card.owner);
            board[spot.index()] = SpotView {
                owner: Some(card.owner),
                face_down: card.face_down,
                piece: visible.then_some(card.piece),
            };
        }
    }
    let players = seats()
        .map(|seat| PlayerView {
            hand_count: state.hand_count(seat) as u32,
            deck_count: state.decks[seat.index()].len() as u32,
            point_pile: state.point_piles[seat.index()].clone(),
            king_alive: state.king_alive(seat),
            score: state.score(seat),
            committed: state.committed(seat),
            first_player_reveals: state.first_reveals[seat.index()].clone(),
        })
        .collect();
    let hand = viewer.own(&state.hands).map(hand_cards).unwrap_or_default();
    Observation {
        phase: state.phase,
        board,
        players,
        hand,
        group_discard: state.discard.clone(),
        first_player: state.first_player,
        current_player: state.current,
        turn: state.turns_taken,
        turns_without_progress: state.turns_without_progress,
        config: state.config.clone(),
    }
}
