//! [`Recorder`]: what one worker saw during a phase (latencies, errors, actions, finished games,
//! watch deliveries), kept locally so that workers never contend on a lock, and merged into the
//! phase's [`Tally`] when they finish. Live totals for the progress line go to shared atomics.

use crate::pacer::Pacer;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;
use tokio::time::Instant;

use crate::clock::{StopSignal, Window};
use crate::errors::{ClientFault, ErrorKey, ExpectedErrors};

/// The longest latency the histograms resolve (longer ones are recorded as this): one minute.
const MAX_RECORDED_NANOS: u64 = 60_000_000_000;
/// Significant decimal digits the histograms keep.
const SIGNIFICANT_DIGITS: u8 = 3;

/// An RPC whose latency is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Method {
    /// `GameService/CreateGame`.
    CreateGame,
    /// `GameService/Observe`.
    Observe,
    /// `GameService/Act`.
    Act,
    /// `GameService/Watch`, until the stream is open.
    Watch,
    /// `grpc.health.v1.Health/Check`, the baseline.
    Check,
}

impl Method {
    /// The method's RPC name.
    pub fn name(self) -> &'static str {
        match self {
            Method::CreateGame => "CreateGame",
            Method::Observe => "Observe",
            Method::Act => "Act",
            Method::Watch => "Watch",
            Method::Check => "Check",
        }
    }
}

/// A latency histogram in nanoseconds.
pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_RECORDED_NANOS, SIGNIFICANT_DIGITS)
        .expect("the histogram bounds are valid")
}

/// `duration` in whole nanoseconds, at least 1 (the histograms' lowest value).
fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// Totals every worker adds to while the phase runs, for the progress line and the error
/// limit. They count the warm-up too.
#[derive(Debug, Default)]
pub(crate) struct LiveCounters {
    pub(crate) calls: AtomicU64,
    pub(crate) actions: AtomicU64,
    pub(crate) games: AtomicU64,
    pub(crate) deliveries: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) unexpected_errors: AtomicU64,
}

/// What every worker of a phase shares.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) live: LiveCounters,
    pub(crate) expected: ExpectedErrors,
    pub(crate) stop: StopSignal,
    /// Unexpected errors after which the whole run stops.
    pub(crate) max_errors: u64,
    /// The open-loop schedule of measured calls (`--rate`); `None` for back-to-back calls.
    pub(crate) pacer: Option<Pacer>,
    /// Why a worker stopped the run, when it recognised a failure that every further call
    /// would repeat; the first reason given is kept.
    pub(crate) stop_reason: OnceLock<Arc<str>>,
}

/// Actions and finished games of one variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct VariantTally {
    pub(crate) games_finished: u64,
    pub(crate) actions: u64,
}

/// The measured results of a phase (or of one worker, before merging). Latencies, actions,
/// games and deliveries count only inside the measured window; errors count always, so that
/// a failure during the warm-up still fails the run.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) latency: BTreeMap<Method, Histogram<u64>>,
    pub(crate) delivery: Option<Histogram<u64>>,
    pub(crate) errors: BTreeMap<ErrorKey, u64>,
    pub(crate) games_finished: u64,
    pub(crate) actions: u64,
    pub(crate) deliveries: u64,
    /// By index into the phase's variant list.
    pub(crate) variants: Vec<VariantTally>,
}

impl Tally {
    /// Adds `other` to this tally.
    pub(crate) fn merge(&mut self, other: Tally) {
        for (method, histogram) in other.latency {
            match self.latency.get_mut(&method) {
                Some(mine) => add_histogram(mine, &histogram),
                None => {
                    self.latency.insert(method, histogram);
                }
            }
        }
        match (&mut self.delivery, other.delivery) {
            (Some(mine), Some(theirs)) => add_histogram(mine, &theirs),
            (mine @ None, theirs) => *mine = theirs,
            (Some(_), None) => {}
        }
        for (key, count) in other.errors {
            *self.errors.entry(key).or_default() += count;
        }
        self.games_finished += other.games_finished;
        self.actions += other.actions;
        self.deliveries += other.deliveries;
        for (index, variant) in other.variants.into_iter().enumerate() {
            let mine = self.variant_mut(index);
            mine.games_finished += variant.games_finished;
            mine.actions += variant.actions;
        }
    }

    /// Successful measured calls of every method.
    pub(crate) fn calls(&self) -> u64 {
        self.latency.values().map(Histogram::len).sum()
    }

    /// The tally of variant `index`, created on first use.
    fn variant_mut(&mut self, index: usize) -> &mut VariantTally {
        if self.variants.len() <= index {
            self.variants.resize(index + 1, VariantTally::default());
        }
        &mut self.variants[index]
    }
}

/// Adds `source` to `target`; both have the same bounds, so this cannot fail.
fn add_histogram(target: &mut Histogram<u64>, source: &Histogram<u64>) {
    target
        .add(source)
        .expect("histograms with the same bounds add up");
}

/// One worker's recorder, and its view of when to stop.
#[derive(Debug)]
pub(crate) struct Recorder {
    shared: Arc<Shared>,
    /// `None` while preparing a phase: nothing is measured, errors still count.
    window: Option<Window>,
    tally: Tally,
}

impl Recorder {
    /// A recorder measuring inside `window` (nothing, when `None`).
    pub(crate) fn new(shared: Arc<Shared>, window: Option<Window>) -> Recorder {
        Recorder {
            shared,
            window,
            tally: Tally::default(),
        }
    }

    /// An empty recorder for a helper task of the same worker (such as a watcher).
    pub(crate) fn sibling(&self) -> Recorder {
        Recorder::new(self.shared.clone(), self.window)
    }

    /// Whether the worker should start no new work: the run was stopped or the window closed.
    pub(crate) fn should_stop(&self) -> bool {
        self.shared.stop.is_triggered()
            || self
                .window
                .is_some_and(|window| window.has_closed(Instant::now()))
    }

    /// Whether the measured window has opened at `now` (work before is warm-up).
    pub(crate) fn is_warming_up(&self, now: Instant) -> bool {
        self.window.is_none_or(|window| window.is_warming_up(now))
    }

    /// When the next call starts: now, or, under `--rate` once the phase is measured (warm-up
    /// included), at its slot of the schedule, waited for. Latency counts from this time.
    async fn start_call(&self) -> Instant {
        match (&self.shared.pacer, self.window) {
            (Some(pacer), Some(_)) => pacer.wait().await,
            _ => Instant::now(),
        }
    }

    /// Runs an SDK call, recording its latency or its error.
    pub(crate) async fn sdk<T>(
        &mut self,
        method: Method,
        call: impl Future<Output = Result<T, deckmate::Error>>,
    ) -> Option<T> {
        self.sdk_answered(method, call)
            .await
            .map(|(value, _)| value)
    }

    /// Runs an SDK call like [`Recorder::sdk`], also returning when it was answered: the
    /// instant its latency was recorded at, so that what the answer counts (an action) falls
    /// in the same window as the call.
    pub(crate) async fn sdk_answered<T>(
        &mut self,
        method: Method,
        call: impl Future<Output = Result<T, deckmate::Error>>,
    ) -> Option<(T, Instant)> {
        self.answered(method, call, ErrorKey::from_sdk).await
    }

    /// Runs a raw gRPC call, recording its latency or its status.
    pub(crate) async fn raw<T>(
        &mut self,
        method: Method,
        call: impl Future<Output = Result<T, tonic::Status>>,
    ) -> Option<T> {
        self.raw_answered(method, call)
            .await
            .map(|(value, _)| value)
    }

    /// Runs a raw gRPC call like [`Recorder::raw`], also returning when it was answered (as
    /// [`Recorder::sdk_answered`] does).
    pub(crate) async fn raw_answered<T>(
        &mut self,
        method: Method,
        call: impl Future<Output = Result<T, tonic::Status>>,
    ) -> Option<(T, Instant)> {
        self.answered(method, call, ErrorKey::from_status).await
    }

    /// Runs a call, recording its latency or its error (named by `key`), and returns its value
    /// with the instant its latency was recorded at.
    async fn answered<T, E>(
        &mut self,
        method: Method,
        call: impl Future<Output = Result<T, E>>,
        key: impl FnOnce(&E) -> ErrorKey,
    ) -> Option<(T, Instant)> {
        let started = self.start_call().await;
        match call.await {
            Ok(value) => {
                let answered = Instant::now();
                self.succeeded(method, started, answered);
                Some((value, answered))
            }
            Err(error) => {
                self.failed(key(&error));
                None
            }
        }
    }

    /// A call of `method` that succeeded; its latency counts when it ran wholly in the window.
    pub(crate) fn succeeded(&mut self, method: Method, started: Instant, finished: Instant) {
        self.shared.live.calls.fetch_add(1, Ordering::Relaxed);
        if self.measures(started) && self.measures(finished) {
            self.tally
                .latency
                .entry(method)
                .or_insert_with(new_histogram)
                .saturating_record(nanos(finished - started));
        }
    }

    /// A failure. An unexpected one that reaches the error limit stops the run.
    pub(crate) fn failed(&mut self, key: ErrorKey) {
        *self.tally.errors.entry(key).or_default() += 1;
        let live = &self.shared.live;
        live.errors.fetch_add(1, Ordering::Relaxed);
        if !self.shared.expected.is_expected(&key) {
            let unexpected = live.unexpected_errors.fetch_add(1, Ordering::Relaxed) + 1;
            if unexpected >= self.shared.max_errors {
                self.shared.stop.trigger();
            }
        }
    }

    /// Whether the run tolerates failures with `key` (`--expect`).
    pub(crate) fn expects(&self, key: &ErrorKey) -> bool {
        self.shared.expected.is_expected(key)
    }

    /// A failed client-side check.
    pub(crate) fn fault(&mut self, fault: ClientFault) {
        self.failed(ErrorKey::client(fault));
    }

    /// Stops the run for `reason`, a failure every further call would repeat (already recorded
    /// as an error), so that the run says it once rather than failing until the error limit.
    pub(crate) fn stop_because(&mut self, reason: impl Into<Arc<str>>) {
        let _ = self.shared.stop_reason.set(reason.into());
        self.shared.stop.trigger();
    }

    /// An accepted action in a game of variant `variant`, answered at `at`.
    pub(crate) fn action(&mut self, variant: usize, at: Instant) {
        self.shared.live.actions.fetch_add(1, Ordering::Relaxed);
        if self.measures(at) {
            self.tally.actions += 1;
            self.tally.variant_mut(variant).actions += 1;
        }
    }

    /// A game of variant `variant` that finished at `at`.
    pub(crate) fn game_finished(&mut self, variant: usize, at: Instant) {
        self.shared.live.games.fetch_add(1, Ordering::Relaxed);
        if self.measures(at) {
            self.tally.games_finished += 1;
            self.tally.variant_mut(variant).games_finished += 1;
        }
    }

    /// A version delivered to a watcher at `at`, `delay` after its action was sent.
    pub(crate) fn delivery(&mut self, delay: Duration, at: Instant) {
        self.shared.live.deliveries.fetch_add(1, Ordering::Relaxed);
        if self.measures(at) {
            self.tally.deliveries += 1;
            self.tally
                .delivery
                .get_or_insert_with(new_histogram)
                .saturating_record(nanos(delay));
        }
    }

    /// Adds a helper's results to this recorder.
    pub(crate) fn absorb(&mut self, other: Recorder) {
        self.tally.merge(other.tally);
    }

    /// The results.
    pub(crate) fn into_tally(self) -> Tally {
        self.tally
    }

    /// Whether something at `at` is measured.
    fn measures(&self, at: Instant) -> bool {
        self.window.is_some_and(|window| window.contains(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(max_errors: u64, expected: ExpectedErrors) -> Arc<Shared> {
        Arc::new(Shared {
            live: LiveCounters::default(),
            expected,
            stop: StopSignal::new(),
            max_errors,
            pacer: None,
            stop_reason: OnceLock::new(),
        })
    }

    fn open_window() -> Window {
        Window::new(
            Instant::now(),
            Duration::ZERO,
            Some(Duration::from_secs(3600)),
        )
    }

    #[test]
    fn only_calls_inside_the_window_are_measured() {
        let start = Instant::now();
        let window = Window::new(start, Duration::from_secs(1), Some(Duration::from_secs(1)));
        let mut recorder = Recorder::new(shared(10, ExpectedErrors::none()), Some(window));
        let ms = Duration::from_millis;
        // In the warm-up, straddling the opening, inside, straddling the closing.
        recorder.succeeded(Method::Act, start, start + ms(5));
        recorder.succeeded(Method::Act, start + ms(999), start + ms(1001));
        recorder.succeeded(Method::Act, start + ms(1100), start + ms(1103));
        recorder.succeeded(Method::Act, start + ms(1999), start + ms(2001));
        recorder.action(0, start + ms(500));
        recorder.action(1, start + ms(1500));
        recorder.game_finished(1, start + ms(1600));
        let live_calls = recorder.shared.live.calls.load(Ordering::Relaxed);
        let tally = recorder.into_tally();
        assert_eq!(live_calls, 4);
        assert_eq!(tally.calls(), 1);
        let act = &tally.latency[&Method::Act];
        assert!(act.equivalent(act.value_at_quantile(0.5), 3_000_000));
        assert_eq!(tally.actions, 1);
        assert_eq!(tally.games_finished, 1);
        assert_eq!(
            tally.variants,
            [
                VariantTally::default(),
                VariantTally {
                    games_finished: 1,
                    actions: 1
                }
            ]
        );
    }

    #[test]
    fn errors_count_even_in_the_warmup_and_stop_the_run_at_the_limit() {
        let expected = ExpectedErrors::reasons(&["OVERLOADED"]).unwrap();
        let shared = shared(2, expected);
        let mut recorder = Recorder::new(shared.clone(), None);
        let overloaded = ErrorKey::from_sdk(&deckmate::Error::Overloaded(Default::default()));
        for _ in 0..5 {
            recorder.failed(overloaded);
        }
        assert!(
            !recorder.should_stop(),
            "expected errors do not stop the run"
        );
        recorder.fault(ClientFault::GameStuck);
        assert!(!recorder.should_stop());
        recorder.fault(ClientFault::VersionSkew);
        assert!(
            recorder.should_stop(),
            "the second unexpected error stops it"
        );
        assert_eq!(shared.live.errors.load(Ordering::Relaxed), 7);
        assert_eq!(shared.live.unexpected_errors.load(Ordering::Relaxed), 2);
        let tally = recorder.into_tally();
        assert_eq!(tally.errors[&overloaded], 5);
        assert_eq!(tally.errors.len(), 3);
    }

    #[test]
    fn a_stop_reason_stops_the_run_and_the_first_one_is_kept() {
        let shared = shared(100, ExpectedErrors::none());
        let mut first = Recorder::new(shared.clone(), Some(open_window()));
        let mut second = first.sibling();
        assert!(!first.should_stop());
        first.stop_because("the first reason");
        second.stop_because("a later reason");
        assert!(first.should_stop() && second.should_stop());
        assert_eq!(
            shared.stop_reason.get().map(|reason| &**reason),
            Some("the first reason")
        );
    }

    #[test]
    fn tallies_merge_histograms_counts_and_variants() {
        let shared = shared(10, ExpectedErrors::none());
        let window = open_window();
        let mut first = Recorder::new(shared.clone(), Some(window));
        let mut second = first.sibling();
        let now = Instant::now();
        first.succeeded(Method::Observe, now, now + Duration::from_micros(10));
        second.succeeded(Method::Observe, now, now + Duration::from_micros(30));
        second.succeeded(Method::Check, now, now + Duration::from_micros(20));
        second.delivery(Duration::from_micros(70), now);
        second.action(2, now);
        second.fault(ClientFault::WatchGap);
        first.absorb(second);
        let tally = first.into_tally();
        assert_eq!(tally.calls(), 3);
        assert_eq!(tally.latency[&Method::Observe].len(), 2);
        assert_eq!(tally.deliveries, 1);
        assert_eq!(tally.delivery.as_ref().map(Histogram::len), Some(1));
        assert_eq!(tally.variants.len(), 3);
        assert_eq!(tally.variants[2].actions, 1);
        assert_eq!(tally.errors.values().sum::<u64>(), 1);
    }
}
