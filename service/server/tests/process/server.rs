//! A real `deckmate-server` process on a free loopback port, for the tests of what only a
//! process shows: command-line flags, a store that goes away under a running server, replicas.

use std::net::TcpListener;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

use deckmate::Client;
use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// Health checks before giving up on a server that does not come up.
const STARTUP_ATTEMPTS: u32 = 600;
/// The pause between two startup health checks.
const STARTUP_PAUSE: Duration = Duration::from_millis(50);
/// Ports tried before giving up on a server that keeps exiting during startup.
const STARTUP_PORT_ATTEMPTS: u32 = 5;

/// A `deckmate-server` child process listening on `127.0.0.1:<port>`, with client seeds allowed.
/// Killed when dropped.
pub(crate) struct TestServer {
    child: Child,
    port: u16,
}

impl TestServer {
    /// Starts the server binary with `args` besides the listen address and
    /// `--allow-client-seed` (such as `--store`), and waits until its health check answers
    /// SERVING.
    ///
    /// The free port is found by binding port 0 and letting it go, so another process may take
    /// it in between; a server that exits during startup is therefore retried on a new port.
    /// Its output is discarded unless `DECKMATE_TEST_SERVER_LOG` is set, in which case it goes
    /// to the test's stderr.
    pub(crate) async fn start_with(args: &[String]) -> TestServer {
        TestServer::start_with_env(args, &[]).await
    }

    /// Like [`TestServer::start_with`], with environment variables `env` set for the process.
    pub(crate) async fn start_with_env(args: &[String], env: &[(&str, String)]) -> TestServer {
        let mut last_exit = None;
        for _ in 0..STARTUP_PORT_ATTEMPTS {
            let port = free_port();
            let child = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
                .arg("--listen")
                .arg(format!("127.0.0.1:{port}"))
                .arg("--allow-client-seed")
                // Every test creates its games from one address; a test of the rate limit
                // passes --create-rate, which wins over the variable.
                .env("DECKMATE_CREATE_RATE", "off")
                .args(args)
                .envs(env.iter().map(|(name, value)| (name, value)))
                .stdin(Stdio::null())
                .stdout(server_output())
                .stderr(server_output())
                .spawn()
                .expect("the server binary starts");
            let mut server = TestServer { child, port };
            match server.wait_until_serving().await {
                Ok(()) => return server,
                Err(status) => last_exit = Some(status),
            }
        }
        panic!("the server exited during startup {STARTUP_PORT_ATTEMPTS} times: {last_exit:?}");
    }

    /// The server process's id (to send it signals).
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's URL, such as `http://127.0.0.1:40123`.
    pub(crate) fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// An SDK client connected to the server.
    pub(crate) async fn client(&self) -> Client {
        crate::common::client(&self.endpoint()).await
    }

    /// Polls the standard health check until it answers SERVING; returns the exit status if
    /// the process exits first, and panics when the attempts run out.
    async fn wait_until_serving(&mut self) -> Result<(), ExitStatus> {
        for _ in 0..STARTUP_ATTEMPTS {
            if let Some(status) = self.child.try_wait().expect("query the server process") {
                return Err(status);
            }
            if self.health_status("").await == Some(ServingStatus::Serving) {
                // Make sure it was this process that answered, not another one on the port.
                return match self.child.try_wait().expect("query the server process") {
                    Some(status) => Err(status),
                    None => Ok(()),
                };
            }
            tokio::time::sleep(STARTUP_PAUSE).await;
        }
        panic!("the server did not report SERVING after {STARTUP_ATTEMPTS} health checks");
    }

    /// The health status of `service` ("" for the whole server), or `None` when the server does
    /// not answer.
    pub(crate) async fn health_status(&self, service: &str) -> Option<ServingStatus> {
        let channel = Endpoint::from_shared(self.endpoint())
            .ok()?
            .connect()
            .await
            .ok()?;
        let response = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: service.to_string(),
            })
            .await
            .ok()?;
        ServingStatus::try_from(response.into_inner().status).ok()
    }
}

impl TestServer {
    /// Sends SIGTERM, as a process manager stopping the server would, and waits for the
    /// process to exit.
    pub(crate) async fn terminate(mut self) -> ExitStatus {
        let sent = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM failed: {sent}");
        loop {
            if let Some(status) = self.child.try_wait().expect("query the server process") {
                return status;
            }
            tokio::time::sleep(STARTUP_PAUSE).await;
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // Killing an already exited process fails harmlessly; waiting reaps it either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the server's output goes: nowhere, or the test's stderr when
/// `DECKMATE_TEST_SERVER_LOG` is set.
pub(crate) fn server_output() -> Stdio {
    if std::env::var_os("DECKMATE_TEST_SERVER_LOG").is_some() {
        Stdio::inherit()
    } else {
        Stdio::null()
    }
}

/// A loopback port that was free a moment ago.
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("bind a free loopback port")
        .port()
}
