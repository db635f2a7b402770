//! [`super::BotLevel::Greedy`]: the best action one step ahead, by the game's evaluation.

use super::pick::best_index;
use super::{Determinizer, outcome_score};
use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::Seat;

/// What a win at once is worth in one-step comparisons: more than any evaluation (at most 1),
/// so that a win found one action ahead is always taken.
pub(super) const WIN_NOW: f64 = 2.0;

/// The seat's action whose result, in one sampled state, evaluates best for it.
pub(super) fn choose<G: Game>(view: &Determinizer<'_, G>, rng: &mut GameRng) -> Option<G::Action> {
    let mut actions = view.legal_actions();
    if actions.len() <= 1 {
        return actions.pop();
    }
    let state = view.sample(rng);
    let scores: Vec<f64> = actions
        .iter()
        .map(|action| one_step::<G>(&state, view.seat(), action).map_or(0.0, |(_, score)| score))
        .collect();
    let index = best_index(&scores, rng)?;
    Some(actions.swap_remove(index))
}

/// `state` after `seat` takes `action`, and how good that is for `seat`: [`WIN_NOW`] for a win,
/// the outcome's score for another end, the evaluation otherwise. `None` if the action does not
/// apply (it always does for a listed action of a seat to act).
pub(super) fn one_step<G: Game>(
    state: &G::State,
    seat: Seat,
    action: &G::Action,
) -> Option<(G::State, f64)> {
    let mut next = state.clone();
    G::apply(&mut next, seat, action).ok()?;
    let score = value::<G>(&next, seat);
    Some((next, score))
}

/// How good `state` is for `seat`, with a win worth [`WIN_NOW`].
pub(super) fn value<G: Game>(state: &G::State, seat: Seat) -> f64 {
    match G::outcome(state) {
        Some(outcome) if outcome.winners.contains(seat) => WIN_NOW,
        Some(outcome) => f64::from(outcome_score(&outcome, seat)),
        None => f64::from(G::evaluate(state, seat)),
    }
}
