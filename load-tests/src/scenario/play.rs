//! `play`: every worker creates games of the planned variants in turn and plays each to its end
//! with random legal actions, until the window closes or the game count has been started.

use std::sync::Arc;

use tokio::time::Instant;

use super::pause_after_error;
use crate::clock::StopSignal;
use crate::connect::Connections;
use crate::driver::{GameInPlay, Step};
use crate::phase::{PhaseResult, PhaseSpec, WorkerContext, run_phase};
use crate::plan::GamePlan;
use crate::recorder::Recorder;

/// Runs the play phase.
pub(crate) async fn run(
    spec: &PhaseSpec,
    connections: &Connections,
    stop: &StopSignal,
    plan: Arc<GamePlan>,
) -> PhaseResult {
    run_phase(
        spec,
        connections,
        stop,
        |context, recorder| async move { (context, (), recorder) },
        move |context, (), recorder| play_games(context, recorder, plan.clone()),
    )
    .await
}

/// Plays one game after another until the phase ends.
async fn play_games(
    mut context: WorkerContext,
    mut recorder: Recorder,
    plan: Arc<GamePlan>,
) -> Recorder {
    while !recorder.should_stop() {
        let Some(next) = plan.next_game(recorder.is_warming_up(Instant::now())) else {
            break;
        };
        let connections = &context.connections;
        let Some(mut game) = GameInPlay::create(connections, &mut recorder, &plan, next).await
        else {
            pause_after_error().await;
            continue;
        };
        while !recorder.should_stop() {
            match game.step(&mut recorder, &mut context.rng, None).await {
                Step::Acted => {}
                Step::Finished => break,
                Step::Failed => {
                    pause_after_error().await;
                    break;
                }
            }
        }
    }
    recorder
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::client_seeds::GAME_SEEDS_HINT;
    use crate::errors::ExpectedErrors;
    use crate::scenario::test_phase;
    use crate::test_server::InProcessServer;

    /// The run's own check of the server (`GetServerInfo`) is skipped here, as against a server
    /// too old to answer it: the refusal itself must then stop the run.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_first_refused_seed_stops_the_phase_and_says_why() {
        let server = InProcessServer::start(deckmate_server::Config {
            create_rate: deckmate_server::protection::rate::Rate::Off,
            ..deckmate_server::Config::default()
        })
        .await;
        let (connections, plan) = test_phase::connect(&server, Some(1)).await;
        let workers = 4;
        let spec = test_phase::spec(
            "play",
            workers,
            Duration::from_secs(600),
            ExpectedErrors::none(),
        );
        let stop = StopSignal::new();
        let result = run(&spec, &connections, &stop, plan).await;
        test_phase::assert_stopped_at_first_refusal(&result, &stop, workers, GAME_SEEDS_HINT);
        server.stop().await;
    }
}
