//! The client against a real `deckmate-server` process (`DECKMATE_SERVER_BIN`, which `.ci/run`
//! sets after its release build): `GetServerInfo`, and a watch cut by the server's shutdown.
//! Without `DECKMATE_SERVER_BIN` the tests say so and pass, so that `cargo test` works before
//! any server is built.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use deckmate::{Client, ConnectOptions, CreateOptions, Error, RetryPolicy, pb};
use futures::StreamExt;

/// Connection attempts before giving up on a server that does not come up.
const STARTUP_ATTEMPTS: u32 = 300;

/// A server process on a free loopback port, killed when dropped.
struct Server {
    child: Child,
    endpoint: String,
}

impl Server {
    /// Starts the server binary, or returns `None` when `DECKMATE_SERVER_BIN` is not set.
    fn start() -> Option<Server> {
        let Some(binary) = std::env::var_os("DECKMATE_SERVER_BIN") else {
            eprintln!("DECKMATE_SERVER_BIN is not set: skipping the live-server test");
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(binary)
            .args([
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--allow-client-seed",
                // The suite creates games faster than the default per-caller create rate
                // allows; the rate limit has tests of its own in the server.
                "--create-rate",
                "off",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server binary starts");
        Some(Server {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
        })
    }

    /// A client without retries, once the server answers `ListVariants`.
    async fn client(&mut self) -> Client {
        for _ in 0..STARTUP_ATTEMPTS {
            assert!(
                self.child.try_wait().expect("query the server").is_none(),
                "the server exited during startup"
            );
            let options = ConnectOptions::default().with_retry_policy(RetryPolicy::never());
            if let Ok(client) = Client::connect_with(self.endpoint.clone(), options).await
                && client.list_variants().await.is_ok()
            {
                return client;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server did not answer after {STARTUP_ATTEMPTS} attempts");
    }

    /// Asks the server to stop as an operator would.
    fn terminate(&self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "SIGTERM delivered");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Killing an exited process fails harmlessly; waiting reaps it either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chuno() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::Chuno(pb::ChunoConfig::default())),
    }
}

#[tokio::test]
async fn server_info_describes_the_server() {
    let Some(mut server) = Server::start() else {
        return;
    };
    let info = server.client().await.server_info().await.expect("info");
    assert!(!info.server_version.is_empty());
    assert!(info.api_revision >= 2, "{info:?}");
    // Started with `--allow-client-seed`, in memory, without API keys.
    let features = info.features.expect("features");
    assert!(features.client_seeds);
    assert!(!features.api_keys);
    assert_eq!(features.store(), pb::StoreKind::Memory);
    let limits = info.limits.expect("limits");
    assert!(limits.max_message_bytes > 0 && limits.max_request_id_bytes > 0);
    // Started with `--create-rate off`, and the default quotas otherwise.
    assert_eq!(limits.create_rate, None);
    assert_eq!(
        (
            limits.max_games_per_client,
            limits.max_watchers_per_game,
            limits.max_watchers_per_client
        ),
        (1000, 64, 1000)
    );
}

#[tokio::test]
async fn a_watch_cut_by_sigterm_ends_with_shutting_down() {
    let Some(mut server) = Server::start() else {
        return;
    };
    // No retries: the stopped server cannot be resumed from, and the status that ended the
    // stream is what this test reads.
    let client = server.client().await;
    let game = client
        .create_game(chuno(), 2, CreateOptions::default().with_seed(7))
        .await
        .expect("created");
    let view = game.seats[0].observe().await.expect("observe");
    let seat = &game.seats[*view.to_act.first().unwrap_or(&0) as usize];
    let action = seat.legal_actions().await.expect("actions")[0].clone();
    seat.act(action).await.expect("act");
    let mut watch = seat.watch(0);
    // The first version proves the stream is open before the server is stopped.
    let first = watch.next().await.expect("an item").expect("version 1");
    assert_eq!(first.version, 1);
    server.terminate();
    let error = watch
        .next()
        .await
        .expect("an item")
        .expect_err("shutdown ends the stream");
    assert!(matches!(error, Error::ShuttingDown(_)), "{error:?}");
    assert!(error.is_retryable());
}
