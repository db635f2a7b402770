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
