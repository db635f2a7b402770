//! What container deployments lean on: the `health` subcommand's exit codes, connections closed
//! (HTTP/2 GOAWAY) once older than `--max-connection-age` while clients carry on over new
//! connections, `--drain-timeout`, and start-up logs that can be believed: a bad TLS or API keys
//! file stops the server before it says it listens, and the metrics address logged is the one
//! bound.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::server::{TestServer, free_port};

/// How often a bounded wait looks again.
const POLL: Duration = Duration::from_millis(100);
/// The most looks of a bounded wait (30 s in all).
const POLLS: usize = 300;

/// Runs `deckmate-server health` with `args` (and `env`), returning its output.
fn health(args: &[&str], env: &[(&str, String)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
        .arg("health")
        .args(args)
        .env_remove("DECKMATE_LISTEN")
        .envs(env.iter().map(|(name, value)| (name, value)))
        .stdin(Stdio::null())
        .output()
        .expect("run deckmate-server health")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[tokio::test]
async fn health_exits_zero_only_for_a_serving_server() {
    let server = TestServer::start_with(&[]).await;
    let addr = server.endpoint().trim_start_matches("http://").to_string();

    let serving = health(&["--addr", &addr], &[]);
    assert!(serving.status.success(), "{serving:?}");
    assert_eq!(stdout(&serving).trim(), format!("{addr}: SERVING"));

    let service = health(
        &["--addr", &addr, "--service", "deckmate.v1.GameService"],
        &[],
    );
    assert!(service.status.success(), "{service:?}");

    // Without --addr, the address comes from DECKMATE_LISTEN, a wildcard host meaning loopback.
    let port = addr.rsplit(':').next().unwrap();
    let from_env = health(&[], &[("DECKMATE_LISTEN", format!("0.0.0.0:{port}"))]);
    assert!(from_env.status.success(), "{from_env:?}");

    let unknown = health(&["--addr", &addr, "--service", "no.such.Service"], &[]);
    assert_eq!(unknown.status.code(), Some(1), "{unknown:?}");
    assert!(stdout(&unknown).contains("unknown service"), "{unknown:?}");

    let closed = format!("127.0.0.1:{}", free_port());
    let refused = health(&["--addr", &closed, "--timeout", "5s"], &[]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(stdout(&refused).contains("no answer"), "{refused:?}");
}

#[tokio::test]
async fn health_exits_one_while_the_server_is_not_serving() {
    // A Redis store on a port where nothing listens: the server starts, then its store health
    // poll turns every service NOT_SERVING.
    let closed = free_port();
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--store", &format!("redis://127.0.0.1:{closed}")])
        .args(["--store-timeout", "200ms"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server binary starts");
    let addr = format!("127.0.0.1:{port}");
    let mut last = None;
    for _ in 0..POLLS {
        let output = health(
            &["--addr", &addr, "--service", "deckmate.v1.GameService"],
            &[],
        );
        if stdout(&output).contains("NOT_SERVING") {
            last = Some(output);
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the server exited early"
        );
        tokio::time::sleep(POLL).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    let output = last.expect("health turned NOT_SERVING");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
}

/// HTTP/2 frame types read off the wire.
const SETTINGS: u8 = 0x4;
const GOAWAY: u8 = 0x7;

/// Opens a bare HTTP/2 connection (preface and empty SETTINGS, acknowledging the server's)
/// and reads frames until the server sends GOAWAY; returns false if the connection ends or
/// nothing arrives in 30 s first.
async fn goaway_arrives(addr: &str) -> bool {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    stream
        .write_all(&[0, 0, 0, SETTINGS, 0, 0, 0, 0, 0])
        .await
        .unwrap();
    let read_frame = async |stream: &mut TcpStream| -> Option<(u8, u8)> {
        let mut header = [0u8; 9];
        stream.read_exact(&mut header).await.ok()?;
        let length = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
        let mut payload = vec![0u8; length];
        stream.read_exact(&mut payload).await.ok()?;
        Some((header[3], header[4]))
    };
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), read_frame(&mut stream)).await;
        match frame {
            Ok(Some((GOAWAY, _))) => return true,
            Ok(Some((SETTINGS, flags))) if flags & 0x1 == 0 => {
                stream
                    .write_all(&[0, 0, 0, SETTINGS, 0x1, 0, 0, 0, 0])
                    .await
                    .unwrap();
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => return false,
        }
    }
}

#[tokio::test]
async fn old_connections_get_goaway_and_clients_carry_on() {
    let server = TestServer::start_with(&["--max-connection-age".into(), "1s".into()]).await;
    let addr = server.endpoint().trim_start_matches("http://").to_string();
    assert!(
        goaway_arrives(&addr).await,
        "no GOAWAY on an aged connection"
    );

    // A client keeps working across the age: its channel reconnects after the GOAWAY.
    let channel = Endpoint::from_shared(server.endpoint())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = HealthClient::new(channel);
    for call in 0..2 {
        if call > 0 {
            // Past the age: the first connection has been sent GOAWAY and closed.
            tokio::time::sleep(Duration::from_millis(2500)).await;
        }
        let answer = health
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await;
        assert!(answer.is_ok(), "call {call}: {answer:?}");
    }
    let client = server.client().await;
    assert!(!client.list_variants().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_short_drain_timeout_ends_a_server_whose_calls_stay_open() {
    // An HTTP/2 connection with a request whose body never ends keeps a call open through
    // shutdown; with --drain-timeout 1s the server must still exit, and exit cleanly.
    let server = TestServer::start_with(&["--drain-timeout".into(), "1s".into()]).await;
    let channel = Endpoint::from_shared(server.endpoint())
        .unwrap()
        .connect()
        .await
        .unwrap();
    // A Check whose request stream never ends: the handler waits for the message forever.
    let (_sender, body) = tokio::sync::mpsc::channel::<HealthCheckRequest>(1);
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    let path = http::uri::PathAndQuery::from_static("/grpc.health.v1.Health/Check");
    let open = tokio::spawn(async move {
        let codec = tonic_prost::ProstCodec::<
            HealthCheckRequest,
            tonic_health::pb::HealthCheckResponse,
        >::default();
        grpc.client_streaming(
            tonic::Request::new(tokio_stream::wrappers::ReceiverStream::new(body)),
            path,
            codec,
        )
        .await
    });
    // Give the call time to reach the server before the signal.
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Far beyond the 1 s drain timeout, yet short of the 30 s default it replaces.
    let status = tokio::time::timeout(Duration::from_secs(20), server.terminate())
        .await
        .expect("the server exits after its drain timeout");
    assert!(status.success(), "{status:?}");
    open.abort();
}

/// SIGHUP, which log rotation and service managers send routinely, leaves a server with nothing
/// to reload (no API keys file, no TLS) serving, with its games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_with_nothing_to_reload_leaves_the_server_serving() {
    let server = TestServer::start_with(&[]).await;
    let client = server.client().await;
    let game = client
        .create_game(
            crate::common::pigeon_chess(),
            2,
            deckmate::CreateOptions::default(),
        )
        .await
        .unwrap();
    for _ in 0..2 {
        let status = Command::new("kill")
            .args(["-HUP", &server.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        tokio::time::sleep(POLL).await;
    }
    assert_eq!(
        server.health_status("").await,
        Some(tonic_health::pb::health_check_response::ServingStatus::Serving),
        "the server survives SIGHUP"
    );
    let view = game.seats[0]
        .observe()
        .await
        .expect("the game is still there");
    assert_eq!(view.version, 0);
}

/// A file in the temporary directory, removed when dropped.
struct ScratchFile(PathBuf);

impl ScratchFile {
    fn new(name: &str, text: &str) -> ScratchFile {
        let path = std::env::temp_dir().join(format!(
            "deckmate-deployment-{}-{}-{name}",
            std::process::id(),
            free_port()
        ));
        std::fs::write(&path, text).unwrap();
        ScratchFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A server process killed when dropped, so that a failed assertion leaves none behind.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server binary on a port the system picks, logging at `info` whatever the environment
/// says, with `args`.
fn server_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_deckmate-server"));
    command
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "info")
        .env_remove("DECKMATE_LOG_FORMAT")
        .stdin(Stdio::null());
    command
}

/// Runs a server that must fail to start with `args`; returns its output (logs and error) once
/// it has exited, or panics if it is still running after 30 s.
fn failed_start(args: &[&str]) -> (bool, String) {
    let child = server_command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut running = Running(child);
    let deadline = Instant::now() + POLL * POLLS as u32;
    while running.0.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the server kept running: {args:?}"
        );
        std::thread::sleep(POLL);
    }
    let mut stdout = String::new();
    let mut stderr = String::new();
    running
        .0
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    running
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let success = running.0.wait().unwrap().success();
    (success, format!("{stdout}{stderr}"))
}

#[test]
fn a_bad_tls_or_api_keys_file_stops_start_up_before_listening_is_logged() {
    let garbage_keys = ScratchFile::new("keys", "this is no key line\n");
    let missing_keys = format!("{}-gone", garbage_keys.path());
    let garbage_cert = ScratchFile::new("cert.pem", "not a certificate\n");
    let garbage_key = ScratchFile::new("key.pem", "not a key\n");
    let cases: [(&str, Vec<&str>, &str); 3] = [
        (
            "a malformed keys file",
            vec!["--api-keys-file", garbage_keys.path()],
            "API keys file",
        ),
        (
            "a missing keys file",
            vec!["--api-keys-file", &missing_keys],
            "API keys file",
        ),
        (
            "an unusable certificate and key",
            vec![
                "--tls-cert",
                garbage_cert.path(),
                "--tls-key",
                garbage_key.path(),
            ],
            "TLS",
        ),
    ];
    for (case, args, error) in cases {
        let (success, output) = failed_start(&args);
        assert!(!success, "{case}: {output}");
        assert!(output.contains(error), "{case}: {output}");
        assert!(!output.contains("listening on"), "{case}: {output}");
    }
}

#[test]
fn metrics_on_port_zero_log_the_port_bound() {
    let child = server_command(&["--metrics-listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server binary starts");
    let mut running = Running(child);
    // Lines are read on a thread of their own, so that a server that never logs the line fails
    // the test at the deadline instead of blocking it.
    let (lines, logged) = mpsc::channel();
    let stdout = running.0.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let prefix = "serving metrics on http://";
    let line = loop {
        let line = logged
            .recv_timeout(POLL * POLLS as u32)
            .expect("the server logs where it serves metrics");
        if line.contains(prefix) {
            break line;
        }
    };
    let address = line
        .split_once(prefix)
        .and_then(|(_, rest)| rest.split_once("/metrics"))
        .map(|(address, _)| address)
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let address: SocketAddr = address
        .parse()
        .unwrap_or_else(|error| panic!("{address:?} in {line:?}: {error}"));
    assert_ne!(address.port(), 0, "{line}");
    // The port logged is the one serving the page.
    let page = crate::metrics::scrape(address.port());
    assert!(page.contains("deckmate_build_info"), "{page}");
    assert!(
        running.0.try_wait().unwrap().is_none(),
        "the server runs on"
    );
}
