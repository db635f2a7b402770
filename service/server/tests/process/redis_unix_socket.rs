//! The Redis store over a Unix socket (`--store redis+unix:///path/to/redis.sock`): a
//! `redis-server` started here that listens on a socket only, two replicas on it playing one game
//! in turn, and the game's keys found in that Redis.
//!
//! It needs `redis-server` on the `PATH` (CI installs it) and fails without one.

use std::os::unix::net::UnixStream as StdUnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use deckmate::CreateOptions;

use crate::common::{Picker, observe_all, pigeon_chess, play_random_step};
use crate::redis_replicas::through;
use crate::scratch::Scratch;
use crate::server::TestServer;

/// Checks before giving up on a Redis that does not come up.
const ATTEMPTS: u32 = 200;
/// The pause between two checks.
const PAUSE: Duration = Duration::from_millis(50);
/// Actions played, alternating between the replicas.
const STEPS: usize = 12;

/// A `redis-server` that listens on a Unix socket in a directory of its own, and on no TCP
/// port; killed when dropped (before its directory is removed).
struct SocketRedis {
    child: Child,
    dir: Scratch,
}

impl SocketRedis {
    fn start() -> SocketRedis {
        let dir = Scratch::new("unix-redis");
        let mut redis = SocketRedis {
            child: Command::new("redis-server")
                .args(["--port", "0", "--save", "", "--appendonly", "no"])
                .arg("--unixsocket")
                .arg(dir.path().join("redis.sock"))
                .args(["--unixsocketperm", "700"])
                .arg("--dir")
                .arg(dir.path())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server runs (CI installs it)"),
            dir,
        };
        for _ in 0..ATTEMPTS {
            if StdUnixStream::connect(redis.socket()).is_ok() {
                return redis;
            }
            let exited = redis.child.try_wait().expect("redis-server's status");
            assert!(exited.is_none(), "redis-server exited: {exited:?}");
            std::thread::sleep(PAUSE);
        }
        panic!(
            "redis-server did not listen on {}",
            redis.socket().display()
        );
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("redis.sock")
    }

    /// The store URL of this Redis, database `db`.
    fn url(&self, db: u8) -> String {
        format!("redis+unix://{}?db={db}", path_text(&self.socket()))
    }
}

impl Drop for SocketRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn path_text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary directory")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_play_one_game_over_a_unix_socket() {
    let redis = SocketRedis::start();
    // Database 3, so that the URL's query is read too: the game's keys must land there.
    let url = redis.url(3);
    let flags = ["--store".to_string(), url.clone()];
    let servers = [
        TestServer::start_with(&flags).await,
        TestServer::start_with(&flags).await,
    ];
    let client_a = servers[0].client().await;
    let client_b = servers[1].client().await;
    let on_a = client_a
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(5))
        .await
        .expect("a game created over the socket");
    let on_b = through(&client_b, &on_a);

    let mut picker = Picker::new(5);
    for step in 0..STEPS {
        let replica = if step % 2 == 0 { &on_a } else { &on_b };
        play_random_step(replica, &mut picker)
            .await
            .expect("a short game is still running");
    }
    // Each replica sees the other's actions: the game lives in the Redis behind the socket.
    for game in [&on_a, &on_b] {
        let views = observe_all(game).await;
        assert!(views.iter().all(|view| view.version == STEPS as u64));
    }

    let mut connection = redis::Client::open(url.as_str())
        .expect("a Unix socket URL")
        .get_multiplexed_async_connection()
        .await
        .expect("a connection over the socket");
    let keys: usize = redis::cmd("DBSIZE")
        .query_async(&mut connection)
        .await
        .unwrap();
    assert!(keys > 0, "database 3 holds none of the game's keys");
    let mut default_db = redis::Client::open(redis.url(0).as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let elsewhere: usize = redis::cmd("DBSIZE")
        .query_async(&mut default_db)
        .await
        .unwrap();
    assert_eq!(elsewhere, 0, "keys were written outside the URL's database");
}
