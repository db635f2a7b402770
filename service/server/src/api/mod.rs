//! The gRPC handlers of `deckmate.v1.GameService` (docs/ARCHITECTURE.md §3): thin functions that
//! validate a request, call the game and the store, and map failures to [`ApiError`]. One file per
//! RPC.
//!
//! Every RPC runs inside a tracing span with its method, game id and game kind
//! ([`crate::telemetry::rpc_span`]). Tokens and request ids are hashed on arrival and never
//! logged.

pub(crate) mod act;
pub mod answers;
mod create_game;
mod get_history;
mod list_variants;
mod missing;
mod observe;
mod page_token;
mod seal;
mod server_info;
mod watch;

use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use deckmate_engine::Viewer;
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::Encoded;
use futures::future::BoxFuture;
use futures::{FutureExt, Stream};
use tokio::sync::Semaphore;
use tonic::{Request, Response, Status};
use tracing::Instrument;

use crate::auth::{self, TokenHash};
use crate::bots::{BotRunner, BotSettings};
use crate::config::Config;
use crate::error::ApiError;
use crate::monitoring;
use crate::protection::Protection;
use crate::protection::caller::Caller;
use crate::shutdown::Shutdown;
use crate::store::traced::TracedStore;
use crate::store::{GameRecord, SessionStore};
use crate::telemetry;

/// The longest accepted `request_id`, in bytes (a UUID is 36).
const MAX_REQUEST_ID_BYTES: usize = 128;

/// The server settings the handlers need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiSettings {
    /// Whether CreateGame accepts a client seed.
    pub allow_client_seed: bool,
    /// The most `Watch` streams open at once.
    pub max_watchers: usize,
    /// The largest accepted request, in encoded bytes; larger ones are `LIMIT_REACHED`.
    pub max_message_bytes: usize,
    /// Where games are kept, as `GetServerInfo` reports it.
    pub store_kind: pb::StoreKind,
    /// Whether the store writes a record format that holds turn clocks (false under an older
    /// `--write-record-format`).
    pub records_hold_clocks: bool,
}

impl ApiSettings {
    /// The settings of a server configuration.
    pub fn from_config(config: &Config) -> ApiSettings {
        ApiSettings {
            allow_client_seed: config.allow_client_seed,
            max_watchers: config.max_watchers,
            max_message_bytes: config.max_message_bytes,
            store_kind: match config.store {
                crate::config::StoreUrl::Memory => pb::StoreKind::Memory,
                crate::config::StoreUrl::Redis { .. } => pb::StoreKind::Redis,
                crate::config::StoreUrl::RedisCluster(_) => pb::StoreKind::RedisCluster,
            },
            records_hold_clocks: match config.store {
                crate::config::StoreUrl::Memory => true,
                _ => config.write_record_format >= crate::store::redis::CLOCK_RECORD_FORMAT,
            },
        }
    }
}

/// The `GameService` implementation over a [`SessionStore`].
#[derive(Clone)]
pub struct GameApi {
    store: Arc<dyn SessionStore>,
    settings: ApiSettings,
    /// One permit per open `Watch` stream.
    watchers: Arc<Semaphore>,
    shutdown: Shutdown,
    /// API keys and the per-caller and per-game limits.
    protection: Arc<Protection>,
    /// Plays the bot seats.
    bots: BotRunner,
}

impl GameApi {
    /// Handlers over `store`; `Watch` streams end with UNAVAILABLE once `shutdown` is triggered.
    pub fn new(
        store: Arc<dyn SessionStore>,
        mut settings: ApiSettings,
        shutdown: Shutdown,
    ) -> Self {
        // A semaphore holds at most MAX_PERMITS; any larger limit means the same in practice.
        settings.max_watchers = settings.max_watchers.min(Semaphore::MAX_PERMITS);
        let watchers = Arc::new(Semaphore::new(settings.max_watchers));
        // Every store call a handler makes is a child span of its RPC.
        let store: Arc<dyn SessionStore> = Arc::new(TracedStore::new(store));
        let bots = BotRunner::new(store.clone(), BotSettings::default(), shutdown.clone());
        GameApi {
            store,
            settings,
            watchers,
            shutdown,
            protection: Arc::new(Protection::unlimited()),
            bots,
        }
    }

    /// These handlers with bots run by `settings` instead of [`BotSettings::default`].
    pub fn with_bots(mut self, settings: BotSettings) -> Self {
        self.bots = BotRunner::new(self.store.clone(), settings, self.shutdown.clone());
        self
    }

    /// The runner of this server's bot seats.
    pub fn bots(&self) -> &BotRunner {
        &self.bots
    }

    /// These handlers with `protection` (API keys and quotas) instead of none; [`GameApi::new`]
    /// sets no limits, which suits handlers driven in process.
    pub fn with_protection(mut self, protection: Arc<Protection>) -> Self {
        self.protection = protection;
        self
    }

    /// Whether CreateGame needs an `x-api-key` on this server.
    pub fn api_keys_enabled(&self) -> bool {
        self.protection.api_keys_enabled()
    }
}

impl std::fmt::Debug for GameApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameApi")
            .field("settings", &self.settings)
            .field("open_watchers", &self.open_watchers())
            .finish_non_exhaustive()
    }
}

impl GameApi {
    /// What every RPC does first: opens its span, continuing the caller's trace, if any. (The
    /// request's size was checked before it was decoded, on the bytes it arrived as: tonic's
    /// decoding limit is `--max-message-bytes`, and [`crate::protocol_errors`] answers a body
    /// over it with `LIMIT_REACHED`.)
    fn begin<M>(&self, method: &'static str, game_id: &str, request: &Request<M>) -> tracing::Span {
        let span = telemetry::rpc_span(method, game_id);
        crate::otel::continue_trace(&span, request.metadata());
        span
    }

    /// `Watch` streams open now.
    pub fn open_watchers(&self) -> usize {
        self.settings
            .max_watchers
            .saturating_sub(self.watchers.available_permits())
    }
}

/// The stream type of `Watch`.
pub type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::ObserveResponse, Status>> + Send>>;

impl GameApi {
    /// `Act`, answered with its `ActResponse` encoded, written from the game without building
    /// the message ([`LiveGame::write_view`](crate::live::LiveGame::write_view)).
    pub async fn act_encoded(
        &self,
        request: Request<pb::ActRequest>,
    ) -> Result<Response<Encoded>, Status> {
        let span = self.begin("Act", &request.get_ref().game_id, &request);
        serve(
            "Act",
            span,
            act::handle(self, request).boxed(),
            Timing::Whole,
        )
        .await
    }

    /// `Observe`, answered with its `ObserveResponse` encoded, as [`GameApi::act_encoded`].
    pub async fn observe_encoded(
        &self,
        request: Request<pb::ObserveRequest>,
    ) -> Result<Response<Encoded>, Status> {
        let span = self.begin("Observe", &request.get_ref().game_id, &request);
        let handler = observe::handle(self, request);
        serve("Observe", span, handler.boxed(), Timing::Whole).await
    }
}

/// An encoded answer decoded as the message it encodes.
fn decoded<M: prost::Message + Default>(
    answer: Result<Response<Encoded>, Status>,
) -> Result<Response<M>, Status> {
    let (metadata, encoded, extensions) = answer?.into_parts();
    let message = encoded
        .decode()
        .map_err(|error| Status::internal(format!("an answer does not decode: {error}")))?;
    Ok(Response::from_parts(metadata, message, extensions))
}

#[tonic::async_trait]
impl pb::game_service_server::GameService for GameApi {
    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let span = self.begin("CreateGame", "", &request);
        let caller = self.protection.identify(&request);
        // Request ids are remembered per caller (docs/SECURITY.md, "Idempotency").
        let scope = caller
            .as_ref()
            .map_or_else(|_| String::new(), ToString::to_string);
        let keyed = matches!(caller, Ok(Caller::Key(_)));
        // Each bot seat counts as one more game towards the caller's quota.
        let weight = 1 + request.get_ref().seat_options.len();
        let handler = create_game::handle(self, scope, keyed, request.into_inner());
        let handler = self
            .protection
            .create_game(caller, weight, self.store.as_ref(), handler);
        serve("CreateGame", span, handler.boxed(), Timing::Whole).await
    }

    /// [`GameApi::act_encoded`], decoded: the server itself answers with the encoded bytes
    /// ([`answers`]); this serves callers of the trait.
    async fn act(
        &self,
        request: Request<pb::ActRequest>,
    ) -> Result<Response<pb::ActResponse>, Status> {
        decoded(self.act_encoded(request).await)
    }

    /// [`GameApi::observe_encoded`], decoded, as `act` decodes its answer.
    async fn observe(
        &self,
        request: Request<pb::ObserveRequest>,
    ) -> Result<Response<pb::ObserveResponse>, Status> {
        decoded(self.observe_encoded(request).await)
    }

    type WatchStream = WatchStream;

    async fn watch(
        &self,
        request: Request<pb::WatchRequest>,
    ) -> Result<Response<WatchStream>, Status> {
        let span = self.begin("Watch", &request.get_ref().game_id, &request);
        let handler = watch::handle(self, request, span.clone());
        serve("Watch", span, handler.boxed(), Timing::Stream).await
    }

    async fn get_history(
        &self,
        request: Request<pb::GetHistoryRequest>,
    ) -> Result<Response<pb::GetHistoryResponse>, Status> {
        let span = self.begin("GetHistory", &request.get_ref().game_id, &request);
        let handler = get_history::handle(self, request);
        serve("GetHistory", span, handler.boxed(), Timing::Whole).await
    }

    async fn list_variants(
        &self,
        request: Request<pb::ListVariantsRequest>,
    ) -> Result<Response<pb::ListVariantsResponse>, Status> {
        let span = self.begin("ListVariants", "", &request);
        let handler = async { Ok(list_variants::handle()) };
        serve("ListVariants", span, handler.boxed(), Timing::Whole).await
    }

    async fn get_server_info(
        &self,
        request: Request<pb::GetServerInfoRequest>,
    ) -> Result<Response<pb::GetServerInfoResponse>, Status> {
        let span = self.begin("GetServerInfo", "", &request);
        let handler = async { Ok(server_info::handle(self)) };
        serve("GetServerInfo", span, handler.boxed(), Timing::Whole).await
    }
}

/// Whether an RPC's duration goes into `deckmate_rpc_duration_seconds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timing {
    /// A unary call: timed from arrival to answer.
    Whole,
    /// Watch: its handler only opens the stream, whose lifetime is measured apart.
    Stream,
}

/// Serves one RPC, the one place every call passes: runs the handler in its span, then records
/// the answer in the metrics.
///
/// The handler comes boxed: a handler's future holds every state its await points need (an
/// `Act`'s is kilobytes), and each move of it is a copy of all of it; boxed where it is made, it
/// is copied once and then moved as a pointer through this function, its span and tonic's own
/// boxing.
async fn serve<T>(
    method: &'static str,
    span: tracing::Span,
    handler: BoxFuture<'_, Result<T, ApiError>>,
    timing: Timing,
) -> Result<Response<T>, Status> {
    let started = Instant::now();
    let answer = traced(handler, span.clone()).await;
    let code = answer
        .as_ref()
        .map_or_else(Status::code, |_| tonic::Code::Ok);
    telemetry::record_status(&span, code);
    let elapsed = (timing == Timing::Whole).then(|| started.elapsed());
    monitoring::rpc_answered(method, code, elapsed);
    answer
}

/// Runs a handler inside its span, logs how it ended and turns its error into a status.
async fn traced<T>(
    handler: impl Future<Output = Result<T, ApiError>>,
    span: tracing::Span,
) -> Result<Response<T>, Status> {
    async move {
        match handler.await {
            Ok(response) => {
                tracing::debug!("ok");
                Ok(Response::new(response))
            }
            Err(error) => {
                log_error(&error);
                Err(error.into())
            }
        }
    }
    .instrument(span)
    .await
}

/// Logs a failed request: the server's own trouble as a warning, the client's at debug level.
/// (`ApiError::Internal` details are logged when the error becomes a status.) The message the
/// client gets is not logged: it may name what only the caller may know, such as the cards of
/// its hand an illegal action was checked against (docs/SECURITY.md, "Errors and logs"); the
/// reason, and the field of a field violation, say what went wrong.
fn log_error(error: &ApiError) {
    match error {
        ApiError::StoreUnavailable | ApiError::Overloaded => {
            tracing::warn!(reason = error.reason(), "failed")
        }
        ApiError::InvalidField { field, .. } => {
            tracing::debug!(reason = error.reason(), field = %field, "failed")
        }
        _ => tracing::debug!(reason = error.reason(), "failed"),
    }
}

/// Checks a game id from a request: empty is a malformed request; anything not shaped like a
/// game id cannot name a game.
fn require_game_id(id: &str) -> Result<(), ApiError> {
    if id.is_empty() {
        return Err(ApiError::InvalidRequest("game_id is required".to_string()));
    }
    if !crate::auth::is_game_id(id) {
        return Err(ApiError::GameNotFound);
    }
    Ok(())
}

/// Checks a request id from a request (empty means none).
fn check_request_id(request_id: &str) -> Result<(), ApiError> {
    if request_id.len() > MAX_REQUEST_ID_BYTES {
        return Err(ApiError::InvalidRequest(format!(
            "request_id is longer than {MAX_REQUEST_ID_BYTES} bytes"
        )));
    }
    Ok(())
}

/// Loads a game.
async fn load_game(store: &dyn SessionStore, id: &str) -> Result<Arc<GameRecord>, ApiError> {
    require_game_id(id)?;
    existing(store, id, store.load(id).await?).await
}

/// The record a store answered for game `id`, or why there is none (`GAME_NOT_FOUND`, or
/// `GAME_LOST` when the store lost it).
async fn existing(
    store: &dyn SessionStore,
    id: &str,
    loaded: Option<Arc<GameRecord>>,
) -> Result<Arc<GameRecord>, ApiError> {
    match loaded {
        Some(record) => Ok(record),
        None => Err(missing::missing_game(store, id).await),
    }
}

/// Who the caller is to `record`: the seat whose token it presented, or a spectator when it
/// presented none and the game lets spectators in. Records the game's kind on the RPC span, and
/// for an admitted caller its seat and the version read.
fn reader_of(record: &GameRecord, presented: Option<&TokenHash>) -> Result<Viewer, ApiError> {
    let viewer = auth::reader(&record.token_hashes, presented, record.spectators_allowed);
    let (seat, version) = match &viewer {
        Ok(viewer) => (viewer.seat(), Some(record.version())),
        Err(_) => (None, None),
    };
    telemetry::record_game(record.game.kind(), seat, version);
    viewer
}

/// Loads the game a read call names and finds out who the caller is to it.
async fn load_for_reader<T>(
    api: &GameApi,
    request: Request<T>,
    game_id: impl FnOnce(&T) -> &str,
) -> Result<(Arc<GameRecord>, Viewer), ApiError> {
    let presented = auth::presented_token(request.metadata())?;
    let request = request.into_inner();
    let record = load_game(api.store.as_ref(), game_id(&request)).await?;
    let viewer = reader_of(&record, presented.as_ref())?;
    // A bot turn a lost replica left behind resumes here (a no-op when one is queued).
    api.bots.resume(&record);
    Ok((record, viewer))
}

/// Fills in the game id, which views leave empty.
fn with_game_id(mut view: pb::ObserveResponse, id: &str) -> pb::ObserveResponse {
    view.game_id = id.to_string();
    view
}

#[cfg(test)]
pub(crate) mod tests;
