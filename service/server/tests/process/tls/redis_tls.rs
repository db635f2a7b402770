//! The Redis store over `rediss://`: a TLS-only `redis-server` started here with a private CA,
//! reached with `--redis-ca-cert`, and not trusted without it.

use std::net::TcpStream as StdTcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use deckmate::CreateOptions;
use deckmate_server::store::SessionStore;
use deckmate_server::store::redis::{RedisSettings, RedisStore};

use super::pki::Ca;
use crate::common::{Picker, pigeon_chess, play_random_step};
use crate::scratch::Scratch;
use crate::server::{TestServer, free_port};

/// Checks before giving up on a Redis that does not come up.
const ATTEMPTS: u32 = 200;
/// The pause between two checks.
const PAUSE: Duration = Duration::from_millis(50);

/// A TLS-only `redis-server` on a loopback port, killed when dropped.
struct TlsRedis {
    child: Child,
    port: u16,
}

impl TlsRedis {
    /// Starts `redis-server` with `ca`'s server certificate; `Err` says why it cannot (no
    /// binary, or one built without TLS).
    fn start(scratch: &Scratch, ca: &Ca) -> Result<TlsRedis, String> {
        let leaf = ca.server();
        let cert = scratch.write("redis.pem", &leaf.cert_pem);
        let key = scratch.write("redis.key", &leaf.key_pem);
        let ca_file = scratch.write("redis-ca.pem", &ca.pem());
        let port = free_port();
        let mut child = Command::new("redis-server")
            .args([
                "--port",
                "0",
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .arg("--tls-port")
            .arg(port.to_string())
            .arg("--tls-cert-file")
            .arg(&cert)
            .arg("--tls-key-file")
            .arg(&key)
            .arg("--tls-ca-cert-file")
            .arg(&ca_file)
            .args(["--tls-auth-clients", "no"])
            .arg("--dir")
            .arg(scratch.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot run redis-server: {error}"))?;
        for _ in 0..ATTEMPTS {
            if child.try_wait().map_err(|e| e.to_string())?.is_some() {
                let output = child.wait_with_output().map_err(|e| e.to_string())?;
                return Err(format!(
                    "redis-server exited: {}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            if StdTcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(TlsRedis { child, port });
            }
            std::thread::sleep(PAUSE);
        }
        let _ = child.kill();
        panic!("redis-server did not listen on its TLS port");
    }
}

impl Drop for TlsRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `reason` says this redis-server cannot do TLS at all (rather than failing for
/// another reason, which must fail the test).
fn lacks_tls(reason: &str) -> bool {
    reason.contains("cannot run redis-server")
        || reason.contains("not built with TLS")
        || reason.contains("TLS is not supported")
        || (reason.contains("Bad directive") && reason.contains("tls"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_plays_over_rediss_with_a_private_ca() {
    let scratch = Scratch::new("rediss");
    let ca = Ca::new("Redis CA");
    let redis = match TlsRedis::start(&scratch, &ca) {
        Ok(redis) => redis,
        Err(reason) if lacks_tls(&reason) => {
            println!("skipped: this redis-server cannot serve TLS ({reason})");
            return;
        }
        Err(reason) => panic!("{reason}"),
    };
    let url = format!("rediss://127.0.0.1:{}", redis.port);
    let ca_file = scratch.write("trusted.pem", &ca.pem());

    let server = TestServer::start_with(&[
        "--store".into(),
        url.clone(),
        "--redis-ca-cert".into(),
        ca_file.display().to_string(),
    ])
    .await;
    let client = server.client().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .expect("a game created in Redis over TLS");
    let played = play_random_step(&game, &mut Picker::new(6)).await;
    assert!(played.is_some(), "a new game has a move to play");
    let reloaded = game.seats[1].observe().await.unwrap();
    assert_eq!(reloaded.version, 1, "the move was stored");

    // Without the private CA the public roots do not trust Redis's certificate: the store
    // does not answer (a server with it reports NOT_SERVING and STORE_UNAVAILABLE).
    deckmate_server::tls::install_default_provider();
    let settings = |ca_cert_pem| RedisSettings {
        timeout: Duration::from_secs(2),
        ca_cert_pem,
        ..RedisSettings::new(url.clone())
    };
    let untrusting = RedisStore::open(settings(None)).unwrap();
    assert!(
        !untrusting.health().await,
        "an untrusted certificate was accepted"
    );
    let trusting = RedisStore::open(settings(Some(ca.pem().into_bytes()))).unwrap();
    assert!(trusting.health().await, "the private CA is trusted");
}
