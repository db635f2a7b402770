//! Redis going away and coming back (docs/ARCHITECTURE.md §4): while Redis is down, calls fail with
//! UNAVAILABLE `STORE_UNAVAILABLE`, open watch streams end with it, health turns NOT_SERVING
//! and nothing is half-applied; once Redis is back with its data, the same server process
//! serves again and the game continues from its last acknowledged version.
//!
//! A Redis that comes back *without* its data loses the games it held: they answer DATA_LOSS
//! `GAME_LOST`, not NOT_FOUND as if they had expired, while games created since, and ids too old
//! to be alive, stay NOT_FOUND.
//!
//! The tests run a private `redis-server` (in a temporary directory, on a free port) so that
//! stopping it disturbs no other test; they fail when `redis-server` is not installed.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::common::{Picker, observe_all, pigeon_chess, play_random_step};
use crate::server::{TestServer, free_port};
use deckmate::{ActOptions, CreateOptions, Error, RetryPolicy, pb};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_types::StatusExt;

/// How often a bounded wait looks again.
const POLL: Duration = Duration::from_millis(100);
/// The most looks of a bounded wait (30 s in all; health is polled every 5 s).
const POLLS: usize = 300;
/// What a client is told while the store is down.
const UNAVAILABLE_MESSAGE: &str = "the session store is unavailable; retry later";

/// A `redis-server` of this test's own.
pub(crate) struct PrivateRedis {
    child: Child,
}

impl PrivateRedis {
    /// Starts Redis on `port` with its data in `dir`, appending every write to its AOF before
    /// answering (and loading what an earlier run left there), and waits until it answers.
    pub(crate) async fn start(port: u16, dir: &Path) -> PrivateRedis {
        PrivateRedis::spawn(
            port,
            dir,
            &["--appendonly", "yes", "--appendfsync", "always"],
        )
        .await
    }

    /// Starts Redis on `port` keeping nothing on disk: a restart comes back empty.
    async fn start_without_persistence(port: u16, dir: &Path) -> PrivateRedis {
        PrivateRedis::spawn(port, dir, &["--appendonly", "no"]).await
    }

    async fn spawn(port: u16, dir: &Path, persistence: &[&str]) -> PrivateRedis {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(dir)
            .args(persistence)
            .args(["--save", "", "--daemonize", "no", "--loglevel", "warning"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!("redis-server must be installed (apt-get install redis-server): {error}")
            });
        let redis = PrivateRedis { child };
        let client = redis::Client::open(url(port)).unwrap();
        for _ in 0..POLLS {
            if let Ok(mut connection) = client.get_multiplexed_async_connection().await
                && redis::cmd("PING")
                    .query_async::<String>(&mut connection)
                    .await
                    .is_ok()
            {
                return redis;
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("the private Redis on port {port} did not answer");
    }

    /// Stops Redis the way an operator would (SIGTERM) and waits for it to exit.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success(), "could not signal Redis");
        for _ in 0..POLLS {
            if self.child.try_wait().unwrap().is_some() {
                return;
            }
            std::thread::sleep(POLL);
        }
        panic!("Redis did not stop after SIGTERM");
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        // After `stop` the process is gone and this fails harmlessly.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A directory under the system's temporary directory, removed when dropped.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new() -> TempDir {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let path = std::env::temp_dir().join(format!(
            "deckmate-redis-faults-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn url(port: u16) -> String {
    format!("redis://127.0.0.1:{port}")
}

/// Polls the server's health until it reports `wanted`.
async fn wait_for_health(server: &TestServer, wanted: ServingStatus) {
    for _ in 0..POLLS {
        if server.health_status("").await == Some(wanted) {
            return;
        }
        tokio::time::sleep(POLL).await;
    }
    panic!("health did not turn {wanted:?}");
}

/// Asserts that a status is UNAVAILABLE with reason `STORE_UNAVAILABLE` and the clear message.
fn assert_store_unavailable(status: &tonic::Status) {
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    let info = status
        .get_details_error_info()
        .expect("an ErrorInfo detail");
    assert_eq!(info.reason, "STORE_UNAVAILABLE");
    assert_eq!(status.message(), UNAVAILABLE_MESSAGE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_redis_going_away_and_coming_back() {
    let dir = TempDir::new();
    let port = free_port();
    let redis = PrivateRedis::start(port, &dir.0).await;
    let server = TestServer::start_with(&[
        "--store".to_string(),
        url(port),
        "--store-timeout".to_string(),
        "500ms".to_string(),
    ])
    .await;
    // No client-side retries: every failure shows as it happens.
    let client = server
        .client()
        .await
        .with_retry_policy(RetryPolicy::never());
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(5))
        .await
        .unwrap();
    let mut picker = Picker::new(5);
    for _ in 0..6 {
        play_random_step(&game, &mut picker)
            .await
            .expect("the game runs");
    }
    let before = observe_all(&game).await;
    let acknowledged = before[0].version;
    assert_eq!(acknowledged, 6);
    let mut open_watch = client
        .raw()
        .watch(pb::WatchRequest {
            game_id: game.id.clone(),
            from_version: acknowledged,
        })
        .await
        .unwrap()
        .into_inner();

    redis.stop();

    // Every kind of call fails clearly, and nothing is applied.
    let seat = (0..2)
        .find(|&s| !before[s].legal_actions.is_empty())
        .unwrap();
    let action = before[seat].legal_actions[0].clone();
    let act = game.seats[seat]
        .act_with(action.clone(), ActOptions::expecting(acknowledged))
        .await;
    assert!(
        matches!(&act, Err(Error::StoreUnavailable(details)) if details.message == UNAVAILABLE_MESSAGE),
        "{act:?}"
    );
    let observe = client
        .raw()
        .observe(pb::ObserveRequest {
            game_id: game.id.clone(),
        })
        .await
        .unwrap_err();
    assert_store_unavailable(&observe);
    let create = client
        .raw()
        .create_game(pb::CreateGameRequest {
            config: Some(pigeon_chess()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_store_unavailable(&create);
    let watch_end = tokio::time::timeout(POLL * POLLS as u32, open_watch.message())
        .await
        .expect("the open watch ends");
    assert_store_unavailable(&watch_end.unwrap_err());
    wait_for_health(&server, ServingStatus::NotServing).await;
    // Liveness stays SERVING: a store outage must not get the replica restarted.
    assert_eq!(
        server.health_status("liveness").await,
        Some(ServingStatus::Serving)
    );

    // Redis returns with its data; the same server process serves again.
    let _redis = PrivateRedis::start(port, &dir.0).await;
    wait_for_health(&server, ServingStatus::Serving).await;
    let after = observe_all(&game).await;
    assert_eq!(
        after[0].version, acknowledged,
        "the failed act left no trace"
    );
    assert_eq!(after, before, "the game is exactly as last acknowledged");
    let response = game.seats[seat]
        .act_with(action, ActOptions::expecting(acknowledged))
        .await
        .unwrap();
    assert_eq!(response.version, acknowledged + 1);
    // And it plays on to its end.
    let mut last = response.version;
    while let Some(step) = play_random_step(&game, &mut picker).await {
        assert_eq!(step.response.version, last + 1);
        last = step.response.version;
        assert!(last < 5_000, "the game does not end");
    }
    assert_eq!(
        observe_all(&game).await[0].status(),
        pb::GameStatus::Finished
    );
}

/// Asserts that `status` is DATA_LOSS `GAME_LOST`.
fn assert_game_lost(status: &tonic::Status) {
    assert_eq!(status.code(), Code::DataLoss, "{status:?}");
    let info = status
        .get_details_error_info()
        .expect("an ErrorInfo detail");
    assert_eq!(info.reason, "GAME_LOST");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_lost_with_redis_data_are_game_lost_not_expired() {
    let dir = TempDir::new();
    let port = free_port();
    let redis = PrivateRedis::start_without_persistence(port, &dir.0).await;
    let server = TestServer::start_with(&[
        "--store".to_string(),
        url(port),
        "--store-timeout".to_string(),
        "500ms".to_string(),
    ])
    .await;
    let client = server
        .client()
        .await
        .with_retry_policy(RetryPolicy::never());
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(6))
        .await
        .unwrap();
    let mut picker = Picker::new(6);
    play_random_step(&game, &mut picker)
        .await
        .expect("the game runs");
    // A game id carries its creation second: let that second pass, so that the data set that
    // follows begins after it.
    tokio::time::sleep(Duration::from_millis(1_100)).await;

    redis.stop();
    let _redis = PrivateRedis::start_without_persistence(port, &dir.0).await;
    // The server's connection notices the restart on its next call: until it has reconnected,
    // calls fail with UNAVAILABLE.
    let mut observe = None;
    for _ in 0..POLLS {
        let status = client
            .raw()
            .observe(pb::ObserveRequest {
                game_id: game.id.clone(),
            })
            .await
            .unwrap_err();
        if status.code() != Code::Unavailable {
            observe = Some(status);
            break;
        }
        tokio::time::sleep(POLL).await;
    }

    // Every call on the lost game says so, the seat's Act (through this replica's copy of the
    // record) as well as reads.
    assert_game_lost(&observe.expect("the server reconnects to Redis"));
    let views_lost = game.seats[0].observe().await.unwrap_err();
    assert!(matches!(views_lost, Error::GameLost(_)), "{views_lost:?}");
    let action = pb::Action {
        kind: Some(pb::action::Kind::Meta(pb::MetaAction {
            kind: pb::MetaActionKind::Resign as i32,
        })),
    };
    let act = game.seats[1].act(action).await.unwrap_err();
    assert!(matches!(act, Error::GameLost(_)), "{act:?}");
    let watch = client
        .raw()
        .watch(pb::WatchRequest {
            game_id: game.id.clone(),
            from_version: 0,
        })
        .await
        .map(drop)
        .unwrap_err();
    assert_game_lost(&watch);

    // A game made on the new data set and then gone, and an id too old to be alive, are
    // simply not found.
    let later = client
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .unwrap();
    let raw = redis::Client::open(url(port)).unwrap();
    let mut connection = raw.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("*{}*", later.id))
        .query_async(&mut connection)
        .await
        .unwrap();
    assert!(!keys.is_empty());
    redis::cmd("DEL")
        .arg(&keys)
        .query_async::<()>(&mut connection)
        .await
        .unwrap();
    let gone = later.seats[0].observe().await.unwrap_err();
    assert!(matches!(gone, Error::GameNotFound(_)), "{gone:?}");
    let ancient = client
        .raw()
        .observe(pb::ObserveRequest {
            game_id: format!("{:08x}{}", 1_600_000_000u32, "ab".repeat(12)),
        })
        .await
        .unwrap_err();
    assert_eq!(ancient.code(), Code::NotFound, "{ancient:?}");
}
