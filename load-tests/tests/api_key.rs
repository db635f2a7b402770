//! Runs against an in-process server started with an API keys file (`--api-keys-file`), which
//! requires an `x-api-key` on CreateGame: with the key every scenario and the arena pass, without
//! it the run stops before any load, and a wrong key fails by its reason. The key never appears
//! in a report, an error or the binary's output.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use deckmate::pb;
use deckmate_load::arena::{self, ArenaOptions};
use deckmate_load::errors::ExpectedErrors;
use deckmate_load::{
    ApiKey, LoadOptions, PlayScenario, RunReport, Scenario, StopSignal, VariantSelection,
    WatchScenario,
};
use deckmate_server::Config;
use deckmate_server::protection::api_keys::{NewKey, new_key};
use deckmate_server::protection::rate::Rate;

mod common;

use common::InProcessServer;

/// A keys file in the temporary directory, removed when dropped.
struct KeysFile(PathBuf);

impl KeysFile {
    fn holding(key: &NewKey) -> KeysFile {
        let unique = format!(
            "deckmate-load-keys-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("after 1970")
                .as_nanos()
        );
        let path = std::env::temp_dir().join(unique);
        std::fs::write(&path, format!("# keys of the load test\n{}\n", key.line))
            .expect("write the keys file");
        KeysFile(path)
    }
}

impl Drop for KeysFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A server with API keys, running in this process until stopped.
struct Server {
    address: String,
    key: NewKey,
    running: InProcessServer,
    _keys: KeysFile,
}

impl Server {
    /// A server that admits one new key, allows client seeds (for the arena) and has no
    /// per-caller quotas (the load generator is one client creating many games).
    async fn start() -> Server {
        let key = new_key("load").expect("a valid name");
        let keys = KeysFile::holding(&key);
        let config = Config {
            api_keys_file: Some(keys.0.clone()),
            create_rate: Rate::Off,
            max_games_per_client: usize::MAX,
            allow_client_seed: true,
            ..Config::default()
        };
        let running = InProcessServer::start(config).await;
        Server {
            address: running.address.clone(),
            key,
            running,
            _keys: keys,
        }
    }

    /// The key the server admits.
    fn api_key(&self) -> ApiKey {
        ApiKey::new(&self.key.key).expect("a sendable key")
    }

    async fn stop(self) {
        self.running.stop().await;
    }
}

/// Small, quiet options against `server`, with `api_key`.
fn options(server: &Server, api_key: Option<ApiKey>) -> LoadOptions {
    LoadOptions {
        targets: vec![server.address.clone()],
        connections: 1,
        in_flight: 2,
        duration: None,
        warmup: Duration::ZERO,
        baseline_duration: Duration::ZERO,
        api_key,
        max_errors: 10,
        progress: None,
        ..LoadOptions::default()
    }
}

fn play(games: Option<u64>) -> Scenario {
    Scenario::Play(PlayScenario {
        variants: VariantSelection::Only(vec!["pigeon_chess".into()]),
        seats: 0,
        games,
    })
}

/// Checks that neither the table nor the JSON of `report` shows `secret`.
fn assert_hidden(report: &RunReport, secret: &str) {
    let text = report.to_string();
    assert!(!text.contains(secret), "{text}");
    let json = report.to_json();
    assert!(!json.contains(secret), "{json}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_key_every_scenario_passes_and_the_key_is_never_shown() {
    let server = Server::start().await;
    let keyed = LoadOptions {
        // The baseline's checks carry the key too; the server ignores it there.
        baseline_duration: Duration::from_millis(200),
        ..options(&server, Some(server.api_key()))
    };
    let watch = Scenario::Watch(WatchScenario {
        variants: VariantSelection::Only(vec!["pigeon_chess".into()]),
        seats: 0,
        games: Some(2),
        watchers: 2,
    });
    for scenario in [play(Some(3)), watch] {
        let report = deckmate_load::run(&scenario, &keyed, &StopSignal::new())
            .await
            .expect("the run starts");
        assert!(report.passed, "{report}");
        assert!(report.result.errors.is_empty(), "{report}");
        assert!(report.result.games_finished > 0, "{report}");
        let baseline = report.baseline.as_ref().expect("a baseline phase");
        assert!(baseline.calls > 0 && baseline.errors.is_empty(), "{report}");
        assert!(report.settings.api_key_sent);
        assert!(
            report.to_string().contains("API key: sent as x-api-key"),
            "{report}"
        );
        assert_hidden(&report, &server.key.key);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_key_a_keyed_server_is_named_before_any_load() {
    let server = Server::start().await;
    let error = deckmate_load::run(&play(Some(1)), &options(&server, None), &StopSignal::new())
        .await
        .expect_err("the server requires a key");
    let message = error.to_string();
    assert!(message.contains("requires an API key"), "{message}");
    assert!(message.contains("--api-key"), "{message}");
    // The health check needs no key: the baseline alone runs keyless.
    let baseline = LoadOptions {
        duration: Some(Duration::from_millis(200)),
        ..options(&server, None)
    };
    let report = deckmate_load::run(&Scenario::Baseline, &baseline, &StopSignal::new())
        .await
        .expect("the baseline starts");
    assert!(report.passed && !report.settings.api_key_sent, "{report}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_key_fails_by_its_reason_even_when_expected() {
    let server = Server::start().await;
    let secret = "dmk_wrong-but-secret";
    let wrong = Some(ApiKey::new(secret).unwrap());
    let report = deckmate_load::run(
        &play(Some(3)),
        &options(&server, wrong.clone()),
        &StopSignal::new(),
    )
    .await
    .expect("the run starts");
    assert!(!report.passed, "{report}");
    assert!(
        report
            .result
            .errors
            .iter()
            .any(|error| error.reason == "BAD_API_KEY" && !error.expected),
        "{report}"
    );
    assert_hidden(&report, secret);
    // Expecting the refusal does not make a run that created no game pass.
    let expecting = LoadOptions {
        duration: Some(Duration::from_millis(300)),
        expected: ExpectedErrors::reasons(&["BAD_API_KEY"]).unwrap(),
        ..options(&server, wrong)
    };
    let report = deckmate_load::run(&play(None), &expecting, &StopSignal::new())
        .await
        .expect("the run starts");
    assert_eq!(report.unexpected_errors, 0, "{report}");
    assert!(!report.passed, "{report}");
    let failure = report.failure.as_deref().expect("a failure");
    assert!(
        failure.contains("UNAUTHENTICATED BAD_API_KEY x") && failure.contains("(expected)"),
        "{failure}"
    );
    assert_hidden(&report, secret);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arena_plays_bots_only_games_with_the_key() {
    // The server does not allow games of bots only, but a keyed caller may create them.
    let server = Server::start().await;
    let options = ArenaOptions {
        target: server.address.clone(),
        variant: "pigeon_chess".into(),
        seats: 0,
        games: 2,
        a: pb::BotLevel::Greedy,
        b: pb::BotLevel::Random,
        seed: 3,
        in_flight: 2,
        api_key: Some(server.api_key()),
        progress: false,
    };
    let score = arena::run(&options, &StopSignal::new())
        .await
        .expect("the arena runs with the key");
    assert_eq!(score.games(), 2, "{score}");
    let keyless = ArenaOptions {
        api_key: None,
        ..options
    };
    let stopped = arena::run(&keyless, &StopSignal::new())
        .await
        .expect_err("the server requires a key");
    assert!(stopped.to_string().contains("--api-key"), "{stopped}");
    server.stop().await;
}

/// Runs the load generator binary with `args` and `DECKMATE_API_KEY=key`, off the async runtime
/// that serves it.
async fn load_with_key(args: &[&str], key: &str) -> Output {
    let args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
    let key = key.to_string();
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_deckmate-load"))
            .args(&args)
            .env_remove("DECKMATE_LOAD_TARGET")
            .env("DECKMATE_API_KEY", key)
            .output()
            .expect("the load generator starts")
    })
    .await
    .expect("the load generator's thread")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_takes_the_key_from_the_environment_and_never_prints_it() {
    let server = Server::start().await;
    let secret = server.key.key.clone();
    let output = load_with_key(
        &[
            "play",
            "--target",
            &server.address,
            "--variant",
            "pigeon_chess",
            "--games",
            "2",
            "--warmup",
            "0s",
            "--baseline-duration",
            "200ms",
            "--in-flight",
            "2",
            "--json",
        ],
        &secret,
    )
    .await;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert_eq!(report["passed"], true, "{report:#}");
    assert_eq!(report["settings"]["api_key_sent"], true, "{report:#}");
    assert!(!stdout.contains(&secret) && !stderr.contains(&secret));
    // Nor does the help, which names the variable but hides its value.
    for command in [&["play", "--help"][..], &["arena", "--help"]] {
        let help = load_with_key(command, &secret).await;
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(text.contains("DECKMATE_API_KEY"), "{text}");
        assert!(!text.contains(&secret), "{text}");
    }
    // A key that cannot be sent is refused without being repeated.
    let refused = load_with_key(
        &["play", "--target", &server.address],
        "dmk_bad\u{7f}secret",
    )
    .await;
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--api-key"), "{stderr}");
    assert!(!stderr.contains("secret"), "{stderr}");
    server.stop().await;
}
