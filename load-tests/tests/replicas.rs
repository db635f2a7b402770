//! The `deckmate-load` binary against several targets with `--server-pid` (and `--redis-url`):
//! the servers run in this test process, so the binary measures this process's CPU time, which
//! is the servers' work; the JSON report must show it per call, compared with the baseline.
//!
//! The Redis test needs the Redis server at `DECKMATE_TEST_REDIS_URL` (default
//! `redis://127.0.0.1:6379`, which CI starts; database 13 unless the URL names one) and fails
//! when none answers. Nothing here depends on how fast the machine is: only that the servers
//! and Redis did some work. `--server-pid` reads Linux's `/proc`, so the tests run on Linux.

#![cfg(target_os = "linux")]

use std::process::{Command, Output};
use std::time::Duration;

use deckmate_server::config::StoreUrl;
use deckmate_server::{Config, protection::rate::Rate};
use serde_json::Value;

mod common;

use common::InProcessServer;

/// The database the Redis test keeps its games in, apart from other tests' games.
const TEST_DATABASE: u32 = 13;

/// Starts a server on a free loopback port with `store`.
async fn start_server(store: StoreUrl) -> InProcessServer {
    // The load generator is one client creating many games: no per-caller quotas.
    InProcessServer::start(Config {
        store,
        game_ttl: Duration::from_secs(600),
        create_rate: Rate::Off,
        max_games_per_client: usize::MAX,
        ..Config::default()
    })
    .await
}

/// The test Redis, in its own database.
fn redis_url() -> String {
    let base = std::env::var("DECKMATE_TEST_REDIS_URL")
        .unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let names_database = base
        .split_once("://")
        .is_some_and(|(_, rest)| rest.contains('/'));
    if names_database {
        base
    } else {
        format!("{base}/{TEST_DATABASE}")
    }
}

/// Runs the load generator binary with `args`, off the async runtime that serves it.
async fn load(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_deckmate-load"))
            .args(&args)
            .env_remove("DECKMATE_LOAD_TARGET")
            .output()
            .expect("the load generator starts")
    })
    .await
    .expect("the load generator's thread")
}

/// The JSON report of a run that passed.
fn passed_report(output: &Output) -> Value {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    assert_eq!(report["passed"], true, "{report:#}");
    assert_eq!(report["unexpected_errors"], 0, "{report:#}");
    report
}

/// `args` as owned strings.
fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|arg| arg.to_string()).collect()
}

/// The figure `key` of `phase`, which must be a positive number.
fn positive(phase: &Value, key: &str) -> f64 {
    let value = phase[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} in {phase:#}"));
    assert!(value > 0.0, "{key} is {value}");
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_cpu_is_measured_per_call_over_two_targets() {
    let server = start_server(StoreUrl::Memory).await;
    let pid = std::process::id().to_string();
    // The same server twice: two targets, each with its own connections.
    let mut args = strings(&[
        "act",
        "--duration",
        "1s",
        "--warmup",
        "0s",
        "--baseline-duration",
        "500ms",
        "--in-flight",
        "2",
        "--connections",
        "1",
        "--games-per-worker",
        "2",
        "--quiet",
        "--json",
        "--server-pid",
        &pid,
    ]);
    for _ in 0..2 {
        args.extend(strings(&["--target", &server.address]));
    }
    let report = passed_report(&load(args).await);

    let settings = &report["settings"];
    assert_eq!(settings["target"], server.address.as_str());
    assert_eq!(
        settings["targets"],
        serde_json::json!([&server.address, &server.address])
    );
    assert_eq!(
        settings["server_pids"],
        serde_json::json!([std::process::id()])
    );
    let result = &report["result"];
    assert!(positive(result, "calls") >= 1.0);
    positive(result, "server_cpu_us_per_call");
    positive(&report["baseline"], "server_cpu_us_per_call");
    positive(&report["ratios"], "server_cpu");
    // No Redis node was named: its figures are absent, not zero.
    assert!(result["redis_cpu_us_per_call"].is_null(), "{report:#}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_on_one_redis_are_measured_with_their_redis() {
    let url = redis_url();
    let store = StoreUrl::parse(&url).expect("a Redis URL");
    let first = start_server(store.clone()).await;
    let second = start_server(store).await;
    let pid = std::process::id().to_string();
    // Watched games: seats act through both replicas and the watchers follow through one, so
    // every game's commits and deliveries cross replicas over Redis.
    let args = strings(&[
        "watch",
        "--variant",
        "pigeon_chess",
        "--games",
        "4",
        "--watchers",
        "2",
        "--warmup",
        "0s",
        "--baseline-duration",
        "0s",
        "--in-flight",
        "2",
        "--connections",
        "1",
        "--quiet",
        "--json",
        "--target",
        &first.address,
        "--target",
        &second.address,
        "--server-pid",
        &pid,
        "--redis-url",
        &url,
    ]);
    let report = passed_report(&load(args).await);
    let result = &report["result"];
    assert_eq!(result["games_finished"], 4, "{report:#}");
    // Both watchers received every version of every game.
    assert_eq!(
        result["deliveries"].as_u64(),
        result["actions"].as_u64().map(|actions| 2 * actions),
        "{report:#}"
    );
    assert_eq!(report["settings"]["redis_nodes"], serde_json::json!([&url]));
    positive(result, "server_cpu_us_per_call");
    positive(result, "redis_cpu_us_per_call");
    positive(result, "redis_bytes_per_call");
    first.stop().await;
    second.stop().await;
}

#[tokio::test]
async fn a_missing_process_or_a_remote_target_stops_the_run_before_it_starts() {
    // pid_max is at most 2^22 on Linux, so this pid never exists. Nothing listens on the
    // target either: the pid is refused before any connection is tried.
    let missing = load(strings(&[
        "baseline",
        "--target",
        "127.0.0.1:9",
        "--server-pid",
        "4294967295",
        "--quiet",
    ]))
    .await;
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("no process 4294967295"), "{stderr}");

    let pid = std::process::id().to_string();
    let remote = load(strings(&[
        "baseline",
        "--target",
        "127.0.0.1:9",
        "--target",
        "deckmate.example:50051",
        "--server-pid",
        &pid,
        "--quiet",
    ]))
    .await;
    assert_eq!(remote.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&remote.stderr);
    assert!(stderr.contains("another host's server"), "{stderr}");
    assert!(remote.stdout.is_empty(), "no report without a run");
}

#[tokio::test]
async fn a_wrong_pid_or_report_path_stops_the_run_before_it_starts() {
    // Nothing listens on port 9, so each run below would fail to connect if it got that far:
    // the errors asserted are the earlier ones.
    let pid = std::process::id().to_string();
    let twice = load(strings(&[
        "baseline",
        "--target",
        "127.0.0.1:9",
        "--server-pid",
        &pid,
        "--server-pid",
        &pid,
        "--quiet",
    ]))
    .await;
    assert_eq!(twice.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&twice.stderr);
    assert!(stderr.contains("given more than once"), "{stderr}");

    // This process listens, but not at port 9: it is not that target's server.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let not_listening = load(strings(&[
        "baseline",
        "--target",
        "127.0.0.1:9",
        "--server-pid",
        &pid,
        "--quiet",
    ]))
    .await;
    assert_eq!(not_listening.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&not_listening.stderr);
    assert!(stderr.contains("port 9 of target"), "{stderr}");
    drop(listener);

    let unwritable = load(strings(&[
        "baseline",
        "--target",
        "127.0.0.1:9",
        "--json-file",
        "/nonexistent-deckmate-load-dir/report.json",
        "--quiet",
    ]))
    .await;
    assert_eq!(unwritable.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unwritable.stderr);
    assert!(
        stderr.contains("cannot write /nonexistent-deckmate-load-dir/report.json"),
        "{stderr}"
    );
    assert!(!stderr.contains("cannot connect"), "{stderr}");
}
