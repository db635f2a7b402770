//! `watch`: games are played as in `play`, and each has `watchers` spectators following it with
//! `Watch` from version 0, opened before the first action. Each delivered version is timed
//! from the moment its action was sent (the delivery delay), and every watcher must receive
//! every version exactly once, in order, and see its stream end after the final one.
//!
//! With several targets, the watchers of a game follow it through the target the routing rule
//! gives them ([`crate::routing`]), so that they receive versions committed through other
//! targets: deliveries cross replicas.

use std::sync::Arc;
use std::time::Duration;

use deckmate::pb;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::pause_after_error;
use crate::clock::StopSignal;
use crate::connect::Connections;
use crate::driver::{GameInPlay, SentTimes, Step};
use crate::errors::{ClientFault, ErrorKey};
use crate::phase::{PhaseResult, PhaseSpec, WorkerContext, run_phase};
use crate::plan::GamePlan;
use crate::recorder::{Method, Recorder};
use crate::routing::Routing;

/// How long watchers may take to see their stream end after the game's last action.
const WATCH_GRACE: Duration = Duration::from_secs(10);

/// Runs the watch phase with `watchers` spectators per game.
pub(crate) async fn run(
    spec: &PhaseSpec,
    connections: &Connections,
    stop: &StopSignal,
    plan: Arc<GamePlan>,
    watchers: usize,
) -> PhaseResult {
    run_phase(
        spec,
        connections,
        stop,
        |context, recorder| async move { (context, (), recorder) },
        move |context, (), recorder| watch_games(context, recorder, plan.clone(), watchers),
    )
    .await
}

/// How a watcher's stream went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WatcherEnd {
    /// The last version received (0: none).
    last_version: u64,
    /// Every version arrived once, in order, and each had been sent by this worker.
    in_order: bool,
    /// The server ended the stream (after the game's final version).
    ended: bool,
}

/// One open watcher: its task and the switch that stops it.
struct Watchers {
    tasks: Vec<JoinHandle<(Recorder, WatcherEnd)>>,
    stop: watch::Sender<bool>,
}

/// Plays watched games one after another until the phase ends.
async fn watch_games(
    mut context: WorkerContext,
    mut recorder: Recorder,
    plan: Arc<GamePlan>,
    watchers: usize,
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
        let sent = SentTimes::default();
        let open = open_watchers(&context, &mut recorder, &game, &sent, watchers).await;
        let mut finished = false;
        if open.tasks.len() == watchers {
            while !recorder.should_stop() {
                match game
                    .step(&mut recorder, &mut context.rng, Some(&sent))
                    .await
                {
                    Step::Acted => {}
                    Step::Finished => {
                        finished = true;
                        break;
                    }
                    Step::Failed => break,
                }
            }
        }
        let final_version = finished.then(|| game.version());
        let clean = close_watchers(&mut recorder, open, final_version).await;
        let failed = !(finished && clean);
        if failed && !recorder.should_stop() {
            pause_after_error().await;
        }
    }
    recorder
}

/// Opens `count` spectator streams of `game` from version 0; stops at the first failure.
async fn open_watchers(
    context: &WorkerContext,
    recorder: &mut Recorder,
    game: &GameInPlay,
    sent: &SentTimes,
    count: usize,
) -> Watchers {
    let (stop, stopped) = watch::channel(false);
    let mut tasks = Vec::with_capacity(count);
    let routing = Routing::new(context.connections.targets());
    let target = routing.watchers(game.number(), game.seats());
    let raw = &context.connections.to(target).raw;
    for _ in 0..count {
        let mut rpc = raw.clone();
        let request = pb::WatchRequest {
            game_id: game.id().to_string(),
            from_version: 0,
        };
        // The call returns once the server has subscribed to the game, so no version is
        // missed by a watcher that is slow to start.
        let Some(response) = recorder.raw(Method::Watch, rpc.watch(request)).await else {
            break;
        };
        tasks.push(tokio::spawn(follow(
            response.into_inner(),
            sent.clone(),
            recorder.sibling(),
            stopped.clone(),
        )));
    }
    Watchers { tasks, stop }
}

/// Waits for the watchers of a finished game (ending at `final_version`) to see the end, or
/// stops the watchers of an abandoned one; checks what they saw. Returns whether every check
/// passed.
async fn close_watchers(
    recorder: &mut Recorder,
    watchers: Watchers,
    final_version: Option<u64>,
) -> bool {
    if final_version.is_none() {
        watchers.stop.send_replace(true);
    }
    let mut clean = true;
    for mut task in watchers.tasks {
        let joined = match final_version {
            Some(_) => match tokio::time::timeout(WATCH_GRACE, &mut task).await {
                Ok(joined) => joined,
                Err(_) => {
                    recorder.fault(ClientFault::WatchHang);
                    clean = false;
                    watchers.stop.send_replace(true);
                    task.await
                }
            },
            None => task.await,
        };
        let Ok((watcher, end)) = joined else {
            recorder.fault(ClientFault::WorkerPanicked);
            clean = false;
            continue;
        };
        recorder.absorb(watcher);
        let complete = final_version.is_none_or(|last| end.ended && end.last_version == last);
        if !end.in_order || !complete {
            recorder.fault(ClientFault::WatchGap);
            clean = false;
        }
    }
    clean
}

/// Follows one watch stream until the server ends it, it fails, or `stop` is set.
async fn follow(
    mut stream: tonic::Streaming<pb::ObserveResponse>,
    sent: SentTimes,
    mut recorder: Recorder,
    mut stop: watch::Receiver<bool>,
) -> (Recorder, WatcherEnd) {
    let mut end = WatcherEnd {
        last_version: 0,
        in_order: true,
        ended: false,
    };
    loop {
        let message = tokio::select! {
            biased;
            _ = stop.wait_for(|stopped| *stopped) => break,
            message = stream.message() => message,
        };
        match message {
            Ok(Some(view)) => {
                let at = Instant::now();
                if view.version != end.last_version + 1 {
                    end.in_order = false;
                }
                end.last_version = view.version;
                match sent.sent_at(view.version) {
                    Some(sent_at) => recorder.delivery(at.saturating_duration_since(sent_at), at),
                    None => end.in_order = false,
                }
            }
            Ok(None) => {
                end.ended = true;
                break;
            }
            Err(status) => {
                recorder.failed(ErrorKey::from_status(&status));
                break;
            }
        }
    }
    (recorder, end)
}
