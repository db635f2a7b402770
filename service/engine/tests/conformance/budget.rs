//! How much the suite checks: the seeds it plays and how much it samples at every ply.
//!
//! The seed count never drops below [`MIN_SEEDS`] in a normal run; only the per-ply sampling is
//! bounded, so the suite stays quick in debug builds on two cores.

use std::ops::Range;

use deckmate_engine::GameKind;

/// Seeds played per game and seat count in a normal run.
pub(crate) const MIN_SEEDS: u64 = 200;

/// The environment variable that chooses the seeds: `N` for `0..N`, `A..B` for `A..B`.
pub(crate) const SEEDS_VARIABLE: &str = "DECKMATE_CONFORMANCE_SEEDS";

/// The environment variable that chooses the games: game ids separated by commas (all games
/// when unset), so that a new game's suite can run alone (`scripts/new-game.sh --dry-run`).
pub(crate) const GAMES_VARIABLE: &str = "DECKMATE_CONFORMANCE_GAMES";

/// The suite's knobs.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    /// The games checked.
    pub(crate) games: Vec<GameKind>,
    /// The seeds played for every game and seat count.
    pub(crate) seeds: Range<u64>,
    /// A playout that has not ended after this many plies fails the termination check.
    pub(crate) max_plies: usize,
    /// Listed actions of one seat applied on clones at one ply; all of them when there are no
    /// more, a random sample otherwise. Every pair of the applied actions feeds the event no-leak
    /// check, so this also bounds its pairs.
    pub(crate) applied_per_seat: usize,
    /// Actions from the pool tried (and expected to be rejected) per seat and ply.
    pub(crate) rejected_per_seat: usize,
    /// Resamples per viewer and ply for the observation no-leak check.
    pub(crate) resamples_per_viewer: usize,
    /// Rejected actions per seat and ply whose error is compared against resampled states.
    pub(crate) error_leak_probes: usize,
    /// Chance per ply that the playout takes a meta action instead of a game action.
    pub(crate) meta_rate: f64,
    /// One seed in this many may also resign or accept a draw in its main line.
    pub(crate) terminal_meta_every: u64,
    /// Chance per ply of running the draw-offer sequences on clones (two-seat games).
    pub(crate) offer_sequence_rate: f64,
    /// Chance per ply of following one timeout applied on a clone further (serialization, and
    /// the rest of the game when it goes on); also the chance per ply of another timeout while
    /// that rest is played.
    pub(crate) timeout_follow_rate: f64,
    /// One seed in this many enters a timeout of a seat on the clock into its main line, at a
    /// random early ply, so that the replay check covers logs with timeouts.
    pub(crate) main_line_timeout_every: u64,
    /// Plies played on a clone after a declined offer while waiting for the offerer to act.
    pub(crate) offer_sequence_plies: usize,
    /// Quick unchecked playouts whose listed actions seed the shared pool of actions.
    pub(crate) pool_harvest_games: u64,
    /// The most actions the shared pool keeps.
    pub(crate) pool_capacity: usize,
    /// Worker threads that share the seeds.
    pub(crate) threads: usize,
}

impl Budget {
    /// The defaults, with the seeds taken from [`SEEDS_VARIABLE`] when it is set.
    pub(crate) fn from_env() -> Budget {
        let seeds = match std::env::var(SEEDS_VARIABLE) {
            Ok(text) => parse_seeds(&text).unwrap_or_else(|| {
                panic!("{SEEDS_VARIABLE}={text:?} is neither `N` nor `A..B` with A < B")
            }),
            Err(_) => 0..MIN_SEEDS,
        };
        let threads = std::thread::available_parallelism()
            .map(|count| count.get())
            .unwrap_or(1)
            .clamp(1, 8);
        let games = match std::env::var(GAMES_VARIABLE) {
            Ok(text) => parse_games(&text).unwrap_or_else(|unknown| {
                panic!("{GAMES_VARIABLE}={text:?}: no game is called {unknown:?}")
            }),
            Err(_) => GameKind::ALL.to_vec(),
        };
        Budget {
            games,
            seeds,
            max_plies: 20_000,
            applied_per_seat: 40,
            rejected_per_seat: 8,
            resamples_per_viewer: 2,
            error_leak_probes: 2,
            meta_rate: 0.03,
            terminal_meta_every: 10,
            offer_sequence_rate: 0.1,
            timeout_follow_rate: 0.05,
            main_line_timeout_every: 10,
            offer_sequence_plies: 8,
            pool_harvest_games: 24,
            pool_capacity: 20_000,
            threads,
        }
    }

    /// Whether the seeds are the full normal run (the aggregate checks need many seeds).
    pub(crate) fn is_full_run(&self) -> bool {
        self.seeds.end - self.seeds.start >= MIN_SEEDS
    }
}

/// Parses game ids separated by commas; the first unknown id is the error.
fn parse_games(text: &str) -> Result<Vec<GameKind>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(|id| GameKind::from_id(id).ok_or_else(|| id.to_string()))
        .collect()
}

/// Parses `N` or `A..B`.
fn parse_seeds(text: &str) -> Option<Range<u64>> {
    let text = text.trim();
    let range = match text.split_once("..") {
        Some((start, end)) => start.trim().parse().ok()?..end.trim().parse().ok()?,
        None => 0..text.parse().ok()?,
    };
    (range.start < range.end).then_some(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges_parse() {
        assert_eq!(parse_seeds("300"), Some(0..300));
        assert_eq!(parse_seeds("17..18"), Some(17..18));
        assert_eq!(parse_seeds("5..5"), None);
        assert_eq!(parse_seeds("x"), None);
    }

    #[test]
    fn game_lists_parse() {
        let [first, second, ..] = GameKind::ALL else {
            panic!("at least two games are registered");
        };
        let text = format!(" {} ,{},", first.id(), second.id());
        assert_eq!(parse_games(&text), Ok(vec![*first, *second]));
        assert_eq!(parse_games("no_such_game"), Err("no_such_game".to_string()));
    }
}
