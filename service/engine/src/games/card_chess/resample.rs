//! Redrawing what a viewer cannot see (§7), for the no-leak test and for bots.
//!
//! Hidden from everyone: the base cards that have never been face up and the draw-pile order.
//! Hidden from a seat: the other hand; from a spectator: both hands (hands shown at the end of a
//! game without a legal action are public). These cards form one pool the viewer cannot tell
//! apart; it is shuffled and dealt back into the same slots: unknown base cards in spot order,
//! then the hidden hands (same sizes), then the draw pile (same size).
//!
//! One public fact constrains the deal: a running game's seat to act has a legal action (§6),
//! and in the one case where its only candidates are play-ins that depends on its hand holding a
//! card of its colour. Deals breaking that are redrawn; should that keep failing, one card of
//! that colour is swapped into the hand from the rest of the pool (the true state proves that
//! the pool holds one).
//!
//! The pool is sorted before it is shuffled, so the result depends only on what the viewer sees
//! and on the generator: resampling a resample with the same generator gives the same state.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::observation::Phase;
use super::spot::Spot;
use super::state::{State, colour_of, seats};
use super::turn::has_legal_action;
use crate::cards::Card;
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};

/// Deals tried before the swap fallback.
const ATTEMPTS: usize = 200;

/// A state `viewer` cannot tell apart from `state`.
pub(crate) fn resample(state: &State, viewer: Viewer, rng: &mut GameRng) -> State {
    let hidden_hands: Vec<Seat> = if state.shown_hands.is_some() {
        Vec::new()
    } else {
        seats().filter(|seat| !viewer.is(*seat)).collect()
    };
    let unknown_bases: Vec<Spot> = Spot::all()
        .filter(|spot| !state.spot(*spot).base_known)
        .collect();
    let mut pool: Vec<Card> = unknown_bases
        .iter()
        .map(|spot| state.spot(*spot).base)
        .collect();
    for seat in &hidden_hands {
        pool.extend(state.hand(*seat).iter().copied());
    }
    pool.extend(state.draw_pile.iter().copied());
    // Canonical order first, so the deal depends on the pool's cards and the generator only,
    // never on where the hidden cards really lie (a bot resampling a resample gets the same).
    pool.sort_unstable();

    // Only a hidden hand of the seat to act in a running game is constrained.
    let constrained = (state.outcome.is_none()
        && state.phase == Phase::Play
        && hidden_hands.contains(&state.current))
    .then_some(state.current);

    let mut out = state.clone();
    for _ in 0..ATTEMPTS {
        pool.shuffle(rng);
        deal(&mut out, &unknown_bases, &hidden_hands, &pool);
        if constrained.is_none_or(|seat| has_legal_action(&out, seat)) {
            break;
        }
    }
    if let Some(seat) = constrained
        && !has_legal_action(&out, seat)
    {
        swap_own_colour_into_hand(&mut out, seat, &unknown_bases);
    }
    // The future of the true generator is hidden too.
    out.rng = GameRng::from_rng(rng);
    out
}

/// Deals `pool` into the unknown base cards, the hidden hands and the draw pile of `out`, whose
/// slot sizes are those of the original state.
fn deal(out: &mut State, unknown_bases: &[Spot], hidden_hands: &[Seat], pool: &[Card]) {
    let mut cards = pool.iter().copied();
    for spot in unknown_bases {
        out.board[spot.index()].base = cards.next().expect("the pool covers every slot");
    }
    for seat in hidden_hands {
        let size = out.hands[seat.index()].len();
        let mut hand: Vec<Card> = cards.by_ref().take(size).collect();
        hand.sort_unstable();
        out.hands[seat.index()] = hand;
    }
    let size = out.draw_pile.len();
    out.draw_pile = cards.by_ref().take(size).collect();
}

/// Swaps a card of `seat`'s colour from the draw pile or an unknown base card into its hand.
fn swap_own_colour_into_hand(out: &mut State, seat: Seat, unknown_bases: &[Spot]) {
    let colour = colour_of(seat);
    let Some(slot) = out.hands[seat.index()].first_mut() else {
        return;
    };
    if let Some(card) = out
        .draw_pile
        .iter_mut()
        .find(|card| card.colour() == colour)
    {
        std::mem::swap(slot, card);
    } else if let Some(spot) = unknown_bases
        .iter()
        .find(|spot| out.board[spot.index()].base.colour() == colour)
    {
        std::mem::swap(slot, &mut out.board[spot.index()].base);
    }
    out.hands[seat.index()].sort_unstable();
}
