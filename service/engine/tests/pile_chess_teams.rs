//! The conformance suite (see `conformance.rs`) over Pile Chess played in teams: the generic run
//! covers every game's default config only, and Pile Chess teams change the rules (team totals,
//! shared captured piles, the leaving teammate's gift; docs/rules/pile_chess.md §5, §7.12,
//! §7.13). Two against two runs on the full seed range (`DECKMATE_CONFORMANCE_SEEDS`, as in
//! `conformance.rs`); the uneven splits, whose code is mostly shared with it, run on the first
//! [`UNEVEN_SEEDS`] seeds of that range.

use deckmate_engine::games::pile_chess::{Config, PileChess};

/// The suite's checks, shared with `conformance.rs`; this file uses only part of them.
#[allow(dead_code)]
mod conformance {
    pub(crate) mod budget;
    pub(crate) mod context;
    pub(crate) mod end;
    pub(crate) mod legality;
    pub(crate) mod meta;
    pub(crate) mod no_leak;
    pub(crate) mod playout;
    pub(crate) mod pool;
    pub(crate) mod replay;
    pub(crate) mod serialization;
    pub(crate) mod stats;
    pub(crate) mod suite;
    pub(crate) mod timeout;
    pub(crate) mod turn;
}

use conformance::budget::Budget;
use conformance::suite::run_suite_with;

/// Seeds per uneven split.
const UNEVEN_SEEDS: u64 = 40;

/// The suite's budget cut down to [`UNEVEN_SEEDS`] seeds.
fn uneven_budget() -> Budget {
    let mut budget = Budget::from_env();
    budget.seeds = budget.seeds.start..budget.seeds.start + UNEVEN_SEEDS;
    budget
}

#[test]
fn pile_chess_two_against_two_conforms() {
    run_suite_with::<PileChess>(&Budget::from_env(), &Config::two_vs_two(), [4]);
}

#[test]
fn pile_chess_one_against_two_conforms() {
    run_suite_with::<PileChess>(&uneven_budget(), &Config::with_teams(&[&[0], &[1, 2]]), [3]);
}

#[test]
fn pile_chess_one_against_three_conforms() {
    run_suite_with::<PileChess>(
        &uneven_budget(),
        &Config::with_teams(&[&[1, 2, 3], &[0]]),
        [4],
    );
}

#[test]
fn pile_chess_one_against_one_against_two_conforms() {
    run_suite_with::<PileChess>(
        &uneven_budget(),
        &Config::with_teams(&[&[0], &[1], &[2, 3]]),
        [4],
    );
}
