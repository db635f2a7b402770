//! [`run_suite`]: the whole conformance suite for one game, over every seat count it supports.

use std::sync::atomic::{AtomicBool, Ordering};

use deckmate_engine::{
    Edition, EndReason, Game, MetaEvent, Outcome, Seat, Seed, SetupError, Table, TableAction,
    TableEvent,
};

use super::budget::Budget;
use super::context::Ctx;
use super::meta::ALL_META;
use super::playout::play_and_check;
use super::pool::{Pool, harvest};
use super::serialization::round_trip;
use super::stats::Stats;
use super::timeout::EXPECTED_TIMEOUT_CHECKS;

/// Meta-action checks that must have happened at least once in a full run of a two-seat game,
/// or the meta checks proved nothing.
fn expected_meta_checks(edition: Edition) -> Vec<&'static str> {
    let mut names = vec![
        "resign",
        "offer",
        "accept",
        "decline",
        "implicit decline",
        "offer stands while the offerer plays",
    ];
    if edition.has(Edition::SECOND) {
        names.extend([
            "re-offer on a later turn",
            "blocked for the rest of the turn",
            "one offer per seat per turn",
        ]);
    } else {
        names.extend([
            "re-offer after own game action",
            "blocked while the opponent plays",
        ]);
    }
    names
}

/// Runs every check for `G` with its default config, for every supported seat count, and
/// prints a summary per seat count.
pub(crate) fn run_suite<G: Game>(budget: &Budget) {
    run_suite_with::<G>(budget, &G::Config::default(), G::SEATS);
}

/// Runs every check for `G` with its default config and every seat count, under `edition` of
/// the rules: stored games of an older edition keep playing, so its rules must stay sound.
pub(crate) fn run_suite_in_edition<G: Game>(budget: &Budget, edition: Edition) {
    run_suite_in::<G>(budget, &G::Config::default(), G::SEATS, edition);
}

/// Runs every check for `G` with `config`, for each of `seat_counts`: for a game's options that
/// change the rules (such as teams), run from the game's own test file.
pub(crate) fn run_suite_with<G: Game>(
    budget: &Budget,
    config: &G::Config,
    seat_counts: impl IntoIterator<Item = usize>,
) {
    run_suite_in::<G>(budget, config, seat_counts, Edition::LATEST);
}

/// [`run_suite_with`] under `edition` of the rules.
fn run_suite_in<G: Game>(
    budget: &Budget,
    config: &G::Config,
    seat_counts: impl IntoIterator<Item = usize>,
    edition: Edition,
) {
    let config = config.clone();
    check_fixed_types::<G>(&config);
    check_seat_count_limits::<G>(&config);
    for seats in seat_counts {
        let shared = harvest::<G>(
            &config,
            seats,
            edition,
            budget.pool_harvest_games,
            budget.max_plies,
            budget.pool_capacity,
        );
        let ctx = Ctx::new(G::ID, seats, edition, 0);
        for index in 0..shared.len() {
            round_trip(&ctx, "action", shared.get(index));
            round_trip(
                &ctx,
                "table action",
                &TableAction::Game(shared.get(index).clone()),
            );
        }
        let stats = run_seeds::<G>(&config, seats, edition, &shared, budget);
        eprintln!("{}", stats.summary(G::ID, seats));
        check_run::<G>(seats, edition, &stats, budget);
    }
}

/// The config and the table's own types round-trip through serialization.
fn check_fixed_types<G: Game>(config: &G::Config) {
    let ctx = Ctx::new(G::ID, 0, Edition::LATEST, 0);
    round_trip(&ctx, "default config", config);
    for meta in ALL_META {
        round_trip(&ctx, "meta action", &meta);
        round_trip(&ctx, "table action", &TableAction::<G::Action>::Meta(meta));
    }
    round_trip(&ctx, "table action", &TableAction::<G::Action>::TimeOut);
    let seat = Seat(1);
    for meta in [
        MetaEvent::Resigned(seat),
        MetaEvent::DrawOffered(seat),
        MetaEvent::DrawAccepted(seat),
        MetaEvent::DrawDeclined(seat),
        MetaEvent::TimedOut(seat),
    ] {
        round_trip(&ctx, "meta event", &meta);
        round_trip(&ctx, "table event", &TableEvent::<G::Event>::Meta(meta));
    }
    for outcome in [
        Outcome::win(seat, EndReason::Resignation),
        Outcome::draw(EndReason::DrawAgreed),
        Outcome::win(seat, EndReason::Timeout),
        Outcome::draw(EndReason::Timeout),
        Outcome::by_scores(vec![3, 5], EndReason::Score),
    ] {
        round_trip(&ctx, "outcome", &outcome);
        round_trip(&ctx, "table event", &TableEvent::<G::Event>::Ended(outcome));
    }
}

/// Seat counts outside `G::SEATS` are refused, by the game and by the table.
fn check_seat_count_limits<G: Game>(config: &G::Config) {
    let seed = Seed::from_u64(0);
    let below = G::SEATS.start().checked_sub(1);
    let above = Some(G::SEATS.end() + 1);
    for seats in below.into_iter().chain(above) {
        assert!(
            G::new_game(config, seats, seed).is_err(),
            "{}: the game accepts {seats} seats outside {:?}",
            G::ID,
            G::SEATS
        );
        assert!(
            matches!(
                Table::<G>::new(config, seats, seed),
                Err(SetupError::SeatCount { requested, .. }) if requested == seats
            ),
            "{}: the table accepts {seats} seats outside {:?}",
            G::ID,
            G::SEATS
        );
    }
}

/// Plays every seed of the budget, shared among worker threads, and adds up what they saw.
/// A worker that fails stops the others at their next seed.
fn run_seeds<G: Game>(
    config: &G::Config,
    seats: usize,
    edition: Edition,
    shared: &Pool<G::Action>,
    budget: &Budget,
) -> Stats {
    let failed = AtomicBool::new(false);
    let seed_count = (budget.seeds.end - budget.seeds.start) as usize;
    let workers = budget.threads.min(seed_count).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let failed = &failed;
                scope.spawn(move || {
                    let flag = FailureFlag(failed);
                    let mut stats = Stats::default();
                    for seed in budget.seeds.clone().skip(worker).step_by(workers) {
                        if failed.load(Ordering::Relaxed) {
                            break;
                        }
                        play_and_check::<G>(
                            config, seats, edition, seed, shared, budget, &mut stats,
                        );
                    }
                    drop(flag);
                    stats
                })
            })
            .collect();
        let mut total = Stats::default();
        for handle in handles {
            match handle.join() {
                Ok(stats) => total.merge(stats),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        total
    })
}

/// Raises the shared failure flag when its worker unwinds from a failed check.
struct FailureFlag<'a>(&'a AtomicBool);

impl Drop for FailureFlag<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// The checks over the whole run of one seat count.
fn check_run<G: Game>(seats: usize, edition: Edition, stats: &Stats, budget: &Budget) {
    let game = G::ID;
    let seed_count = budget.seeds.end - budget.seeds.start;
    assert_eq!(
        stats.games, seed_count,
        "{game} seats={seats}: games played"
    );
    assert!(
        stats.resample_state_differs > 0,
        "{game} seats={seats}: resampling never changed a state, so the no-leak test proved \
         nothing"
    );
    assert!(
        stats.secret_pairs == 0 || stats.resample_hidden_differs > 0,
        "{game} seats={seats}: seats make choices other viewers cannot see ({} pairs of actions \
         only their actor could tell apart), yet resampling never changed what another seat \
         sees: resample does not redraw hidden information",
        stats.secret_pairs
    );
    if seed_count >= 2 {
        assert!(
            stats.deals.len() >= 2,
            "{game} seats={seats}: every seed dealt the same game"
        );
    }
    if budget.is_full_run() {
        let mut expected: Vec<&str> = EXPECTED_TIMEOUT_CHECKS.to_vec();
        if seats > 2 {
            expected.extend(["timeout eliminates", "timeout played on"]);
        }
        for name in expected {
            assert!(
                stats.meta.get(name).copied().unwrap_or(0) > 0,
                "{game} seats={seats}: the timeout check {name:?} never ran"
            );
        }
    }
    if seats == 2 && budget.is_full_run() {
        for name in expected_meta_checks(edition) {
            assert!(
                stats.meta.get(name).copied().unwrap_or(0) > 0,
                "{game} seats={seats}: the meta check {name:?} never ran"
            );
        }
    }
}
