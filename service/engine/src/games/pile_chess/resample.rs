//! Redrawing what a viewer cannot see (§6), for the no-leak test and for bots.
//!
//! Every deck's order is hidden from everyone, so the viewer's own deck is reshuffled. For every
//! other player, hand and deck together hold the cards the viewer cannot place (their union
//! follows from the public zones); they are shuffled together and dealt back into a hand and a
//! deck of the same sizes. The generator's future is hidden too, so it is replaced. Everything
//! public stays.
//!
//! Every pool is sorted before it is shuffled, so the result depends only on what the viewer sees
//! and on the generator: resampling a resample with the same generator gives the same state.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::state::{State, hand_cards};
use crate::rng::GameRng;
use crate::seat::Viewer;

/// A state `viewer` cannot tell apart from `state`.
pub(crate) fn resample(state: &State, viewer: Viewer, rng: &mut GameRng) -> State {
    let mut out = state.clone();
    for (index, player) in out.players.iter_mut().enumerate() {
        if viewer.seat().is_some_and(|seat| seat.index() == index) {
            // Sorted first: the result must not depend on the true (hidden) order.
            player.deck.sort_unstable();
            player.deck.shuffle(rng);
            continue;
        }
        let hand_size = player.hand_count();
        let mut pool = std::mem::take(&mut player.deck);
        pool.extend(hand_cards(&player.hand));
        // Canonical order first, so the deal depends on the pool's cards and the generator
        // only, never on where the hidden cards really lie.
        pool.sort_unstable();
        pool.shuffle(rng);
        let mut hand = [0u8; 6];
        for piece in pool.drain(pool.len() - hand_size..) {
            hand[piece.index()] += 1;
        }
        player.hand = hand;
        player.deck = pool;
    }
    out.rng = GameRng::from_rng(rng);
    out
}
