//! §6 hidden information: observations. The secrets of events are declared with the events
//! (`event.rs`).
//!
//! A seat sees its own hand; of everyone else it sees counts and everything public (piles,
//! reuse piles, captured piles, the removed zone, reshuffle counters). Nobody sees a deck's
//! order. A spectator sees only the public part. The only secret in events is which cards a
//! player drew.

use super::observation::{CapturedPileView, Observation, PileView, PlayerView};
use super::state::{State, hand_cards};
use crate::seat::Viewer;

/// The game as `viewer` may see it.
pub(crate) fn observe(state: &State, viewer: Viewer) -> Observation {
    let piles = state
        .seats()
        .filter_map(|owner| {
            state.pile(owner).map(|pile| PileView {
                owner,
                cards: pile.cards.clone(),
                source: pile.source,
            })
        })
        .collect();
    let players = state
        .seats()
        .map(|seat| {
            let player = state.player(seat);
            PlayerView {
                captured_pile: state.side(seat),
                out: player.out,
                resigned: player.resigned,
                deck_count: player.deck.len() as u32,
                hand_count: player.hand_count() as u32,
                reuse_pile: player.reuse.clone(),
                reshuffles: player.reshuffles,
                castled: player.castled,
                acted: state.acted.contains(seat),
                passed: state.passed.contains(seat),
                plays: player.plays,
                pawns_only: player.pawns_only,
                en_passant_used: player.en_passant_used,
            }
        })
        .collect();
    let captured_piles = state
        .captured
        .iter()
        .enumerate()
        .map(|(side, cards)| CapturedPileView {
            seats: state.side_seats(side as u8).iter().collect(),
            cards: cards.clone(),
            value: state.captured_value(side as u8),
        })
        .collect();
    let hand = viewer
        .own(&state.players)
        .map(|player| hand_cards(&player.hand))
        .unwrap_or_default();
    Observation {
        step: state.step(),
        round: state.round,
        first_player: state.first_player,
        current_player: state.current,
        to_act: state.to_act().iter().collect(),
        last_player: state.last_player,
        piles,
        players,
        captured_piles,
        removed: state.removed.clone(),
        hand,
        pending: state.pending.clone(),
        config: state.config.clone(),
    }
}
