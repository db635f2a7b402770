//! Load generator for the Deckmate game server, built on the Rust SDK (`deckmate`).
//!
//! A run has up to two phases on the same machinery (connections, workers with one request in
//! flight each, warm-up, HDR latency histograms, client CPU time): first the `baseline`, the
//! server's bare health `Check`, then the scenario (`play`, `act` or `watch`). The
//! [`RunReport`] gives games/s, actions/s, latency percentiles per RPC, errors by gRPC code and
//! reason, the client's CPU time, and the scenario's ratios to the baseline. A run with an
//! unexpected error fails (see [`errors`] for what each scenario expects), and so does a run
//! whose scenario phase completed no successful call, whatever errors it expects.
//!
//! Before any load, each server is asked what it allows (`GetServerInfo`), so that a run it
//! would refuse call after call (client seeds it does not accept, an API key it requires, more
//! games or watchers at once than its per-caller quotas admit) stops at once with what to
//! change.
//!
//! A run may target several server replicas, spreading games, seats and watchers over them so
//! that commits and watches cross replicas, and may measure the servers' CPU time (Linux
//! `/proc`) and the Redis nodes' command time and traffic over each measured window.
//!
//! The scenarios know no game: they take the variants and their default configs from
//! `ListVariants` and play only the actions each `Observe` lists, so every hosted game is
//! covered as soon as the server hosts it.
//!
//! ```no_run
//! use deckmate_load::{LoadOptions, PlayScenario, Scenario, StopSignal};
//!
//! # async fn example() -> Result<(), deckmate_load::SetupError> {
//! let scenario = Scenario::Play(PlayScenario::default());
//! let report = deckmate_load::run(&scenario, &LoadOptions::default(), &StopSignal::new()).await?;
//! println!("{report}");
//! assert!(report.passed);
//! # Ok(())
//! # }
//! ```

mod api_key;
pub mod arena;
pub mod cli;
mod client_seeds;
mod clock;
mod connect;
mod driver;
pub mod errors;
mod game_quotas;
mod lean_calls;
mod meters;
mod options;
mod pacer;
mod phase;
mod plan;
mod preflight;
mod progress;
mod recorder;
mod redis_stats;
pub mod report;
mod routing;
mod scenario;
mod server_cpu;
mod status_details;
// The integration tests' in-process server, for the unit tests that run a phase against one.
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod test_server;

use std::sync::Arc;

pub use api_key::ApiKey;
pub use clock::StopSignal;
pub use connect::normalize_target;
pub use options::{
    ActScenario, DEFAULT_TARGET, LoadOptions, PlayScenario, Scenario, VariantSelection,
    WatchScenario,
};
pub use recorder::Method;
pub use report::{PhaseReport, Ratios, RunReport};

use connect::Connections;
use game_quotas::Opening;
use meters::ExternalMeters;
use phase::PhaseSpec;
use plan::GamePlan;
use preflight::Needs;
use redis_stats::RedisMeter;
use report::{PlayedVariant, Settings};
use server_cpu::ServerCpu;

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The options contradict each other or are out of range.
    #[error("invalid options: {0}")]
    Options(String),
    /// The target is not a valid address.
    #[error("bad target {0}")]
    Target(String),
    /// The server could not be reached.
    #[error("cannot connect to the server: {0}")]
    Connect(String),
    /// A requested meter (`--server-pid`, `--redis-url`) cannot measure.
    #[error("cannot measure: {0}")]
    Meter(String),
    /// The server answered the setup calls wrongly.
    #[error("{0}")]
    Server(String),
    /// A requested variant is not hosted.
    #[error("the server hosts no variant `{id}`; it hosts {}", known.join(", "))]
    UnknownVariant {
        /// The requested id.
        id: String,
        /// The hosted ids.
        known: Vec<String>,
    },
    /// A variant does not support the requested seat count.
    #[error("variant {id} is for {min} to {max} seats, not {requested}")]
    Seats {
        /// The variant.
        id: String,
        /// The requested count.
        requested: u32,
        /// Its smallest count.
        min: u32,
        /// Its largest count.
        max: u32,
    },
}

/// Runs `scenario`: the baseline phase first (unless `options.baseline_duration` is zero or the
/// scenario is the baseline itself), then the scenario. `stop` ends the run early; the report
/// then covers what was measured until then.
pub async fn run(
    scenario: &Scenario,
    options: &LoadOptions,
    stop: &StopSignal,
) -> Result<RunReport, SetupError> {
    check_options(scenario, options)?;
    let targets: Vec<String> = options
        .targets
        .iter()
        .map(|target| normalize_target(target))
        .collect();
    // The meters are checked first, so that a wrong pid or node fails before any load.
    let server = ServerCpu::open(&options.server_pids, &targets).map_err(SetupError::Meter)?;
    let redis = RedisMeter::open(&options.redis_urls)
        .await
        .map_err(SetupError::Meter)?;
    let redis_nodes = redis
        .as_ref()
        .map(RedisMeter::shown_urls)
        .unwrap_or_default();
    let meters = Arc::new(ExternalMeters { server, redis });
    let connections =
        Connections::open(&targets, options.connections, options.api_key.as_ref()).await?;
    let plan = match scenario.variants() {
        Some(selection) => {
            let first = connections.for_worker(0);
            let counts_refusals = options.expected.names().contains(&"LIMIT_REACHED");
            let needs = Needs {
                client_seeds: options.game_seeds.then_some(client_seeds::GAME_SEEDS_HINT),
                has_api_key: options.api_key.is_some(),
                opening: (!counts_refusals).then(|| opening(scenario, options, targets.len())),
            };
            let mut limits = None;
            for (index, target) in targets.iter().enumerate() {
                let reported = preflight::check(&first.to(index).client, target, needs).await?;
                limits = limits.or(reported);
            }
            let client = &first.to(0).client;
            let variants = plan::resolve(client, selection, scenario.seats()).await?;
            Some(Arc::new(
                GamePlan::new(variants, scenario.games())
                    .with_game_seeds(options.game_seeds.then_some(options.seed))
                    .with_quota_hint(game_quotas::hint(limits.as_ref())),
            ))
        }
        None => None,
    };
    let spec = |name: &'static str, duration, rate| PhaseSpec {
        name,
        rate,
        workers: options.in_flight,
        warmup: options.warmup,
        duration,
        seed: options.seed,
        expected: options.expected.clone(),
        max_errors: options.max_errors,
        progress: options.progress,
        meters: meters.clone(),
    };

    let runs_baseline =
        !matches!(scenario, Scenario::Baseline) && !options.baseline_duration.is_zero();
    let baseline = if runs_baseline {
        // The baseline runs back to back whatever `--rate` says: it is the reference of the
        // ratios, the server's unpaced capacity.
        let baseline_spec = spec("baseline", Some(options.baseline_duration), None);
        Some(scenario::baseline::run(&baseline_spec, &connections, stop).await)
    } else {
        None
    };

    let main_spec = spec(scenario.name(), options.duration, options.rate);
    let planned = || plan.clone().expect("every game scenario has a plan");
    let result = match scenario {
        Scenario::Play(_) => scenario::play::run(&main_spec, &connections, stop, planned()).await,
        Scenario::Act(act) => {
            scenario::act::run(
                &main_spec,
                &connections,
                stop,
                planned(),
                act.games_per_worker,
            )
            .await
        }
        Scenario::Watch(watch) => {
            scenario::watch::run(&main_spec, &connections, stop, planned(), watch.watchers).await
        }
        Scenario::Baseline => scenario::baseline::run(&main_spec, &connections, stop).await,
    };

    let variant_ids = plan.as_ref().map(|plan| plan.ids()).unwrap_or_default();
    let baseline =
        baseline.map(|baseline| PhaseReport::new("baseline", &baseline, &[], &options.expected));
    let result = PhaseReport::new(scenario.name(), &result, &variant_ids, &options.expected);
    let ratios = baseline
        .as_ref()
        .and_then(|baseline| Ratios::between(&result, baseline));
    let unexpected_errors = result.unexpected_errors
        + baseline
            .as_ref()
            .map_or(0, |baseline| baseline.unexpected_errors);
    let (passed, failure) = RunReport::verdict(&result, unexpected_errors);
    Ok(RunReport {
        scenario: scenario.name(),
        settings: Settings {
            target: targets[0].clone(),
            targets,
            connections: options.connections,
            in_flight: options.in_flight,
            rate_per_s: options.rate,
            warmup_s: options.warmup.as_secs_f64(),
            duration_s: options.duration.map(|duration| duration.as_secs_f64()),
            baseline_duration_s: if runs_baseline {
                options.baseline_duration.as_secs_f64()
            } else {
                0.0
            },
            seed: options.seed,
            variants: plan
                .as_ref()
                .map(|plan| {
                    plan.variants()
                        .iter()
                        .map(|variant| PlayedVariant {
                            id: variant.id.clone(),
                            seats: variant.seats,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            games: scenario.games(),
            watchers_per_game: match scenario {
                Scenario::Watch(watch) => Some(watch.watchers),
                _ => None,
            },
            games_per_worker: match scenario {
                Scenario::Act(act) => Some(act.games_per_worker),
                _ => None,
            },
            expected_errors: options.expected.names(),
            api_key_sent: options.api_key.is_some(),
            server_pids: options.server_pids.clone(),
            redis_nodes,
        },
        baseline,
        result,
        ratios,
        stopped_early: stop.is_triggered(),
        unexpected_errors,
        passed,
        failure,
    })
}

/// What `scenario` opens at once through each of `targets` targets before any game can end
/// (the least that any target gets, games being spread over them in turn): `act` creates all
/// of its games first; `play` and `watch` create one game per worker, unless `--rate` paces
/// them or `--games` asks for fewer.
fn opening(scenario: &Scenario, options: &LoadOptions, targets: usize) -> Opening {
    let workers = options.in_flight as u64;
    let (games, watchers_per_game) = match scenario {
        Scenario::Act(act) => (workers * act.games_per_worker as u64, 0),
        Scenario::Play(_) | Scenario::Watch(_) if options.rate.is_some() => (0, 0),
        Scenario::Play(play) => (workers.min(play.games.unwrap_or(u64::MAX)), 0),
        Scenario::Watch(watch) => (
            workers.min(watch.games.unwrap_or(u64::MAX)),
            watch.watchers as u64,
        ),
        Scenario::Baseline => (0, 0),
    };
    let games = games / targets.max(1) as u64;
    Opening {
        games,
        watchers_per_game,
        watchers: games * watchers_per_game,
    }
}

/// Refuses options that cannot make a run.
fn check_options(scenario: &Scenario, options: &LoadOptions) -> Result<(), SetupError> {
    let invalid = |message: &str| Err(SetupError::Options(message.to_string()));
    if options.targets.is_empty() {
        return invalid("the run needs a --target");
    }
    if options.connections == 0 {
        return invalid("--connections must be at least 1");
    }
    if options.in_flight == 0 {
        return invalid("--in-flight must be at least 1");
    }
    if options.max_errors == 0 {
        return invalid("--max-errors must be at least 1");
    }
    if options.duration.is_none() && scenario.games().is_none() {
        return invalid("the run needs a --duration (or, for play and watch, --games)");
    }
    if options.duration.is_some_and(|duration| duration.is_zero()) {
        return invalid("--duration must be greater than zero");
    }
    // The meter sums the CPU time of every pid given, so a pid given twice would count its
    // process twice and inflate the server CPU per call.
    for (index, pid) in options.server_pids.iter().enumerate() {
        if options.server_pids[..index].contains(pid) {
            return Err(SetupError::Options(format!(
                "--server-pid {pid} is given more than once; give each server process once"
            )));
        }
    }
    match scenario {
        Scenario::Act(act) if act.games_per_worker == 0 => {
            invalid("--games-per-worker must be at least 1")
        }
        Scenario::Watch(watch) if watch.watchers == 0 => invalid("--watchers must be at least 1"),
        Scenario::Play(PlayScenario { games: Some(0), .. })
        | Scenario::Watch(WatchScenario { games: Some(0), .. }) => {
            invalid("--games must be at least 1")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn contradictory_options_are_refused() {
        let play = Scenario::Play(PlayScenario::default());
        assert!(check_options(&play, &LoadOptions::default()).is_ok());
        let no_end = LoadOptions {
            duration: None,
            ..LoadOptions::default()
        };
        assert!(check_options(&play, &no_end).is_err());
        let counted = Scenario::Play(PlayScenario {
            games: Some(5),
            ..PlayScenario::default()
        });
        assert!(check_options(&counted, &no_end).is_ok());
        assert!(check_options(&Scenario::Baseline, &no_end).is_err());
        for options in [
            LoadOptions {
                in_flight: 0,
                ..LoadOptions::default()
            },
            LoadOptions {
                connections: 0,
                ..LoadOptions::default()
            },
            LoadOptions {
                targets: Vec::new(),
                ..LoadOptions::default()
            },
            LoadOptions {
                duration: Some(Duration::ZERO),
                ..LoadOptions::default()
            },
        ] {
            assert!(check_options(&play, &options).is_err(), "{options:?}");
        }
        let idle_watch = Scenario::Watch(WatchScenario {
            watchers: 0,
            ..WatchScenario::default()
        });
        assert!(check_options(&idle_watch, &LoadOptions::default()).is_err());
        let no_games = Scenario::Act(ActScenario {
            games_per_worker: 0,
            ..ActScenario::default()
        });
        assert!(check_options(&no_games, &LoadOptions::default()).is_err());
    }

    #[test]
    fn a_server_pid_given_twice_is_refused() {
        let play = Scenario::Play(PlayScenario::default());
        let distinct = LoadOptions {
            server_pids: vec![10, 11],
            ..LoadOptions::default()
        };
        assert!(check_options(&play, &distinct).is_ok());
        let repeated = LoadOptions {
            server_pids: vec![10, 11, 10],
            ..LoadOptions::default()
        };
        let error = check_options(&play, &repeated).unwrap_err();
        assert!(matches!(error, SetupError::Options(_)), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("--server-pid 10 is given more than once"),
            "{error}"
        );
    }
}
