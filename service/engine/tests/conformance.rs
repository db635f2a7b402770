//! The conformance suite every game must pass (docs/ARCHITECTURE.md §2 "Testing the contract").
//!
//! [`conformance::suite::run_suite`] is generic over [`deckmate_engine::Game`] and is run for
//! every game of [`GameKind::ALL`] through [`with_game!`], so a newly registered game is covered
//! without touching this file. For every supported seat count it plays random games over many
//! seeds through [`deckmate_engine::Table`] (game actions plus occasional resignations, draw
//! offers and timeouts) and checks the contract at every ply; see the `conformance` module for
//! the list.
//!
//! Set `DECKMATE_CONFORMANCE_SEEDS` to `N` (seeds `0..N`) or `A..B` (seeds `A..B`) to run more
//! seeds, or to reproduce one failure alone: every failure message names its seed. Set
//! `DECKMATE_CONFORMANCE_GAMES` to game ids separated by commas to check only those games.

use deckmate_engine::{Edition, Game, GameKind, SeatSet, with_game};

/// The checks, one module per property.
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
use conformance::suite::{run_suite, run_suite_in_edition};

#[test]
fn every_registered_game_conforms() {
    let budget = Budget::from_env();
    each_game_at_once(&budget.games, |kind| {
        with_game!(kind, G => run_suite::<G>(&budget));
    });
}

/// Games dealt under the first edition are still stored and played (docs/ARCHITECTURE.md §7),
/// so its rules are checked too, on fewer seeds: most of its code is shared with the latest.
#[test]
fn first_edition_games_still_conform() {
    let mut budget = Budget::from_env();
    budget.seeds = budget.seeds.start..budget.seeds.start + FIRST_EDITION_SEEDS;
    each_game_at_once(&budget.games, |kind| {
        with_game!(kind, G => run_suite_in_edition::<G>(&budget, Edition::FIRST));
    });
}

/// Runs `check` for each of `games`, every game on a thread of its own named after it: the games
/// share nothing, and this suite is the longest of the engine's tests, so they use every core.
/// A failing game panics its thread (the message names the game and the seed), and then the
/// test.
fn each_game_at_once(games: &[GameKind], check: impl Fn(GameKind) + Sync) {
    std::thread::scope(|scope| {
        for &kind in games {
            let check = &check;
            std::thread::Builder::new()
                .name(kind.id().to_owned())
                .spawn_scoped(scope, move || check(kind))
                .expect("a thread for the game");
        }
    });
}

/// Seeds per game and seat count for [`first_edition_games_still_conform`].
const FIRST_EDITION_SEEDS: u64 = 40;

#[test]
fn registry_lists_every_game_once_with_sane_seat_counts() {
    for kind in GameKind::ALL {
        assert_eq!(GameKind::from_id(kind.id()), Some(*kind), "{}", kind.id());
        let seats = kind.seats();
        assert!(
            *seats.start() >= 1 && *seats.end() <= SeatSet::CAPACITY && !seats.is_empty(),
            "{}: seat range {seats:?} is not within 1..={}",
            kind.id(),
            SeatSet::CAPACITY
        );
        with_game!(*kind, G => {
            assert_eq!(G::ID, kind.id());
            assert!(!G::NAME.is_empty() && !G::SUMMARY.is_empty(), "{}", G::ID);
        });
    }
    let mut ids: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.id()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), GameKind::ALL.len(), "duplicate game ids");
}
