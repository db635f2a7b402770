//! Every limit tripped on a whole server in process: the status code, the `ErrorInfo` reason,
//! the `RetryInfo` where the limit passes with time, and the `limit` label of
//! `deckmate_limit_rejections_total`. Also API keys and trusted proxies end to end.
//!
//! Each test runs on a current-thread runtime, so the server's tasks run on the test's thread
//! and record into the test's own (thread-local) metrics recorder.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_client::GameServiceClient;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusRecorder};
use tokio::net::TcpListener;
use tokio::sync::{Notify, oneshot};
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;
use tonic_types::StatusExt;

use super::api_keys::new_key;
use super::caller::parse_range;
use super::rate::Rate;
use crate::app::serve_with_store;
use crate::config::Config;
use crate::store::{
    Commit, CommitOutcome, CreateError, CreateOutcome, GameRecord, MemoryStore, PutCreateOutcome,
    SealedCreate, SeatRequest, SessionStore, StoreError, VersionStream,
};

/// A memory store whose `create` can be held at a gate, to keep a call in flight.
struct GatedStore {
    inner: MemoryStore,
    gated: bool,
    /// Notified when a create reaches the gate.
    entered: Notify,
    /// Opens the gate for one waiting create.
    release: Notify,
    /// Notified when a create has been stored.
    created: Notify,
}

impl GatedStore {
    fn new(gated: bool) -> Arc<GatedStore> {
        Arc::new(GatedStore {
            inner: MemoryStore::new(Duration::from_secs(3600), 1000),
            gated,
            entered: Notify::new(),
            release: Notify::new(),
            created: Notify::new(),
        })
    }

    /// Opens the gate for the create waiting at it (whose caller has stopped waiting) and checks
    /// that its handler still ran to its end and stored the game.
    async fn release_and_expect_the_create(&self) {
        assert_eq!(self.inner.live_games(), 0);
        self.release.notify_one();
        tokio::time::timeout(Duration::from_secs(30), self.created.notified())
            .await
            .expect("the handler went on after its caller stopped waiting");
        assert_eq!(self.inner.live_games(), 1, "the call ran to its end");
    }
}

#[async_trait]
impl SessionStore for GatedStore {
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError> {
        if self.gated {
            self.entered.notify_one();
            self.release.notified().await;
        }
        let outcome = self.inner.create(record).await;
        self.created.notify_one();
        outcome
    }
    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.inner.load(id).await
    }
    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.inner.peek(id).await
    }
    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError> {
        self.inner.commit(commit).await
    }
    async fn find_request(
        &self,
        id: &str,
        request: SeatRequest,
    ) -> Result<Option<u64>, StoreError> {
        self.inner.find_request(id, request).await
    }
    async fn remove(&self, id: &str) -> Result<(), StoreError> {
        self.inner.remove(id).await
    }
    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError> {
        self.inner.find_create(key).await
    }
    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError> {
        self.inner.put_create(key, sealed, window).await
    }
    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError> {
        self.inner.watch(id).await
    }
    async fn health(&self) -> bool {
        self.inner.health().await
    }
    async fn live_games(&self) -> Result<u64, StoreError> {
        SessionStore::live_games(&self.inner).await
    }

    async fn epoch(&self) -> Result<u64, StoreError> {
        self.inner.epoch().await
    }
    async fn now_ms(&self) -> Result<u64, StoreError> {
        self.inner.now_ms().await
    }
    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError> {
        self.inner.file_due(id, due_ms).await
    }
    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        self.inner.claim_due(now_ms, lease_ms, limit).await
    }

    fn game_ttl(&self) -> Duration {
        self.inner.game_ttl()
    }
}

/// A server in this process, stopped when dropped.
struct Running {
    address: SocketAddr,
    _stop: oneshot::Sender<()>,
}

impl Running {
    async fn start(config: Config, store: Arc<dyn SessionStore>) -> Running {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(serve_with_store(config, store, listener, async {
            let _ = stopped.await;
        }));
        Running {
            address,
            _stop: stop,
        }
    }

    async fn channel(&self) -> Channel {
        Channel::from_shared(format!("http://{}", self.address))
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::new(self.channel().await)
    }
}

/// The test's own metrics recorder.
fn recorder() -> PrometheusRecorder {
    PrometheusBuilder::new().build_recorder()
}

/// `deckmate_limit_rejections_total{limit}` as `recorder` holds it (0 when never recorded).
fn rejections(recorder: &PrometheusRecorder, limit: &str) -> f64 {
    let page = recorder.handle().render();
    let series = format!("deckmate_limit_rejections_total{{limit=\"{limit}\"}} ");
    page.lines()
        .find_map(|line| line.strip_prefix(&series))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}

fn pigeon_chess() -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        config: Some(pb::GameConfig {
            game: Some(pb::game_config::Game::PigeonChess(Default::default())),
        }),
        ..Default::default()
    }
}

fn reason(status: &Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

fn retry_delay(status: &Status) -> Option<Duration> {
    status
        .get_details_retry_info()
        .and_then(|info| info.retry_delay)
}

fn config() -> Config {
    Config {
        create_rate: Rate::Off,
        ..Config::default()
    }
}

#[tokio::test]
async fn a_full_server_sheds_calls_but_still_answers_health() {
    let recorder = recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let store = GatedStore::new(true);
    let config = Config {
        max_concurrent_calls: 1,
        ..config()
    };
    let running = Running::start(config, store.clone()).await;
    let mut games = running.games().await;
    let first = {
        let mut games = games.clone();
        tokio::spawn(async move { games.create_game(pigeon_chess()).await })
    };
    store.entered.notified().await;

    let shed = games
        .list_variants(pb::ListVariantsRequest {})
        .await
        .unwrap_err();
    assert_eq!(shed.code(), Code::Unavailable);
    assert_eq!(reason(&shed), "OVERLOADED");
    assert_eq!(
        retry_delay(&shed),
        Some(super::calls::OVERLOADED_RETRY_AFTER)
    );
    assert_eq!(rejections(&recorder, "concurrency"), 1.0);
    let health = HealthClient::new(running.channel().await)
        .check(HealthCheckRequest::default())
        .await;
    assert!(health.is_ok(), "health is exempt: {health:?}");

    store.release.notify_one();
    first.await.unwrap().expect("the call in flight completes");
    games
        .list_variants(pb::ListVariantsRequest {})
        .await
        .expect("the permit was given back");
}

#[tokio::test]
async fn a_deadline_answers_the_client_but_never_cuts_the_commit() {
    let store = GatedStore::new(true);
    let config = Config {
        max_call_time: Duration::from_millis(200),
        ..config()
    };
    let running = Running::start(config, store.clone()).await;
    let mut games = running.games().await;
    let late = games.create_game(pigeon_chess()).await.unwrap_err();
    assert_eq!(late.code(), Code::DeadlineExceeded, "{late:?}");
    assert!(late.message().contains("request_id"), "{}", late.message());
    // The handler is still running: let it reach the store.
    store.release_and_expect_the_create().await;
}

#[tokio::test]
async fn a_client_that_cancels_never_cuts_the_commit() {
    let store = GatedStore::new(true);
    let running = Running::start(config(), store.clone()).await;
    let mut games = running.games().await;
    let call = tokio::spawn(async move { games.create_game(pigeon_chess()).await });
    store.entered.notified().await;
    // The client gives up while the handler waits on the store: the stream is reset.
    call.abort();
    assert!(call.await.unwrap_err().is_cancelled());
    store.release_and_expect_the_create().await;
}

/// A tonic client enforces its own deadline too (and would answer itself first), so the
/// client's `grpc-timeout` is sent by hand, over gRPC-Web on HTTP/1.1.
#[tokio::test]
async fn a_shorter_client_deadline_is_honoured() {
    use prost::Message;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let store = GatedStore::new(true);
    let running = Running::start(config(), store.clone()).await;
    let message = pigeon_chess().encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(&message);
    let head = format!(
        "POST /deckmate.v1.GameService/CreateGame HTTP/1.1\r\n\
         Host: localhost\r\n\
         Content-Type: application/grpc-web+proto\r\n\
         X-Grpc-Web: 1\r\n\
         Grpc-Timeout: 300m\r\n\
         Content-Length: {}\r\n\
         Connection: close\r\n\r\n",
        frame.len()
    );
    let mut stream = tokio::net::TcpStream::connect(running.address)
        .await
        .unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&frame).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response).to_ascii_lowercase();
    // DEADLINE_EXCEEDED is code 4.
    assert!(response.contains("grpc-status: 4"), "{response}");
    store.release_and_expect_the_create().await;
}

#[tokio::test]
async fn creating_too_fast_is_refused_with_a_retry_hint() {
    let recorder = recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let config = Config {
        create_rate: Rate::DEFAULT,
        create_burst: 2,
        ..Config::default()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;
    for _ in 0..2 {
        games.create_game(pigeon_chess()).await.unwrap();
    }
    let refused = games.create_game(pigeon_chess()).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "LIMIT_REACHED");
    let delay = retry_delay(&refused).expect("a retry hint");
    assert!(
        delay > Duration::ZERO && delay <= Duration::from_secs(1),
        "{delay:?}"
    );
    assert_eq!(rejections(&recorder, "create_rate"), 1.0);
}

#[tokio::test]
async fn live_games_per_client_are_capped_until_one_finishes() {
    let recorder = recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let config = Config {
        max_games_per_client: 2,
        ..config()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;
    let first = games
        .create_game(pigeon_chess())
        .await
        .unwrap()
        .into_inner();
    games.create_game(pigeon_chess()).await.unwrap();
    let refused = games.create_game(pigeon_chess()).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "LIMIT_REACHED");
    assert_eq!(retry_delay(&refused), None, "not a time-based limit");
    assert_eq!(rejections(&recorder, "games_per_client"), 1.0);

    // Seat 0 resigns the first game: it stops counting.
    let mut resign = Request::new(pb::ActRequest {
        game_id: first.game_id.clone(),
        action: Some(pb::Action {
            kind: Some(pb::action::Kind::Meta(pb::MetaAction {
                kind: pb::MetaActionKind::Resign as i32,
            })),
        }),
        ..Default::default()
    });
    let token = &first.seat_tokens[0].token;
    resign.metadata_mut().insert(
        deckmate_proto::AUTHORIZATION_HEADER,
        format!("Bearer {token}").parse().unwrap(),
    );
    games.act(resign).await.unwrap();
    games.create_game(pigeon_chess()).await.unwrap();
}

#[tokio::test]
async fn watchers_per_game_are_capped() {
    let recorder = recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let config = Config {
        max_watchers_per_game: 1,
        ..config()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;
    let game = games
        .create_game(pigeon_chess())
        .await
        .unwrap()
        .into_inner();
    let other = games
        .create_game(pigeon_chess())
        .await
        .unwrap()
        .into_inner();
    let watch = |game_id: &str| pb::WatchRequest {
        game_id: game_id.to_string(),
        from_version: 0,
    };
    let _open = games.watch(watch(&game.game_id)).await.unwrap();
    let refused = games.watch(watch(&game.game_id)).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "LIMIT_REACHED");
    assert_eq!(rejections(&recorder, "watchers_per_game"), 1.0);
    let _elsewhere = games.watch(watch(&other.game_id)).await.unwrap();
}

#[tokio::test]
async fn watchers_per_client_are_capped_over_every_game() {
    let recorder = recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let config = Config {
        max_watchers_per_client: 2,
        trusted_proxies: vec![parse_range("127.0.0.1").unwrap()],
        ..config()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;
    let mut game_ids = Vec::new();
    for _ in 0..3 {
        let game = games.create_game(pigeon_chess()).await.unwrap();
        game_ids.push(game.into_inner().game_id);
    }
    let watch = |game_id: &str, client: &str| {
        let request = pb::WatchRequest {
            game_id: game_id.to_string(),
            from_version: 0,
        };
        from_client(request, client)
    };

    // One client's streams count over every game it watches.
    let first = games.watch(watch(&game_ids[0], "5.5.5.5")).await.unwrap();
    let _second = games.watch(watch(&game_ids[1], "5.5.5.5")).await.unwrap();
    let refused = games
        .watch(watch(&game_ids[2], "5.5.5.5"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "LIMIT_REACHED");
    assert!(refused.message().contains("client"), "{refused:?}");
    assert_eq!(rejections(&recorder, "watchers_per_client"), 1.0);

    // Another client is not held back by it.
    let _other = games.watch(watch(&game_ids[2], "6.6.6.6")).await.unwrap();

    // A stream the client closes gives its place back (once the server sees it closed).
    drop(first);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match games.watch(watch(&game_ids[2], "5.5.5.5")).await {
            Ok(_stream) => break,
            Err(status) if reason(&status) == "LIMIT_REACHED" => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the closed stream's place never came back"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(status) => panic!("unexpected answer: {status:?}"),
        }
    }
}

/// `message` as relayed by a proxy (the server's peer) for the client at `client`.
fn from_client<T>(message: T, client: &str) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("x-forwarded-for", client.parse().unwrap());
    request
}

/// `message` with `token` as bearer authorization, when given.
fn with_token<T>(message: T, token: Option<&str>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(token) = token {
        request.metadata_mut().insert(
            deckmate_proto::AUTHORIZATION_HEADER,
            format!("Bearer {token}").parse().unwrap(),
        );
    }
    request
}

#[tokio::test]
async fn spectators_filling_a_game_never_lock_its_seats_out() {
    let recorder = recorder();
    let _local = metrics::set_default_local_recorder(&recorder);
    let config = Config {
        max_watchers_per_game: 2,
        ..config()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;
    let game = games
        .create_game(pigeon_chess())
        .await
        .unwrap()
        .into_inner();
    let token = |seat: usize| Some(game.seat_tokens[seat].token.as_str());
    let watch = |token: Option<&str>| {
        with_token(
            pb::WatchRequest {
                game_id: game.game_id.clone(),
                from_version: 0,
            },
            token,
        )
    };

    // Spectators take every place the game has for them; the next one is refused.
    let _spectators = [
        games.watch(watch(None)).await.unwrap(),
        games.watch(watch(None)).await.unwrap(),
    ];
    let refused = games.watch(watch(None)).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "LIMIT_REACHED");
    assert_eq!(rejections(&recorder, "watchers_per_game"), 1.0);

    // Both players still watch their game, each on a stream that follows it.
    let mut seat0 = games.watch(watch(token(0))).await.unwrap().into_inner();
    let mut seat1 = games.watch(watch(token(1))).await.unwrap().into_inner();
    // A seat is bounded too: its own allowance, the same number as the spectators'.
    let _seat0_again = games.watch(watch(token(0))).await.unwrap();
    let refused = games.watch(watch(token(0))).await.unwrap_err();
    assert_eq!(reason(&refused), "LIMIT_REACHED");
    assert_eq!(rejections(&recorder, "watchers_per_game"), 2.0);

    // A caller the game does not admit learns nothing about its watchers: it is refused for
    // its token, as it would be on a game nobody watches, and no limit is counted.
    let stranger = "dm1_".to_string() + &"A".repeat(43);
    let refused = games.watch(watch(Some(&stranger))).await.unwrap_err();
    assert_eq!(reason(&refused), "BAD_TOKEN", "{refused:?}");
    assert_eq!(rejections(&recorder, "watchers_per_game"), 2.0);

    let resign = with_token(
        pb::ActRequest {
            game_id: game.game_id.clone(),
            action: Some(pb::Action {
                kind: Some(pb::action::Kind::Meta(pb::MetaAction {
                    kind: pb::MetaActionKind::Resign as i32,
                })),
            }),
            ..Default::default()
        },
        token(0),
    );
    games.act(resign).await.unwrap();
    for stream in [&mut seat0, &mut seat1] {
        let view = stream
            .message()
            .await
            .unwrap()
            .expect("the version resigned");
        assert_eq!(view.version, 1);
    }
}

/// A keys file in the temporary directory, removed when dropped.
struct KeysFile(std::path::PathBuf);

impl KeysFile {
    fn new(text: &str) -> KeysFile {
        let random: [u8; 8] = rand_bytes();
        let path = std::env::temp_dir().join(format!("deckmate-keys-{}", hex::encode(random)));
        std::fs::write(&path, text).unwrap();
        KeysFile(path)
    }
}

impl Drop for KeysFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn rand_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).unwrap();
    bytes
}

fn with_key<T>(message: T, key: Option<&str>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(key) = key {
        request
            .metadata_mut()
            .insert("x-api-key", key.parse().unwrap());
    }
    request
}

#[tokio::test]
async fn create_game_needs_an_api_key_and_the_key_names_the_quota() {
    let web = new_key("web").unwrap();
    let bot = new_key("bot").unwrap();
    let file = KeysFile::new(&format!("# test keys\n{}\n{}\n", web.line, bot.line));
    let config = Config {
        api_keys_file: Some(file.0.clone()),
        create_rate: Rate::DEFAULT,
        create_burst: 1,
        ..Config::default()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;

    for key in [None, Some("dmk_wrong"), Some(&web.line[..])] {
        let refused = games
            .create_game(with_key(pigeon_chess(), key))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::Unauthenticated, "{key:?}");
        assert_eq!(reason(&refused), "BAD_API_KEY");
    }
    let game = games
        .create_game(with_key(pigeon_chess(), Some(&web.key)))
        .await
        .unwrap()
        .into_inner();
    // The quota belongs to the key: `web` has spent its burst, `bot` has not.
    let spent = games
        .create_game(with_key(pigeon_chess(), Some(&web.key)))
        .await
        .unwrap_err();
    assert_eq!(reason(&spent), "LIMIT_REACHED");
    games
        .create_game(with_key(pigeon_chess(), Some(&bot.key)))
        .await
        .unwrap();

    // Calls other than CreateGame need no key.
    games
        .list_variants(pb::ListVariantsRequest {})
        .await
        .unwrap();
    games
        .observe(pb::ObserveRequest {
            game_id: game.game_id,
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn a_missing_keys_file_stops_the_server() {
    let config = Config {
        api_keys_file: Some("/nonexistent/deckmate-keys".into()),
        ..Config::default()
    };
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = serve_with_store(config, GatedStore::new(false), listener, async {})
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("/nonexistent/deckmate-keys"),
        "{error}"
    );
}

#[tokio::test]
async fn a_trusted_proxy_passes_on_the_client_address() {
    let config = Config {
        create_rate: Rate::DEFAULT,
        create_burst: 1,
        trusted_proxies: vec![parse_range("127.0.0.1").unwrap()],
        ..Config::default()
    };
    let running = Running::start(config, GatedStore::new(false)).await;
    let mut games = running.games().await;
    let from = |client: &str| from_client(pigeon_chess(), client);
    games.create_game(from("5.5.5.5")).await.unwrap();
    let spent = games.create_game(from("5.5.5.5")).await.unwrap_err();
    assert_eq!(reason(&spent), "LIMIT_REACHED");
    // A forged entry left of the real client changes nothing; another client has its own quota.
    let forged = games
        .create_game(from("9.9.9.9, 5.5.5.5"))
        .await
        .unwrap_err();
    assert_eq!(reason(&forged), "LIMIT_REACHED");
    games.create_game(from("6.6.6.6")).await.unwrap();
}
