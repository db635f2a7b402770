//! `--api-keys-file` and `deckmate-server hash-key` on a real process: keys made by `hash-key`
//! admit CreateGame, SIGHUP re-reads the file (adding and removing keys), a malformed file
//! stops start-up naming the line (docs/OPERATIONS.md, "API keys"), and CreateGame request ids
//! are remembered per key.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::common::{connect, pigeon_chess};
use crate::server::TestServer;
use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_client::GameServiceClient;
use tonic::{Code, Request};
use tonic_types::StatusExt;

/// How often a reload is checked for before giving up.
const RELOAD_ATTEMPTS: u32 = 200;
/// The pause between two checks.
const RELOAD_PAUSE: Duration = Duration::from_millis(50);

/// Runs `deckmate-server hash-key --name <name>`; returns the key and the file line.
fn hash_key(name: &str) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
        .args(["hash-key", "--name", name])
        .output()
        .expect("the server binary runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[1].starts_with(&format!("{name}:")), "{text}");
    (lines[0].to_string(), lines[1].to_string())
}

/// A keys file in the temporary directory, removed when dropped.
struct KeysFile(PathBuf);

impl KeysFile {
    fn new(text: &str) -> KeysFile {
        let path = std::env::temp_dir().join(format!(
            "deckmate-process-keys-{}-{}",
            std::process::id(),
            crate::server::free_port()
        ));
        std::fs::write(&path, text).unwrap();
        KeysFile(path)
    }

    fn write(&self, text: &str) {
        std::fs::write(&self.0, text).unwrap();
    }
}

impl Drop for KeysFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// CreateGame with `key` as `x-api-key`: `Ok` or the status code and reason.
async fn create_with(server: &TestServer, key: &str) -> Result<(), (Code, String)> {
    let mut games = GameServiceClient::new(connect(&server.endpoint()).await);
    let mut request = Request::new(pb::CreateGameRequest {
        config: Some(pigeon_chess()),
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("x-api-key", key.parse().unwrap());
    games
        .create_game(request)
        .await
        .map(drop)
        .map_err(|status| {
            let reason = status
                .get_details_error_info()
                .map(|info| info.reason)
                .unwrap_or_default();
            (status.code(), reason)
        })
}

fn hang_up(server: &TestServer) {
    let status = Command::new("kill")
        .args(["-HUP", &server.pid().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hash_key_keys_are_admitted_and_sighup_reloads_the_file() {
    let (alpha, alpha_line) = hash_key("alpha");
    let (beta, beta_line) = hash_key("beta");
    let file = KeysFile::new(&format!("# keys\n{alpha_line}\n"));
    let server =
        TestServer::start_with(&["--api-keys-file".to_string(), file.0.display().to_string()])
            .await;
    create_with(&server, &alpha)
        .await
        .expect("alpha is admitted");
    let refused = create_with(&server, &beta).await.unwrap_err();
    assert_eq!(refused, (Code::Unauthenticated, "BAD_API_KEY".to_string()));

    // Swap alpha for beta and tell the server.
    file.write(&format!("{beta_line}\n"));
    hang_up(&server);
    let mut reloaded = false;
    for _ in 0..RELOAD_ATTEMPTS {
        if create_with(&server, &beta).await.is_ok() {
            reloaded = true;
            break;
        }
        tokio::time::sleep(RELOAD_PAUSE).await;
    }
    assert!(reloaded, "beta was never admitted after SIGHUP");
    let removed = create_with(&server, &alpha).await.unwrap_err();
    assert_eq!(removed, (Code::Unauthenticated, "BAD_API_KEY".to_string()));
}

/// CreateGame with `key` as `x-api-key` and `request_id`, seeded with `seed`.
async fn create_as(
    server: &TestServer,
    key: &str,
    request_id: &str,
    seed: u64,
) -> Result<pb::CreateGameResponse, tonic::Status> {
    let mut games = GameServiceClient::new(connect(&server.endpoint()).await);
    let mut request = Request::new(pb::CreateGameRequest {
        config: Some(pigeon_chess()),
        seed: Some(seed),
        request_id: request_id.to_string(),
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("x-api-key", key.parse().unwrap());
    games
        .create_game(request)
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_request_ids_are_remembered_per_api_key() {
    let (alpha, alpha_line) = hash_key("alpha");
    let (beta, beta_line) = hash_key("beta");
    let file = KeysFile::new(&format!("{alpha_line}\n{beta_line}\n"));
    let server =
        TestServer::start_with(&["--api-keys-file".to_string(), file.0.display().to_string()])
            .await;
    let request_id = "shared-request-id";
    let first = create_as(&server, &alpha, request_id, 1).await.unwrap();
    // Another key sending the same id, even with the same request, gets a game of its own:
    // never the first caller's game or tokens.
    let other = create_as(&server, &beta, request_id, 1).await.unwrap();
    assert_ne!(other.game_id, first.game_id);
    for token in &other.seat_tokens {
        assert!(
            first.seat_tokens.iter().all(|t| t.token != token.token),
            "a token of the first game was handed to another caller"
        );
    }
    // The first key's retry gets its own first answer; a different request under its id is
    // refused.
    let retry = create_as(&server, &alpha, request_id, 1).await.unwrap();
    assert_eq!(retry, first);
    let reused = create_as(&server, &alpha, request_id, 2).await.unwrap_err();
    assert_eq!(reused.code(), Code::InvalidArgument);
    assert_eq!(
        reused.get_details_error_info().map(|info| info.reason),
        Some("REQUEST_ID_REUSED".to_string())
    );
    assert!(!reused.message().contains(&first.game_id));
}

#[test]
fn a_malformed_keys_file_stops_start_up_naming_the_line() {
    let secret = "ab".repeat(31);
    let file = KeysFile::new(&format!("# keys\n\nweb:{secret}\n"));
    let output = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
        .args(["--listen", "127.0.0.1:0", "--api-keys-file"])
        .arg(&file.0)
        .output()
        .expect("the server binary runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 3"), "{stderr}");
    assert!(!stderr.contains(&secret), "{stderr}");
}
