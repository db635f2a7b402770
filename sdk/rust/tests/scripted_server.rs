//! The client against a scripted in-process server: what goes on the wire (bearer tokens, API
//! keys, request ids reused on retries, watch resumption points, TLS) and how server errors come
//! back.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deckmate::pb::game_service_server::{GameService, GameServiceServer};
use deckmate::{
    ActOptions, Client, ConnectOptions, CreateOptions, Error, RetryPolicy, TlsOptions, pb,
};
use futures::{Stream, StreamExt};
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Identity, Server, ServerTlsConfig};
use tonic::{Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The version at which the scripted game ends.
const FINAL_VERSION: u64 = 5;

/// What the scripted server saw.
#[derive(Debug, Default)]
struct Log {
    create_request_ids: Vec<String>,
    act_calls: Vec<ActCall>,
    observe_authorizations: Vec<Option<String>>,
    watch_from_versions: Vec<u64>,
    /// The `x-api-key` of every call, in arrival order.
    api_keys: Vec<Option<String>>,
}

/// One `Act` call as received.
#[derive(Debug)]
struct ActCall {
    authorization: Option<String>,
    request_id: String,
    expected_version: Option<u64>,
}

/// A server that fails the first attempt of every `CreateGame`, `Act` and `Watch` with a
/// detail-less UNAVAILABLE (what a broken connection looks like) and answers the retries.
#[derive(Clone, Default)]
struct ScriptedServer {
    log: Arc<Mutex<Log>>,
}

fn authorization<T>(request: &Request<T>) -> Option<String> {
    metadata(request, "authorization")
}

fn metadata<T>(request: &Request<T>, key: &str) -> Option<String> {
    request
        .metadata()
        .get(key)
        .map(|value| value.to_str().expect("ascii metadata").to_string())
}

impl ScriptedServer {
    /// Records the call's API key and returns the log.
    fn log_call<T>(&self, request: &Request<T>) -> std::sync::MutexGuard<'_, Log> {
        let mut log = self.log.lock().expect("log");
        log.api_keys.push(metadata(request, "x-api-key"));
        log
    }
}

fn observation(version: u64) -> pb::ObserveResponse {
    pb::ObserveResponse {
        game_id: "g-1".into(),
        variant: "pigeon_chess".into(),
        version,
        status: if version == FINAL_VERSION {
            pb::GameStatus::Finished
        } else {
            pb::GameStatus::InProgress
        }
        .into(),
        legal_actions: vec![deckmate::meta_action(pb::MetaActionKind::OfferDraw)],
        ..Default::default()
    }
}

#[tonic::async_trait]
impl GameService for ScriptedServer {
    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let mut log = self.log_call(&request);
        if metadata(&request, "x-api-key").as_deref() == Some(REVOKED_API_KEY) {
            return Err(bad_api_key());
        }
        log.create_request_ids
            .push(request.get_ref().request_id.clone());
        if log.create_request_ids.len() == 1 {
            return Err(Status::unavailable("connection reset"));
        }
        Ok(Response::new(pb::CreateGameResponse {
            game_id: "g-1".into(),
            seat_tokens: vec![
                pb::SeatToken {
                    seat: 0,
                    token: "token-zero".into(),
                },
                pb::SeatToken {
                    seat: 1,
                    token: "token-one".into(),
                },
            ],
            version: 0,
            seed_commitment: vec![7; 32],
            variant: "pigeon_chess".into(),
        }))
    }

    async fn act(
        &self,
        request: Request<pb::ActRequest>,
    ) -> Result<Response<pb::ActResponse>, Status> {
        let mut log = self.log_call(&request);
        log.act_calls.push(ActCall {
            authorization: authorization(&request),
            request_id: request.get_ref().request_id.clone(),
            expected_version: request.get_ref().expected_version,
        });
        if request.get_ref().expected_version == Some(99) {
            let mut details = ErrorDetails::new();
            details.set_error_info(
                "STALE_VERSION",
                "deckmate",
                HashMap::from([("current_version".to_string(), "1".to_string())]),
            );
            return Err(Status::with_error_details(
                tonic::Code::Aborted,
                "expected version 99 but the game is at version 1",
                details,
            ));
        }
        if log.act_calls.len() == 1 {
            return Err(Status::unavailable("connection reset"));
        }
        Ok(Response::new(pb::ActResponse {
            version: 1,
            observation: Some(observation(1)),
        }))
    }

    async fn observe(
        &self,
        request: Request<pb::ObserveRequest>,
    ) -> Result<Response<pb::ObserveResponse>, Status> {
        self.log_call(&request)
            .observe_authorizations
            .push(authorization(&request));
        Ok(Response::new(observation(1)))
    }

    type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::ObserveResponse, Status>> + Send>>;

    async fn watch(
        &self,
        request: Request<pb::WatchRequest>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        let from = request.get_ref().from_version;
        let call = {
            let mut log = self.log_call(&request);
            log.watch_from_versions.push(from);
            log.watch_from_versions.len()
        };
        let items: Vec<Result<pb::ObserveResponse, Status>> = match call {
            // Two versions, then the connection breaks.
            1 => vec![
                Ok(observation(from + 1)),
                Ok(observation(from + 2)),
                Err(Status::unavailable("connection reset")),
            ],
            // One version, then the replica drains, as a server does on SIGTERM.
            2 => vec![Ok(observation(from + 1)), Err(shutting_down())],
            // A replica that replays from an older point: the versions before and at `from`,
            // which the client already has, come again first.
            _ => (from.saturating_sub(1).max(1)..=FINAL_VERSION)
                .map(|v| Ok(observation(v)))
                .collect(),
        };
        Ok(Response::new(Box::pin(futures::stream::iter(items))))
    }

    async fn get_history(
        &self,
        _request: Request<pb::GetHistoryRequest>,
    ) -> Result<Response<pb::GetHistoryResponse>, Status> {
        let mut details = ErrorDetails::new();
        details.set_error_info("GAME_NOT_FOUND", "deckmate", HashMap::new());
        Err(Status::with_error_details(
            tonic::Code::NotFound,
            "game not found (it may have expired)",
            details,
        ))
    }

    async fn list_variants(
        &self,
        request: Request<pb::ListVariantsRequest>,
    ) -> Result<Response<pb::ListVariantsResponse>, Status> {
        drop(self.log_call(&request));
        Ok(Response::new(pb::ListVariantsResponse {
            variants: vec![pb::Variant {
                id: "pigeon_chess".into(),
                min_seats: 2,
                max_seats: 2,
                ..Default::default()
            }],
        }))
    }

    async fn get_server_info(
        &self,
        request: Request<pb::GetServerInfoRequest>,
    ) -> Result<Response<pb::GetServerInfoResponse>, Status> {
        drop(self.log_call(&request));
        Ok(Response::new(pb::GetServerInfoResponse {
            server_version: "9.8.7".into(),
            api_revision: 2,
            features: Some(pb::ServerFeatures {
                client_seeds: true,
                api_keys: true,
                bots: false,
                clocks: false,
                store: pb::StoreKind::RedisCluster.into(),
            }),
            limits: Some(pb::ServerLimits {
                max_message_bytes: 65_536,
                max_request_id_bytes: 128,
                ..pb::ServerLimits::default()
            }),
        }))
    }
}

/// The API key the scripted server refuses, as a server does with a key it does not know.
const REVOKED_API_KEY: &str = "revoked-key";

/// What a draining server ends its streams with: UNAVAILABLE `SHUTTING_DOWN` and `RetryInfo`.
fn shutting_down() -> Status {
    let mut details = ErrorDetails::new();
    details.set_error_info("SHUTTING_DOWN", "deckmate", HashMap::new());
    details.set_retry_info(Some(Duration::from_millis(1)));
    Status::with_error_details(
        tonic::Code::Unavailable,
        "the server is shutting down; retry on another server",
        details,
    )
}

/// What a server answers a wrong API key with: UNAUTHENTICATED `BAD_API_KEY`.
fn bad_api_key() -> Status {
    let mut details = ErrorDetails::new();
    details.set_error_info("BAD_API_KEY", "deckmate", HashMap::new());
    Status::with_error_details(
        tonic::Code::Unauthenticated,
        "the API key is missing or wrong",
        details,
    )
}

/// Retries without noticeable pauses.
fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        initial_backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(1),
    }
}

/// Starts the scripted server on a free loopback port; returns a client and the log.
async fn start() -> (Client, Arc<Mutex<Log>>) {
    start_with(ConnectOptions::default()).await
}

/// Starts the scripted server; the client connects with `options` and quick retries.
async fn start_with(options: ConnectOptions) -> (Client, Arc<Mutex<Log>>) {
    let server = ScriptedServer::default();
    let log = server.log.clone();
    let incoming = TcpIncoming::bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let address = incoming.local_addr().expect("local address");
    tokio::spawn(
        Server::builder()
            .add_service(GameServiceServer::new(server))
            .serve_with_incoming(incoming),
    );
    let client = Client::connect_with(
        format!("http://{address}"),
        options.with_retry_policy(quick_retries()),
    )
    .await
    .expect("connect");
    (client, log)
}

fn pigeon_chess() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(
            pb::PigeonChessConfig::default(),
        )),
    }
}

#[tokio::test]
async fn create_game_retries_with_the_same_request_id_and_hands_out_seats() {
    let (client, log) = start().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(3))
        .await
        .expect("created after one retry");
    assert_eq!(game.id, "g-1");
    assert_eq!(game.variant, "pigeon_chess");
    assert_eq!(game.seed_commitment, vec![7; 32]);
    let seats: Vec<(u32, &str)> = game
        .seats
        .iter()
        .map(|seat| (seat.seat(), seat.token()))
        .collect();
    assert_eq!(seats, vec![(0, "token-zero"), (1, "token-one")]);

    let ids = log.lock().expect("log").create_request_ids.clone();
    assert_eq!(ids.len(), 2, "one failure, one retry");
    assert_eq!(ids[0], ids[1], "the retry reuses the request id");
    assert!(uuid_like(&ids[0]), "generated id {}", ids[0]);
}

#[tokio::test]
async fn an_empty_request_id_counts_as_unset() {
    let (client, log) = start().await;
    let options = CreateOptions::default().with_request_id("");
    client
        .create_game(pigeon_chess(), 2, options)
        .await
        .expect("created after one retry, as with a generated id");
    let ids = log.lock().expect("log").create_request_ids.clone();
    assert_eq!(ids.len(), 2, "one failure, one retry");
    assert!(uuid_like(&ids[0]), "generated id {}", ids[0]);
}

#[tokio::test]
async fn act_sends_the_bearer_token_and_reuses_the_request_id_on_retry() {
    let (client, log) = start().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .expect("created");
    let response = game.seats[1]
        .act_with(
            deckmate::meta_action(pb::MetaActionKind::OfferDraw),
            ActOptions::expecting(0),
        )
        .await
        .expect("applied after one retry");
    assert_eq!(response.version, 1);

    let log = log.lock().expect("log");
    assert_eq!(log.act_calls.len(), 2);
    for call in &log.act_calls {
        assert_eq!(call.authorization.as_deref(), Some("Bearer token-one"));
        assert_eq!(call.expected_version, Some(0));
    }
    assert_eq!(log.act_calls[0].request_id, log.act_calls[1].request_id);
    assert!(uuid_like(&log.act_calls[0].request_id));
}

#[tokio::test]
async fn separate_acts_get_separate_request_ids_unless_one_is_given() {
    let (client, log) = start().await;
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    // The first call fails once and is retried; the others succeed at once.
    seat.resign().await.expect("resign");
    seat.offer_draw().await.expect("offer");
    let chosen = ActOptions::default().with_request_id("my-id");
    seat.act_with(deckmate::meta_action(pb::MetaActionKind::Resign), chosen)
        .await
        .expect("act with an id");

    let ids: Vec<String> = log
        .lock()
        .expect("log")
        .act_calls
        .iter()
        .map(|call| call.request_id.clone())
        .collect();
    assert_eq!(ids.len(), 4);
    assert_eq!(ids[0], ids[1]);
    assert_ne!(ids[1], ids[2], "a new action gets a new id");
    assert_eq!(ids[3], "my-id");
}

#[tokio::test]
async fn an_act_with_a_caller_chosen_request_id_is_sent_once() {
    let (client, log) = start().await;
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    let chosen = ActOptions::default().with_request_id("mine");
    let error = seat
        .act_with(deckmate::meta_action(pb::MetaActionKind::Resign), chosen)
        .await
        .expect_err("the first attempt fails and is not retried");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    // The action may have been applied: the error names the id to resend it with.
    assert_eq!(error.request_id(), Some("mine"));
    let calls = &log.lock().expect("log").act_calls;
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].request_id, "mine");
}

#[tokio::test]
async fn a_create_game_with_a_caller_chosen_request_id_is_sent_once() {
    let (client, log) = start().await;
    let options = CreateOptions::default().with_request_id("my-create");
    let error = client
        .create_game(pigeon_chess(), 2, options)
        .await
        .expect_err("the first attempt fails and is not retried");
    assert!(error.is_retryable(), "{error:?}");
    assert_eq!(error.request_id(), Some("my-create"));
    assert_eq!(
        log.lock().expect("log").create_request_ids,
        vec!["my-create".to_string()]
    );
}

#[tokio::test]
async fn the_api_key_goes_with_every_call() {
    let (client, log) = start_with(ConnectOptions::default().with_api_key("key-42")).await;
    client.list_variants().await.expect("variants");
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .expect("created");
    let seat = &game.seats[0];
    seat.observe().await.expect("observe");
    seat.resign().await.expect("resign");
    client.spectate("g-1").observe().await.expect("spectate");
    let watched = seat.watch(0).collect::<Vec<_>>().await;
    assert!(watched.iter().all(Result::is_ok));

    let keys = log.lock().expect("log").api_keys.clone();
    // list, create (twice: one retry), observe, act (twice), spectate, watch (three times:
    // a broken connection, then a draining server).
    assert_eq!(keys.len(), 10, "{keys:?}");
    assert!(
        keys.iter().all(|key| key.as_deref() == Some("key-42")),
        "{keys:?}"
    );
    assert!(!format!("{client:?}").contains("key-42"));
}

#[tokio::test]
async fn without_an_api_key_none_is_sent() {
    let (client, log) = start().await;
    client.list_variants().await.expect("variants");
    assert_eq!(log.lock().expect("log").api_keys, vec![None]);
}

#[tokio::test]
async fn legal_actions_are_the_observed_ones() {
    let (client, log) = start().await;
    let seat = client.seat("g-1", 1, "token-one").expect("seat");
    let actions = seat.legal_actions().await.expect("legal actions");
    assert_eq!(
        actions,
        vec![deckmate::meta_action(pb::MetaActionKind::OfferDraw)]
    );
    assert_eq!(
        log.lock().expect("log").observe_authorizations,
        vec![Some("Bearer token-one".to_string())]
    );
}

#[tokio::test]
async fn spectators_send_no_token() {
    let (client, log) = start().await;
    let view = client.spectate("g-1").observe().await.expect("observe");
    assert_eq!(view.version, 1);
    let seat_view = client
        .seat("g-1", 0, "token-zero")
        .expect("seat")
        .observe()
        .await
        .expect("observe");
    assert_eq!(seat_view.version, 1);
    assert_eq!(
        log.lock().expect("log").observe_authorizations,
        vec![None, Some("Bearer token-zero".to_string())]
    );
}

#[tokio::test]
async fn server_errors_arrive_typed_and_are_not_retried() {
    let (client, log) = start().await;
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    let error = seat
        .act_with(
            deckmate::meta_action(pb::MetaActionKind::Resign),
            ActOptions::expecting(99),
        )
        .await
        .expect_err("stale");
    match &error {
        Error::StaleVersion {
            current_version,
            details,
        } => {
            assert_eq!(*current_version, Some(1));
            assert!(details.message.contains("version 1"), "{details:?}");
            assert_eq!(details.metadata["current_version"], "1");
        }
        other => panic!("expected a stale version, got {other:?}"),
    }
    assert!(!error.is_retryable());
    let sent = log.lock().expect("log").act_calls[0].request_id.clone();
    assert_eq!(
        error.request_id(),
        Some(sent.as_str()),
        "the generated id comes back"
    );
    assert_eq!(log.lock().expect("log").act_calls.len(), 1);

    let error = client.spectate("g-1").history().await.expect_err("missing");
    assert!(matches!(error, Error::GameNotFound(_)), "{error:?}");
    assert_eq!(error.request_id(), None, "a read sends no request id");
}

#[tokio::test]
async fn watch_resumes_after_the_last_delivered_version() {
    let (client, log) = start().await;
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    let versions: Vec<u64> = seat
        .watch(0)
        .map(|item| item.expect("no error reaches the caller").version)
        .collect()
        .await;
    // Each version once, in order, although the last call repeated versions 2 and 3.
    assert_eq!(versions, (1..=FINAL_VERSION).collect::<Vec<_>>());
    // Resumed after the broken connection (at 2) and after the server shut down (at 3).
    assert_eq!(log.lock().expect("log").watch_from_versions, vec![0, 2, 3]);
}

#[tokio::test]
async fn a_watch_ended_by_shutdown_with_no_retries_left_reports_shutting_down() {
    let (client, _log) = start().await;
    let seat = client
        .with_retry_policy(RetryPolicy::never())
        .seat("g-1", 0, "token-zero")
        .expect("seat");
    let items: Vec<Result<pb::ObserveResponse, Error>> = seat.watch(0).collect().await;
    // The first call breaks without retries; nothing resumes it.
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(matches!(items[2], Err(Error::Transport(_))), "{items:?}");
    // The second call (from version 2) ends with the draining server's status.
    let items: Vec<Result<pb::ObserveResponse, Error>> = seat.watch(2).collect().await;
    assert_eq!(items.len(), 2, "{items:?}");
    let error = items[1].as_ref().expect_err("shutdown ends the call");
    assert!(matches!(error, Error::ShuttingDown(_)), "{error:?}");
    assert_eq!(error.reason(), Some("SHUTTING_DOWN"));
    assert!(error.is_retryable());
}

#[tokio::test]
async fn a_refused_api_key_is_bad_api_key_and_not_retried() {
    let (client, log) = start_with(ConnectOptions::default().with_api_key(REVOKED_API_KEY)).await;
    let error = client
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .expect_err("refused key");
    assert!(matches!(error, Error::BadApiKey(_)), "{error:?}");
    assert_eq!(error.reason(), Some("BAD_API_KEY"));
    assert!(!error.is_retryable());
    assert_eq!(log.lock().expect("log").api_keys.len(), 1, "sent once");
}

#[tokio::test]
async fn server_info_returns_what_the_server_says_and_sends_the_api_key() {
    let (client, log) = start_with(ConnectOptions::default().with_api_key("key-7")).await;
    let info = client.server_info().await.expect("server info");
    assert_eq!(info.server_version, "9.8.7");
    assert_eq!(info.api_revision, 2);
    let features = info.features.expect("features");
    assert!(features.client_seeds && features.api_keys);
    assert_eq!(features.store(), pb::StoreKind::RedisCluster);
    assert_eq!(info.limits.expect("limits").max_message_bytes, 65_536);
    assert_eq!(
        log.lock().expect("log").api_keys,
        vec![Some("key-7".to_string())]
    );
}

#[tokio::test]
async fn list_variants_returns_the_variants() {
    let (client, _log) = start().await;
    let variants = client.list_variants().await.expect("variants");
    assert_eq!(variants.len(), 1);
    assert_eq!(variants[0].id, "pigeon_chess");
}

#[tokio::test]
async fn an_unreachable_server_is_a_transport_error() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
        .port();
    let error = Client::connect(format!("http://127.0.0.1:{port}"))
        .await
        .expect_err("nothing listens");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert!(error.is_retryable());

    let channel = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .expect("endpoint")
        .connect_lazy();
    let client = Client::from_channel(channel).with_retry_policy(quick_retries());
    let error = client
        .spectate("g-1")
        .observe()
        .await
        .expect_err("no server");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
}

#[tokio::test]
async fn a_malformed_endpoint_is_an_invalid_request() {
    let error = Client::connect("not a uri at all")
        .await
        .expect_err("bad endpoint");
    assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");
}

#[test]
fn debug_output_of_handles_hides_tokens() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let channel = tonic::transport::Endpoint::from_static("http://127.0.0.1:9").connect_lazy();
        let client = Client::from_channel(channel);
        let seat = client.seat("g-1", 1, "super-secret-token").expect("seat");
        let printed = format!("{seat:?}");
        assert!(!printed.contains("super-secret"), "{printed}");
        assert!(printed.contains("g-1"), "{printed}");
    });
}

/// Whether `id` has the shape of a hyphenated UUID.
fn uuid_like(id: &str) -> bool {
    let groups: Vec<usize> = id.split('-').map(str::len).collect();
    groups == [8, 4, 4, 4, 12] && id.chars().all(|c| c == '-' || c.is_ascii_hexdigit())
}

/// The test CA and the localhost certificate it signed (sdk/testdata/tls/README.md).
const TEST_CA: &[u8] = include_bytes!("../../testdata/tls/ca.pem");
const TEST_SERVER_CERT: &[u8] = include_bytes!("../../testdata/tls/server.pem");
const TEST_SERVER_KEY: &[u8] = include_bytes!("../../testdata/tls/server.key");

/// Starts the scripted server with TLS on a free loopback port; returns its port.
async fn start_tls() -> u16 {
    let identity = Identity::from_pem(TEST_SERVER_CERT, TEST_SERVER_KEY);
    let incoming = TcpIncoming::bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let port = incoming.local_addr().expect("local address").port();
    let server = Server::builder()
        .tls_config(ServerTlsConfig::new().identity(identity))
        .expect("server TLS settings")
        .add_service(GameServiceServer::new(ScriptedServer::default()))
        .serve_with_incoming(incoming);
    tokio::spawn(server);
    port
}

#[tokio::test]
async fn tls_connects_when_the_server_certificate_is_trusted() {
    let port = start_tls().await;
    let options = ConnectOptions::default()
        .with_tls(TlsOptions::default().with_ca_pem(TEST_CA))
        .with_retry_policy(quick_retries());
    // By name, as the certificate says.
    let client = Client::connect_with(format!("https://localhost:{port}"), options.clone())
        .await
        .expect("TLS connection");
    let variants = client.list_variants().await.expect("a call over TLS");
    assert_eq!(variants[0].id, "pigeon_chess");
    // By address, naming the server explicitly.
    let by_address = options.with_tls(
        TlsOptions::default()
            .with_ca_pem(TEST_CA)
            .with_server_name("localhost"),
    );
    let client = Client::connect_with(format!("https://127.0.0.1:{port}"), by_address)
        .await
        .expect("TLS connection by address");
    client.list_variants().await.expect("a call over TLS");
}

#[tokio::test]
async fn tls_refuses_a_server_certificate_it_cannot_verify() {
    let port = start_tls().await;
    // The test CA is not among the system's authorities.
    let error = Client::connect(format!("https://localhost:{port}"))
        .await
        .expect_err("untrusted certificate");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    // Trusted CA, wrong name.
    let wrong_name = ConnectOptions::default().with_tls(
        TlsOptions::default()
            .with_ca_pem(TEST_CA)
            .with_server_name("games.example"),
    );
    let error = Client::connect_with(format!("https://127.0.0.1:{port}"), wrong_name)
        .await
        .expect_err("certificate for another name");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
}

/// Starts the scripted server without TLS on a free loopback port; returns its port.
async fn start_plaintext() -> u16 {
    let incoming = TcpIncoming::bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let port = incoming.local_addr().expect("local address").port();
    let server = Server::builder()
        .add_service(GameServiceServer::new(ScriptedServer::default()))
        .serve_with_incoming(incoming);
    tokio::spawn(server);
    port
}

#[tokio::test]
async fn tls_settings_with_an_http_address_still_use_tls() {
    let options = ConnectOptions::default()
        .with_tls(TlsOptions::default().with_ca_pem(TEST_CA))
        .with_retry_policy(RetryPolicy::never());
    // A plaintext server cannot complete the handshake: the client must not fall back to
    // plaintext and send its credentials in the clear.
    let plaintext = start_plaintext().await;
    let error = Client::connect_with(format!("http://localhost:{plaintext}"), options.clone())
        .await
        .expect_err("no TLS handshake with a plaintext server");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    // A TLS server answers the same address form.
    let tls = start_tls().await;
    let client = Client::connect_with(format!("http://localhost:{tls}"), options)
        .await
        .expect("TLS connection");
    client.list_variants().await.expect("a call over TLS");
}

/// The HTTP/2 frame type of a DATA frame, and the length of every frame header.
const H2_DATA_FRAME: u8 = 0;
const H2_FRAME_HEADER_BYTES: usize = 9;

/// What the proxy does to its first connection once the server's first response body starts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// Closes it, as a network failure or a crashing load balancer would.
    Break,
    /// Stops forwarding either way and keeps it open, as a connection that died silently looks
    /// to its ends (a NAT or load balancer that forgot it).
    Freeze,
}

/// A TCP proxy to `upstream` whose first connection breaks in the middle of the server's first
/// response body (after the response headers and part of the first DATA frame); later
/// connections pass through. Returns the proxy's address.
async fn start_breaking_proxy(upstream: std::net::SocketAddr) -> std::net::SocketAddr {
    start_faulty_proxy(upstream, Fault::Break).await
}

/// A TCP proxy to `upstream` whose first connection suffers `fault` in the middle of the
/// server's first response body; later connections pass through.
async fn start_faulty_proxy(upstream: std::net::SocketAddr, fault: Fault) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the proxy");
    let address = listener.local_addr().expect("proxy address");
    tokio::spawn(async move {
        let mut first = Some(fault);
        while let Ok((client, _)) = listener.accept().await {
            let server = tokio::net::TcpStream::connect(upstream)
                .await
                .expect("reach the server");
            tokio::spawn(relay(client, server, first.take()));
        }
    });
    address
}

/// Relays one connection; with a `fault`, cuts or freezes it inside the first DATA frame from
/// the server.
async fn relay(client: tokio::net::TcpStream, server: tokio::net::TcpStream, fault: Option<Fault>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let upstream = tokio::spawn(async move {
        let _ = tokio::io::copy(&mut client_read, &mut server_write).await;
    });
    let Some(fault) = fault else {
        let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
        return;
    };
    // Forward whole frames until the first DATA frame, then only its header and two bytes.
    let mut header = [0u8; H2_FRAME_HEADER_BYTES];
    while server_read.read_exact(&mut header).await.is_ok() {
        let length = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
        let mut payload = vec![0u8; length];
        if server_read.read_exact(&mut payload).await.is_err() {
            break;
        }
        let stream_id =
            u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & !(1 << 31);
        if header[3] == H2_DATA_FRAME && stream_id != 0 && length > 2 {
            let _ = client_write.write_all(&header).await;
            let _ = client_write.write_all(&payload[..2]).await;
            let _ = client_write.flush().await;
            break;
        }
        if client_write.write_all(&header).await.is_err()
            || client_write.write_all(&payload).await.is_err()
        {
            break;
        }
    }
    upstream.abort();
    if fault == Fault::Freeze {
        // Nothing more is read or written, and nothing is closed: the client's pings go
        // unanswered.
        let _held = (server_read, client_write);
        std::future::pending::<()>().await;
    }
    // Dropping both halves of both sockets closes the connection mid-body.
}

#[tokio::test]
async fn a_read_broken_mid_answer_is_retried() {
    let upstream = std::net::SocketAddr::from(([127, 0, 0, 1], start_plaintext().await));
    let proxy = start_breaking_proxy(upstream).await;
    let client = Client::connect_with(
        format!("http://{proxy}"),
        ConnectOptions::default().with_retry_policy(quick_retries()),
    )
    .await
    .expect("connected through the proxy");
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    let view = seat.observe().await.expect("the retry gets the answer");
    assert_eq!(view.version, 1);
    // Without retries the broken answer is a retryable transport error.
    let proxy = start_breaking_proxy(upstream).await;
    let client = Client::connect_with(
        format!("http://{proxy}"),
        ConnectOptions::default().with_retry_policy(RetryPolicy::never()),
    )
    .await
    .expect("connected through the proxy");
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    let error = seat.observe().await.expect_err("the answer breaks");
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert!(error.is_retryable());
}

#[tokio::test]
async fn a_connection_that_died_silently_is_found_by_its_pings() {
    let upstream = std::net::SocketAddr::from(([127, 0, 0, 1], start_plaintext().await));
    let proxy = start_faulty_proxy(upstream, Fault::Freeze).await;
    let quick_pings = deckmate::Keepalive {
        interval: Duration::from_millis(200),
        timeout: Duration::from_millis(200),
    };
    let client = Client::connect_with(
        format!("http://{proxy}"),
        ConnectOptions::default()
            .with_retry_policy(quick_retries())
            .with_keepalive(quick_pings),
    )
    .await
    .expect("connected through the proxy");
    let seat = client.seat("g-1", 0, "token-zero").expect("seat");
    // Without pings the call would wait forever on the frozen connection: bounded here, so
    // that the test fails instead.
    let view = tokio::time::timeout(Duration::from_secs(20), seat.observe())
        .await
        .expect("the frozen connection is found out")
        .expect("the retry, on a new connection, gets the answer");
    assert_eq!(view.version, 1);
}
