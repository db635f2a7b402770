//! Watch streams whose clients stop reading hold the server at a page of views each (at most 32
//! views or about 256 KiB, docs/OPERATIONS.md "Limits"), not the whole game's: 60 streams
//! catching up on a long game from version 0 without reading add little to the server's
//! resident memory, and cancelling them gives it back.
//!
//! Memory is read from `/proc/<pid>/status` (`VmRSS`), so this test runs on Linux only. The
//! allocator's own figures (`deckmate_heap_*` from the metrics listener) are printed beside it,
//! which tells memory the server still holds from pages the allocator has not yet given back.

use std::time::Duration;

use crate::common::{Picker, play_random_step};
use crate::metrics::{sample, scrape};
use crate::server::{TestServer, free_port};
use deckmate::{CreateOptions, pb};
use deckmate_proto::v1::game_service_client::GameServiceClient;

/// Streams opened, as in the outside probe that found unbounded buffering.
const STREAMS: usize = 60;
/// Streams share a connection this many at a time.
const STREAMS_PER_CONNECTION: usize = 10;
/// The game is played to at least this many versions (or its end, if later).
const MIN_VERSIONS: u64 = 400;
/// It is played to at most this many.
const MAX_VERSIONS: u64 = 3_000;
/// The most the open, unread streams may add to the server's resident memory.
const GROWTH_LIMIT_KIB: u64 = 30 * 1024;
/// How long after cancelling the memory must have come back.
const RETURN_WITHIN: Duration = Duration::from_secs(10);
/// How often memory is read while waiting.
const POLL: Duration = Duration::from_millis(200);

/// The resident memory of process `pid`, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("/proc/<pid>/status is readable (Linux)");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}

/// The server's heap figures in KiB, allocated and resident (`deckmate_heap_*`).
async fn heap_kib(metrics_port: u16) -> (u64, u64) {
    let page = tokio::task::spawn_blocking(move || scrape(metrics_port))
        .await
        .expect("the scrape finishes");
    let kib = |name| (sample(&page, name, &[]) / 1024.0) as u64;
    (
        kib("deckmate_heap_allocated_bytes"),
        kib("deckmate_heap_resident_bytes"),
    )
}

/// A Raindropchess game that can run long: no repetition draw, the largest ply cap.
fn long_raindrop_chess() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::RaindropChess(
            pb::RaindropChessConfig {
                repetitions: Some(0),
                max_plies: Some(10_000),
                no_progress_plies: Some(1_500),
                ..Default::default()
            },
        )),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_watch_streams_hold_a_page_each_and_give_memory_back() {
    check_unread_streams("memory store", &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_watch_streams_on_redis_hold_a_page_each_and_give_memory_back() {
    crate::redis_replicas::require_redis().await;
    check_unread_streams(
        "Redis store",
        &["--store".to_string(), crate::redis_replicas::redis_url()],
    )
    .await;
}

/// Plays a long game on a server started with `args`, opens the unread streams, and checks the
/// server's memory with them open and after they are cancelled.
async fn check_unread_streams(store: &str, args: &[String]) {
    let metrics_port = free_port();
    let mut args = args.to_vec();
    args.extend([
        "--metrics-listen".to_string(),
        format!("127.0.0.1:{metrics_port}"),
    ]);
    let server = TestServer::start_with(&args).await;
    let client = server.client().await;
    // A long game: games of this seed's kind end on their own; keep the first that is long.
    let mut game_and_version = None;
    for seed in 1..=20u64 {
        let game = client
            .create_game(
                long_raindrop_chess(),
                2,
                CreateOptions::default().with_seed(seed),
            )
            .await
            .expect("create");
        let mut picker = Picker::new(seed);
        let mut version = 0;
        while version < MAX_VERSIONS {
            match play_random_step(&game, &mut picker).await {
                Some(played) => version = played.response.version,
                None => break,
            }
        }
        if version >= MIN_VERSIONS {
            game_and_version = Some((game, version));
            break;
        }
    }
    let (game, version) = game_and_version.expect("one of 20 seeded games runs long");

    let pid = server.pid();
    let before = resident_kib(pid);
    let heap_before = heap_kib(metrics_port).await;
    let mut connections = Vec::new();
    let mut streams = Vec::new();
    for _ in 0..STREAMS / STREAMS_PER_CONNECTION {
        let channel = crate::common::connect(&server.endpoint()).await;
        let mut games = GameServiceClient::new(channel);
        for _ in 0..STREAMS_PER_CONNECTION {
            let stream = games
                .watch(pb::WatchRequest {
                    game_id: game.id.clone(),
                    from_version: 0,
                })
                .await
                .expect("watch opens")
                .into_inner();
            streams.push(stream);
        }
        connections.push(games);
    }
    // Let every stream fill what flow control lets it send, then read the memory.
    let mut peak = before;
    for _ in 0..15 {
        tokio::time::sleep(POLL).await;
        peak = peak.max(resident_kib(pid));
    }
    let growth = peak.saturating_sub(before);
    let heap_open = heap_kib(metrics_port).await;
    eprintln!(
        "{store}: {STREAMS} unread streams on a {version}-version game: resident {before} KiB \
         before, {peak} KiB open (+{growth} KiB); heap allocated/resident {}/{} KiB before, \
         {}/{} KiB open",
        heap_before.0, heap_before.1, heap_open.0, heap_open.1
    );
    assert!(
        growth <= GROWTH_LIMIT_KIB,
        "{store}: {STREAMS} unread streams added {growth} KiB (limit {GROWTH_LIMIT_KIB} KiB)"
    );

    drop(streams);
    drop(connections);
    let limit = before + before / 10;
    let mut after = resident_kib(pid);
    let deadline = tokio::time::Instant::now() + RETURN_WITHIN;
    while after > limit && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(POLL).await;
        after = resident_kib(pid);
    }
    let heap_after = heap_kib(metrics_port).await;
    eprintln!(
        "{store}: {after} KiB after cancelling; heap allocated/resident {}/{} KiB",
        heap_after.0, heap_after.1
    );
    assert!(
        after <= limit,
        "{store}: resident memory {after} KiB did not come back within 10% of {before} KiB"
    );
}
