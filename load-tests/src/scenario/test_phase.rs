//! What the scenarios' unit tests share: connections and a plan of every variant on an
//! in-process server, the spec of a phase run against it, and the check of a phase stopped by a
//! refused `CreateGame`.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::StopSignal;
use crate::connect::Connections;
use crate::errors::ExpectedErrors;
use crate::options::VariantSelection;
use crate::phase::{PhaseResult, PhaseSpec};
use crate::plan::{self, GamePlan};
use crate::test_server::InProcessServer;

/// One connection to `server`, and a plan of every variant it hosts, seeded with `game_seeds`.
pub(crate) async fn connect(
    server: &InProcessServer,
    game_seeds: Option<u64>,
) -> (Connections, Arc<GamePlan>) {
    let connections = Connections::open(std::slice::from_ref(&server.address), 1, None)
        .await
        .expect("the server is up");
    let first = connections.for_worker(0);
    let variants = plan::resolve(&first.to(0).client, &VariantSelection::All, 0)
        .await
        .unwrap();
    let plan = GamePlan::new(variants, None).with_game_seeds(game_seeds);
    (connections, Arc::new(plan))
}

/// A phase named `name` of `workers` workers measuring for `duration` from the start, tolerating
/// `expected` and stopping at 100 other errors.
pub(crate) fn spec(
    name: &'static str,
    workers: usize,
    duration: Duration,
    expected: ExpectedErrors,
) -> PhaseSpec {
    PhaseSpec {
        name,
        workers,
        warmup: Duration::ZERO,
        duration: Some(duration),
        seed: 1,
        expected,
        max_errors: 100,
        progress: None,
        meters: Arc::default(),
        rate: None,
    }
}

/// Checks that a phase of `workers` workers was stopped for `reason` at the first refusal of a
/// `CreateGame`, long before its window closed.
pub(crate) fn assert_stopped_at_first_refusal(
    result: &PhaseResult,
    stop: &StopSignal,
    workers: usize,
    reason: &str,
) {
    assert!(stop.is_triggered());
    assert_eq!(result.stop_reason.as_deref(), Some(reason));
    // Each worker had at most one CreateGame in flight when the first refusal stopped it.
    let refused: u64 = result.tally.errors.values().sum();
    assert!(
        (1..=workers as u64).contains(&refused),
        "{:?}",
        result.tally.errors
    );
    assert!(
        result.measured < Duration::from_secs(60),
        "{:?}",
        result.measured
    );
}
