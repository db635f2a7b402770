//! `act`: the hot path alone. Every worker creates its games before the clock starts, then
//! plays them in turn, one action per game per round: `Act`, and the `Observe` of the next seat
//! to act when the actor's own new view (returned by `Act`) has no action. A game that finishes
//! is replaced by a new one.

use std::sync::Arc;

use tokio::time::Instant;

use super::pause_after_error;
use crate::clock::StopSignal;
use crate::connect::Connections;
use crate::driver::{GameInPlay, Step};
use crate::phase::{PhaseResult, PhaseSpec, WorkerContext, run_phase};
use crate::plan::GamePlan;
use crate::recorder::Recorder;

/// Runs the act phase with `games_per_worker` games per worker.
pub(crate) async fn run(
    spec: &PhaseSpec,
    connections: &Connections,
    stop: &StopSignal,
    plan: Arc<GamePlan>,
    games_per_worker: usize,
) -> PhaseResult {
    let preparing = plan.clone();
    run_phase(
        spec,
        connections,
        stop,
        move |context, recorder| {
            create_games(context, recorder, preparing.clone(), games_per_worker)
        },
        move |context, games, recorder| act_in_turn(context, games, recorder, plan.clone()),
    )
    .await
}

/// Creates a worker's games and observes each, so that its first step is an `Act`.
async fn create_games(
    context: WorkerContext,
    mut recorder: Recorder,
    plan: Arc<GamePlan>,
    count: usize,
) -> (WorkerContext, Vec<GameInPlay>, Recorder) {
    let mut games = Vec::with_capacity(count);
    for _ in 0..count {
        if recorder.should_stop() {
            break;
        }
        if let Some(game) = new_game(&context, &mut recorder, &plan).await {
            games.push(game);
        }
    }
    (context, games, recorder)
}

/// A new game of the next variant, observed by its first seat.
async fn new_game(
    context: &WorkerContext,
    recorder: &mut Recorder,
    plan: &GamePlan,
) -> Option<GameInPlay> {
    let next = plan.next_game(recorder.is_warming_up(Instant::now()))?;
    let mut game = GameInPlay::create(&context.connections, recorder, plan, next).await?;
    game.observe_first_seat(recorder).await.then_some(game)
}

/// Plays the games in turn until the phase ends.
async fn act_in_turn(
    mut context: WorkerContext,
    mut games: Vec<GameInPlay>,
    mut recorder: Recorder,
    plan: Arc<GamePlan>,
) -> Recorder {
    let mut turn = 0;
    while !recorder.should_stop() && !games.is_empty() {
        let index = turn % games.len();
        turn += 1;
        let step = games[index]
            .step(&mut recorder, &mut context.rng, None)
            .await;
        if step == Step::Acted {
            continue;
        }
        if step == Step::Failed {
            pause_after_error().await;
        }
        match new_game(&context, &mut recorder, &plan).await {
            Some(game) => games[index] = game,
            None => {
                games.swap_remove(index);
                pause_after_error().await;
            }
        }
    }
    recorder
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::errors::ExpectedErrors;
    use crate::scenario::test_phase;
    use crate::test_server::InProcessServer;

    /// The act phase of `workers` workers with 4 games each against a server with the default
    /// quotas (20 games at once, then 60 a minute, from one caller), tolerating `expected`.
    async fn act_on_default_quotas(
        workers: usize,
        expected: ExpectedErrors,
        duration: Duration,
    ) -> (PhaseResult, StopSignal) {
        let server = InProcessServer::start(deckmate_server::Config::default()).await;
        let (connections, plan) = test_phase::connect(&server, None).await;
        let spec = test_phase::spec("act", workers, duration, expected);
        let stop = StopSignal::new();
        let result = run(&spec, &connections, &stop, plan, 4).await;
        server.stop().await;
        (result, stop)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_first_quota_refusal_stops_the_phase_and_names_the_flags() {
        let workers = 8;
        let (result, stop) =
            act_on_default_quotas(workers, ExpectedErrors::none(), Duration::from_secs(600)).await;
        let hint = crate::game_quotas::hint(None);
        test_phase::assert_stopped_at_first_refusal(&result, &stop, workers, &hint);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn expected_quota_refusals_are_counted_and_the_games_made_are_played() {
        let expected = ExpectedErrors::reasons(&["LIMIT_REACHED"]).unwrap();
        let (result, _) = act_on_default_quotas(8, expected, Duration::from_secs(2)).await;
        assert_eq!(result.stop_reason, None);
        let refused: u64 = result
            .tally
            .errors
            .iter()
            .filter(|(key, _)| key.reason == "LIMIT_REACHED")
            .map(|(_, count)| count)
            .sum();
        assert!(refused >= 1, "{:?}", result.tally.errors);
        assert!(
            result.tally.actions > 0,
            "no action in {:?}",
            result.measured
        );
    }
}
