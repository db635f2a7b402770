//! One playout: every seat plays quick, mostly greedy moves from a sampled state until the game
//! ends or a depth cap, and the result is scored for the searching seat.

use rand::Rng;

use super::greedy::{WIN_NOW, one_step};
use super::outcome_score;
use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::Seat;

/// Actions a playout takes before it stops and asks the evaluation. Deep enough to see the
/// consequences of a capture or a played card, shallow enough that many playouts fit a move.
pub(super) const DEPTH: u32 = 14;

/// How often a playout move is uniformly random instead of the best of a few: some randomness
/// keeps playouts from repeating one line, too much makes them blind to threats.
const EPSILON: f64 = 0.15;

/// Candidates a playout move compares: the best of a few random legal actions is far cheaper
/// than the best of all and still avoids most blunders.
const CANDIDATES: usize = 3;

/// Plays from `state` (the game running) and returns its value for `seat` in `[0, 1]`: the
/// outcome's score at the end, the evaluation at the depth cap.
pub(super) fn playout<G: Game>(mut state: G::State, seat: Seat, rng: &mut GameRng) -> f64 {
    for _ in 0..DEPTH {
        if G::outcome(&state).is_some() {
            break;
        }
        // Several seats may act at once (simultaneous choices, out-of-turn calls): one of them
        // goes first, at random.
        let actors: Vec<Seat> = G::to_act(&state).iter().collect();
        if actors.is_empty() {
            break;
        }
        let actor = actors[rng.random_range(0..actors.len())];
        let actions = G::legal_actions(&state, actor);
        if actions.is_empty() {
            break;
        }
        match step::<G>(&state, actor, &actions, rng) {
            Some(next) => state = next,
            None => break,
        }
    }
    match G::outcome(&state) {
        Some(outcome) => f64::from(outcome_score(&outcome, seat)),
        None => f64::from(G::evaluate(&state, seat)),
    }
}

/// The state after `actor`'s playout move: random with probability [`EPSILON`], otherwise the
/// best for the actor among [`CANDIDATES`] random legal actions.
fn step<G: Game>(
    state: &G::State,
    actor: Seat,
    actions: &[G::Action],
    rng: &mut GameRng,
) -> Option<G::State> {
    if actions.len() == 1 || rng.random_bool(EPSILON) {
        let action = &actions[rng.random_range(0..actions.len())];
        let mut next = state.clone();
        return G::apply(&mut next, actor, action).ok().map(|_| next);
    }
    let mut best: Option<(G::State, f64)> = None;
    for _ in 0..CANDIDATES.min(actions.len()) {
        let action = &actions[rng.random_range(0..actions.len())];
        if let Some((next, score)) = one_step::<G>(state, actor, action) {
            if score >= WIN_NOW {
                return Some(next);
            }
            if best
                .as_ref()
                .is_none_or(|(_, best_score)| score > *best_score)
            {
                best = Some((next, score));
            }
        }
    }
    best.map(|(next, _)| next)
}
