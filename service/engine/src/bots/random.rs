//! [`super::BotLevel::Random`]: a uniformly random legal action.

use rand::Rng;

use super::Determinizer;
use crate::game::Game;
use crate::rng::GameRng;

/// A uniformly random legal action of the seat, drawn from `rng`.
pub(super) fn choose<G: Game>(view: &Determinizer<'_, G>, rng: &mut GameRng) -> Option<G::Action> {
    let mut actions = view.legal_actions();
    if actions.is_empty() {
        return None;
    }
    let index = rng.random_range(0..actions.len());
    Some(actions.swap_remove(index))
}
