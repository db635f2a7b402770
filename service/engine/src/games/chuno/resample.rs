//! Redrawing what a viewer cannot see (§8), for the no-leak test and for bots.
//!
//! The deck order is hidden from everyone; the hands of seats other than the viewer are hidden
//! from it. Those cards (the deck plus the other hands) form one pool the viewer cannot tell
//! apart: it is shuffled and dealt back into the same slots, keeping every hand size and the deck
//! size. Everything public (board, discard pile, counters, calls) stays. The pool is exactly what
//! the observation allows; inferences from past plays (a Wild Draw Four says its player then
//! held no card of the active colour) are not kept.
//!
//! The pool is sorted before it is shuffled, so the result depends only on what the viewer sees
//! and on the generator: resampling a resample with the same generator gives the same state.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::card::Card;
use super::state::{State, seats};
use crate::rng::GameRng;
use crate::seat::Viewer;

/// A state `viewer` cannot tell apart from `state`.
pub(crate) fn resample(state: &State, viewer: Viewer, rng: &mut GameRng) -> State {
    let mut out = state.clone();
    let hidden: Vec<usize> = seats()
        .filter(|seat| !viewer.is(*seat))
        .map(|seat| seat.index())
        .collect();
    let mut pool: Vec<Card> = std::mem::take(&mut out.deck);
    for index in &hidden {
        pool.append(&mut out.hands[*index]);
    }
    // Canonical order first, so the deal depends on the pool's cards and the generator only,
    // never on where the hidden cards really lie (a bot resampling a resample gets the same).
    pool.sort();
    pool.shuffle(rng);
    for index in &hidden {
        let size = state.hands[*index].len();
        let mut hand: Vec<Card> = pool.drain(pool.len() - size..).collect();
        hand.sort();
        out.hands[*index] = hand;
    }
    out.deck = pool;
    // The future of the true generator is hidden too.
    out.rng = GameRng::from_rng(rng);
    out
}
