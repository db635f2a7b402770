//! Shared helpers of the API tests: a real `deckmate-server` process on a free loopback port,
//! a deterministic random source, and a random player that drives a game through the SDK.

// Each test crate includes this module and uses a different part of it.
#![allow(dead_code)]

pub(crate) mod reflection;

use std::net::TcpListener;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

use deckmate::{ActOptions, Client, Game, pb};
use tonic::transport::{Channel, Endpoint};
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
    /// Starts the server binary and waits until its health check answers SERVING.
    ///
    /// The free port is found by binding port 0 and letting it go, so another process may take
    /// it in between; a server that exits during startup is therefore retried on a new port.
    /// Its output is discarded unless `DECKMATE_TEST_SERVER_LOG` is set, in which case it goes
    /// to the test's stderr.
    pub(crate) async fn start() -> TestServer {
        let mut last_exit = None;
        for _ in 0..STARTUP_PORT_ATTEMPTS {
            let port = free_port();
            let child = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
                .arg("--listen")
                .arg(format!("127.0.0.1:{port}"))
                .arg("--allow-client-seed")
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
        panic!(
            "the server exited during startup {STARTUP_PORT_ATTEMPTS} times, last with {last_exit:?}"
        );
    }

    /// Like [`TestServer::start`], with more command-line arguments (such as `--store`).
    pub(crate) async fn start_with(args: &[String]) -> TestServer {
        let mut last_exit = None;
        for _ in 0..STARTUP_PORT_ATTEMPTS {
            let port = free_port();
            let child = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
                .arg("--listen")
                .arg(format!("127.0.0.1:{port}"))
                .arg("--allow-client-seed")
                .args(args)
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

    /// The server's URL, such as `http://127.0.0.1:40123`.
    pub(crate) fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A new connection to the server.
    pub(crate) async fn channel(&self) -> Channel {
        Endpoint::from_shared(self.endpoint())
            .expect("a valid endpoint")
            .connect()
            .await
            .expect("connect to the test server")
    }

    /// An SDK client connected to the server.
    pub(crate) async fn client(&self) -> Client {
        Client::from_channel(self.channel().await)
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

impl Drop for TestServer {
    fn drop(&mut self) {
        // Killing an already exited process fails harmlessly; waiting reaps it either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the server's output goes: nowhere, or the test's stderr when
/// `DECKMATE_TEST_SERVER_LOG` is set.
fn server_output() -> Stdio {
    if std::env::var_os("DECKMATE_TEST_SERVER_LOG").is_some() {
        Stdio::inherit()
    } else {
        Stdio::null()
    }
}

/// A loopback port that was free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("bind a free loopback port")
        .port()
}

/// Pigeon Chess with every default.
pub(crate) fn pigeon_chess() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(
            pb::PigeonChessConfig::default(),
        )),
    }
}

/// A small deterministic random source (SplitMix64), so that a failing test replays the same
/// game.
#[derive(Clone, Debug)]
pub(crate) struct Picker {
    state: u64,
}

impl Picker {
    /// A source seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Picker {
        Picker { state: seed }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index below `len` (which must not be 0).
    pub(crate) fn index(&mut self, len: usize) -> usize {
        assert!(len > 0, "nothing to pick from");
        (self.next_u64() % len as u64) as usize
    }
}

/// One accepted action.
#[derive(Clone, Debug)]
pub(crate) struct Played {
    /// The acting seat.
    pub(crate) seat: u32,
    /// The action sent.
    pub(crate) action: pb::Action,
    /// The server's answer.
    pub(crate) response: pb::ActResponse,
}

/// The current view of every seat, in seat order.
pub(crate) async fn observe_all(game: &Game) -> Vec<pb::ObserveResponse> {
    let mut views = Vec::with_capacity(game.seats.len());
    for seat in &game.seats {
        views.push(seat.observe().await.expect("a seat can always observe"));
    }
    views
}

/// Plays one random legal game action for a random seat that may act, sent with the version it
/// observed. Returns `None` once the game has finished.
pub(crate) async fn play_random_step(game: &Game, picker: &mut Picker) -> Option<Played> {
    let views = observe_all(game).await;
    let version = views[0].version;
    assert!(
        views.iter().all(|view| view.version == version),
        "seats observed different versions of an idle game"
    );
    if views[0].status() == pb::GameStatus::Finished {
        for view in &views {
            assert!(
                view.legal_actions.is_empty(),
                "a finished game lists actions"
            );
        }
        return None;
    }
    let able: Vec<usize> = (0..views.len())
        .filter(|&seat| !views[seat].legal_actions.is_empty())
        .collect();
    assert!(
        !able.is_empty(),
        "a running game at version {version} has nobody to act"
    );
    let seat = able[picker.index(able.len())];
    let legal = &views[seat].legal_actions;
    let action = legal[picker.index(legal.len())].clone();
    let response = game.seats[seat]
        .act_with(action.clone(), ActOptions::expecting(version))
        .await
        .unwrap_or_else(|error| {
            panic!("seat {seat} playing a listed action at v{version}: {error}")
        });
    assert_eq!(
        response.version,
        version + 1,
        "an action adds exactly one version"
    );
    Some(Played {
        seat: seat as u32,
        action,
        response,
    })
}

/// Plays random actions until `stop` holds for the seats' views or the game ends; returns the
/// actions played.
pub(crate) async fn play_random_until(
    game: &Game,
    picker: &mut Picker,
    mut stop: impl FnMut(&[pb::ObserveResponse]) -> bool,
) -> Vec<Played> {
    let mut played = Vec::new();
    loop {
        let views = observe_all(game).await;
        if stop(&views) {
            return played;
        }
        match play_random_step(game, picker).await {
            Some(step) => played.push(step),
            None => return played,
        }
    }
}

/// The Pigeon Chess part of an observation.
pub(crate) fn pigeon_view(view: &pb::ObserveResponse) -> &pb::PigeonChessObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::PigeonChess(observation)) => observation,
        other => panic!("not a Pigeon Chess observation: {other:?}"),
    }
}

/// The Pigeon Chess phase of a view.
pub(crate) fn phase(view: &pb::ObserveResponse) -> pb::PigeonChessPhase {
    pigeon_view(view).phase()
}

/// A Pigeon Chess game action.
pub(crate) fn pigeon_action(kind: pb::pigeon_chess_action::Kind) -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::PigeonChess(pb::PigeonChessAction {
            kind: Some(kind),
        })),
    }
}

/// The one field violation of `status`, after checking the error model of an invalid field:
/// INVALID_ARGUMENT, reason `INVALID_REQUEST`, a `google.rpc.BadRequest` with exactly one
/// violation, which has a description.
pub(crate) fn field_violation(status: &tonic::Status) -> tonic_types::FieldViolation {
    use tonic_types::StatusExt;
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "INVALID_REQUEST", "{status:?}");
    let bad_request = status.get_details_bad_request().expect("a BadRequest");
    match bad_request.field_violations.as_slice() {
        [violation] => {
            assert!(!violation.description.is_empty(), "{status:?}");
            violation.clone()
        }
        other => panic!("one field violation expected, got {other:?}"),
    }
}

/// Asserts that `status` refuses exactly the field at `field` (see [`field_violation`]).
pub(crate) fn assert_field_violation(status: &tonic::Status, field: &str) {
    assert_eq!(field_violation(status).field, field, "{status:?}");
}
