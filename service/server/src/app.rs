//! The server as a whole (docs/ARCHITECTURE.md §3, §5): `GameService` with gRPC-Web and CORS,
//! health and reflection (v1 and v1alpha), served on a listener until a shutdown future completes.
//!
//! Shutdown is graceful: health turns NOT_SERVING, open `Watch` streams end with UNAVAILABLE
//! `SHUTTING_DOWN` (asking clients to resume elsewhere), the listener closes and in-flight calls
//! finish. Calls that are still open after `--drain-timeout` are cut.
//!
//! Each client connection is closed gracefully (HTTP/2 GOAWAY) once it is older than
//! `--max-connection-age`, so that clients reconnect and spread over new replicas. How many
//! connections may be open and how long they may idle is `crate::connections`'s business.

pub mod grpc_web_text;
mod startup_files;

use std::sync::Arc;
use std::time::Duration;

use deckmate_proto::v1::game_service_server::GameServiceServer;
use tokio::net::TcpListener;
use tonic::server::NamedService;
use tonic::transport::Server;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use crate::api::answers::GameServiceAnswers;
use crate::api::{ApiSettings, GameApi};
use crate::config::{Config, StoreUrl};
use crate::connections::{self, ConnectionSettings, ServeConnection};
use crate::protection;
use crate::protection::calls::{CallGuard, CallLimits};
use crate::protocol_errors::ProtocolErrors;
use crate::shutdown::Shutdown;
use crate::store::redis::{RedisSettings, RedisStore};
use crate::store::{MemoryStore, SessionStore};

pub use self::startup_files::StartupFiles;

/// The service name health reports on, besides the whole server ("").
pub const SERVICE_NAME: &str = <GameServiceServer<GameApi> as NamedService>::NAME;

/// The health service name for liveness probes: SERVING from start-up until shutdown begins,
/// whatever the store does, so that a store outage never gets every replica restarted.
pub const LIVENESS_SERVICE: &str = "liveness";

/// How often the store's health is checked.
const HEALTH_POLL_PERIOD: Duration = Duration::from_secs(5);

/// How long shutdown waits for open calls before cutting them, unless `--drain-timeout` says
/// otherwise.
pub const DEFAULT_DRAIN_TIMEOUT: Duration = crate::config::DEFAULT_DRAIN_TIMEOUT;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Flags that mean nothing together (such as `--redis-ca-cert` with the memory store).
    #[error("{0}")]
    Config(#[from] crate::config::ConfigError),
    /// The Redis store could not be set up.
    #[error("cannot open the Redis store: {0}")]
    Redis(#[from] crate::store::redis::OpenError),
    /// The reflection service could not read the descriptors.
    #[error("building the reflection service: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
    #[error("serving: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// The TLS files (`--tls-*`, `--redis-ca-cert`) are missing or unusable.
    #[error("TLS: {0}")]
    Tls(#[from] crate::tls::TlsError),
    /// The API keys file is missing or malformed.
    #[error("{0}")]
    ApiKeys(#[from] protection::api_keys::KeysFileError),
}

/// Opens the store the configuration names. A Redis store connects on first use (while Redis
/// does not answer, calls fail with `STORE_UNAVAILABLE` and health is NOT_SERVING), so this
/// needs a Tokio runtime but no reachable Redis.
pub fn open_store(config: &Config) -> Result<Arc<dyn SessionStore>, ServeError> {
    // Before anything is read or built, so that a flag the store would not use stops start-up
    // with a message naming it rather than being ignored, or refused by the Redis client.
    config.check()?;
    match &config.store {
        StoreUrl::Memory => Ok(Arc::new(MemoryStore::new(
            config.game_ttl,
            config.max_games,
        ))),
        StoreUrl::Redis { url, .. } | StoreUrl::RedisCluster(url) => {
            crate::tls::install_default_provider();
            let ca_cert_pem = match &config.redis_ca_cert {
                Some(path) => Some(crate::tls::read_pem_file(path, "Redis CA")?),
                None => None,
            };
            let settings = RedisSettings {
                ttl: config.game_ttl,
                max_games: config.max_games,
                timeout: config.store_timeout,
                ca_cert_pem,
                replica_ack: config.redis_replica_ack.wait(
                    matches!(config.store, StoreUrl::RedisCluster(_)),
                    config.store_timeout,
                ),
                write_record_format: config.write_record_format,
                record_cache: config.record_cache,
                ..RedisSettings::new(url.clone())
            };
            Ok(Arc::new(RedisStore::open(settings)?))
        }
    }
}

/// Serves on `listener`, with the store the configuration names, until `shutdown` completes
/// and the server has drained.
pub async fn serve(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let store = open_store(&config)?;
    serve_with_store(config, store, listener, shutdown).await
}

/// Serves on `listener` over `store` until `shutdown` completes and the server has drained.
/// (`config.listen` and `config.store` are not used: the listener and store are given.)
pub async fn serve_with_store(
    config: Config,
    store: Arc<dyn SessionStore>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let files = StartupFiles::load(&config)?;
    serve_with_files(config, store, files, listener, shutdown).await
}

/// [`serve_with_store`] with the files the configuration names already read, by
/// [`StartupFiles::load`] on the same configuration.
pub async fn serve_with_files(
    config: Config,
    store: Arc<dyn SessionStore>,
    files: StartupFiles,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let StartupFiles { tls, protection } = files;
    // Built once here, so that the first chess call does not wait for the engine's tables.
    deckmate_engine::chess::prepare_tables();
    let switch = Shutdown::new();
    let protection = Arc::new(protection);
    // From here on SIGHUP reloads what is configured to reload, and never ends the process.
    let _hangups =
        crate::hangup::keep_alive_on_hangup(tls.is_some() || protection.api_keys().is_some())
            .map(AbortOnDrop);
    // Reloads the keys on SIGHUP until the server stops, however it stops.
    let _key_reloader = protection.api_keys().map(|keys| {
        tracing::info!(keys = keys.len(), "CreateGame requires an API key");
        AbortOnDrop(tokio::spawn(protection::api_keys::reload_on_hangup(
            keys.clone(),
        )))
    });
    // Keeps the per-client game counts to live games until the server stops.
    let _game_count_pruner = AbortOnDrop(tokio::spawn(
        protection.prune_games_periodically(store.clone(), config.game_ttl),
    ));
    let api = GameApi::new(
        store.clone(),
        ApiSettings::from_config(&config),
        switch.clone(),
    )
    .with_protection(protection)
    .with_bots(crate::bots::BotSettings::from_config(&config));
    // Fires turn clocks and resumes lost bot turns until shutdown begins.
    let _scheduler = AbortOnDrop(
        crate::clocks::Scheduler::new(
            store.clone(),
            api.bots().clone(),
            crate::clocks::ClockSettings::from_config(&config),
            switch.clone(),
        )
        .spawn(),
    );
    // Outside in: the call guard (concurrency, deadlines), then the answers to what never
    // reaches a handler (undecodable bodies, panics), then the service.
    let game_service = ProtocolErrors::new(
        GameServiceAnswers::new(api, config.max_message_bytes),
        config.max_message_bytes,
    );
    let game_service = CallGuard::new(
        game_service,
        CallLimits {
            max_concurrent_calls: config.max_concurrent_calls,
            max_call_time: config.max_call_time,
        },
    );

    let (health, health_service) = tonic_health::server::health_reporter();
    set_health(&health, ServingStatus::Serving).await;
    health
        .set_service_status(LIVENESS_SERVICE, ServingStatus::Serving)
        .await;
    let poller = tokio::spawn(poll_store_health(store, health.clone()));

    // Each version lists its own service by itself; each is given the other's too, so that a
    // client listing services with either version sees every service this server answers.
    let reflection_v1 = reflection()
        .register_encoded_file_descriptor_set(tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = reflection()
        .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let signal = {
        let switch = switch.clone();
        async move {
            shutdown.await;
            tracing::info!("shutting down: health NOT_SERVING, closing watch streams, draining");
            switch.trigger();
            poller.abort();
            // Wait for the poller to stop so that it cannot report SERVING again.
            let _ = poller.await;
            set_health(&health, ServingStatus::NotServing).await;
            health
                .set_service_status(LIVENESS_SERVICE, ServingStatus::NotServing)
                .await;
        }
    };

    let drain_timeout = config.drain_timeout;
    let settings = ConnectionSettings::from_config(&config);
    tracing::info!(
        max_connections = settings.max_connections,
        idle_timeout = %humantime::format_duration(settings.timeouts.idle),
        handshake_timeout = %humantime::format_duration(settings.timeouts.handshake),
        "connection limits"
    );
    let router = Server::builder()
        // A connection past its age gets GOAWAY: its calls in flight (open watches included)
        // finish, and the client opens a new connection, possibly to another replica.
        .max_connection_age(config.max_connection_age)
        .http2_keepalive_interval(Some(connections::KEEPALIVE_INTERVAL))
        .http2_keepalive_timeout(Some(connections::KEEPALIVE_TIMEOUT))
        .accept_http1(true)
        // Outermost, so that every request counts as activity on its connection.
        .layer(connections::ActivityLayer)
        .layer(protection::cors::layer(&config.cors_origins))
        // Before gRPC-Web reads the request: a text request is answered in text.
        .layer(grpc_web_text::TextAnswersLayer)
        .layer(tonic_web::GrpcWebLayer::new())
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(game_service);
    // Each connection gets a server of its own over the shared routes, so that it can be sent
    // GOAWAY alone when idle (`crate::connections`).
    let serve_connection: Arc<ServeConnection> = Arc::new(move |connection, close| {
        let router = router.clone();
        Box::pin(async move {
            let served = router
                .serve_with_incoming_shutdown(connections::single(connection), close)
                .await;
            if let Err(error) = served {
                tracing::debug!(%error, "serving a connection failed");
            }
        })
    });
    // Plain TCP or TLS (`tls/`), with Nagle's algorithm off either way.
    let server = connections::serve(listener, tls, settings, serve_connection, signal);

    let drain_deadline = {
        let drained = switch.wait();
        async move {
            drained.await;
            tokio::time::sleep(drain_timeout).await;
        }
    };
    tokio::select! {
        () = server => {
            tracing::info!("server stopped");
        }
        () = drain_deadline => {
            tracing::warn!(
                timeout = ?drain_timeout,
                "calls still open after the drain timeout were cut"
            );
        }
    }
    Ok(())
}

/// Stops a background task when the server stops.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Sets the status of the whole server ("") and of `GameService`.
async fn set_health(health: &HealthReporter, status: ServingStatus) {
    health.set_service_status("", status).await;
    health.set_service_status(SERVICE_NAME, status).await;
}

/// Server reflection over the game service and health: the services this server answers
/// besides reflection itself.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(deckmate_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
}

/// Reports NOT_SERVING while the store does not answer, and SERVING again once it does. While it
/// answers, also makes sure its epoch marker exists, so that a store that lost its data gets a
/// new epoch within one period, before games created since could be taken for lost ones.
async fn poll_store_health(store: Arc<dyn SessionStore>, health: HealthReporter) {
    let mut ticks = tokio::time::interval(HEALTH_POLL_PERIOD);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut healthy = true;
    loop {
        ticks.tick().await;
        let now_healthy = store.health().await;
        if now_healthy && let Err(error) = store.epoch().await {
            tracing::warn!(%error, "could not read or write the store's epoch marker");
        }
        if now_healthy != healthy {
            if now_healthy {
                tracing::info!("session store answers again; serving");
            } else {
                tracing::warn!("session store does not answer; health is NOT_SERVING");
            }
            healthy = now_healthy;
        }
        let status = if healthy {
            ServingStatus::Serving
        } else {
            ServingStatus::NotServing
        };
        set_health(&health, status).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deckmate_proto::v1 as pb;
    use deckmate_proto::v1::game_service_client::GameServiceClient;
    use futures::StreamExt;
    use prost::Message;
    use std::net::SocketAddr;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::sync::oneshot;
    use tokio::task::JoinHandle;
    use tonic::transport::Channel;
    use tonic_health::pb::health_check_response::ServingStatus as Wire;
    use tonic_health::pb::health_client::HealthClient;
    use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

    struct Running {
        address: SocketAddr,
        stop: oneshot::Sender<()>,
        server: JoinHandle<Result<(), ServeError>>,
    }

    async fn start(config: Config) -> Running {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn(serve(config, listener, async {
            let _ = stopped.await;
        }));
        Running {
            address,
            stop,
            server,
        }
    }

    async fn channel(address: SocketAddr) -> Channel {
        Channel::from_shared(format!("http://{address}"))
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    fn health_of(response: HealthCheckResponse) -> Wire {
        Wire::try_from(response.status).unwrap()
    }

    fn pigeon_chess() -> pb::CreateGameRequest {
        pb::CreateGameRequest {
            config: Some(pb::GameConfig {
                game: Some(pb::game_config::Game::PigeonChess(Default::default())),
            }),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn serves_the_api_health_and_reflection() {
        let running = start(Config::default()).await;
        let channel = channel(running.address).await;

        let mut games = GameServiceClient::new(channel.clone());
        let variants = games
            .list_variants(pb::ListVariantsRequest {})
            .await
            .unwrap()
            .into_inner();
        assert!(variants.variants.iter().any(|v| v.id == "pigeon_chess"));
        let game = games
            .create_game(pigeon_chess())
            .await
            .unwrap()
            .into_inner();
        let view = games
            .observe(pb::ObserveRequest {
                game_id: game.game_id.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!((view.game_id, view.version), (game.game_id, 0));

        let mut health = HealthClient::new(channel.clone());
        for service in ["", SERVICE_NAME, LIVENESS_SERVICE] {
            let request = HealthCheckRequest {
                service: service.to_string(),
            };
            let status = health.check(request).await.unwrap().into_inner();
            assert_eq!(health_of(status), Wire::Serving, "{service:?}");
        }

        use tonic_reflection::pb::{v1, v1alpha};
        let mut reflection =
            v1::server_reflection_client::ServerReflectionClient::new(channel.clone());
        let request = v1::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(
                String::new(),
            )),
        };
        let mut answers = reflection
            .server_reflection_info(futures::stream::iter([request]))
            .await
            .unwrap()
            .into_inner();
        let answer = answers.next().await.unwrap().unwrap();
        let Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
            answer.message_response
        else {
            panic!("not a service list");
        };
        let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
        assert!(names.contains(&SERVICE_NAME.to_string()), "{names:?}");
        assert!(
            names.contains(&"grpc.health.v1.Health".to_string()),
            "{names:?}"
        );
        for version in ["v1", "v1alpha"] {
            let reflection = format!("grpc.reflection.{version}.ServerReflection");
            assert!(names.contains(&reflection), "{names:?}");
        }

        let mut alpha = v1alpha::server_reflection_client::ServerReflectionClient::new(channel);
        let request = v1alpha::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(
                v1alpha::server_reflection_request::MessageRequest::FileContainingSymbol(
                    SERVICE_NAME.to_string(),
                ),
            ),
        };
        let list = v1alpha::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(
                v1alpha::server_reflection_request::MessageRequest::ListServices(String::new()),
            ),
        };
        let mut answers = alpha
            .server_reflection_info(futures::stream::iter([request, list]))
            .await
            .unwrap()
            .into_inner();
        let answer = answers.next().await.unwrap().unwrap();
        assert!(matches!(
            answer.message_response,
            Some(v1alpha::server_reflection_response::MessageResponse::FileDescriptorResponse(_))
        ));
        let answer = answers.next().await.unwrap().unwrap();
        let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
            answer.message_response
        else {
            panic!("not a service list");
        };
        let mut alpha_names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
        let mut v1_names = names;
        alpha_names.sort();
        v1_names.sort();
        assert_eq!(alpha_names, v1_names, "both versions list every service");

        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn shutdown_turns_health_off_and_closes_watch_streams() {
        let running = start(Config::default()).await;
        let channel = channel(running.address).await;
        let mut games = GameServiceClient::new(channel.clone());
        let game = games
            .create_game(pigeon_chess())
            .await
            .unwrap()
            .into_inner();
        let mut watch = games
            .watch(pb::WatchRequest {
                game_id: game.game_id,
                from_version: 0,
            })
            .await
            .unwrap()
            .into_inner();
        let mut health = HealthClient::new(channel)
            .watch(HealthCheckRequest {
                service: SERVICE_NAME.to_string(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            health_of(health.message().await.unwrap().unwrap()),
            Wire::Serving
        );

        running.stop.send(()).unwrap();
        let closed = watch.message().await.unwrap_err();
        assert_eq!(closed.code(), tonic::Code::Unavailable);
        assert_eq!(
            tonic_types::StatusExt::get_details_error_info(&closed)
                .expect("error info")
                .reason,
            "SHUTTING_DOWN"
        );
        assert!(tonic_types::StatusExt::get_details_retry_info(&closed).is_some());
        assert_eq!(
            health_of(health.message().await.unwrap().unwrap()),
            Wire::NotServing
        );
        drop(health);
        running.server.await.unwrap().unwrap();
    }

    /// One connection allowed, idle after 300 ms: a call that needs a new connection fails
    /// while the first is open, which shows whether the first was closed.
    fn one_short_lived_connection() -> Config {
        Config {
            max_connections: Some(1),
            idle_timeout: Duration::from_millis(300),
            ..Config::default()
        }
    }

    /// Polls `call` every 100 ms until it succeeds; false after a minute.
    async fn eventually<F: Future<Output = bool>>(mut call: impl FnMut() -> F) -> bool {
        for _ in 0..600 {
            if call().await {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    }

    #[tokio::test]
    async fn an_idle_connection_is_closed_and_frees_its_place() {
        let running = start(one_short_lived_connection()).await;
        let first = channel(running.address).await;
        let mut games = GameServiceClient::new(first);
        games
            .list_variants(pb::ListVariantsRequest {})
            .await
            .unwrap();
        let second = Channel::from_shared(format!("http://{}", running.address))
            .unwrap()
            .connect_lazy();
        let health = HealthClient::new(second);
        // Refused while the first connection holds the only place, served once it idled out.
        assert!(
            eventually(|| {
                let mut health = health.clone();
                async move { health.check(HealthCheckRequest::default()).await.is_ok() }
            })
            .await,
            "the idle connection was never closed"
        );
        drop((games, health));
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn an_open_watch_keeps_its_connection_past_the_idle_timeout() {
        let running = start(one_short_lived_connection()).await;
        let mut games = GameServiceClient::new(channel(running.address).await);
        let game = games
            .create_game(pigeon_chess())
            .await
            .unwrap()
            .into_inner();
        let mut watch = games
            .watch(pb::WatchRequest {
                game_id: game.game_id.clone(),
                from_version: 0,
            })
            .await
            .unwrap()
            .into_inner();
        // Many idle timeouts pass with the stream open and nothing else on the connection.
        tokio::time::sleep(Duration::from_secs(2)).await;
        // Still the same connection: a new one would be refused by the limit of one.
        let view = games
            .observe(pb::ObserveRequest {
                game_id: game.game_id,
            })
            .await
            .expect("the connection is still open")
            .into_inner();
        assert_eq!(view.version, 0);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), watch.message())
                .await
                .is_err(),
            "the watch stream ended"
        );
        drop(watch);
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn browsers_get_cors_and_grpc_web() {
        let running = start(Config::default()).await;
        let preflight = http1_exchange(
            running.address,
            "OPTIONS /deckmate.v1.GameService/ListVariants HTTP/1.1\r\n\
             Host: localhost\r\n\
             Origin: http://example.com\r\n\
             Access-Control-Request-Method: POST\r\n\
             Access-Control-Request-Headers: authorization,content-type,x-grpc-web\r\n\
             Connection: close\r\n\r\n",
            &[],
        )
        .await
        .to_ascii_lowercase();
        assert!(preflight.starts_with("http/1.1 200"), "{preflight}");
        assert!(
            preflight.contains("access-control-allow-origin: *"),
            "{preflight}"
        );
        assert!(preflight.contains("authorization"), "{preflight}");

        // An empty ListVariantsRequest in one gRPC-Web frame.
        let frame = [0u8, 0, 0, 0, 0];
        let call = http1_exchange(
            running.address,
            &format!(
                "POST /deckmate.v1.GameService/ListVariants HTTP/1.1\r\n\
                 Host: localhost\r\n\
                 Origin: http://example.com\r\n\
                 Content-Type: application/grpc-web+proto\r\n\
                 X-Grpc-Web: 1\r\n\
                 Content-Length: {}\r\n\
                 Connection: close\r\n\r\n",
                frame.len()
            ),
            &frame,
        )
        .await;
        let lower = call.to_ascii_lowercase();
        assert!(lower.starts_with("http/1.1 200"), "{call}");
        assert!(lower.contains("access-control-expose-headers"), "{call}");
        assert!(lower.contains("grpc-status"), "{call}");
        assert!(call.contains("pigeon_chess"), "{call}");
        assert!(lower.contains("grpc-status:0"), "{call}");
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    /// A gRPC-Web text call that does not say what it reads (no `Accept`, as some text clients
    /// send it) is answered in text, which is what such a client decodes.
    #[tokio::test]
    async fn grpc_web_text_calls_without_accept_are_answered_in_text() {
        use base64::Engine as _;
        use base64::engine::general_purpose::STANDARD;

        let running = start(Config::default()).await;
        // An empty ListVariantsRequest in one gRPC-Web frame, in base64.
        let body = STANDARD.encode([0u8, 0, 0, 0, 0]);
        let response = http1_exchange(
            running.address,
            &format!(
                "POST /deckmate.v1.GameService/ListVariants HTTP/1.1\r\n\
                 Host: localhost\r\n\
                 Content-Type: application/grpc-web-text\r\n\
                 X-Grpc-Web: 1\r\n\
                 Content-Length: {}\r\n\
                 Connection: close\r\n\r\n",
                body.len()
            ),
            body.as_bytes(),
        )
        .await;
        let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
        let head = head.to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{response}");
        let content_type = head
            .lines()
            .find_map(|line| line.strip_prefix("content-type:"))
            .map(str::trim)
            .unwrap_or_default();
        assert!(
            content_type.starts_with("application/grpc-web-text"),
            "{response}"
        );
        let body = if head.contains("transfer-encoding: chunked") {
            dechunked(body)
        } else {
            body.to_string()
        };
        // Each piece of a text answer is encoded apart, padding included, so the text decodes
        // four characters at a time.
        let mut bytes = Vec::new();
        for quantum in body.as_bytes().chunks(4) {
            bytes.extend(STANDARD.decode(quantum).expect("base64 throughout"));
        }
        let mut variants = None;
        let mut trailers = String::new();
        let mut rest = &bytes[..];
        while let [flags, a, b, c, d, tail @ ..] = rest {
            let length = u32::from_be_bytes([*a, *b, *c, *d]) as usize;
            let (frame, after) = tail.split_at(length);
            if flags & 0x80 == 0 {
                variants = Some(pb::ListVariantsResponse::decode(frame).expect("a response"));
            } else {
                trailers = String::from_utf8_lossy(frame).to_ascii_lowercase();
            }
            rest = after;
        }
        assert!(rest.is_empty(), "a cut frame: {body}");
        let variants = variants.expect("a message frame");
        assert!(variants.variants.iter().any(|v| v.id == "pigeon_chess"));
        assert!(trailers.contains("grpc-status:0"), "{trailers}");
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    /// The body of an HTTP/1.1 chunked response, its chunks joined.
    fn dechunked(mut body: &str) -> String {
        let mut joined = String::new();
        loop {
            let (size, rest) = body.split_once("\r\n").expect("a chunk size line");
            let size = usize::from_str_radix(size.trim(), 16).expect("a hexadecimal chunk size");
            if size == 0 {
                return joined;
            }
            joined.push_str(&rest[..size]);
            body = &rest[size + 2..];
        }
    }

    /// Posts `body` to CreateGame as gRPC-Web with `content_type` and returns the response.
    async fn grpc_web_create(address: SocketAddr, content_type: &str, body: &[u8]) -> String {
        let head = format!(
            "POST /deckmate.v1.GameService/CreateGame HTTP/1.1\r\n\
             Host: localhost\r\n\
             Content-Type: {content_type}\r\n\
             X-Grpc-Web: 1\r\n\
             Content-Length: {}\r\n\
             Connection: close\r\n\r\n",
            body.len()
        );
        http1_exchange(address, &head, body).await
    }

    #[tokio::test]
    async fn malformed_bodies_and_grpc_web_frames_are_invalid_requests() {
        let running = start(Config::default()).await;
        let cases: [(&str, &str, &[u8]); 4] = [
            (
                "garbage protobuf",
                "application/grpc-web+proto",
                &[0, 0, 0, 0, 3, 0xff, 0xff, 0xff],
            ),
            (
                "compressed flag without grpc-encoding",
                "application/grpc-web+proto",
                &[1, 0, 0, 0, 0],
            ),
            (
                "truncated length prefix",
                "application/grpc-web+proto",
                &[0, 0, 0],
            ),
            (
                "invalid base64",
                "application/grpc-web-text",
                b"!!not*base64!!",
            ),
        ];
        for (case, content_type, body) in cases {
            let response = grpc_web_create(running.address, content_type, body).await;
            let lower = response.to_ascii_lowercase().replace(": ", ":");
            assert!(lower.contains("grpc-status:3"), "{case}: {response}");
            assert!(
                lower.contains("grpc-status-details-bin"),
                "{case}: {response}"
            );
            for leak in ["decode", "protobuf", "compress", "base64", "eof", "buffer"] {
                let message = lower
                    .lines()
                    .find(|line| line.starts_with("grpc-message"))
                    .unwrap_or_default();
                assert!(!message.contains(leak), "{case} leaks {leak:?}: {message}");
            }
        }
        // The server still answers.
        let mut games = GameServiceClient::new(channel(running.address).await);
        games.create_game(pigeon_chess()).await.unwrap();
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn garbage_grpc_bodies_are_invalid_requests() {
        let running = start(Config::default()).await;
        let mut grpc = tonic::client::Grpc::new(channel(running.address).await);
        grpc.ready().await.unwrap();
        // Bytes that are no ObserveRequest: field 1 announced as 100 bytes long, then nothing.
        let status = grpc
            .unary::<_, Vec<u8>, _>(
                tonic::Request::new(vec![0x0a, 100]),
                http::uri::PathAndQuery::from_static("/deckmate.v1.GameService/Observe"),
                RawCodec,
            )
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert_eq!(
            tonic_types::StatusExt::get_details_error_info(&status)
                .unwrap()
                .reason,
            "INVALID_REQUEST"
        );
        assert!(!status.message().contains("decode"), "{}", status.message());
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    /// The limit counts the bytes a request arrives as, fields the server does not know
    /// included: padding a small request with an unknown field does not get it past the limit.
    #[tokio::test]
    async fn unknown_fields_count_towards_the_request_limit() {
        let config = Config {
            max_message_bytes: 1024,
            ..Config::default()
        };
        let running = start(config).await;
        let mut grpc = tonic::client::Grpc::new(channel(running.address).await)
            .max_encoding_message_size(usize::MAX);
        // An ObserveRequest of an unknown game, then field 15 (unknown) of `padding` bytes.
        let padded = |padding: usize| {
            let mut body = pb::ObserveRequest {
                game_id: "0".repeat(32),
            }
            .encode_to_vec();
            body.push(15 << 3 | 2);
            prost::encoding::encode_varint(padding as u64, &mut body);
            body.resize(body.len() + padding, b'x');
            body
        };
        for (padding, code, reason) in [
            (900, tonic::Code::NotFound, "GAME_NOT_FOUND"),
            (2_000, tonic::Code::ResourceExhausted, "LIMIT_REACHED"),
            (5 << 20, tonic::Code::ResourceExhausted, "LIMIT_REACHED"),
        ] {
            grpc.ready().await.unwrap();
            let status = grpc
                .unary::<_, Vec<u8>, _>(
                    tonic::Request::new(padded(padding)),
                    http::uri::PathAndQuery::from_static("/deckmate.v1.GameService/Observe"),
                    RawCodec,
                )
                .await
                .unwrap_err();
            assert_eq!(status.code(), code, "{padding} bytes: {status:?}");
            let info = tonic_types::StatusExt::get_details_error_info(&status).unwrap();
            assert_eq!(info.reason, reason, "{padding} bytes");
            if code == tonic::Code::ResourceExhausted {
                assert_eq!(info.metadata["limit_bytes"], "1024");
            }
        }
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    /// Sends and receives raw bytes, to put what no client would send on the wire.
    #[derive(Clone, Copy)]
    struct RawCodec;

    impl tonic::codec::Codec for RawCodec {
        type Encode = Vec<u8>;
        type Decode = Vec<u8>;
        type Encoder = RawCodec;
        type Decoder = RawCodec;
        fn encoder(&mut self) -> RawCodec {
            RawCodec
        }
        fn decoder(&mut self) -> RawCodec {
            RawCodec
        }
    }

    impl tonic::codec::Encoder for RawCodec {
        type Item = Vec<u8>;
        type Error = tonic::Status;
        fn encode(
            &mut self,
            item: Vec<u8>,
            dst: &mut tonic::codec::EncodeBuf<'_>,
        ) -> Result<(), tonic::Status> {
            use bytes::BufMut;
            dst.put_slice(&item);
            Ok(())
        }
    }

    impl tonic::codec::Decoder for RawCodec {
        type Item = Vec<u8>;
        type Error = tonic::Status;
        fn decode(
            &mut self,
            src: &mut tonic::codec::DecodeBuf<'_>,
        ) -> Result<Option<Vec<u8>>, tonic::Status> {
            use bytes::Buf;
            Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
        }
    }

    /// Sends one HTTP/1.1 request and returns the whole response, lossily as text.
    async fn http1_exchange(address: SocketAddr, head: &str, body: &[u8]) -> String {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(body).await.unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.unwrap();
        String::from_utf8_lossy(&response).into_owned()
    }

    #[tokio::test]
    async fn oversized_requests_are_refused() {
        let config = Config {
            max_message_bytes: 1024,
            ..Config::default()
        };
        let running = start(config).await;
        let mut games = GameServiceClient::new(channel(running.address).await);
        let request = pb::CreateGameRequest {
            request_id: "x".repeat(2048),
            ..pigeon_chess()
        };
        let status = games.create_game(request).await.unwrap_err();
        assert_eq!(status.code(), tonic::Code::ResourceExhausted);
        assert_eq!(
            tonic_types::StatusExt::get_details_error_info(&status)
                .expect("error info")
                .reason,
            "LIMIT_REACHED"
        );
        assert!(status.message().contains("1024"), "{}", status.message());
        running.stop.send(()).unwrap();
        running.server.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn redis_stores_open_without_connecting_and_bad_urls_are_refused() {
        // Nothing needs to listen: the store connects on first use.
        let config = Config {
            store: StoreUrl::parse("redis://127.0.0.1:1").unwrap(),
            ..Config::default()
        };
        let store = open_store(&config).expect("opened lazily");
        assert!(!store.health().await, "nothing answers on port 1");
        let config = Config {
            store: StoreUrl::parse("redis://127.0.0.1:notaport").unwrap(),
            ..Config::default()
        };
        let error = open_store(&config).err().expect("refused");
        assert!(
            error.to_string().starts_with("cannot open the Redis store"),
            "{error}"
        );
    }
}
