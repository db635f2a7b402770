//! Checks 6 and 7, the no-leak tests.
//!
//! Observations: a state resampled for a viewer (everything it cannot see redrawn) must look the
//! same to it: same observation, same seats to act, same legal actions for its seat, same
//! outcome, and the same error for each illegal action of its seat (error messages must not
//! reveal hidden information either).
//!
//! Events: if a viewer cannot tell two actions of another seat apart by its observation after
//! them, it must not be able to tell them apart by the events it is shown either.

use deckmate_engine::{Game, GameRng, Seat, Table, TableEvent, Viewer};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use super::budget::Budget;
use super::context::{Ctx, ViewerName};
use super::legality::{Applied, Rejection};
use super::stats::Stats;
use super::turn::seats;

/// Every viewer of an `n`-seat game: each seat, then a spectator.
pub(crate) fn viewers(n: usize) -> impl Iterator<Item = Viewer> {
    seats(n).map(Viewer::Seat).chain([Viewer::Spectator])
}

/// Check 6: resamples `table`'s state for every viewer and compares what the viewer sees.
pub(crate) fn check_resample<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    illegal: &[Rejection<G::Action>],
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    let state = table.state();
    let n = table.seat_count();
    let observations: Vec<G::Observation> = viewers(n).map(|v| G::observe(state, v)).collect();
    for (viewer, seen) in viewers(n).zip(&observations) {
        let who = ViewerName(viewer);
        for _ in 0..budget.resamples_per_viewer {
            let mut resample_rng = GameRng::from_seed(rng.random());
            let other = G::resample(state, viewer, &mut resample_rng);
            let seen_there = G::observe(&other, viewer);
            assert!(
                seen_there == *seen,
                "{ctx}: resampling for {who} changed its observation\n\
                 original: {seen:?}\nresampled: {seen_there:?}\n\
                 original state: {state:?}\nresampled state: {other:?}"
            );
            assert_eq!(
                G::to_act(&other),
                G::to_act(state),
                "{ctx}: resampling for {who} changed to_act (resampled state {other:?})"
            );
            assert_eq!(
                G::outcome(&other),
                G::outcome(state),
                "{ctx}: resampling for {who} changed the outcome (resampled state {other:?})"
            );
            assert_eq!(
                G::seat_count(&other),
                n,
                "{ctx}: resampling changed the seat count"
            );
            for seat in seats(n) {
                let legal = G::legal_actions(&other, seat);
                assert_eq!(
                    !legal.is_empty(),
                    G::to_act(&other).contains(seat),
                    "{ctx}: a state resampled for {who} breaks the turn model for {seat}: \
                     {other:?}"
                );
                if viewer.is(seat) {
                    assert_eq!(
                        legal,
                        G::legal_actions(state, seat),
                        "{ctx}: resampling for {who} changed its legal actions \
                         (resampled state {other:?})"
                    );
                }
            }
            check_resampled_plays_on::<G>(ctx, &other, viewer, rng);
            if let Some(seat) = viewer.seat() {
                check_errors_unchanged::<G>(ctx, &other, seat, illegal, budget, stats);
            }
            stats.resamples += 1;
            if other != *state {
                stats.resample_state_differs += 1;
            }
            let hidden_differs = viewers(n)
                .zip(&observations)
                .filter(|(other_viewer, _)| *other_viewer != viewer)
                .any(|(other_viewer, original)| G::observe(&other, other_viewer) != *original);
            if hidden_differs {
                stats.resample_hidden_differs += 1;
            }
        }
    }
}

/// The resampled state is a real position: a random listed action of a random seat to act
/// applies in it.
fn check_resampled_plays_on<G: Game>(
    ctx: &Ctx,
    resampled: &G::State,
    viewer: Viewer,
    rng: &mut impl Rng,
) {
    let to_act: Vec<Seat> = G::to_act(resampled).iter().collect();
    let Some(seat) = to_act.choose(rng).copied() else {
        return;
    };
    let legal = G::legal_actions(resampled, seat);
    let Some(action) = legal.choose(rng) else {
        return;
    };
    let mut copy = resampled.clone();
    if let Err(error) = G::apply(&mut copy, seat, action) {
        let who = ViewerName(viewer);
        panic!(
            "{ctx}: in a state resampled for {who}, listed {action:?} of {seat} fails: \
             {error} (resampled state {resampled:?})"
        );
    }
}

/// The game rejects the illegal actions of `seat` in the resampled state with the very errors
/// it gave in the original: an error that differs would tell the seat something hidden.
fn check_errors_unchanged<G: Game>(
    ctx: &Ctx,
    resampled: &G::State,
    seat: Seat,
    illegal: &[Rejection<G::Action>],
    budget: &Budget,
    stats: &mut Stats,
) {
    for rejection in illegal
        .iter()
        .filter(|rejection| rejection.seat == seat)
        .take(budget.error_leak_probes)
    {
        let mut copy = resampled.clone();
        let result = G::apply(&mut copy, seat, &rejection.action);
        assert_eq!(
            result.as_ref().err(),
            Some(&rejection.error),
            "{ctx}: {:?} of {seat} is rejected differently in a state {seat} cannot tell \
             apart: the error reveals hidden information (resampled state {resampled:?})",
            rejection.action
        );
        stats.error_probes += 1;
    }
}

/// Check 7: for the actions of `actor` applied on clones, every other viewer that sees the same
/// observation after two of them is shown the same events for both.
pub(crate) fn check_event_views<G: Game>(
    ctx: &Ctx,
    actor: Seat,
    applied: &[Applied<G>],
    stats: &mut Stats,
) {
    let Some(first) = applied.first() else {
        return;
    };
    let actor_sees: Vec<G::Observation> = applied
        .iter()
        .map(|applied| applied.table.observe(Viewer::Seat(actor)))
        .collect();
    for viewer in viewers(first.table.seat_count()).filter(|viewer| !viewer.is(actor)) {
        let who = ViewerName(viewer);
        let observations: Vec<G::Observation> = applied
            .iter()
            .map(|applied| applied.table.observe(viewer))
            .collect();
        let views: Vec<Vec<TableEvent<G::EventView>>> = applied
            .iter()
            .map(|applied| {
                applied
                    .events
                    .iter()
                    .filter_map(|event| Table::<G>::view_event(event, viewer))
                    .collect()
            })
            .collect();
        for i in 0..applied.len() {
            for j in i + 1..applied.len() {
                stats.event_pairs += 1;
                if observations[i] != observations[j] {
                    continue;
                }
                stats.event_pairs_indistinguishable += 1;
                if actor_sees[i] != actor_sees[j] {
                    stats.secret_pairs += 1;
                }
                assert!(
                    views[i] == views[j],
                    "{ctx}: {who} sees the same observation after {:?} and {:?} of {actor} \
                     but different events:\n{:?}\n{:?}",
                    applied[i].action,
                    applied[j].action,
                    views[i],
                    views[j]
                );
            }
        }
    }
}
