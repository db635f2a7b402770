//! What container deployments lean on: the `health` subcommand's exit codes, connections closed
//! (HTTP/2 GOAWAY) once older than `--max-connection-age` while clients carry on over new
//! connections, and `--drain-timeout`.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

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
