//! Choosing the best of several scored candidates, ties broken by the generator.

use rand::Rng;

use crate::rng::GameRng;

/// Scores closer than this count as equal: evaluations are sums of small floats, and an
/// ordering decided by rounding noise would be an arbitrary preference for the first action.
const TIE: f64 = 1e-6;

/// The index of the highest score, a uniformly random one among those tied for it; `None` for
/// no scores.
pub(super) fn best_index(scores: &[f64], rng: &mut GameRng) -> Option<usize> {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..scores.len())
        .filter(|index| scores[*index] >= best - TIE)
        .collect();
    match tied.len() {
        0 => None,
        1 => Some(tied[0]),
        n => Some(tied[rng.random_range(0..n)]),
    }
}
