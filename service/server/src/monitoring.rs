//! Prometheus metrics (docs/OPERATIONS.md, "Metrics"): installed only when `--metrics-listen`
//! is set, so that without it every recording call below is a no-op of the `metrics` facade.
//!
//! Metric names and label values live here, in one place, so that the documentation, the
//! exporter's bucket settings and the recording sites cannot drift apart.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use deckmate_engine::GameKind;
use deckmate_engine::bots::BotLevel;
use deckmate_proto::v1 as pb;
use metrics::{Counter, Histogram, SharedString, counter, gauge, histogram};
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder};
use tonic::Code;

use crate::bots::levels;
use crate::clocks::TimeoutPolicy;
use crate::store::instrumented::StoreOp;

mod known;
mod label_values;
mod listener;

pub(crate) use label_values::label_values;
#[cfg(test)]
mod series_tests;

/// RPCs answered, by `method` and gRPC `code`.
pub const RPC_REQUESTS: &str = "deckmate_rpc_requests_total";
/// How long unary RPCs took, by `method` (Watch is not included: see [`WATCH_STREAM`]).
pub const RPC_DURATION: &str = "deckmate_rpc_duration_seconds";
/// How long each Watch stream stayed open.
pub const WATCH_STREAM: &str = "deckmate_watch_stream_seconds";
/// Games created, by `variant`.
pub const GAMES_CREATED: &str = "deckmate_games_created_total";
/// Games finished, by `variant` and `reason`.
pub const GAMES_FINISHED: &str = "deckmate_games_finished_total";
/// Watch streams open now.
pub const WATCHERS: &str = "deckmate_watchers";
/// Live games in the store (store-wide with Redis), refreshed every [`GAMES_LIVE_PERIOD`].
pub const GAMES_LIVE: &str = "deckmate_games_live";
/// How often `deckmate_games_live` is read from the store: often enough for dashboards, rare
/// enough to cost the store nothing.
pub const GAMES_LIVE_PERIOD: Duration = Duration::from_secs(15);
/// STALE_VERSION answers and store commit conflicts.
pub const VERSION_CONFLICTS: &str = "deckmate_version_conflicts_total";
/// Repeated request ids answered from the stored response (CreateGame and Act).
pub const IDEMPOTENT_REPLAYS: &str = "deckmate_idempotent_replays_total";
/// Requests refused by a limit, by `limit`.
pub const LIMIT_REJECTIONS: &str = "deckmate_limit_rejections_total";
/// How long each session store operation took, by `op` (the store method).
pub const STORE_DURATION: &str = "deckmate_store_duration_seconds";
/// Client connections open now.
pub const OPEN_CONNECTIONS: &str = "deckmate_open_connections";
/// Connections closed at once because `--max-connections` were open.
pub const CONNECTIONS_REFUSED: &str = "deckmate_connections_refused_total";
/// Connections closed by a timeout, by `timeout` (`idle` or `handshake`).
pub const CONNECTIONS_TIMED_OUT: &str = "deckmate_connections_timed_out_total";
/// Bot moves committed, by `variant` and `level`.
pub const BOT_MOVES: &str = "deckmate_bot_moves_total";
/// How long each bot move took to compute.
pub const BOT_THINK: &str = "deckmate_bot_think_seconds";
/// Running games with bot seats this replica hosts (see `--max-bot-games`).
pub const BOT_GAMES: &str = "deckmate_bot_games";
/// Counter: turn clocks that ran out, by variant and what the server did (`forfeit`,
/// `bot_move`).
pub const CLOCK_TIMEOUTS: &str = "deckmate_clock_timeouts_total";
/// Bytes the server holds in heap allocations (the allocator's count; with jemalloc only).
pub const HEAP_ALLOCATED: &str = "deckmate_heap_allocated_bytes";
/// Bytes of the allocator's pages resident in memory: allocations, free space it keeps and its
/// own bookkeeping (with jemalloc only).
pub const HEAP_RESIDENT: &str = "deckmate_heap_resident_bytes";
/// How often the heap gauges are refreshed: often enough to watch memory come back after a
/// burst, and reading them costs microseconds.
pub const HEAP_PERIOD: Duration = Duration::from_secs(1);
/// Always 1, labelled with the server's `version`.
pub const BUILD_INFO: &str = "deckmate_build_info";

/// Whether [`install`] has installed the exporter. Every RPC records two labelled series, and
/// building their label sets allocates even when no recorder is there to read them: without the
/// exporter, [`rpc_answered`] skips that work.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Keeps `deckmate_games_live` current: reads the store's count every [`GAMES_LIVE_PERIOD`]
/// until the process ends. A failed read leaves the last value (the store's own health and
/// errors say why).
pub async fn report_live_games(store: std::sync::Arc<dyn crate::store::SessionStore>) {
    let mut ticks = tokio::time::interval(GAMES_LIVE_PERIOD);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match store.live_games().await {
            Ok(count) => gauge!(GAMES_LIVE).set(count as f64),
            Err(error) => tracing::debug!(%error, "cannot count live games for the metrics"),
        }
    }
}

/// The allocator's heap figures, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapStats {
    /// Held in allocations.
    pub allocated: u64,
    /// Resident pages of the allocator, allocations included.
    pub resident: u64,
}

/// Keeps the heap gauges current with `read` (the binary's allocator knows how to read them),
/// every [`HEAP_PERIOD`] until the process ends.
pub async fn report_heap(read: fn() -> Option<HeapStats>) {
    let mut ticks = tokio::time::interval(HEAP_PERIOD);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Some(heap) = read() {
            gauge!(HEAP_ALLOCATED).set(heap.allocated as f64);
            gauge!(HEAP_RESIDENT).set(heap.resident as f64);
        }
    }
}

/// Bucket bounds of the RPC duration histogram, in seconds: 50 µs to 10 s.
pub const RPC_BUCKETS: &[f64] = &[
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 5.0, 10.0,
];
/// Bucket bounds of the bot think histogram, in seconds: 100 µs to 10 s (past
/// `--bot-max-think`, which caps a searching bot).
pub const BOT_THINK_BUCKETS: &[f64] = &[
    0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0,
];
/// Bucket bounds of the Watch stream lifetime histogram, in seconds: 1 s to 24 h.
pub const WATCH_BUCKETS: &[f64] = &[
    1.0,
    5.0,
    15.0,
    60.0,
    300.0,
    900.0,
    3600.0,
    4.0 * 3600.0,
    12.0 * 3600.0,
    24.0 * 3600.0,
];

label_values! {
    /// A limit a request can be refused by; its label value is [`Limit::label`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Limit {
        /// `--max-games`: CreateGame while the store is full.
        MaxGames => "max_games",
        /// `--max-message-bytes`: a request larger than allowed.
        MessageSize => "message_size",
        /// `--max-watchers`: Watch while the server has its maximum of open streams.
        MaxWatchers => "max_watchers",
        /// `--max-concurrent-calls`: a call shed while the server handles its maximum.
        Concurrency => "concurrency",
        /// `--create-rate`: CreateGame faster than the caller's rate.
        CreateRate => "create_rate",
        /// `--max-games-per-client`: CreateGame while the caller holds its maximum of live games.
        GamesPerClient => "games_per_client",
        /// `--max-watchers-per-game`: Watch while the game has its maximum of open streams.
        WatchersPerGame => "watchers_per_game",
        /// `--max-bot-games`: CreateGame with bot seats while this replica hosts its maximum of
        /// running bot games.
        MaxBotGames => "max_bot_games",
        /// `--max-watchers-per-client`: Watch while the client has its maximum of open streams.
        WatchersPerClient => "watchers_per_client",
    }
}

label_values! {
    /// A timeout that closes a client connection; its label value is
    /// [`ConnectionTimeout::label`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ConnectionTimeout {
        /// `--handshake-timeout`: no request (or no finished TLS handshake) in time.
        Handshake => "handshake",
        /// `--idle-timeout`: no call open for that long.
        Idle => "idle",
    }
}

/// Why the metrics could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The listen address cannot be bound (taken, or not this host's).
    #[error("{0}")]
    Bind(#[from] std::io::Error),
    /// The recorder cannot be built or installed (a recorder is installed already, say).
    #[error("{0}")]
    Recorder(#[from] BuildError),
}

/// Installs the Prometheus recorder and its HTTP listener (serving `/metrics`) on `address`,
/// and returns the address bound: `address` itself, but with the port the system picked when
/// `address` asks for port 0. The listener is bound before this returns, so a taken or bad
/// address fails start-up. Needs a Tokio runtime; at most once per process.
pub fn install(address: SocketAddr) -> Result<SocketAddr, InstallError> {
    // Bound first: a taken address leaves no recorder installed.
    let (listener, bound) = listener::bind(address)?;
    let recorder = builder()?.build_recorder();
    let handle = recorder.handle();
    metrics::set_global_recorder(recorder).map_err(BuildError::from)?;
    tokio::spawn(listener::serve(listener, handle));
    INSTALLED.store(true, Ordering::Release);
    describe();
    gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
    start_at_zero();
    Ok(bound)
}

/// The exporter with the bucket bounds of each histogram (the tests build theirs with it too).
fn builder() -> Result<PrometheusBuilder, BuildError> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(RPC_DURATION.to_string()), RPC_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(STORE_DURATION.to_string()), RPC_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(WATCH_STREAM.to_string()), WATCH_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(BOT_THINK.to_string()), BOT_THINK_BUCKETS)
}

/// Registers, at 0, every series whose labels are known at start-up, so that each is on the
/// first scrape: a series that appears only on its first increment shows as "No data" on a
/// dashboard rather than 0, and `rate()` and `increase()` miss that first increment, so an
/// alert on it never fires. Each labelled series is registered through the same function its
/// recording site uses, so the two are one series; the label values come from where they are
/// defined (see `known`, and [`StoreOp`] for the store's operations).
fn start_at_zero() {
    for name in [WATCHERS, OPEN_CONNECTIONS, BOT_GAMES] {
        gauge!(name).set(0.0);
    }
    for name in [VERSION_CONFLICTS, IDEMPOTENT_REPLAYS, CONNECTIONS_REFUSED] {
        counter!(name).absolute(0);
    }
    for limit in Limit::ALL {
        counter!(LIMIT_REJECTIONS, "limit" => limit.label()).absolute(0);
    }
    for timeout in ConnectionTimeout::ALL {
        counter!(CONNECTIONS_TIMED_OUT, "timeout" => timeout.label()).absolute(0);
    }
    for kind in GameKind::ALL {
        counter!(GAMES_CREATED, "variant" => kind.id()).absolute(0);
    }
    let descriptors = known::descriptors();
    for method in known::game_service_methods(&descriptors) {
        for code in known::codes() {
            rpc_requests(method.name().to_owned(), code).absolute(0);
        }
        if known::is_unary(method) {
            register(rpc_duration(method.name().to_owned()));
        }
    }
    let reasons = known::wire_values(&descriptors, pb::EndReason::from_str_name);
    for kind in GameKind::ALL {
        let variant = kind.id();
        for &reason in &reasons {
            games_finished(variant, reason).absolute(0);
        }
        for level in BotLevel::ALL {
            bot_moves(variant, levels::label(level)).absolute(0);
        }
        for policy in TimeoutPolicy::ALL {
            clock_timeouts(variant, policy.label()).absolute(0);
        }
    }
    for op in StoreOp::ALL {
        register(store_duration(op));
    }
    register(histogram!(WATCH_STREAM));
    register(histogram!(BOT_THINK));
}

/// Keeps a histogram's series without recording into it: registering is what puts it on the
/// page, with every bucket, its sum and its count at 0.
fn register(histogram: Histogram) {
    drop(histogram);
}

/// The `deckmate_rpc_requests_total` series of `method` and `code`.
fn rpc_requests(method: impl Into<SharedString>, code: Code) -> Counter {
    counter!(RPC_REQUESTS, "method" => method, "code" => code_name(code))
}

/// The `deckmate_rpc_duration_seconds` series of `method`.
fn rpc_duration(method: impl Into<SharedString>) -> Histogram {
    histogram!(RPC_DURATION, "method" => method)
}

/// The `deckmate_store_duration_seconds` series of `op`.
fn store_duration(op: StoreOp) -> Histogram {
    histogram!(STORE_DURATION, "op" => op.label())
}

/// The `deckmate_games_finished_total` series of `variant` and `reason`.
fn games_finished(variant: &'static str, reason: pb::EndReason) -> Counter {
    counter!(GAMES_FINISHED, "variant" => variant, "reason" => end_reason_name(reason))
}

/// The `deckmate_bot_moves_total` series of `variant` and `level`.
fn bot_moves(variant: &'static str, level: &'static str) -> Counter {
    counter!(BOT_MOVES, "variant" => variant, "level" => level)
}

/// The `deckmate_clock_timeouts_total` series of `variant` and `policy`.
fn clock_timeouts(variant: &'static str, policy: &'static str) -> Counter {
    counter!(CLOCK_TIMEOUTS, "variant" => variant, "policy" => policy)
}

/// The help texts the exposition carries.
fn describe() {
    metrics::describe_counter!(
        RPC_REQUESTS,
        "GameService RPCs answered, by method and code"
    );
    metrics::describe_histogram!(
        RPC_DURATION,
        metrics::Unit::Seconds,
        "GameService unary RPC duration (Watch excluded)"
    );
    metrics::describe_histogram!(
        WATCH_STREAM,
        metrics::Unit::Seconds,
        "How long each Watch stream stayed open"
    );
    metrics::describe_histogram!(
        STORE_DURATION,
        metrics::Unit::Seconds,
        "Session store operation duration, by operation"
    );
    metrics::describe_counter!(GAMES_CREATED, "Games created, by variant");
    metrics::describe_counter!(GAMES_FINISHED, "Games finished, by variant and end reason");
    metrics::describe_gauge!(WATCHERS, "Watch streams open on this server");
    metrics::describe_gauge!(
        GAMES_LIVE,
        "Live games in the store; store-wide with Redis, so aggregate replicas with max"
    );
    metrics::describe_counter!(
        VERSION_CONFLICTS,
        "STALE_VERSION answers and store commit conflicts"
    );
    metrics::describe_counter!(
        IDEMPOTENT_REPLAYS,
        "Repeated request ids answered from the stored response"
    );
    metrics::describe_counter!(LIMIT_REJECTIONS, "Requests refused by a limit, by limit");
    metrics::describe_gauge!(
        HEAP_ALLOCATED,
        metrics::Unit::Bytes,
        "Bytes held in heap allocations, by the allocator's count"
    );
    metrics::describe_gauge!(
        HEAP_RESIDENT,
        metrics::Unit::Bytes,
        "Resident bytes of the allocator's pages, free space it keeps included"
    );
    metrics::describe_gauge!(OPEN_CONNECTIONS, "Client connections open on this server");
    metrics::describe_counter!(BOT_MOVES, "Bot moves committed, by variant and level");
    metrics::describe_counter!(
        CLOCK_TIMEOUTS,
        "Turn clocks that ran out, by variant and what the server did"
    );
    metrics::describe_histogram!(
        BOT_THINK,
        metrics::Unit::Seconds,
        "How long each bot move took to compute"
    );
    metrics::describe_gauge!(BOT_GAMES, "Running games with bot seats this replica hosts");
    metrics::describe_counter!(
        CONNECTIONS_REFUSED,
        "Connections closed at once because the connection limit was reached"
    );
    metrics::describe_counter!(
        CONNECTIONS_TIMED_OUT,
        "Connections closed by the idle or handshake timeout, by timeout"
    );
    metrics::describe_gauge!(BUILD_INFO, "Always 1; the version label names the build");
}

/// Records one answered RPC; `elapsed` is `None` for Watch, which the duration histogram leaves
/// out (a stream's lifetime is not a latency).
pub fn rpc_answered(method: &'static str, code: Code, elapsed: Option<Duration>) {
    if !INSTALLED.load(Ordering::Acquire) {
        return;
    }
    rpc_requests(method, code).increment(1);
    if let Some(elapsed) = elapsed {
        rpc_duration(method).record(elapsed.as_secs_f64());
    }
}

/// Records one session store operation.
pub fn store_operation(op: StoreOp, elapsed: Duration) {
    store_duration(op).record(elapsed.as_secs_f64());
}

/// Records a new game.
pub fn game_created(variant: &'static str) {
    counter!(GAMES_CREATED, "variant" => variant).increment(1);
}

/// Records a game that just ended, for the `reason` of its outcome.
pub fn game_finished(variant: &'static str, reason: pb::EndReason) {
    games_finished(variant, reason).increment(1);
}

/// Records a STALE_VERSION answer or a lost commit race.
pub fn version_conflict() {
    counter!(VERSION_CONFLICTS).increment(1);
}

/// Records a request answered from its stored response.
pub fn idempotent_replay() {
    counter!(IDEMPOTENT_REPLAYS).increment(1);
}

/// Records a request refused by `limit`.
pub fn limit_rejected(limit: Limit) {
    counter!(LIMIT_REJECTIONS, "limit" => limit.label()).increment(1);
}

/// Records a bot move of `level` committed in a `variant` game.
pub fn bot_moved(variant: &'static str, level: &'static str) {
    bot_moves(variant, level).increment(1);
}

/// Records a turn clock that ran out in a `variant` game, and what the server did about it.
pub fn clock_timeout(variant: &'static str, policy: &'static str) {
    clock_timeouts(variant, policy).increment(1);
}

/// Records how long one bot move took to compute.
pub fn bot_thought(elapsed: Duration) {
    histogram!(BOT_THINK).record(elapsed.as_secs_f64());
}

/// Records how many running bot games this replica hosts.
pub fn bot_games(count: usize) {
    gauge!(BOT_GAMES).set(count as f64);
}

/// Records a Watch stream opening.
pub fn watch_opened() {
    gauge!(WATCHERS).increment(1.0);
}

/// Records a Watch stream closing after `lifetime`.
pub fn watch_closed(lifetime: Duration) {
    gauge!(WATCHERS).decrement(1.0);
    histogram!(WATCH_STREAM).record(lifetime.as_secs_f64());
}

/// Records a client connection opening.
pub fn connection_opened() {
    gauge!(OPEN_CONNECTIONS).increment(1.0);
}

/// Records a client connection closing.
pub fn connection_closed() {
    gauge!(OPEN_CONNECTIONS).decrement(1.0);
}

/// Records a connection closed at once by the connection limit.
pub fn connection_refused() {
    counter!(CONNECTIONS_REFUSED).increment(1);
}

/// Records a connection closed by `timeout`.
pub fn connection_timed_out(timeout: ConnectionTimeout) {
    counter!(CONNECTIONS_TIMED_OUT, "timeout" => timeout.label()).increment(1);
}

pub use deckmate_proto::code_name;

/// The `reason` label of an end reason: its name without the `END_REASON_` prefix, in lower
/// snake case (`resignation`, `checkmate`, ...).
pub fn end_reason_name(reason: pb::EndReason) -> &'static str {
    use pb::EndReason as R;
    match reason {
        R::Unspecified => "unspecified",
        R::Resignation => "resignation",
        R::DrawAgreed => "draw_agreed",
        R::Score => "score",
        R::PlayerEnded => "player_ended",
        R::NoLegalAction => "no_legal_action",
        R::OutOfCards => "out_of_cards",
        R::NoProgress => "no_progress",
        R::TurnCap => "turn_cap",
        R::KingCaptured => "king_captured",
        R::Checkmate => "checkmate",
        R::Stalemate => "stalemate",
        R::Repetition => "repetition",
        R::InsufficientMaterial => "insufficient_material",
        R::Timeout => "timeout",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_follow_the_grpc_spelling() {
        assert_eq!(code_name(Code::Ok), "OK");
        assert_eq!(code_name(Code::InvalidArgument), "INVALID_ARGUMENT");
        assert_eq!(code_name(Code::FailedPrecondition), "FAILED_PRECONDITION");
        assert_eq!(code_name(Code::ResourceExhausted), "RESOURCE_EXHAUSTED");
        // Every code from 0 to 16 has its own name, matching tonic's description of it.
        let names: std::collections::HashSet<_> = (0..=16)
            .map(|value| code_name(Code::from_i32(value)))
            .collect();
        assert_eq!(names.len(), 17);
    }

    #[test]
    fn end_reasons_are_the_enum_names_in_lower_snake_case() {
        for value in 0..=13 {
            let reason = pb::EndReason::try_from(value).expect("a known end reason");
            let expected = reason
                .as_str_name()
                .trim_start_matches("END_REASON_")
                .to_ascii_lowercase();
            assert_eq!(end_reason_name(reason), expected);
        }
        assert_eq!(end_reason_name(pb::EndReason::Checkmate), "checkmate");
        assert_eq!(end_reason_name(pb::EndReason::Resignation), "resignation");
    }

    #[test]
    fn limit_labels() {
        assert_eq!(Limit::MaxGames.label(), "max_games");
        assert_eq!(Limit::MessageSize.label(), "message_size");
        assert_eq!(Limit::MaxWatchers.label(), "max_watchers");
        assert_eq!(Limit::Concurrency.label(), "concurrency");
        assert_eq!(Limit::CreateRate.label(), "create_rate");
        assert_eq!(Limit::GamesPerClient.label(), "games_per_client");
        assert_eq!(Limit::WatchersPerGame.label(), "watchers_per_game");
        assert_eq!(Limit::MaxBotGames.label(), "max_bot_games");
        assert_eq!(Limit::WatchersPerClient.label(), "watchers_per_client");
        // ALL lists each limit once, so that each has its series from the start.
        let labels: std::collections::HashSet<_> = Limit::ALL.iter().map(|l| l.label()).collect();
        assert_eq!(labels.len(), Limit::ALL.len());
    }

    #[test]
    fn connection_timeout_labels() {
        assert_eq!(ConnectionTimeout::Handshake.label(), "handshake");
        assert_eq!(ConnectionTimeout::Idle.label(), "idle");
    }
}
