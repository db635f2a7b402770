//! Redrawing what a viewer cannot see (§7): the order of each deck above its public returned
//! cards. Nobody sees deck order, so the same holds for every viewer. The hidden part is sorted
//! before it is shuffled, so the result depends only on what is public and on the generator:
//! resampling a resample with the same generator gives the same state.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::state::{State, seats};
use crate::rng::GameRng;
use crate::seat::Viewer;

/// A state no viewer can tell apart from `state`; as every viewer sees the same, `_viewer`
/// changes nothing.
pub(crate) fn resample(state: &State, _viewer: Viewer, rng: &mut GameRng) -> State {
    let mut out = state.clone();
    for seat in seats() {
        let index = seat.index();
        let known = out.returned[index];
        // Sorted first: the result must not depend on the true (hidden) order.
        out.decks[index][known..].sort_unstable();
        out.decks[index][known..].shuffle(rng);
    }
    // The future of the true generator is hidden too.
    out.rng = GameRng::from_rng(rng);
    out
}
