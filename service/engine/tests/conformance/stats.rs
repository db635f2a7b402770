//! What the suite saw, per game and seat count: printed as a summary, and used for the checks
//! that only make sense over a whole run (some deals differ, resampling changes something).

use std::collections::{BTreeMap, HashSet};

/// Counters of one game and seat count.
#[derive(Default)]
pub(crate) struct Stats {
    /// Playouts finished.
    pub(crate) games: u64,
    /// Positions checked (every ply of every playout, the final one included).
    pub(crate) plies: u64,
    /// The longest playout, in plies.
    pub(crate) longest: usize,
    /// Listed actions applied on clones.
    pub(crate) applied: u64,
    /// Unlisted actions rejected.
    pub(crate) rejected: u64,
    /// Resampled states checked.
    pub(crate) resamples: u64,
    /// Resampled states that differed from the original.
    pub(crate) resample_state_differs: u64,
    /// Resampled states in which another seat saw something different: hidden information was
    /// really redrawn.
    pub(crate) resample_hidden_differs: u64,
    /// Pairs of actions compared by the event no-leak check.
    pub(crate) event_pairs: u64,
    /// Of those, pairs the viewer could not tell apart by its observation, whose event views
    /// therefore had to be equal.
    pub(crate) event_pairs_indistinguishable: u64,
    /// Of those, pairs the actor itself could tell apart: evidence of information one seat has
    /// and another viewer lacks, which resampling must then redraw at least sometimes.
    pub(crate) secret_pairs: u64,
    /// Error messages compared between a state and its resamples.
    pub(crate) error_probes: u64,
    /// Meta-action checks by name (listing, accept, decline, implicit decline, ...).
    pub(crate) meta: BTreeMap<&'static str, u64>,
    /// How the playouts ended.
    pub(crate) end_reasons: BTreeMap<String, u64>,
    /// Fingerprints of the deals (setup events and first observations), one per seed.
    pub(crate) deals: HashSet<Vec<u8>>,
}

impl Stats {
    /// Counts one meta-action check.
    pub(crate) fn meta(&mut self, name: &'static str) {
        *self.meta.entry(name).or_default() += 1;
    }

    /// Adds another worker's counters.
    pub(crate) fn merge(&mut self, other: Stats) {
        self.games += other.games;
        self.plies += other.plies;
        self.longest = self.longest.max(other.longest);
        self.applied += other.applied;
        self.rejected += other.rejected;
        self.resamples += other.resamples;
        self.resample_state_differs += other.resample_state_differs;
        self.resample_hidden_differs += other.resample_hidden_differs;
        self.event_pairs += other.event_pairs;
        self.event_pairs_indistinguishable += other.event_pairs_indistinguishable;
        self.secret_pairs += other.secret_pairs;
        self.error_probes += other.error_probes;
        for (name, count) in other.meta {
            *self.meta.entry(name).or_default() += count;
        }
        for (reason, count) in other.end_reasons {
            *self.end_reasons.entry(reason).or_default() += count;
        }
        self.deals.extend(other.deals);
    }

    /// The one-paragraph summary printed for every game and seat count.
    pub(crate) fn summary(&self, game: &str, seats: usize) -> String {
        format!(
            "conformance {game} seats={seats}: {} games, {} plies checked (longest {}), \
             {} listed actions applied, {} unlisted rejected, {} resamples \
             ({} changed the state, {} changed what another seat sees), {} event pairs \
             ({} indistinguishable, {} of them secret), {} error-message probes, {} distinct deals, \
             meta checks {:?}, endings {:?}",
            self.games,
            self.plies,
            self.longest,
            self.applied,
            self.rejected,
            self.resamples,
            self.resample_state_differs,
            self.resample_hidden_differs,
            self.event_pairs,
            self.event_pairs_indistinguishable,
            self.secret_pairs,
            self.error_probes,
            self.deals.len(),
            self.meta,
            self.end_reasons,
        )
    }
}
