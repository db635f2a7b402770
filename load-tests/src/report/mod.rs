//! The report of a run: every figure of every phase, the ratios to the baseline, and whether
//! the run passed. Printed as JSON (`--json`) or as a table (`Display`).

mod table;
mod verdict;

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::errors::ExpectedErrors;
use crate::phase::PhaseResult;
use crate::recorder::Method;

/// Latency percentiles of one measured operation, in microseconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LatencySummary {
    /// Operations measured.
    pub count: u64,
    /// Mean.
    pub mean_us: f64,
    /// Median.
    pub p50_us: f64,
    /// 90th percentile.
    pub p90_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// 99.9th percentile.
    pub p999_us: f64,
    /// Slowest.
    pub max_us: f64,
}

impl LatencySummary {
    /// The summary of a histogram of nanoseconds.
    pub(crate) fn of(histogram: &Histogram<u64>) -> LatencySummary {
        let micros = |nanos: u64| nanos as f64 / 1_000.0;
        LatencySummary {
            count: histogram.len(),
            mean_us: histogram.mean() / 1_000.0,
            p50_us: micros(histogram.value_at_quantile(0.5)),
            p90_us: micros(histogram.value_at_quantile(0.9)),
            p99_us: micros(histogram.value_at_quantile(0.99)),
            p999_us: micros(histogram.value_at_quantile(0.999)),
            max_us: micros(histogram.max()),
        }
    }
}

/// The successful calls of one RPC in the measured window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodReport {
    /// The RPC, such as `Act`.
    pub method: &'static str,
    /// Calls per second of measured time.
    pub calls_per_s: f64,
    /// Their latency.
    pub latency: LatencySummary,
}

/// What one variant did in the measured window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantReport {
    /// The variant id.
    pub id: String,
    /// Games that reached their end.
    pub games_finished: u64,
    /// Games finished per second.
    pub games_per_s: f64,
    /// Accepted actions.
    pub actions: u64,
    /// Accepted actions per second.
    pub actions_per_s: f64,
}

/// The failures of one kind over the whole phase (warm-up included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorReport {
    /// The gRPC code name, or `CLIENT_CHECK` for a failed check of the client.
    pub code: &'static str,
    /// The Deckmate reason or client check; empty when the status had none.
    pub reason: &'static str,
    /// How many.
    pub count: u64,
    /// Whether the run tolerates them (`--expect`).
    pub expected: bool,
}

/// The results of one phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseReport {
    /// The phase: the scenario's name or `baseline`.
    pub name: String,
    /// Measured seconds (the window, or less when the phase ended early).
    pub measured_s: f64,
    /// Successful calls of every RPC.
    pub calls: u64,
    /// Successful calls per second.
    pub calls_per_s: f64,
    /// Accepted actions.
    pub actions: u64,
    /// Accepted actions per second.
    pub actions_per_s: f64,
    /// Games that reached their end.
    pub games_finished: u64,
    /// Finished games per second.
    pub games_per_s: f64,
    /// Versions delivered to watchers.
    pub deliveries: u64,
    /// Deliveries per second.
    pub deliveries_per_s: f64,
    /// Latency by RPC.
    pub methods: Vec<MethodReport>,
    /// Time from sending an action to a watcher receiving its version.
    pub delivery_delay: Option<LatencySummary>,
    /// Games and actions by variant.
    pub variants: Vec<VariantReport>,
    /// Failures by code and reason.
    pub errors: Vec<ErrorReport>,
    /// Failures the run does not tolerate.
    pub unexpected_errors: u64,
    /// CPU time of the load generator's process over the measured time.
    pub client_cpu_s: f64,
    /// That CPU time per measured second: the cores the client kept busy.
    pub client_cpu_cores: f64,
    /// That CPU time per successful call.
    pub client_cpu_us_per_call: f64,
    /// CPU time of the server processes (`--server-pid`) over the measured time; `None` when
    /// not measured.
    pub server_cpu_s: Option<f64>,
    /// That CPU time per successful call, in microseconds.
    pub server_cpu_us_per_call: Option<f64>,
    /// Time the Redis nodes (`--redis-url`) spent executing commands over the measured time,
    /// in seconds; `None` when not measured.
    pub redis_cpu_s: Option<f64>,
    /// That time per successful call, in microseconds.
    pub redis_cpu_us_per_call: Option<f64>,
    /// Bytes the Redis nodes received and sent over the measured time.
    pub redis_bytes: Option<u64>,
    /// Those bytes per successful call.
    pub redis_bytes_per_call: Option<f64>,
    /// Why a requested server or Redis figure is missing (a reading failed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub measurement_errors: Vec<String>,
    /// Why the phase stopped the run early, when the client recognised a failure that every
    /// further call would repeat (a server refusing client seeds), and what to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

impl PhaseReport {
    /// The report of a phase named `name` that played `variants` (ids by plan index).
    pub(crate) fn new(
        name: &str,
        result: &PhaseResult,
        variants: &[String],
        expected: &ExpectedErrors,
    ) -> PhaseReport {
        let tally = &result.tally;
        let seconds = result.measured.as_secs_f64();
        let per_second = |count: u64| {
            if seconds > 0.0 {
                count as f64 / seconds
            } else {
                0.0
            }
        };
        let methods = tally
            .latency
            .iter()
            .map(|(method, histogram)| MethodReport {
                method: method.name(),
                calls_per_s: per_second(histogram.len()),
                latency: LatencySummary::of(histogram),
            })
            .collect();
        let variants = variants
            .iter()
            .enumerate()
            .map(|(index, id)| {
                let counts = tally.variants.get(index).copied().unwrap_or_default();
                VariantReport {
                    id: id.clone(),
                    games_finished: counts.games_finished,
                    games_per_s: per_second(counts.games_finished),
                    actions: counts.actions,
                    actions_per_s: per_second(counts.actions),
                }
            })
            .collect();
        let errors: Vec<ErrorReport> = tally
            .errors
            .iter()
            .map(|(key, &count)| ErrorReport {
                code: key.code,
                reason: key.reason,
                count,
                expected: expected.is_expected(key),
            })
            .collect();
        let unexpected_errors = errors
            .iter()
            .filter(|error| !error.expected)
            .map(|error| error.count)
            .sum();
        let calls = tally.calls();
        let per_call = |amount: f64| {
            if calls > 0 {
                amount / calls as f64
            } else {
                0.0
            }
        };
        let cpu = result.cpu.as_secs_f64();
        let external = &result.external;
        let server_cpu = external.server_cpu.map(|cpu| cpu.as_secs_f64());
        let redis = external.redis;
        PhaseReport {
            name: name.to_string(),
            measured_s: seconds,
            calls,
            calls_per_s: per_second(calls),
            actions: tally.actions,
            actions_per_s: per_second(tally.actions),
            games_finished: tally.games_finished,
            games_per_s: per_second(tally.games_finished),
            deliveries: tally.deliveries,
            deliveries_per_s: per_second(tally.deliveries),
            methods,
            delivery_delay: tally.delivery.as_ref().map(LatencySummary::of),
            variants,
            errors,
            unexpected_errors,
            client_cpu_s: cpu,
            client_cpu_cores: if seconds > 0.0 { cpu / seconds } else { 0.0 },
            client_cpu_us_per_call: per_call(cpu * 1e6),
            server_cpu_s: server_cpu,
            server_cpu_us_per_call: server_cpu.map(|cpu| per_call(cpu * 1e6)),
            redis_cpu_s: redis.map(|redis| redis.cpu_us as f64 / 1e6),
            redis_cpu_us_per_call: redis.map(|redis| per_call(redis.cpu_us as f64)),
            redis_bytes: redis.map(|redis| redis.net_bytes),
            redis_bytes_per_call: redis.map(|redis| per_call(redis.net_bytes as f64)),
            measurement_errors: external.errors.clone(),
            stop_reason: result.stop_reason.as_deref().map(str::to_owned),
        }
    }

    /// The report of RPC `method`, if it was measured.
    pub fn method(&self, method: Method) -> Option<&MethodReport> {
        self.methods
            .iter()
            .find(|report| report.method == method.name())
    }
}

/// The scenario phase compared with the baseline phase of the same run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratios {
    /// Successful calls per second (every RPC of the scenario) ÷ baseline checks per second.
    pub calls_per_s: f64,
    /// Accepted actions per second ÷ baseline checks per second.
    pub actions_per_s: f64,
    /// `Act` calls per second ÷ baseline checks per second.
    pub act_calls_per_s: Option<f64>,
    /// `Act` median latency ÷ the baseline's.
    pub act_p50: Option<f64>,
    /// `Act` 99th-percentile latency ÷ the baseline's.
    pub act_p99: Option<f64>,
    /// Server CPU time per call ÷ the baseline's (`--server-pid`).
    pub server_cpu: Option<f64>,
}

impl Ratios {
    /// The ratios of `result` to `baseline`; `None` when the baseline measured nothing.
    pub fn between(result: &PhaseReport, baseline: &PhaseReport) -> Option<Ratios> {
        let check = baseline.method(Method::Check)?;
        if baseline.calls_per_s <= 0.0 {
            return None;
        }
        let act = result.method(Method::Act);
        let latency_ratio = |mine: f64, theirs: f64| (theirs > 0.0).then(|| mine / theirs);
        Some(Ratios {
            calls_per_s: result.calls_per_s / baseline.calls_per_s,
            actions_per_s: result.actions_per_s / baseline.calls_per_s,
            act_calls_per_s: act.map(|act| act.calls_per_s / baseline.calls_per_s),
            act_p50: act.and_then(|act| latency_ratio(act.latency.p50_us, check.latency.p50_us)),
            act_p99: act.and_then(|act| latency_ratio(act.latency.p99_us, check.latency.p99_us)),
            server_cpu: result
                .server_cpu_us_per_call
                .zip(baseline.server_cpu_us_per_call)
                .and_then(|(mine, theirs)| latency_ratio(mine, theirs)),
        })
    }
}

/// How the run was set up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// The first server, as in reports of a single target.
    pub target: String,
    /// Every server (replica), in the order given.
    pub targets: Vec<String>,
    /// HTTP/2 connections to each target.
    pub connections: usize,
    /// Concurrent workers, each with one request in flight at most.
    pub in_flight: usize,
    /// Open loop: the scenario's calls a second (`--rate`); `None`: back to back.
    pub rate_per_s: Option<u32>,
    /// Warm-up before each phase, in seconds.
    pub warmup_s: f64,
    /// Requested measured time of the scenario, in seconds (`None`: until the game count).
    pub duration_s: Option<f64>,
    /// Requested measured time of the baseline phase, in seconds (0: none).
    pub baseline_duration_s: f64,
    /// Seed of the client's random choices.
    pub seed: u64,
    /// The variants played, with the seats of each.
    pub variants: Vec<PlayedVariant>,
    /// The game count the scenario ends by, if any.
    pub games: Option<u64>,
    /// Spectators per game (`watch`).
    pub watchers_per_game: Option<usize>,
    /// Games per worker (`act`).
    pub games_per_worker: Option<usize>,
    /// Reasons that do not fail the run.
    pub expected_errors: Vec<&'static str>,
    /// Whether every call carried an API key (`--api-key`); the key itself is never reported.
    pub api_key_sent: bool,
    /// Server processes whose CPU time was measured.
    pub server_pids: Vec<u32>,
    /// Redis nodes whose command time and traffic were measured (credentials masked).
    pub redis_nodes: Vec<String>,
}

/// A variant as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedVariant {
    /// The variant id.
    pub id: String,
    /// Seats per game.
    pub seats: u32,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// The scenario.
    pub scenario: &'static str,
    /// How it was set up.
    pub settings: Settings,
    /// The baseline phase, when one ran.
    pub baseline: Option<PhaseReport>,
    /// The scenario phase.
    pub result: PhaseReport,
    /// The scenario compared with the baseline.
    pub ratios: Option<Ratios>,
    /// Whether the run was stopped before its end (ctrl-c or the error limit).
    pub stopped_early: bool,
    /// Failures the run does not tolerate, in every phase.
    pub unexpected_errors: u64,
    /// No unexpected failure, and at least one successful call in the scenario phase's
    /// measured window (whatever `--expect` tolerates).
    pub passed: bool,
    /// Why the run failed, in a sentence naming the errors by reason and count; `None` when it
    /// passed.
    pub failure: Option<String>,
}

impl RunReport {
    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }

    /// Whether the run with scenario phase `result` and `unexpected_errors` in all phases
    /// passed, and why not: the `passed` and `failure` fields.
    pub(crate) fn verdict(result: &PhaseReport, unexpected_errors: u64) -> (bool, Option<String>) {
        let failure = verdict::failure(result, unexpected_errors);
        (failure.is_none(), failure)
    }

    /// Why a phase stopped the run early, in phase order (see [`PhaseReport::stop_reason`]).
    pub fn stop_reasons(&self) -> impl Iterator<Item = &str> + '_ {
        self.baseline
            .iter()
            .chain(std::iter::once(&self.result))
            .filter_map(|phase| phase.stop_reason.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use tokio::time::Instant;

    use super::*;
    use crate::clock::{StopSignal, Window};
    use crate::errors::ClientFault;
    use crate::meters::ExternalUsage;
    use crate::recorder::{LiveCounters, Recorder, Shared};
    use crate::redis_stats::RedisCounters;

    fn recorder(expected: ExpectedErrors) -> (Recorder, Instant) {
        let shared = Arc::new(Shared {
            live: LiveCounters::default(),
            expected,
            stop: StopSignal::new(),
            max_errors: 1000,
            pacer: None,
            stop_reason: std::sync::OnceLock::new(),
        });
        let start = Instant::now();
        let window = Window::new(start, Duration::ZERO, Some(Duration::from_secs(60)));
        (Recorder::new(shared, Some(window)), start)
    }

    fn result_of(recorder: Recorder, seconds: u64, cpu_ms: u64) -> PhaseResult {
        PhaseResult {
            tally: recorder.into_tally(),
            measured: Duration::from_secs(seconds),
            cpu: Duration::from_millis(cpu_ms),
            external: ExternalUsage::default(),
            stop_reason: None,
        }
    }

    /// A phase of `calls` Check calls whose servers used `server_cpu_ms` of CPU.
    fn phase_with_server_cpu(name: &str, calls: u64, server_cpu_ms: Option<u64>) -> PhaseReport {
        let (mut recorder, start) = recorder(ExpectedErrors::none());
        for _ in 0..calls {
            recorder.succeeded(Method::Check, start, start + Duration::from_micros(50));
        }
        let mut result = result_of(recorder, 2, 100);
        result.external.server_cpu = server_cpu_ms.map(Duration::from_millis);
        PhaseReport::new(name, &result, &[], &ExpectedErrors::none())
    }

    fn phase_with_act_latency(micros: u64, calls: u64) -> PhaseReport {
        let (mut recorder, start) = recorder(ExpectedErrors::none());
        for _ in 0..calls {
            recorder.succeeded(Method::Act, start, start + Duration::from_micros(micros));
            recorder.action(0, start);
        }
        recorder.game_finished(0, start);
        PhaseReport::new(
            "act",
            &result_of(recorder, 2, 500),
            &["pigeon_chess".to_string()],
            &ExpectedErrors::none(),
        )
    }

    fn baseline_with_latency(micros: u64, calls: u64) -> PhaseReport {
        let (mut recorder, start) = recorder(ExpectedErrors::none());
        for _ in 0..calls {
            recorder.succeeded(Method::Check, start, start + Duration::from_micros(micros));
        }
        PhaseReport::new(
            "baseline",
            &result_of(recorder, 2, 100),
            &[],
            &ExpectedErrors::none(),
        )
    }

    #[test]
    fn phase_reports_compute_rates_percentiles_and_cpu() {
        let report = phase_with_act_latency(200, 1000);
        assert_eq!(report.calls, 1000);
        assert_eq!(report.calls_per_s, 500.0);
        assert_eq!(report.actions_per_s, 500.0);
        assert_eq!(report.games_finished, 1);
        assert_eq!(report.games_per_s, 0.5);
        let act = report.method(Method::Act).expect("Act was measured");
        assert!((act.latency.p99_us - 200.0).abs() < 0.5, "{act:?}");
        assert_eq!(act.latency.count, 1000);
        assert_eq!(report.client_cpu_cores, 0.25);
        assert_eq!(report.client_cpu_us_per_call, 500.0);
        assert_eq!(report.variants[0].actions, 1000);
        assert!(report.method(Method::Check).is_none());
    }

    #[test]
    fn errors_are_split_into_expected_and_unexpected() {
        let expected = ExpectedErrors::reasons(&["OVERLOADED"]).unwrap();
        let (mut recorder, _) = recorder(expected.clone());
        recorder.failed(crate::errors::ErrorKey::from_sdk(
            &deckmate::Error::Overloaded(Default::default()),
        ));
        recorder.fault(ClientFault::GameStuck);
        recorder.fault(ClientFault::GameStuck);
        let report = PhaseReport::new("play", &result_of(recorder, 1, 0), &[], &expected);
        assert_eq!(report.unexpected_errors, 2);
        assert_eq!(
            report.errors,
            [
                ErrorReport {
                    code: "CLIENT_CHECK",
                    reason: "GAME_STUCK",
                    count: 2,
                    expected: false
                },
                ErrorReport {
                    code: "UNAVAILABLE",
                    reason: "OVERLOADED",
                    count: 1,
                    expected: true
                },
            ]
        );
    }

    #[test]
    fn ratios_compare_throughput_and_latency_with_the_baseline() {
        let act = phase_with_act_latency(300, 1000);
        let baseline = baseline_with_latency(100, 4000);
        let ratios = Ratios::between(&act, &baseline).expect("the baseline measured calls");
        assert_eq!(ratios.calls_per_s, 0.25);
        assert_eq!(ratios.actions_per_s, 0.25);
        assert_eq!(ratios.act_calls_per_s, Some(0.25));
        let p99 = ratios.act_p99.expect("both have latencies");
        assert!((p99 - 3.0).abs() < 0.01, "{p99}");
        let empty = baseline_with_latency(100, 0);
        assert_eq!(Ratios::between(&act, &empty), None);
    }

    #[test]
    fn server_and_redis_usage_are_reported_per_call() {
        let (mut recorder, start) = recorder(ExpectedErrors::none());
        for _ in 0..400 {
            recorder.succeeded(Method::Observe, start, start + Duration::from_micros(80));
        }
        let mut result = result_of(recorder, 2, 100);
        result.external = ExternalUsage {
            server_cpu: Some(Duration::from_millis(60)),
            redis: Some(RedisCounters {
                cpu_us: 2_000,
                net_bytes: 100_000,
            }),
            errors: Vec::new(),
        };
        let report = PhaseReport::new("act", &result, &[], &ExpectedErrors::none());
        assert_eq!(report.server_cpu_s, Some(0.06));
        assert_eq!(report.server_cpu_us_per_call, Some(150.0));
        assert_eq!(report.redis_cpu_s, Some(0.002));
        assert_eq!(report.redis_cpu_us_per_call, Some(5.0));
        assert_eq!(report.redis_bytes, Some(100_000));
        assert_eq!(report.redis_bytes_per_call, Some(250.0));
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        assert_eq!(json["server_cpu_us_per_call"], 150.0);
        assert!(json.get("measurement_errors").is_none());

        let unmeasured = phase_with_act_latency(100, 10);
        assert_eq!(
            (
                unmeasured.server_cpu_us_per_call,
                unmeasured.redis_bytes_per_call
            ),
            (None, None)
        );
        let json: serde_json::Value = serde_json::to_value(&unmeasured).unwrap();
        assert!(json["server_cpu_us_per_call"].is_null());
    }

    #[test]
    fn the_server_cpu_ratio_compares_cpu_per_call() {
        // 1000 calls on 300 ms against 4000 checks on 200 ms: 300 µs/call against 50.
        let scenario = phase_with_server_cpu("act", 1000, Some(300));
        let baseline = phase_with_server_cpu("baseline", 4000, Some(200));
        let ratios = Ratios::between(&scenario, &baseline).unwrap();
        let ratio = ratios.server_cpu.expect("both measured the server");
        assert!((ratio - 6.0).abs() < 1e-9, "{ratio}");
        let unmeasured = phase_with_server_cpu("baseline", 4000, None);
        assert_eq!(
            Ratios::between(&scenario, &unmeasured).unwrap().server_cpu,
            None
        );
        // A baseline whose server used no measurable CPU gives no ratio rather than infinity.
        let idle = phase_with_server_cpu("baseline", 4000, Some(0));
        assert_eq!(Ratios::between(&scenario, &idle).unwrap().server_cpu, None);
    }

    #[test]
    fn an_empty_phase_has_zero_rates() {
        let (recorder, _) = recorder(ExpectedErrors::none());
        let report = PhaseReport::new(
            "play",
            &result_of(recorder, 0, 0),
            &[],
            &ExpectedErrors::none(),
        );
        assert_eq!(
            (
                report.calls_per_s,
                report.client_cpu_cores,
                report.client_cpu_us_per_call
            ),
            (0.0, 0.0, 0.0)
        );
    }
}
