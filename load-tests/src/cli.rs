//! The command line: `deckmate-load <play|act|watch|baseline|arena> [options]`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use deckmate::pb;

use crate::api_key::{ApiKey, ApiKeyParser};
use crate::arena::ArenaOptions;
use crate::errors::ExpectedErrors;
use crate::options::{
    ActScenario, DEFAULT_TARGET, LoadOptions, PlayScenario, Scenario, VariantSelection,
    WatchScenario,
};

/// The measured time when neither `--duration` nor `--games` is given.
const DEFAULT_DURATION: Duration = Duration::from_secs(10);

/// The load generator's command line.
#[derive(Debug, Parser)]
#[command(
    name = "deckmate-load",
    version,
    about = "Load generator for the Deckmate game server: games/s, actions/s, latency percentiles \
             and errors, each compared with a bare health Check measured in the same run."
)]
pub struct Cli {
    /// The scenario to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The scenarios.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create games and play them to the end with random legal actions.
    Play(PlayArgs),
    /// The hot path alone: pre-created games, `Act` then the next `Observe`.
    Act(ActArgs),
    /// Play games while spectators watch each one; measures delivery delay.
    Watch(WatchArgs),
    /// Only the bare health `Check` RPC, the reference of every ratio.
    Baseline(BaselineArgs),
    /// Bot against bot: games with a bot on every seat, scored from bot A's side.
    Arena(ArenaArgs),
}

/// Options of every scenario.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// The server, such as `http://127.0.0.1:50051` or `127.0.0.1:50051`. Repeat it for
    /// several replicas: games, seats and watchers are spread over them so that commits and
    /// watches cross replicas.
    #[arg(long, env = "DECKMATE_LOAD_TARGET", default_value = DEFAULT_TARGET)]
    pub target: Vec<String>,
    /// HTTP/2 connections to open to each target; workers share them round-robin.
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// Concurrent workers, each with at most one request in flight.
    #[arg(long, default_value_t = 32)]
    pub in_flight: usize,
    /// Open loop: start the scenario's calls at this rate, such as `500/s`, spread over the
    /// workers whatever the latency (which then counts from each call's scheduled start; keep
    /// `--in-flight` above rate × latency). Without it workers call back to back. The baseline
    /// phase is never paced.
    #[arg(long, value_name = "N/s", value_parser = crate::pacer::parse_rate)]
    pub rate: Option<u32>,
    /// Measured time, such as `20s` or `2m` (default 10s, or until `--games` when given).
    #[arg(long, value_parser = parse_duration)]
    pub duration: Option<Duration>,
    /// Time each phase runs before measuring (results dropped, errors still count).
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub warmup: Duration,
    /// Seed of the client's random choices (actions, seats).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Deal the same games in every run: each game's seed is drawn from `--seed` and its
    /// number (the server needs `--allow-client-seed`). With `--in-flight 1`, two server builds
    /// serve exactly the same calls.
    #[arg(long)]
    pub game_seeds: bool,
    /// The API key of a server started with `--api-keys-file` (`deckmate-server hash-key` makes
    /// one), sent as `x-api-key` on every call. The server checks it on CreateGame only and
    /// ignores it elsewhere, but the baseline's health checks carry it too: the two phases then
    /// send requests of the same shape, so the ratios compare RPCs, and a proxy that asks for
    /// the key on every call lets them through. Never printed; prefer the environment variable,
    /// which keeps the key out of the process list.
    #[arg(
        long,
        value_name = "KEY",
        env = "DECKMATE_API_KEY",
        hide_env_values = true,
        value_parser = ApiKeyParser
    )]
    pub api_key: Option<ApiKey>,
    /// Print the report as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON report to this file (opened before the run starts).
    #[arg(long, value_name = "PATH")]
    pub json_file: Option<PathBuf>,
    /// Error reasons that do not fail the run, such as `OVERLOADED` (repeatable or
    /// comma-separated).
    #[arg(long = "expect", value_name = "REASON", value_delimiter = ',')]
    pub expect: Vec<String>,
    /// Stop the run after this many unexpected errors.
    #[arg(long, default_value_t = 100)]
    pub max_errors: u64,
    /// How often the progress line is printed to stderr.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    pub progress_interval: Duration,
    /// Print no progress line.
    #[arg(long)]
    pub quiet: bool,
    /// A server process on this machine whose CPU time to measure over each window, read
    /// from /proc (Linux); repeat it for several replicas, each pid once. Every target must be
    /// local, each process must listen on a TCP port, and one of them on each target's port.
    #[arg(long = "server-pid", value_name = "PID")]
    pub server_pid: Vec<u32>,
    /// A Redis node whose command time (INFO commandstats) and traffic (INFO stats) to measure
    /// over each window; repeat it for several nodes.
    #[arg(long = "redis-url", value_name = "URL")]
    pub redis_url: Vec<String>,
}

/// The baseline phase run before a scenario.
#[derive(Debug, Args)]
pub struct BaselinePhaseArgs {
    /// Measured time of the baseline phase run first; `0s` skips it (and the ratios).
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub baseline_duration: Duration,
}

/// Which games a scenario creates.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// `all` (every variant the server lists) or comma-separated variant ids.
    #[arg(long, default_value = "all")]
    pub variant: VariantSelection,
    /// Seats per game; 0 means each variant's smallest seat count.
    #[arg(long, default_value_t = 0)]
    pub seats: u32,
}

/// Options of `play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub baseline: BaselinePhaseArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// Games to start after the warm-up; the run ends when they have finished.
    #[arg(long)]
    pub games: Option<u64>,
}

/// Options of `act`.
#[derive(Debug, Args)]
pub struct ActArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub baseline: BaselinePhaseArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// Games each worker creates before the clock starts and plays in turn.
    #[arg(long, default_value_t = 4)]
    pub games_per_worker: usize,
}

/// Options of `watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub baseline: BaselinePhaseArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// Games to start after the warm-up; the run ends when they have finished.
    #[arg(long)]
    pub games: Option<u64>,
    /// Spectators watching each game.
    #[arg(long, default_value_t = 4)]
    pub watchers: usize,
}

/// Options of `baseline`.
#[derive(Debug, Args)]
pub struct BaselineArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: CommonArgs,
}

/// Options of `arena` (see [`crate::arena`]).
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The server, such as `http://127.0.0.1:50051`, started with `--allow-client-seed`, and
    /// with `--allow-bot-only-games` unless the arena sends an `--api-key`.
    #[arg(long, env = "DECKMATE_LOAD_TARGET", default_value = DEFAULT_TARGET)]
    pub target: String,
    /// The variant id, such as `chuno`.
    #[arg(long)]
    pub variant: String,
    /// Seats per game; 0 means the variant's smallest seat count. Bot A takes one seat, bot B
    /// every other.
    #[arg(long, default_value_t = 0)]
    pub seats: u32,
    /// Games to play.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Bot A's level: random, greedy or search.
    #[arg(long, value_parser = parse_level)]
    pub a: pb::BotLevel,
    /// Bot B's level: random, greedy or search.
    #[arg(long, value_parser = parse_level)]
    pub b: pb::BotLevel,
    /// The base of the games' seeds: the same seed replays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 4)]
    pub in_flight: usize,
    /// The API key of a server started with `--api-keys-file`, sent as `x-api-key` on every
    /// call; with a key, the server allows games of bots only. Never printed.
    #[arg(
        long,
        value_name = "KEY",
        env = "DECKMATE_API_KEY",
        hide_env_values = true,
        value_parser = ApiKeyParser
    )]
    pub api_key: Option<ApiKey>,
    /// Print no line per finished game.
    #[arg(long)]
    pub quiet: bool,
}

impl ArenaArgs {
    /// The arena run these options ask for.
    pub fn into_options(self) -> ArenaOptions {
        ArenaOptions {
            target: self.target,
            variant: self.variant,
            seats: self.seats,
            games: self.games,
            a: self.a,
            b: self.b,
            seed: self.seed,
            in_flight: self.in_flight,
            api_key: self.api_key,
            progress: !self.quiet,
        }
    }
}

/// Reads a bot level: `random`, `greedy` or `search`.
fn parse_level(value: &str) -> Result<pb::BotLevel, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "random" => Ok(pb::BotLevel::Random),
        "greedy" => Ok(pb::BotLevel::Greedy),
        "search" => Ok(pb::BotLevel::Search),
        other => Err(format!(
            "`{other}` is not a bot level: random, greedy or search"
        )),
    }
}

/// A parsed command line, ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// The scenario.
    pub scenario: Scenario,
    /// The shared options.
    pub options: LoadOptions,
    /// Print JSON instead of the table.
    pub json: bool,
    /// Also write the JSON report here.
    pub json_file: Option<PathBuf>,
}

impl Cli {
    /// The run the command line asks for; fails on an unknown `--expect` reason.
    pub fn into_invocation(self) -> Result<Invocation, String> {
        let (scenario, common, baseline) = match self.command {
            Command::Play(args) => (
                Scenario::Play(PlayScenario {
                    variants: args.game.variant,
                    seats: args.game.seats,
                    games: args.games,
                }),
                args.common,
                args.baseline.baseline_duration,
            ),
            Command::Act(args) => (
                Scenario::Act(ActScenario {
                    variants: args.game.variant,
                    seats: args.game.seats,
                    games_per_worker: args.games_per_worker,
                }),
                args.common,
                args.baseline.baseline_duration,
            ),
            Command::Watch(args) => (
                Scenario::Watch(WatchScenario {
                    variants: args.game.variant,
                    seats: args.game.seats,
                    games: args.games,
                    watchers: args.watchers,
                }),
                args.common,
                args.baseline.baseline_duration,
            ),
            Command::Baseline(args) => (Scenario::Baseline, args.common, Duration::ZERO),
            Command::Arena(_) => return Err("the arena is not a load scenario".into()),
        };
        let duration = match (common.duration, scenario.games()) {
            (Some(duration), _) => Some(duration),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_DURATION),
        };
        let options = LoadOptions {
            targets: common.target,
            connections: common.connections,
            in_flight: common.in_flight,
            duration,
            warmup: common.warmup,
            baseline_duration: baseline,
            seed: common.seed,
            game_seeds: common.game_seeds,
            api_key: common.api_key,
            expected: ExpectedErrors::reasons(&common.expect)?,
            max_errors: common.max_errors,
            progress: (!common.quiet).then_some(common.progress_interval),
            server_pids: common.server_pid,
            redis_urls: common.redis_url,
            rate: common.rate,
        };
        Ok(Invocation {
            scenario,
            options,
            json: common.json,
            json_file: common.json_file,
        })
    }
}

/// Reads a duration such as `500ms`, `20s` or `2m`.
fn parse_duration(value: &str) -> Result<Duration, String> {
    humantime::parse_duration(value.trim())
        .map_err(|error| format!("`{value}` is not a duration like 500ms, 20s or 2m: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    /// Parses `args` with environment variables ignored.
    fn invocation(args: &[&str]) -> Result<Invocation, String> {
        let command = Cli::command().mut_args(|arg| arg.env(None));
        let mut command = command;
        for name in ["play", "act", "watch", "baseline", "arena"] {
            command = command.mut_subcommand(name, |sub| sub.mut_args(|arg| arg.env(None)));
        }
        let matches = command
            .try_get_matches_from(args)
            .map_err(|error| error.to_string())?;
        Cli::from_arg_matches(&matches)
            .map_err(|error| error.to_string())?
            .into_invocation()
    }

    #[test]
    fn the_acceptance_command_line_parses() {
        let run = invocation(&[
            "deckmate-load",
            "play",
            "--variant",
            "all",
            "--duration",
            "20s",
        ])
        .unwrap();
        assert_eq!(run.scenario, Scenario::Play(PlayScenario::default()));
        assert_eq!(run.options.duration, Some(Duration::from_secs(20)));
        assert_eq!(run.options.baseline_duration, Duration::from_secs(5));
        assert_eq!(run.options.targets, [DEFAULT_TARGET]);
        assert!(run.options.server_pids.is_empty() && run.options.redis_urls.is_empty());
        assert!(!run.json);
    }

    #[test]
    fn every_option_is_read() {
        let run = invocation(&[
            "deckmate-load",
            "watch",
            "--target",
            "127.0.0.1:6000",
            "--connections",
            "2",
            "--in-flight",
            "8",
            "--warmup",
            "0s",
            "--seed",
            "9",
            "--game-seeds",
            "--json",
            "--json-file",
            "out.json",
            "--expect",
            "overloaded,LIMIT_REACHED",
            "--max-errors",
            "5",
            "--quiet",
            "--baseline-duration",
            "0s",
            "--variant",
            "pigeon_chess",
            "--seats",
            "2",
            "--games",
            "12",
            "--watchers",
            "3",
            "--server-pid",
            "4242",
            "--redis-url",
            "redis://127.0.0.1:6379",
            "--rate",
            "250/s",
        ])
        .unwrap();
        assert_eq!(
            run.scenario,
            Scenario::Watch(WatchScenario {
                variants: VariantSelection::Only(vec!["pigeon_chess".into()]),
                seats: 2,
                games: Some(12),
                watchers: 3,
            })
        );
        let options = &run.options;
        assert_eq!(options.targets, ["127.0.0.1:6000"]);
        assert_eq!(options.server_pids, [4242]);
        assert_eq!(options.redis_urls, ["redis://127.0.0.1:6379"]);
        assert_eq!(options.rate, Some(250));
        assert_eq!((options.connections, options.in_flight), (2, 8));
        assert_eq!(options.duration, None, "a game count alone has no deadline");
        assert_eq!(options.warmup, Duration::ZERO);
        assert_eq!(options.baseline_duration, Duration::ZERO);
        assert_eq!((options.seed, options.max_errors), (9, 5));
        assert!(options.game_seeds);
        assert_eq!(options.expected.names(), ["LIMIT_REACHED", "OVERLOADED"]);
        assert_eq!(options.progress, None);
        assert!(run.json);
        assert_eq!(run.json_file, Some(PathBuf::from("out.json")));
    }

    #[test]
    fn defaults_fill_in_and_the_baseline_scenario_has_no_baseline_phase() {
        let act = invocation(&["deckmate-load", "act"]).unwrap();
        assert_eq!(act.scenario, Scenario::Act(ActScenario::default()));
        assert_eq!(act.options.duration, Some(DEFAULT_DURATION));
        assert_eq!(act.options.progress, Some(Duration::from_secs(1)));
        assert!(
            !act.options.game_seeds,
            "the server draws secret seeds by default"
        );
        let baseline = invocation(&["deckmate-load", "baseline", "--duration", "3s"]).unwrap();
        assert_eq!(baseline.scenario, Scenario::Baseline);
        assert_eq!(baseline.options.baseline_duration, Duration::ZERO);
    }

    #[test]
    fn targets_server_pids_and_redis_urls_repeat_in_order() {
        let run = invocation(&[
            "deckmate-load",
            "act",
            "--target",
            "127.0.0.1:50051",
            "--server-pid",
            "10",
            "--target",
            "127.0.0.1:50052",
            "--server-pid",
            "11",
            "--target",
            "http://localhost:50053",
            "--redis-url",
            "redis://127.0.0.1:7000",
            "--redis-url",
            "redis://127.0.0.1:7001",
        ])
        .unwrap();
        let options = &run.options;
        assert_eq!(
            options.targets,
            [
                "127.0.0.1:50051",
                "127.0.0.1:50052",
                "http://localhost:50053"
            ]
        );
        assert_eq!(options.server_pids, [10, 11]);
        assert_eq!(
            options.redis_urls,
            ["redis://127.0.0.1:7000", "redis://127.0.0.1:7001"]
        );
        for name in ["play", "watch", "baseline"] {
            let run = invocation(&["deckmate-load", name, "--server-pid", "5"]).unwrap();
            assert_eq!(run.options.server_pids, [5], "{name}");
        }
    }

    #[test]
    fn the_api_key_is_read_by_every_scenario_and_never_shown() {
        for name in ["play", "act", "watch", "baseline"] {
            let run = invocation(&["deckmate-load", name, "--api-key", " dmk_secret-1 "]).unwrap();
            assert_eq!(
                run.options.api_key,
                Some(ApiKey::new("dmk_secret-1").unwrap()),
                "{name}"
            );
            let printed = format!("{run:?}");
            assert!(!printed.contains("secret"), "{printed}");
        }
        let keyless = invocation(&["deckmate-load", "play"]).unwrap();
        assert_eq!(keyless.options.api_key, None);
    }

    #[test]
    fn the_arena_reads_the_api_key() {
        let parse = |args: &[&str]| {
            let command =
                Cli::command().mut_subcommand("arena", |sub| sub.mut_args(|a| a.env(None)));
            let matches = command.try_get_matches_from(args).unwrap();
            match Cli::from_arg_matches(&matches).unwrap().command {
                Command::Arena(args) => args.into_options(),
                other => panic!("{other:?}"),
            }
        };
        let base = [
            "deckmate-load",
            "arena",
            "--variant",
            "chuno",
            "--a",
            "search",
            "--b",
            "random",
        ];
        assert_eq!(parse(&base).api_key, None);
        let keyed = parse(&[&base[..], &["--api-key", "dmk_arena-secret"]].concat());
        assert_eq!(
            keyed.api_key,
            Some(ApiKey::new("dmk_arena-secret").unwrap())
        );
        assert!(!format!("{keyed:?}").contains("arena-secret"));
    }

    #[test]
    fn a_bad_api_key_is_refused_without_being_repeated() {
        for bad in ["", "   ", "dmk_sécret", "dmk_se\ncret"] {
            let error = invocation(&["deckmate-load", "play", "--api-key", bad])
                .expect_err("not a sendable key");
            assert!(error.contains("--api-key"), "{error}");
            assert!(!error.contains("cret"), "{error}");
        }
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(invocation(&["deckmate-load", "play", "--expect", "SLOW"]).is_err());
        assert!(invocation(&["deckmate-load", "play", "--duration", "soon"]).is_err());
        assert!(invocation(&["deckmate-load", "play", "--variant", ","]).is_err());
        assert!(invocation(&["deckmate-load"]).is_err());
        assert!(invocation(&["deckmate-load", "act", "--server-pid", "me"]).is_err());
        assert!(invocation(&["deckmate-load", "act", "--server-pid", "-3"]).is_err());
    }
}
