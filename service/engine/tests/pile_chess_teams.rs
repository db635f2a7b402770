//! The conformance suite (see `conformance.rs`) over Pile Chess played 2 against 2: the generic
//! run covers every game's default config only, and Pile Chess teams change the rules (team
//! totals, shared captured piles, the leaving teammate's gift). Seeds as in `conformance.rs`
//! (`DECKMATE_CONFORMANCE_SEEDS`).

use deckmate_engine::games::pile_chess::{Config, PileChess, TEAM_SEATS};

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
    pub(crate) mod turn;
}

use conformance::budget::Budget;
use conformance::suite::run_suite_with;

#[test]
fn pile_chess_two_against_two_conforms() {
    run_suite_with::<PileChess>(&Budget::from_env(), &Config::two_vs_two(), [TEAM_SEATS]);
}
