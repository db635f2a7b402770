//! `--metrics-listen`: a real server process plays a short game (one stale-version Act, one
//! replayed request, one Watch, a resignation) and its `/metrics` page shows every metric
//! family with the counters moved (docs/OPERATIONS.md, "Metrics").

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::pigeon_chess;
use crate::server::{TestServer, free_port};
use deckmate::{ActOptions, CreateOptions, Error, meta_action, pb};
use futures::StreamExt;

/// Every family the server exports from the start or after such a game.
const FAMILIES: &[&str] = &[
    "deckmate_rpc_requests_total",
    "deckmate_rpc_duration_seconds",
    "deckmate_watch_stream_seconds",
    "deckmate_games_created_total",
    "deckmate_games_finished_total",
    "deckmate_watchers",
    "deckmate_games_live",
    "deckmate_version_conflicts_total",
    "deckmate_idempotent_replays_total",
    "deckmate_build_info",
    "deckmate_store_duration_seconds",
    "deckmate_heap_allocated_bytes",
    "deckmate_heap_resident_bytes",
];

/// The longest the watcher may take to see the game end.
const WATCH_DEADLINE: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_after_a_game_shows_the_counters_moved() {
    let metrics_port = free_port();
    let server = TestServer::start_with(&[
        "--metrics-listen".into(),
        format!("127.0.0.1:{metrics_port}"),
    ])
    .await;
    let client = server.client().await;

    let options = CreateOptions::default()
        .with_seed(5)
        .with_request_id("metrics-create");
    let game = client
        .create_game(pigeon_chess(), 2, options.clone())
        .await
        .unwrap();
    let again = client
        .create_game(pigeon_chess(), 2, options)
        .await
        .unwrap();
    assert_eq!(again.id, game.id, "a repeated CreateGame is a replay");

    let watcher = tokio::spawn(game.seats[1].watch(0).collect::<Vec<_>>());

    let resign = meta_action(pb::MetaActionKind::Resign);
    let stale = game.seats[0]
        .act_with(resign.clone(), ActOptions::expecting(7))
        .await
        .unwrap_err();
    assert!(matches!(stale, Error::StaleVersion { .. }), "{stale:?}");
    let resigned = ActOptions::default().with_request_id("metrics-resign");
    let first = game.seats[0]
        .act_with(resign.clone(), resigned.clone())
        .await
        .unwrap();
    let replayed = game.seats[0].act_with(resign, resigned).await.unwrap();
    assert_eq!(first, replayed);
    let views = tokio::time::timeout(WATCH_DEADLINE, watcher)
        .await
        .expect("the watch ends with the game")
        .unwrap();
    assert!(views.iter().all(Result::is_ok), "{views:?}");

    let page = scrape(metrics_port);
    for family in FAMILIES {
        assert!(
            page.lines().any(|line| line.starts_with(family)),
            "{family} missing from:\n{page}"
        );
    }
    let value = |name: &str, labels: &[(&str, &str)]| sample(&page, name, labels);
    assert!(
        value(
            "deckmate_rpc_requests_total",
            &[("method", "Act"), ("code", "OK")]
        ) >= 2.0
    );
    assert!(
        value(
            "deckmate_rpc_requests_total",
            &[("method", "Act"), ("code", "ABORTED")]
        ) >= 1.0
    );
    assert!(
        value(
            "deckmate_rpc_requests_total",
            &[("method", "Watch"), ("code", "OK")]
        ) >= 1.0
    );
    assert_eq!(
        value(
            "deckmate_games_created_total",
            &[("variant", "pigeon_chess")]
        ),
        1.0
    );
    assert_eq!(
        value(
            "deckmate_games_finished_total",
            &[("variant", "pigeon_chess"), ("reason", "resignation")]
        ),
        1.0
    );
    assert!(value("deckmate_version_conflicts_total", &[]) >= 1.0);
    assert!(value("deckmate_idempotent_replays_total", &[]) >= 2.0);
    assert_eq!(
        value(
            "deckmate_build_info",
            &[("version", env!("CARGO_PKG_VERSION"))]
        ),
        1.0
    );
    assert!(
        value(
            "deckmate_rpc_duration_seconds_bucket",
            &[("method", "Act"), ("le", "0.00005")]
        ) >= 0.0
    );
    assert!(value("deckmate_rpc_duration_seconds_count", &[("method", "Act")]) >= 3.0);
    // The allocator's own figures (jemalloc, the default build): what the server holds, and
    // the allocator's resident pages, which include it.
    let allocated = value("deckmate_heap_allocated_bytes", &[]);
    assert!(allocated > 0.0);
    assert!(value("deckmate_heap_resident_bytes", &[]) >= allocated);
    for op in [
        "create",
        "load",
        "commit",
        "find_request",
        "find_create",
        "put_create",
        "watch",
    ] {
        assert!(value("deckmate_store_duration_seconds_count", &[("op", op)]) >= 1.0);
    }
}

/// The limits of `deckmate_limit_rejections_total` (docs/OPERATIONS.md, "Metrics").
const LIMITS: &[&str] = &[
    "max_games",
    "message_size",
    "max_watchers",
    "concurrency",
    "create_rate",
    "games_per_client",
    "watchers_per_game",
    "max_bot_games",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_server_shows_its_counters_at_zero() {
    let metrics_port = free_port();
    let server = TestServer::start_with(&[
        "--metrics-listen".into(),
        format!("127.0.0.1:{metrics_port}"),
    ])
    .await;
    // Before any GameService call: a dashboard reads 0 here, not "No data".
    let page = scrape(metrics_port);
    let value = |name: &str, labels: &[(&str, &str)]| sample(&page, name, labels);
    for counter in [
        "deckmate_version_conflicts_total",
        "deckmate_idempotent_replays_total",
        "deckmate_connections_refused_total",
    ] {
        assert_eq!(value(counter, &[]), 0.0, "{counter}");
    }
    for limit in LIMITS {
        assert_eq!(
            value("deckmate_limit_rejections_total", &[("limit", limit)]),
            0.0,
            "{limit}"
        );
    }
    for timeout in ["handshake", "idle"] {
        assert_eq!(
            value(
                "deckmate_connections_timed_out_total",
                &[("timeout", timeout)]
            ),
            0.0,
            "{timeout}"
        );
    }
    for gauge in ["deckmate_watchers", "deckmate_bot_games"] {
        assert_eq!(value(gauge, &[]), 0.0, "{gauge}");
    }
    let variants = server.client().await.list_variants().await.unwrap();
    assert!(!variants.is_empty());
    for variant in &variants {
        assert_eq!(
            value("deckmate_games_created_total", &[("variant", &variant.id)]),
            0.0,
            "{}",
            variant.id
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_metrics_address_fails_start_up() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--metrics-listen",
            "not-an-address",
        ])
        .output()
        .expect("the server binary runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--metrics-listen"), "{stderr}");
}

/// The body of `GET /metrics`, fetched with a plain HTTP/1.1 request.
pub(crate) fn scrape(port: u16) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the metrics port answers");
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    body.to_string()
}

/// The value of the sample of `name` whose labels include every pair of `labels`; panics when
/// there is none.
pub(crate) fn sample(page: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    page.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (series_name, series_labels) = match series.split_once('{') {
                Some((series_name, rest)) => (series_name, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            let all_present = labels
                .iter()
                .all(|(key, val)| series_labels.contains(&format!("{key}=\"{val}\"")));
            (series_name == name && all_present).then(|| value.parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no {name} sample with {labels:?} in:\n{page}"))
}
