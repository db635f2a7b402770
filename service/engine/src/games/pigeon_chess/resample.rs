//! Redrawing what a viewer cannot see (§6), for the no-leak test and for bots.
//!
//! For every seat the deck order is hidden from everyone, so each deck is reshuffled. For seats
//! other than the viewer, the hand, the face-down board cards (a committed but unrevealed setup
//! row, or a card placed last turn) and the deck together form one pool of cards the viewer
//! cannot tell apart; the pool is shuffled and dealt back into the same slots, and a pending
//! first-player pick is drawn anew from the resampled hand. Everything public stays: face-up
//! cards, counts, piles, the discard, the first-player reveals and who committed when.
//!
//! The first-player reveals need no extra care: they are made just before the seat draws its
//! whole deck (§2.4–§2.5), so while they are known to be in hand, every hidden card of the seat
//! is in its hand or face down, and any redistribution keeps them there.
//!
//! Every pool is sorted before it is shuffled, so the result depends only on what the viewer sees
//! and on the generator: resampling a resample with the same generator gives the same state.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::piece::{Role, Spot};
use super::state::{State, hand_cards, seats};
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};

/// A state `viewer` cannot tell apart from `state`.
pub(crate) fn resample(state: &State, viewer: Viewer, rng: &mut GameRng) -> State {
    let mut out = state.clone();
    for seat in seats() {
        if viewer.is(seat) {
            // Sorted first: the result must not depend on the true (hidden) order.
            out.decks[seat.index()].sort_unstable();
            out.decks[seat.index()].shuffle(rng);
        } else {
            redeal_hidden(&mut out, seat, rng);
        }
    }
    // The future of the true generator is hidden too.
    out.rng = GameRng::from_rng(rng);
    out
}

/// Shuffles the seat's deck, hand and face-down cards together and deals them back into the
/// same slots.
fn redeal_hidden(state: &mut State, seat: Seat, rng: &mut GameRng) {
    let face_down: Vec<Spot> = Spot::all()
        .filter(|spot| {
            state
                .card(*spot)
                .is_some_and(|card| card.owner == seat && card.face_down)
        })
        .collect();
    let hand = state.hands[seat.index()];
    let hand_size = hand_cards(&hand).len();
    let mut pool: Vec<Role> = std::mem::take(&mut state.decks[seat.index()]);
    pool.extend(hand_cards(&hand));
    pool.extend(
        face_down
            .iter()
            .filter_map(|spot| state.board[spot.index()].map(|card| card.piece)),
    );
    // Canonical order first, so the deal depends on the pool's cards and the generator only,
    // never on where the hidden cards really lie (a bot resampling a resample gets the same).
    pool.sort_unstable();
    pool.shuffle(rng);

    for spot in &face_down {
        if let (Some(card), Some(piece)) = (state.board[spot.index()].as_mut(), pool.pop()) {
            card.piece = piece;
        }
    }
    let mut new_hand = [0u8; 6];
    for piece in pool.drain(pool.len() - hand_size..) {
        new_hand[piece.index()] += 1;
    }
    state.hands[seat.index()] = new_hand;
    state.decks[seat.index()] = pool;

    // A pending secret pick is one of the (resampled) hand cards.
    if state.first_picks[seat.index()].is_some() {
        let cards = hand_cards(&new_hand);
        if !cards.is_empty() {
            state.first_picks[seat.index()] = Some(cards[rng.random_range(0..cards.len())]);
        }
    }
}
