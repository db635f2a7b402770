//! One phase of a run (the baseline, or the scenario itself) on the machinery every phase
//! shares: `in_flight` workers over the run's connections, an optional per-worker preparation
//! before the clock starts, the warm-up, the measured window, the progress line, and the
//! client's CPU time over the window together with the external meters' readings (server CPU,
//! Redis) over the same window.

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use cpu_time::ProcessTime;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::clock::{StopSignal, Window};
use crate::connect::{Connections, WorkerConnections};
use crate::errors::{ClientFault, ExpectedErrors};
use crate::meters::{ExternalMeters, ExternalUsage};
use crate::pacer::Pacer;
use crate::progress;
use crate::recorder::{LiveCounters, Recorder, Shared, Tally};

/// What a phase is.
#[derive(Clone, Debug)]
pub(crate) struct PhaseSpec {
    /// The name on the progress line and in the report (`play`, `baseline`, ...).
    pub(crate) name: &'static str,
    /// Concurrent workers.
    pub(crate) workers: usize,
    /// Time before measuring starts.
    pub(crate) warmup: Duration,
    /// Measured time; `None` when the phase ends by a game count.
    pub(crate) duration: Option<Duration>,
    /// Seeds the workers' random generators.
    pub(crate) seed: u64,
    /// Tolerated error reasons.
    pub(crate) expected: ExpectedErrors,
    /// Unexpected errors after which the run stops.
    pub(crate) max_errors: u64,
    /// Progress line interval, if any.
    pub(crate) progress: Option<Duration>,
    /// The meters read at the opening and the closing of the window.
    pub(crate) meters: Arc<ExternalMeters>,
    /// Calls a second on an open-loop schedule (`--rate`); `None` calls back to back.
    pub(crate) rate: Option<u32>,
}

/// What a worker is given.
#[derive(Debug)]
pub(crate) struct WorkerContext {
    /// Its number among the phase's workers.
    pub(crate) index: usize,
    /// Its connections, one to each target.
    pub(crate) connections: WorkerConnections,
    /// Its random generator, seeded from the run's seed and its number.
    pub(crate) rng: ChaCha8Rng,
}

/// The results of a phase.
#[derive(Debug)]
pub(crate) struct PhaseResult {
    /// Everything recorded (the preparation's errors included).
    pub(crate) tally: Tally,
    /// The measured wall time: the window, or less when the phase ended early.
    pub(crate) measured: Duration,
    /// The process's CPU time over the measured wall time.
    pub(crate) cpu: Duration,
    /// What the external meters saw over the measured wall time.
    pub(crate) external: ExternalUsage,
    /// Why a worker stopped the run, if one did ([`Recorder::stop_because`]).
    pub(crate) stop_reason: Option<Arc<str>>,
}

/// Runs a phase: `prepare` for every worker before the clock starts (unmeasured), then `work`
/// for every worker until it returns. Workers return when [`Recorder::should_stop`] says so,
/// or when they have no more work (a game count).
pub(crate) async fn run_phase<S, P, PF, W, WF>(
    spec: &PhaseSpec,
    connections: &Connections,
    stop: &StopSignal,
    prepare: P,
    work: W,
) -> PhaseResult
where
    S: Send + 'static,
    P: Fn(WorkerContext, Recorder) -> PF,
    PF: Future<Output = (WorkerContext, S, Recorder)> + Send + 'static,
    W: Fn(WorkerContext, S, Recorder) -> WF,
    WF: Future<Output = Recorder> + Send + 'static,
{
    let shared = Arc::new(Shared {
        live: LiveCounters::default(),
        expected: spec.expected.clone(),
        stop: stop.clone(),
        max_errors: spec.max_errors,
        pacer: spec.rate.map(Pacer::new),
        stop_reason: OnceLock::new(),
    });
    let mut tally = Tally::default();
    // A recorder for failures of the phase itself (a panicked worker).
    let mut own = Recorder::new(shared.clone(), None);

    let preparing: Vec<JoinHandle<(WorkerContext, S, Recorder)>> = (0..spec.workers)
        .map(|index| {
            let context = WorkerContext {
                index,
                connections: connections.for_worker(index),
                rng: ChaCha8Rng::seed_from_u64(worker_seed(spec.seed, index)),
            };
            tokio::spawn(prepare(context, Recorder::new(shared.clone(), None)))
        })
        .collect();
    let mut prepared = Vec::with_capacity(spec.workers);
    for handle in preparing {
        match handle.await {
            Ok((context, state, recorder)) => {
                tally.merge(recorder.into_tally());
                prepared.push((context, state));
            }
            Err(_) => own.fault(ClientFault::WorkerPanicked),
        }
    }

    let window = Window::new(Instant::now(), spec.warmup, spec.duration);
    let (done, done_watch) = watch::channel(false);
    let meter = tokio::spawn(measure(window, spec.meters.clone(), done_watch.clone()));
    let printer = spec.progress.map(|interval| {
        tokio::spawn(progress::print_until_done(
            spec.name,
            window,
            shared.clone(),
            interval,
            done_watch.clone(),
        ))
    });
    let working: Vec<JoinHandle<Recorder>> = prepared
        .into_iter()
        .map(|(context, state)| {
            tokio::spawn(work(
                context,
                state,
                Recorder::new(shared.clone(), Some(window)),
            ))
        })
        .collect();
    for handle in working {
        match handle.await {
            Ok(recorder) => tally.merge(recorder.into_tally()),
            Err(_) => own.fault(ClientFault::WorkerPanicked),
        }
    }
    done.send_replace(true);
    let measured = meter.await.unwrap_or_default();
    if let Some(printer) = printer {
        let _ = printer.await;
    }
    tally.merge(own.into_tally());
    PhaseResult {
        tally,
        measured: measured.wall,
        cpu: measured.cpu,
        external: measured.external,
        stop_reason: shared.stop_reason.get().cloned(),
    }
}

/// What [`measure`] measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Measured {
    /// Wall time.
    wall: Duration,
    /// This process's CPU time.
    cpu: Duration,
    /// The external meters' usage.
    external: ExternalUsage,
}

/// The wall and CPU time, and the external meters' usage, from the window's opening to its
/// closing, or to `done` when that comes first; nothing if `done` comes before the window
/// opens.
async fn measure(
    window: Window,
    meters: Arc<ExternalMeters>,
    mut done: watch::Receiver<bool>,
) -> Measured {
    tokio::select! {
        () = tokio::time::sleep_until(window.opens) => {}
        _ = done.wait_for(|done| *done) => return Measured::default(),
    }
    let wall = Instant::now();
    let cpu = ProcessTime::now();
    let start = meters.read().await;
    match window.closes {
        Some(closes) => {
            tokio::select! {
                () = tokio::time::sleep_until(closes) => {}
                _ = done.wait_for(|done| *done) => {}
            }
        }
        None => {
            let _ = done.wait_for(|done| *done).await;
        }
    }
    let (wall, cpu) = (wall.elapsed(), cpu.elapsed());
    let end = meters.read().await;
    Measured {
        wall,
        cpu,
        external: ExternalUsage::between(start, end),
    }
}

/// The seed of worker `index`: distinct per worker, fixed by the run's seed.
fn worker_seed(seed: u64, index: usize) -> u64 {
    seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worker_seeds_differ_and_follow_the_run_seed() {
        let seeds: std::collections::HashSet<u64> = (0..64).map(|i| worker_seed(7, i)).collect();
        assert_eq!(seeds.len(), 64);
        assert_eq!(worker_seed(7, 3), worker_seed(7, 3));
        assert_ne!(worker_seed(7, 3), worker_seed(8, 3));
    }

    // Paused time: the meter sees the 20 ms the phase took, however late its task runs on a
    // loaded machine.
    #[tokio::test(start_paused = true)]
    async fn measuring_ends_early_when_the_phase_is_done() {
        let window = Window::new(
            Instant::now(),
            Duration::ZERO,
            Some(Duration::from_secs(3600)),
        );
        let (done, receiver) = watch::channel(false);
        let meter = tokio::spawn(measure(window, Arc::default(), receiver));
        tokio::time::sleep(Duration::from_millis(20)).await;
        done.send_replace(true);
        let measured = meter.await.unwrap();
        assert_eq!(measured.wall, Duration::from_millis(20));
        assert_eq!(measured.external, ExternalUsage::default());
    }

    #[tokio::test]
    async fn a_phase_done_during_the_warmup_measured_nothing() {
        let window = Window::new(Instant::now(), Duration::from_secs(3600), None);
        let (done, receiver) = watch::channel(false);
        done.send_replace(true);
        assert_eq!(
            measure(window, Arc::default(), receiver).await,
            Measured::default()
        );
    }
}
