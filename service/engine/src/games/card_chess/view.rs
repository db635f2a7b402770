//! §7 hidden information: observations. The secrets of events are declared with the events
//! (`event.rs`).
//!
//! Everyone sees the pieces, the check flags, the base cards that have been face up, the discard
//! pile, the hand sizes and the size of the draw pile. A seat also sees its own hand. Nobody sees
//! a base card that has never been face up, the other hand or the draw-pile order. The only
//! event with a secret is a draw, whose cards only the drawer sees.

use super::observation::{Observation, PlayerView, SpotView};
use super::spot::{SPOTS, Spot};
use super::state::{State, colour_of, seats};
use crate::seat::Viewer;

/// The game as `viewer` may see it.
pub(crate) fn observe(state: &State, viewer: Viewer) -> Observation {
    let board: [SpotView; SPOTS] = std::array::from_fn(|index| {
        let spot = Spot::from_index(index).expect("25 spots");
        let here = state.spot(spot);
        SpotView {
            piece: here.piece,
            owner: state.piece_owner(spot),
            in_check: here.in_check,
            base: here.base_known.then_some(here.base),
        }
    });
    let players = seats()
        .map(|seat| PlayerView {
            colour: colour_of(seat),
            hand_count: state.hand(seat).len() as u32,
            pieces_in_play: state.pieces_in_play(seat) as u32,
            checks: state.checks(seat) as u32,
            exchanged_last_turn: state.exchanged_last[seat.index()],
            shown_hand: state
                .shown_hands
                .as_ref()
                .map(|hands| hands[seat.index()].clone()),
        })
        .collect();
    let hand = viewer.own(&state.hands).cloned().unwrap_or_default();
    Observation {
        phase: state.phase,
        board,
        players,
        hand,
        draw_count: state.draw_pile.len() as u32,
        discard: state.discard.clone(),
        current_player: state.outcome.is_none().then_some(state.current),
        replacement_spot: state.replacement_spot,
        turn: state.turns_taken,
        turns_without_progress: state.turns_without_progress,
        config: state.config.clone(),
    }
}
