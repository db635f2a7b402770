//! A `deckmate-server` process serving TLS, started with given flags and reached with a given
//! client TLS configuration; its log is kept so that tests can wait for what it reports.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::server::free_port;

/// Checks before giving up on a server that does not come up, or a log line that does not come.
const ATTEMPTS: u32 = 600;
/// The pause between two checks.
const PAUSE: Duration = Duration::from_millis(50);
/// Ports tried before giving up on a server that keeps exiting during startup.
const PORT_ATTEMPTS: u32 = 5;

/// A server process on `127.0.0.1:<port>`, killed when dropped.
pub(crate) struct TlsServer {
    child: Child,
    port: u16,
    log: Arc<Mutex<String>>,
}

impl TlsServer {
    /// Starts the server binary with `args` besides the listen address (the `--tls-*` flags)
    /// and waits until a client with `tls` sees it SERVING.
    pub(crate) async fn start(args: &[String], tls: &ClientTlsConfig) -> TlsServer {
        let mut last_exit = None;
        for _ in 0..PORT_ATTEMPTS {
            let port = free_port();
            let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
                .arg("--listen")
                .arg(format!("127.0.0.1:{port}"))
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the server binary starts");
            let log = Arc::new(Mutex::new(String::new()));
            collect(child.stdout.take().unwrap(), log.clone());
            collect(child.stderr.take().unwrap(), log.clone());
            let mut server = TlsServer { child, port, log };
            match server.wait_until_serving(tls).await {
                Ok(()) => return server,
                Err(status) => last_exit = Some(status),
            }
        }
        panic!("the server exited during startup {PORT_ATTEMPTS} times: {last_exit:?}");
    }

    /// The server's address as an `https://` URL.
    pub(crate) fn endpoint(&self) -> String {
        format!("https://127.0.0.1:{}", self.port)
    }

    /// The server's port.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    /// A channel to the server with `tls` (an `http://` one with `None`), or the error.
    pub(crate) async fn channel(&self, tls: Option<&ClientTlsConfig>) -> Result<Channel, String> {
        let endpoint = match tls {
            Some(tls) => Endpoint::from_shared(self.endpoint())
                .unwrap()
                .tls_config(tls.clone())
                .map_err(|error| error.to_string())?,
            None => Endpoint::from_shared(format!("http://127.0.0.1:{}", self.port)).unwrap(),
        };
        endpoint
            .connect_timeout(Duration::from_secs(10))
            .connect()
            .await
            .map_err(|error| format!("{error:?}"))
    }

    /// The server's health as a client with `tls` sees it, or why the check failed.
    pub(crate) async fn health(
        &self,
        tls: Option<&ClientTlsConfig>,
    ) -> Result<ServingStatus, String> {
        let channel = self.channel(tls).await?;
        let response = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await
            .map_err(|status| format!("{status:?}"))?;
        ServingStatus::try_from(response.into_inner().status).map_err(|error| error.to_string())
    }

    /// Sends SIGHUP, which asks the server to re-read its TLS files.
    pub(crate) fn hang_up(&self) {
        let status = Command::new("kill")
            .arg("-HUP")
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -HUP: {status}");
    }

    /// Waits until the server has logged `needle` `times` times in all.
    pub(crate) async fn wait_for_log(&self, needle: &str, times: usize) {
        for _ in 0..ATTEMPTS {
            if self.log.lock().unwrap().matches(needle).count() >= times {
                return;
            }
            tokio::time::sleep(PAUSE).await;
        }
        panic!(
            "the server did not log {needle:?} {times} times: {}",
            self.log.lock().unwrap()
        );
    }

    /// Whether the process is still running.
    pub(crate) fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("query the server").is_none()
    }

    async fn wait_until_serving(&mut self, tls: &ClientTlsConfig) -> Result<(), ExitStatus> {
        for _ in 0..ATTEMPTS {
            if let Some(status) = self.child.try_wait().expect("query the server process") {
                return Err(status);
            }
            if self.health(Some(tls)).await == Ok(ServingStatus::Serving) {
                return match self.child.try_wait().expect("query the server process") {
                    Some(status) => Err(status),
                    None => Ok(()),
                };
            }
            tokio::time::sleep(PAUSE).await;
        }
        panic!(
            "the server did not report SERVING over TLS: {}",
            self.log.lock().unwrap()
        );
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Appends every line of `output` to `log` (and to the test's stderr when
/// `DECKMATE_TEST_SERVER_LOG` is set), on a thread of its own.
fn collect(output: impl std::io::Read + Send + 'static, log: Arc<Mutex<String>>) {
    let echo = std::env::var_os("DECKMATE_TEST_SERVER_LOG").is_some();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if echo {
                eprintln!("{line}");
            }
            let mut log = log.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
}
