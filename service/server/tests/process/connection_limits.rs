//! Connection limits and timeouts (docs/OPERATIONS.md, "Connections"): a real server with a
//! small `--max-connections`, or a small open-file limit, holding idle TCP connections. It must
//! not spin while it cannot accept, must close connections past its limit at once, must close
//! silent and idle ones after `--handshake-timeout` / `--idle-timeout`, and must then serve new
//! clients.

use std::io::Read;
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use deckmate::CreateOptions;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::server::{free_port, server_output};

/// How long the server's CPU time is measured while it holds its connections.
const MEASURED: Duration = Duration::from_secs(3);
/// The share of one core the server may use while it holds only idle connections.
const MOST_CPU_SHARE: f64 = 0.05;
/// The longest any wait below lasts before the test gives up.
const PATIENCE: Duration = Duration::from_secs(60);
/// The pause between two polls.
const POLL: Duration = Duration::from_millis(100);

/// A server started through `sh`, so that `ulimit -n` can lower its open-file limit (soft and
/// hard) before `exec`; the shell becomes the server, with the same process id. Killed when
/// dropped.
struct LimitedServer {
    child: Child,
    port: u16,
}

impl LimitedServer {
    /// Starts the server with an open-file limit of `open_files` and `args`, and waits until
    /// its health check answers SERVING.
    async fn start(open_files: u32, args: &[&str]) -> LimitedServer {
        let port = free_port();
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -n {open_files} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_deckmate-server"))
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(server_output())
            .stderr(server_output())
            .spawn()
            .expect("sh starts the server");
        let mut server = LimitedServer { child, port };
        let serving = server.wait_for(|| server_answers(port)).await;
        assert!(serving, "the server did not come up on port {port}");
        server
    }

    fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The server's user and system CPU time so far, from `/proc/PID/stat`.
    fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("read the server's /proc stat");
        // The command name may hold spaces: the fields counted start after its `)`.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .expect("a stat line")
            .1
            .split_whitespace()
            .collect();
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        Duration::from_secs_f64(ticks as f64 / clock_ticks_per_second())
    }

    /// The server's CPU time over [`MEASURED`], as a share of one core.
    async fn cpu_share(&self) -> f64 {
        let before = self.cpu_time();
        tokio::time::sleep(MEASURED).await;
        (self.cpu_time() - before).as_secs_f64() / MEASURED.as_secs_f64()
    }

    /// Polls `done` until it holds (true) or [`PATIENCE`] runs out (false); panics if the
    /// server exits meanwhile.
    async fn wait_for(&mut self, mut done: impl AsyncFnMut() -> bool) -> bool {
        let polls = PATIENCE.as_millis() / POLL.as_millis();
        for _ in 0..polls {
            if let Some(status) = self.child.try_wait().expect("query the server") {
                panic!("the server exited: {status}");
            }
            if done().await {
                return true;
            }
            tokio::time::sleep(POLL).await;
        }
        false
    }
}

impl Drop for LimitedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn clock_ticks_per_second() -> f64 {
    let output = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .expect("getconf runs");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("CLK_TCK is a number")
}

/// Whether a new client gets SERVING from the health check, within a few seconds.
async fn server_answers(port: u16) -> bool {
    let attempt = async {
        let channel = Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
            .ok()?
            .connect()
            .await
            .ok()?;
        health_of(channel).await
    };
    tokio::time::timeout(Duration::from_secs(5), attempt)
        .await
        .ok()
        .flatten()
        == Some(ServingStatus::Serving)
}

async fn health_of(channel: Channel) -> Option<ServingStatus> {
    let response = HealthClient::new(channel)
        .check(HealthCheckRequest::default())
        .await
        .ok()?;
    ServingStatus::try_from(response.into_inner().status).ok()
}

/// Opens `count` TCP connections that send nothing.
fn idle_connections(address: &str, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| {
            let stream = TcpStream::connect(address).expect("connect");
            stream.set_nonblocking(true).unwrap();
            stream
        })
        .collect()
}

/// Whether the server has closed `stream` (end of file or a reset); never blocks.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(error) => error.kind() != std::io::ErrorKind::WouldBlock,
    }
}

/// How many of `streams` the server has closed.
fn closed_count(streams: &mut [TcpStream]) -> usize {
    streams
        .iter_mut()
        .map(closed_by_server)
        .filter(|closed| *closed)
        .count()
}

#[tokio::test]
async fn accepts_pause_when_the_server_runs_out_of_files() {
    // 128 descriptors but a connection limit far above: accept fails with EMFILE.
    let mut server = LimitedServer::start(
        128,
        &[
            "--max-connections",
            "1000",
            "--handshake-timeout",
            "1h",
            "--idle-timeout",
            "1h",
        ],
    )
    .await;
    let mut held = idle_connections(&server.address(), 200);
    let share = server.cpu_share().await;
    assert!(
        share < MOST_CPU_SHARE,
        "the server used {:.0}% of a core while out of files",
        share * 100.0
    );
    assert_eq!(closed_count(&mut held), 0, "idle connections were cut");
    drop(held);
    let port = server.port;
    assert!(
        server.wait_for(|| server_answers(port)).await,
        "no new client was served once the connections closed"
    );
}

#[tokio::test]
async fn connections_past_the_limit_are_closed_at_once_without_spinning() {
    let metrics_port = free_port();
    let metrics_listen = format!("127.0.0.1:{metrics_port}");
    let mut server = LimitedServer::start(
        1024,
        &[
            "--max-connections",
            "20",
            "--handshake-timeout",
            "1h",
            "--idle-timeout",
            "1h",
            "--metrics-listen",
            &metrics_listen,
        ],
    )
    .await;
    let address = server.address();
    // The start-up health check's connection must be gone before counting places.
    assert!(
        server
            .wait_for(async || open_connections(metrics_port).await == 0.0)
            .await
    );
    let mut held = idle_connections(&address, 20);
    let mut extra = idle_connections(&address, 10);
    assert!(
        server
            .wait_for(async || closed_count(&mut extra) == extra.len())
            .await,
        "connections past the limit were not closed"
    );
    let share = server.cpu_share().await;
    assert!(
        share < MOST_CPU_SHARE,
        "the server used {:.0}% of a core at its connection limit",
        share * 100.0
    );
    assert_eq!(closed_count(&mut held), 0, "admitted connections were cut");
    assert!(!server_answers(server.port).await, "served past the limit");
    // One place comes free: a new client is served.
    held.pop();
    let port = server.port;
    assert!(server.wait_for(|| server_answers(port)).await);
}

#[tokio::test]
async fn silent_and_idle_connections_are_closed_and_new_clients_served() {
    let metrics_port = free_port();
    let metrics_listen = format!("127.0.0.1:{metrics_port}");
    let mut server = LimitedServer::start(
        1024,
        &[
            "--max-connections",
            "20",
            "--handshake-timeout",
            "1s",
            "--idle-timeout",
            "2s",
            "--metrics-listen",
            &metrics_listen,
        ],
    )
    .await;
    let address = server.address();
    // The start-up health check's connection must be gone, or it would take one of the
    // silent connections' places and that one would be closed for the limit instead.
    assert!(
        server
            .wait_for(async || open_connections(metrics_port).await == 0.0)
            .await
    );
    // A client that made a call and then idles.
    let channel = Endpoint::from_shared(format!("http://{address}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    assert_eq!(
        health_of(channel.clone()).await,
        Some(ServingStatus::Serving)
    );
    // Silent connections up to the limit (the client's counts too): nobody else gets in...
    let mut silent = idle_connections(&address, 19);
    // ...until the handshake timeout closes them all.
    assert!(
        server
            .wait_for(async || closed_count(&mut silent) == silent.len())
            .await,
        "silent connections were not closed"
    );
    // The client's connection is closed once idle (GOAWAY), and the client reconnects.
    assert!(
        server
            .wait_for(async || timed_out(metrics_port, "idle").await >= 1.0)
            .await,
        "no connection closed for idleness"
    );
    assert!(
        server
            .wait_for(async || health_of(channel.clone()).await == Some(ServingStatus::Serving))
            .await,
        "the idle client did not get served again"
    );
    assert!(
        server
            .wait_for(async || timed_out(metrics_port, "handshake").await >= 19.0)
            .await,
        "the silent connections were not counted as handshake timeouts ({} refused)",
        sample(
            metrics_port,
            "deckmate_connections_refused_total".to_string()
        )
        .await
    );
    let games = crate::common::client(&format!("http://{address}")).await;
    games
        .create_game(crate::common::pigeon_chess(), 2, CreateOptions::default())
        .await
        .expect("a new client is served");
}

/// `deckmate_connections_timed_out_total{timeout}` as the server reports it now (0 before the
/// first).
async fn timed_out(metrics_port: u16, timeout: &str) -> f64 {
    let series = format!("deckmate_connections_timed_out_total{{timeout=\"{timeout}\"}}");
    sample(metrics_port, series).await
}

/// `deckmate_open_connections` as the server reports it now.
async fn open_connections(metrics_port: u16) -> f64 {
    sample(metrics_port, "deckmate_open_connections".to_string()).await
}

/// The value of `series` (name and labels) on the server's metrics page, 0 when absent.
async fn sample(metrics_port: u16, series: String) -> f64 {
    let page = tokio::task::spawn_blocking(move || crate::metrics::scrape(metrics_port))
        .await
        .unwrap();
    let prefix = format!("{series} ");
    page.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}
