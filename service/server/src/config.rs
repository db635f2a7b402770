//! Server configuration (docs/ARCHITECTURE.md §5): every option is a command-line flag and a
//! `DECKMATE_*` environment variable; a flag wins over its variable.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use ipnet::IpNet;

use crate::protection::caller::parse_range;
use crate::protection::cors::CorsOrigins;
use crate::protection::rate::Rate;
use crate::store::redis::{DEFAULT_RECORD_CACHE, RECORD_FORMATS};

/// The default listen address.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:50051";
/// The default idle-game expiry.
pub const DEFAULT_GAME_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// The default cap on live games.
pub const DEFAULT_MAX_GAMES: usize = 100_000;
/// The default cap on open `Watch` streams.
pub const DEFAULT_MAX_WATCHERS: usize = 10_000;
/// The default cap on one request message (64 KiB).
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// The default deadline of one call to a networked store.
pub const DEFAULT_STORE_TIMEOUT: Duration = Duration::from_secs(2);
/// The default cap on running games with bot seats per replica.
pub const DEFAULT_MAX_BOT_GAMES: usize = 1000;
/// The default longest unary call.
pub const DEFAULT_MAX_CALL_TIME: Duration = Duration::from_secs(10);
/// The default cap on calls handled at once.
pub const DEFAULT_MAX_CONCURRENT_CALLS: usize = 1024;
/// The default CreateGame burst per caller.
pub const DEFAULT_CREATE_BURST: u32 = 20;
/// The default cap on live games created by one caller.
pub const DEFAULT_MAX_GAMES_PER_CLIENT: usize = 1000;
/// The default cap on open `Watch` streams of one game.
pub const DEFAULT_MAX_WATCHERS_PER_GAME: usize = 64;
/// The default cap on open `Watch` streams of one client, over every game.
pub const DEFAULT_MAX_WATCHERS_PER_CLIENT: usize = 1000;
/// The default time shutdown waits for open calls before cutting them.
pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(30);
/// The default age after which a client connection is asked to close (HTTP/2 GOAWAY).
pub const DEFAULT_MAX_CONNECTION_AGE: Duration = Duration::from_secs(10 * 60);
/// The default time a client connection may stay open with no request in flight.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(5 * 60);
/// The default time from accepting a connection to its first request.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Everything the server can be told at startup.
#[derive(Clone, Debug, PartialEq, Eq, Parser)]
#[command(
    name = "deckmate-server",
    version,
    about = "Deckmate game server: the deckmate.v1.GameService gRPC API (with gRPC-Web, health and reflection)."
)]
pub struct Config {
    /// Address to listen on for gRPC and gRPC-Web. Port 0 picks a free port (it is logged).
    #[arg(long, env = "DECKMATE_LISTEN", default_value = DEFAULT_LISTEN)]
    pub listen: SocketAddr,

    /// Session store: `memory` (games live in this process), a `redis://` / `rediss://` URL, a
    /// Redis on a Unix socket as `redis+unix:///path/to/redis.sock[?db=N&user=U&pass=P]` (or
    /// `unix:///path/to/redis.sock[?...]`), or a Redis Cluster as
    /// `redis-cluster://[user:pass@]host:port,host:port,...` (seed nodes).
    #[arg(long, env = "DECKMATE_STORE", default_value = "memory", value_parser = StoreUrl::parse)]
    pub store: StoreUrl,

    /// The deadline of one call to a networked store (Redis), such as `2s` or `500ms`; a store
    /// that does not answer in time counts as unavailable (`STORE_UNAVAILABLE`).
    #[arg(long, env = "DECKMATE_STORE_TIMEOUT", default_value = "2s", value_parser = parse_duration)]
    pub store_timeout: Duration,

    /// How long a game may go without an accepted action before it expires, such as `30s`,
    /// `10m` or `24h`.
    #[arg(long, env = "DECKMATE_GAME_TTL", default_value = "24h", value_parser = parse_duration)]
    pub game_ttl: Duration,

    /// Accept the `seed` field of CreateGame (for tests and reproductions). Off by default: a
    /// seed known to a player lets it predict every shuffle. `--allow-client-seed` alone means
    /// true; the variable takes true/false, yes/no, on/off or 1/0.
    #[arg(
        long,
        env = "DECKMATE_ALLOW_CLIENT_SEED",
        default_value_t = false,
        num_args = 0..=1,
        default_missing_value = "true",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub allow_client_seed: bool,

    /// Log format: `text` for people, `json` for log collectors. The level comes from
    /// `RUST_LOG` (default `info`).
    #[arg(long, env = "DECKMATE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// The most games the server holds at once; CreateGame beyond it fails with
    /// `LIMIT_REACHED`.
    #[arg(long, env = "DECKMATE_MAX_GAMES", default_value_t = DEFAULT_MAX_GAMES)]
    pub max_games: usize,

    /// The most `Watch` streams open at once; more fail with `LIMIT_REACHED`.
    #[arg(long, env = "DECKMATE_MAX_WATCHERS", default_value_t = DEFAULT_MAX_WATCHERS)]
    pub max_watchers: usize,

    /// The largest request message the server decodes, in bytes.
    #[arg(
        long,
        env = "DECKMATE_MAX_MESSAGE_BYTES",
        default_value_t = DEFAULT_MAX_MESSAGE_BYTES
    )]
    pub max_message_bytes: usize,

    /// Address to serve Prometheus metrics on, at `/metrics` (such as `127.0.0.1:9090`). Unset
    /// by default: then nothing listens and no metrics are recorded.
    #[arg(long, env = "DECKMATE_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// PEM file with the server's TLS certificate chain (its own certificate first). With
    /// `--tls-key`, the API listener speaks TLS only (ALPN `h2` and `http/1.1`); both files are
    /// re-read on SIGHUP.
    #[arg(long, env = "DECKMATE_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// PEM file with the private key of `--tls-cert`.
    #[arg(long, env = "DECKMATE_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// PEM file with the CAs that sign client certificates: when set, every client must present
    /// a certificate signed by one of them (mutual TLS). Needs `--tls-cert` and `--tls-key`.
    #[arg(long, env = "DECKMATE_TLS_CLIENT_CA", requires = "tls_cert")]
    pub tls_client_ca: Option<PathBuf>,

    /// PEM file with the CAs to trust for a `rediss://` store instead of the built-in public
    /// roots (a private CA). Any other store refuses it at start-up.
    #[arg(long, env = "DECKMATE_REDIS_CA_CERT")]
    pub redis_ca_cert: Option<PathBuf>,

    /// After each write to Redis, wait for one replica to acknowledge it (`WAIT`), so that an
    /// acknowledged action survives the loss of its master: `auto` (on for a Redis Cluster,
    /// waiting up to half the store timeout; off for one server), `off`, or the longest wait,
    /// such as `500ms`. A write no replica acknowledged in time answers UNAVAILABLE
    /// `STORE_UNAVAILABLE`; retrying it with the same request id is safe.
    #[arg(long, env = "DECKMATE_REDIS_REPLICA_ACK", default_value = "auto", value_parser = ReplicaAck::parse)]
    pub redis_replica_ack: ReplicaAck,
    /// The Redis record format written: 4 (a game's record, bot seats and turn clocks included,
    /// plus an action log that each commit appends to), 3 (the same without clocks, which the
    /// release before clocks reads), 2 (without bot seats either, which the release before bots
    /// reads) or 1 (the whole game rewritten by each commit, which replicas of the first release
    /// read): use the older format during a rolling upgrade from such a release, then 4. Every
    /// format is read; on a Redis store, CreateGame refuses clocks under 1 to 3 and bot seats
    /// under 1 or 2.
    #[arg(
        long,
        env = "DECKMATE_WRITE_RECORD_FORMAT",
        default_value_t = *RECORD_FORMATS.end(),
        value_parser = clap::value_parser!(u32).range(i64::from(*RECORD_FORMATS.start())..=i64::from(*RECORD_FORMATS.end()))
    )]
    pub write_record_format: u32,
    /// How many games' records a replica keeps copies of, so that an action on a game it served
    /// last needs one Redis call (0: none; each copy is validated by the commit).
    #[arg(long, env = "DECKMATE_RECORD_CACHE", default_value_t = DEFAULT_RECORD_CACHE)]
    pub record_cache: usize,
    /// The longest a unary call may take, such as `10s`; past it the client gets
    /// DEADLINE_EXCEEDED while the call finishes (a commit is never cut). A shorter client
    /// deadline wins. Watch is exempt.
    #[arg(long, env = "DECKMATE_MAX_CALL_TIME", default_value = "10s", value_parser = parse_duration)]
    pub max_call_time: Duration,

    /// The most GameService calls handled at once; more are refused at once with UNAVAILABLE
    /// `OVERLOADED` (health and reflection are not counted).
    #[arg(
        long,
        env = "DECKMATE_MAX_CONCURRENT_CALLS",
        default_value_t = DEFAULT_MAX_CONCURRENT_CALLS,
        value_parser = parse_at_least_one
    )]
    pub max_concurrent_calls: usize,

    /// CreateGame calls per caller (API key name, else client IP): `<count>/<s|min|hour>`, such
    /// as `60/min`, or `off`.
    #[arg(long, env = "DECKMATE_CREATE_RATE", default_value = "60/min", value_parser = Rate::parse)]
    pub create_rate: Rate,

    /// CreateGame calls a caller may make in a burst before `--create-rate` applies.
    #[arg(
        long,
        env = "DECKMATE_CREATE_BURST",
        default_value_t = DEFAULT_CREATE_BURST,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub create_burst: u32,

    /// The most live games one caller may have created (counted on this replica).
    #[arg(
        long,
        env = "DECKMATE_MAX_GAMES_PER_CLIENT",
        default_value_t = DEFAULT_MAX_GAMES_PER_CLIENT
    )]
    pub max_games_per_client: usize,

    /// The most `Watch` streams open at once on one game (on this replica) for its spectators
    /// together, and as many again for each of its seats (streams opened with the seat's token),
    /// so that spectators never lock the players out.
    #[arg(
        long,
        env = "DECKMATE_MAX_WATCHERS_PER_GAME",
        default_value_t = DEFAULT_MAX_WATCHERS_PER_GAME
    )]
    pub max_watchers_per_game: usize,

    /// The most `Watch` streams one client (its address, as `--trusted-proxies` reads it) may
    /// have open at once on this replica, over every game, so that one client cannot take all
    /// of `--max-watchers`.
    #[arg(
        long,
        env = "DECKMATE_MAX_WATCHERS_PER_CLIENT",
        default_value_t = DEFAULT_MAX_WATCHERS_PER_CLIENT
    )]
    pub max_watchers_per_client: usize,

    /// Proxies whose `x-forwarded-for` names the client: comma-separated CIDR ranges or
    /// addresses. None by default: the TCP peer is the client.
    #[arg(
        long,
        env = "DECKMATE_TRUSTED_PROXIES",
        value_delimiter = ',',
        value_parser = parse_range
    )]
    pub trusted_proxies: Vec<IpNet>,

    /// A file of API keys, one `<name>:<sha256-hex>` per line (`deckmate-server hash-key` makes
    /// them); when set, CreateGame needs a valid `x-api-key`. Re-read on SIGHUP.
    #[arg(long, env = "DECKMATE_API_KEYS_FILE")]
    pub api_keys_file: Option<PathBuf>,

    /// Origins browsers may call from: `*` (any) or a comma-separated list such as
    /// `https://play.example.com,http://localhost:5173`.
    #[arg(long, env = "DECKMATE_CORS_ORIGINS", default_value = "*", value_parser = CorsOrigins::parse)]
    pub cors_origins: CorsOrigins,

    /// How long shutdown (SIGTERM) waits for open calls to finish before cutting them, such as
    /// `30s`. Keep it below the process manager's kill timeout.
    #[arg(long, env = "DECKMATE_DRAIN_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub drain_timeout: Duration,

    /// The age after which a client connection is closed gracefully (HTTP/2 GOAWAY; calls in
    /// flight finish, clients reconnect), such as `10m`, so that new replicas get traffic.
    #[arg(
        long,
        env = "DECKMATE_MAX_CONNECTION_AGE",
        default_value = "10m",
        value_parser = parse_duration
    )]
    pub max_connection_age: Duration,

    /// The most client connections open at once; beyond it a new connection is accepted and
    /// closed at once, so that the server keeps file descriptors for its store and logs.
    /// Default: the open-file limit (raised to its hard limit at start-up) minus 64.
    #[arg(long, env = "DECKMATE_MAX_CONNECTIONS", value_parser = parse_at_least_one)]
    pub max_connections: Option<usize>,

    /// How long a client connection may stay open with no request in flight (an open Watch
    /// counts as one), such as `5m`; then it is closed, gracefully with HTTP/2 GOAWAY.
    #[arg(
        long,
        env = "DECKMATE_IDLE_TIMEOUT",
        default_value = "5m",
        value_parser = parse_duration
    )]
    pub idle_timeout: Duration,

    /// How long a new connection may take from being accepted to its first request (TLS
    /// handshake and HTTP/2 preface included), such as `10s`; then it is closed.
    #[arg(
        long,
        env = "DECKMATE_HANDSHAKE_TIMEOUT",
        default_value = "10s",
        value_parser = parse_duration
    )]
    pub handshake_timeout: Duration,

    /// Allow CreateGame to make a game whose every seat is a bot for any caller (callers with an
    /// API key may always). Off by default, since such a game costs the server work that no
    /// player is waiting for. The variable takes true/false, yes/no, on/off or 1/0.
    #[arg(
        long,
        env = "DECKMATE_ALLOW_BOT_ONLY_GAMES",
        default_value_t = false,
        num_args = 0..=1,
        default_missing_value = "true",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub allow_bot_only_games: bool,
    /// How many bot moves this replica computes at once, each on a blocking thread off the
    /// request path (default: half the cores, at least 1).
    #[arg(long, env = "DECKMATE_BOT_WORKERS", default_value_t = default_bot_workers(), value_parser = parse_at_least_one)]
    pub bot_workers: usize,
    /// The longest a bot thinks about one move, such as `2s`; a searching bot then plays the
    /// best move it found so far.
    #[arg(long, env = "DECKMATE_BOT_MAX_THINK", default_value = "2s", value_parser = parse_duration)]
    pub bot_max_think: Duration,
    /// The most running games with bot seats this replica hosts at once (docs/OPERATIONS.md,
    /// "Bots"); CreateGame with bot seats beyond it is RESOURCE_EXHAUSTED `LIMIT_REACHED`.
    #[arg(long, env = "DECKMATE_MAX_BOT_GAMES", default_value_t = DEFAULT_MAX_BOT_GAMES)]
    pub max_bot_games: usize,
    /// How long a replica that claimed a due turn clock (or bot turn) holds it before another
    /// replica may claim it, such as `2s` (docs/CLOCKS.md): a lost replica's deadlines fire
    /// elsewhere within the lease plus `--timer-poll`.
    #[arg(long, env = "DECKMATE_TIMER_LEASE", default_value = "2s", value_parser = parse_duration)]
    pub timer_lease: Duration,
    /// How often each replica looks for due turn clocks and bot turns, such as `200ms`.
    #[arg(long, env = "DECKMATE_TIMER_POLL", default_value = "200ms", value_parser = parse_duration)]
    pub timer_poll: Duration,
}

/// The default `--bot-workers`: half the cores this process may use, at least one.
pub fn default_bot_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| (cores.get() / 2).max(1))
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: DEFAULT_LISTEN
                .parse()
                .expect("the default listen address parses"),
            store: StoreUrl::Memory,
            store_timeout: DEFAULT_STORE_TIMEOUT,
            game_ttl: DEFAULT_GAME_TTL,
            allow_client_seed: false,
            log_format: LogFormat::Text,
            max_games: DEFAULT_MAX_GAMES,
            max_watchers: DEFAULT_MAX_WATCHERS,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            metrics_listen: None,
            tls_cert: None,
            tls_key: None,
            tls_client_ca: None,
            redis_ca_cert: None,
            redis_replica_ack: ReplicaAck::Auto,
            write_record_format: *RECORD_FORMATS.end(),
            record_cache: DEFAULT_RECORD_CACHE,
            max_call_time: DEFAULT_MAX_CALL_TIME,
            max_concurrent_calls: DEFAULT_MAX_CONCURRENT_CALLS,
            create_rate: Rate::DEFAULT,
            create_burst: DEFAULT_CREATE_BURST,
            max_games_per_client: DEFAULT_MAX_GAMES_PER_CLIENT,
            max_watchers_per_game: DEFAULT_MAX_WATCHERS_PER_GAME,
            max_watchers_per_client: DEFAULT_MAX_WATCHERS_PER_CLIENT,
            trusted_proxies: Vec::new(),
            api_keys_file: None,
            cors_origins: CorsOrigins::Any,
            drain_timeout: DEFAULT_DRAIN_TIMEOUT,
            max_connection_age: DEFAULT_MAX_CONNECTION_AGE,
            max_connections: None,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            allow_bot_only_games: false,
            bot_workers: default_bot_workers(),
            bot_max_think: Duration::from_secs(2),
            max_bot_games: DEFAULT_MAX_BOT_GAMES,
            timer_lease: Duration::from_secs(2),
            timer_poll: Duration::from_millis(200),
        }
    }
}

impl Config {
    /// Refuses flag combinations that have no meaning, so that a flag is never silently
    /// ignored. Flags that need another flag are refused as they are parsed; these checks
    /// depend on a flag's value, which parsing cannot look at.
    pub fn check(&self) -> Result<(), ConfigError> {
        check_redis_ca(self.redis_ca_cert.is_some(), &self.store)
    }
}

/// A combination of flags that has no meaning, refused at start-up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// `--redis-ca-cert` with a store that does not reach Redis over TLS.
    #[error(
        "--redis-ca-cert (DECKMATE_REDIS_CA_CERT) applies only to a `rediss://` store (Redis \
         over TLS), but --store is {store}: {remedy}"
    )]
    RedisCaWithoutTls {
        /// The kind of store given, never its URL (which may carry credentials).
        store: &'static str,
        /// What the operator can change.
        remedy: &'static str,
    },
}

/// Refuses a Redis CA (`ca` says whether one is given) for a store that would not use it.
fn check_redis_ca(ca: bool, store: &StoreUrl) -> Result<(), ConfigError> {
    let (kind, remedy) = match store {
        _ if !ca => return Ok(()),
        StoreUrl::Redis {
            transport: RedisTransport::Tls,
            ..
        } => return Ok(()),
        StoreUrl::Memory => (
            "`memory`",
            "the memory store uses no TLS; remove --redis-ca-cert",
        ),
        // Redis Cluster stores connect without TLS (docs/OPERATIONS.md, "Redis Cluster").
        StoreUrl::RedisCluster(_) => (
            "a `redis-cluster://` URL",
            "a Redis Cluster store connects without TLS; remove --redis-ca-cert",
        ),
        StoreUrl::Redis {
            transport: RedisTransport::UnixSocket,
            ..
        } => (
            "a Unix socket URL",
            "a Unix socket is reached without TLS; remove --redis-ca-cert",
        ),
        StoreUrl::Redis {
            transport: RedisTransport::Tcp,
            ..
        } => (
            "a plain `redis://` URL",
            "use a `rediss://` URL in --store, or remove --redis-ca-cert",
        ),
    };
    Err(ConfigError::RedisCaWithoutTls {
        store: kind,
        remedy,
    })
}

/// Where games are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreUrl {
    /// In this process's memory: for development, tests and single-node use.
    Memory,
    /// A Redis server.
    Redis {
        /// The URL as given, credentials included.
        url: String,
        /// How the URL reaches Redis, read from its scheme.
        transport: RedisTransport,
    },
    /// A Redis Cluster: `redis-cluster://[user:pass@]host:port,host:port,...` as given.
    RedisCluster(String),
}

/// How a single Redis server is reached: the scheme of its URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedisTransport {
    /// `redis://`: plain TCP.
    Tcp,
    /// `rediss://`: TCP with TLS.
    Tls,
    /// `redis+unix://` or `unix://`: a Unix socket on this host.
    UnixSocket,
}

impl StoreUrl {
    /// Reads `memory`, a `redis://` / `rediss://` URL, a `redis+unix://` (`unix://`) URL or a
    /// `redis-cluster://` URL.
    pub fn parse(value: &str) -> Result<StoreUrl, String> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("memory") {
            return Ok(StoreUrl::Memory);
        }
        if crate::store::redis::is_cluster_url(value) {
            crate::store::redis::cluster_nodes(value)?;
            return Ok(StoreUrl::RedisCluster(value.to_string()));
        }
        let lower = value.to_ascii_lowercase();
        let Some((scheme, transport)) = REDIS_SCHEMES
            .into_iter()
            .find(|(scheme, _)| lower.starts_with(scheme))
        else {
            return Err(
                "expected `memory`, a `redis://` / `rediss://` URL, a `redis+unix://` / \
                 `unix://` URL or a `redis-cluster://` URL"
                    .to_string(),
            );
        };
        let rest = &value[scheme.len()..];
        match transport {
            RedisTransport::Tcp | RedisTransport::Tls if rest.is_empty() => {
                Err(format!("the store URL `{scheme}` names no host"))
            }
            RedisTransport::UnixSocket if !rest.starts_with('/') => Err(format!(
                "a `{scheme}` store URL names the socket's absolute path, as in \
                 `{scheme}/run/redis.sock`"
            )),
            _ => Ok(StoreUrl::Redis {
                url: value.to_string(),
                transport,
            }),
        }
    }
}

/// The schemes of a single Redis server's URL and the transport each names. A Unix socket's URL
/// (`redis+unix:///run/redis.sock?db=1`) carries its credentials in the query (`user=`, `pass=`).
const REDIS_SCHEMES: [(&str, RedisTransport); 4] = [
    ("redis://", RedisTransport::Tcp),
    ("rediss://", RedisTransport::Tls),
    ("redis+unix://", RedisTransport::UnixSocket),
    ("unix://", RedisTransport::UnixSocket),
];

/// `query` (the part of a URL after `?`) with the values of its credentials masked.
fn mask_credentials(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if key == "user" || key == "pass" => format!("{key}=***"),
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

// The URL may carry a password: Debug and Display show it with the credentials masked, so that
// logging the config never leaks them.
impl fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreUrl::Memory => f.write_str("memory"),
            StoreUrl::Redis { url, .. } | StoreUrl::RedisCluster(url) => MaskedUrl(url).fmt(f),
        }
    }
}

/// A Redis URL shown with its credentials masked: for logs and `Debug` output.
pub(crate) struct MaskedUrl<'a>(pub(crate) &'a str);

impl fmt::Display for MaskedUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let url = self.0;
        let (scheme, rest) = url.split_once("://").unwrap_or(("redis", url));
        // Credentials come before the host (`user:pass@host`) or, for a Unix socket, in the
        // query (`?user=u&pass=p`).
        let (address, query) = match rest.split_once('?') {
            Some((address, query)) => (address, Some(query)),
            None => (rest, None),
        };
        match address.rsplit_once('@') {
            Some((_, host)) => write!(f, "{scheme}://***@{host}")?,
            None => write!(f, "{scheme}://{address}")?,
        }
        match query {
            Some(query) => write!(f, "?{}", mask_credentials(query)),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StoreUrl({self})")
    }
}

/// Whether Redis writes wait for a replica's acknowledgement (`--redis-replica-ack`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicaAck {
    /// On for a Redis Cluster, off for one server.
    Auto,
    /// Never wait.
    Off,
    /// Wait up to this long.
    Within(Duration),
}

impl ReplicaAck {
    /// Reads `auto`, `off` or a duration such as `500ms`.
    pub fn parse(value: &str) -> Result<ReplicaAck, String> {
        match value.trim() {
            auto if auto.eq_ignore_ascii_case("auto") => Ok(ReplicaAck::Auto),
            off if off.eq_ignore_ascii_case("off") => Ok(ReplicaAck::Off),
            duration => parse_duration(duration)
                .map(ReplicaAck::Within)
                .map_err(|error| format!("expected `auto`, `off` or a duration: {error}")),
        }
    }

    /// The longest wait for a store of this kind (`cluster` or one server) whose calls time
    /// out after `store_timeout`, or `None` for no wait. `auto` waits half the store timeout,
    /// so that the wait ends (and is reported) before the call's deadline.
    pub fn wait(self, cluster: bool, store_timeout: Duration) -> Option<Duration> {
        match self {
            ReplicaAck::Auto if cluster => Some(store_timeout / 2),
            ReplicaAck::Auto | ReplicaAck::Off => None,
            ReplicaAck::Within(within) => Some(within),
        }
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Reads a duration such as `30s`, `10m`, `24h` or `1h 30m`; zero is refused.
pub fn parse_duration(value: &str) -> Result<Duration, String> {
    let duration = humantime::parse_duration(value.trim())
        .map_err(|error| format!("`{value}` is not a duration like 30s, 10m or 24h: {error}"))?;
    if duration.is_zero() {
        return Err("the duration must be greater than zero".to_string());
    }
    Ok(duration)
}

/// Reads a count that must be at least 1.
pub fn parse_at_least_one(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(count) if count >= 1 => Ok(count),
        _ => Err(format!("`{value}` is not a whole number of at least 1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    /// Parses `args` with every environment variable ignored, so the machine's environment does
    /// not change the result.
    fn parse_without_env(args: &[&str]) -> Result<Config, clap::Error> {
        let command = Config::command().mut_args(|arg| arg.env(None));
        let matches = command.try_get_matches_from(args)?;
        Config::from_arg_matches(&matches)
    }

    #[test]
    fn bot_flags_parse_and_are_checked() {
        let config = parse_without_env(&[
            "deckmate-server",
            "--allow-bot-only-games",
            "--bot-workers",
            "3",
            "--bot-max-think",
            "500ms",
            "--max-bot-games",
            "7",
            "--write-record-format",
            "2",
        ])
        .unwrap();
        assert!(config.allow_bot_only_games);
        assert_eq!(config.bot_workers, 3);
        assert_eq!(config.bot_max_think, Duration::from_millis(500));
        assert_eq!(config.max_bot_games, 7);
        assert_eq!(config.write_record_format, 2);
        let defaults = Config::default();
        assert_eq!(defaults.write_record_format, 4);
        assert_eq!(defaults.timer_lease, Duration::from_secs(2));
        assert_eq!(defaults.timer_poll, Duration::from_millis(200));
        assert!(!defaults.allow_bot_only_games);
        assert!(defaults.bot_workers >= 1);
        assert_eq!(defaults.bot_max_think, Duration::from_secs(2));
        assert_eq!(defaults.max_bot_games, 1000);
        for refused in [
            &["deckmate-server", "--bot-workers", "0"][..],
            &["deckmate-server", "--bot-max-think", "soon"][..],
            &["deckmate-server", "--timer-lease", "0s"][..],
            &["deckmate-server", "--timer-poll", "0ms"][..],
            &["deckmate-server", "--write-record-format", "5"][..],
        ] {
            assert!(parse_without_env(refused).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn no_flags_give_the_defaults() {
        assert_eq!(
            parse_without_env(&["deckmate-server"]).unwrap(),
            Config::default()
        );
    }

    #[test]
    fn every_flag_is_read() {
        let config = parse_without_env(&[
            "deckmate-server",
            "--listen",
            "0.0.0.0:7000",
            "--store",
            "redis://cache:6379/0",
            "--store-timeout",
            "750ms",
            "--game-ttl",
            "10m",
            "--allow-client-seed",
            "true",
            "--log-format",
            "json",
            "--max-games",
            "5",
            "--max-watchers",
            "6",
            "--max-message-bytes",
            "1024",
            "--metrics-listen",
            "127.0.0.1:9090",
            "--tls-cert",
            "/etc/deckmate/cert.pem",
            "--tls-key",
            "/etc/deckmate/key.pem",
            "--tls-client-ca",
            "/etc/deckmate/clients.pem",
            "--redis-ca-cert",
            "/etc/deckmate/redis-ca.pem",
            "--max-call-time",
            "3s",
            "--max-concurrent-calls",
            "7",
            "--create-rate",
            "5/s",
            "--create-burst",
            "2",
            "--max-games-per-client",
            "8",
            "--max-watchers-per-game",
            "9",
            "--max-watchers-per-client",
            "10",
            "--trusted-proxies",
            "10.0.0.0/8,192.168.1.1",
            "--api-keys-file",
            "/etc/deckmate/keys",
            "--cors-origins",
            "https://play.example.com",
            "--drain-timeout",
            "5s",
            "--max-connection-age",
            "2m",
            "--max-connections",
            "300",
            "--idle-timeout",
            "90s",
            "--handshake-timeout",
            "3s",
        ])
        .unwrap();
        assert_eq!(config.max_connections, Some(300));
        assert_eq!(config.idle_timeout, Duration::from_secs(90));
        assert_eq!(config.handshake_timeout, Duration::from_secs(3));
        assert_eq!(config.drain_timeout, Duration::from_secs(5));
        assert_eq!(config.max_connection_age, Duration::from_secs(120));
        assert_eq!(config.max_call_time, Duration::from_secs(3));
        assert_eq!(config.max_concurrent_calls, 7);
        assert_eq!(config.create_rate, Rate::parse("5/s").unwrap());
        assert_eq!(config.create_burst, 2);
        assert_eq!(
            (
                config.max_games_per_client,
                config.max_watchers_per_game,
                config.max_watchers_per_client
            ),
            (8, 9, 10)
        );
        assert_eq!(
            config.trusted_proxies,
            vec![
                "10.0.0.0/8".parse::<IpNet>().unwrap(),
                "192.168.1.1/32".parse().unwrap()
            ]
        );
        assert_eq!(
            config.api_keys_file,
            Some(PathBuf::from("/etc/deckmate/keys"))
        );
        assert_eq!(
            config.cors_origins,
            CorsOrigins::List(vec!["https://play.example.com".into()])
        );
        assert_eq!(config.listen, "0.0.0.0:7000".parse().unwrap());
        assert_eq!(
            config.store,
            StoreUrl::Redis {
                url: "redis://cache:6379/0".into(),
                transport: RedisTransport::Tcp
            }
        );
        assert_eq!(config.store_timeout, Duration::from_millis(750));
        assert_eq!(config.game_ttl, Duration::from_secs(600));
        assert!(config.allow_client_seed);
        assert_eq!(config.log_format, LogFormat::Json);
        assert_eq!(
            (
                config.max_games,
                config.max_watchers,
                config.max_message_bytes
            ),
            (5, 6, 1024)
        );
        assert_eq!(
            config.metrics_listen,
            Some("127.0.0.1:9090".parse().unwrap())
        );
        assert_eq!(config.tls_cert, Some("/etc/deckmate/cert.pem".into()));
        assert_eq!(config.tls_key, Some("/etc/deckmate/key.pem".into()));
        assert_eq!(
            config.tls_client_ca,
            Some("/etc/deckmate/clients.pem".into())
        );
        assert_eq!(
            config.redis_ca_cert,
            Some("/etc/deckmate/redis-ca.pem".into())
        );
    }

    #[test]
    fn tls_needs_both_the_certificate_and_the_key() {
        for lone in [
            ["--tls-cert", "cert.pem"],
            ["--tls-key", "key.pem"],
            ["--tls-client-ca", "ca.pem"],
        ] {
            let error = parse_without_env(&["deckmate-server", lone[0], lone[1]]).unwrap_err();
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::MissingRequiredArgument,
                "{lone:?}"
            );
            let missing = if lone[0] == "--tls-cert" {
                "--tls-key"
            } else {
                "--tls-cert"
            };
            assert!(error.to_string().contains(missing), "{error}");
        }
        let config =
            parse_without_env(&["deckmate-server", "--tls-cert", "c", "--tls-key", "k"]).unwrap();
        assert_eq!(config.tls_client_ca, None);
    }

    #[test]
    fn metrics_are_off_unless_asked_for_and_bad_addresses_are_refused() {
        let config = parse_without_env(&["deckmate-server"]).unwrap();
        assert_eq!(config.metrics_listen, None);
        let error = parse_without_env(&["deckmate-server", "--metrics-listen", "nowhere"]);
        assert!(error.unwrap_err().to_string().contains("--metrics-listen"));
    }

    #[test]
    fn the_store_help_names_every_kind_of_store_url() {
        let mut command = Config::command();
        let help = command.render_long_help().to_string();
        let store = Config::command()
            .get_arguments()
            .find(|arg| arg.get_id() == "store")
            .and_then(|arg| arg.get_help())
            .map(|help| help.to_string())
            .expect("--store has a help text");
        // Every form the parser accepts is one the help offers, so operators can find it there.
        for (scheme, example) in [
            ("memory", "memory"),
            ("redis://", "redis://cache:6379"),
            ("rediss://", "rediss://cache:6380"),
            ("redis-cluster://", "redis-cluster://a:7000,b:7001"),
            ("redis+unix://", "redis+unix:///run/redis.sock"),
            ("unix://", "unix:///run/redis.sock"),
        ] {
            assert!(StoreUrl::parse(example).is_ok(), "{example}");
            assert!(store.contains(&format!("`{scheme}")), "{scheme}: {store}");
            assert!(help.contains(&format!("`{scheme}")), "{scheme}: {help}");
        }
        // A URL the parser refuses gets a message that offers the same forms.
        let refused = StoreUrl::parse("postgres://db").unwrap_err();
        for scheme in ["memory", "redis-cluster://"]
            .into_iter()
            .chain(REDIS_SCHEMES.map(|(scheme, _)| scheme))
        {
            assert!(
                refused.contains(&format!("`{scheme}")),
                "{scheme}: {refused}"
            );
        }
    }

    #[test]
    fn a_redis_ca_needs_a_tls_store() {
        let with_ca = |store: &str| {
            let args = [
                "deckmate-server",
                "--store",
                store,
                "--redis-ca-cert",
                "ca.pem",
            ];
            parse_without_env(&args).unwrap()
        };
        assert_eq!(with_ca("rediss://u:secret@cache:6380").check(), Ok(()));
        assert_eq!(with_ca("REDISS://cache:6380").check(), Ok(()));
        // Every other store would ignore the CA, or the Redis client would refuse it with a
        // message that names neither the flag nor the store.
        for (store, kind) in [
            ("memory", "--store is `memory`"),
            (
                "redis://u:secret@cache:6379",
                "--store is a plain `redis://` URL",
            ),
            (
                "redis+unix:///run/redis.sock?pass=secret",
                "--store is a Unix socket URL",
            ),
            ("unix:///run/redis.sock", "--store is a Unix socket URL"),
            (
                "redis-cluster://u:secret@a:7000,b:7001",
                "--store is a `redis-cluster://` URL",
            ),
        ] {
            let error = with_ca(store).check().unwrap_err();
            assert!(
                matches!(error, ConfigError::RedisCaWithoutTls { .. }),
                "{error}"
            );
            let message = error.to_string();
            assert!(message.starts_with("--redis-ca-cert"), "{message}");
            assert!(
                message.contains("applies only to a `rediss://` store"),
                "{message}"
            );
            assert!(message.contains(kind), "{store}: {message}");
            assert!(message.contains("remove --redis-ca-cert"), "{message}");
            assert!(!message.contains("secret"), "{message}");
        }
        let plain = with_ca("redis://cache:6379")
            .check()
            .unwrap_err()
            .to_string();
        assert!(
            plain.contains("use a `rediss://` URL in --store"),
            "{plain}"
        );
        // Start-up refuses them before building the store.
        for store in ["memory", "redis://cache:6379"] {
            let refused = crate::app::open_store(&with_ca(store)).err();
            let expected = with_ca(store).check().unwrap_err().to_string();
            assert_eq!(refused.map(|error| error.to_string()), Some(expected));
        }
        // Without the flag every store is accepted.
        for store in [
            "memory",
            "redis://cache",
            "unix:///r.sock",
            "redis-cluster://a:1,b:2",
        ] {
            let config = parse_without_env(&["deckmate-server", "--store", store]).unwrap();
            assert_eq!(config.check(), Ok(()), "{store}");
        }
    }

    #[test]
    fn every_flag_has_an_environment_variable() {
        for arg in Config::command().get_arguments() {
            if matches!(arg.get_id().as_str(), "help" | "version") {
                continue;
            }
            let env = arg.get_env().expect("flag without an environment variable");
            assert!(env.to_string_lossy().starts_with("DECKMATE_"), "{env:?}");
        }
    }

    #[test]
    fn protection_flags_are_read_from_their_variables() {
        let command = Config::command();
        let variables: Vec<String> = command
            .get_arguments()
            .filter_map(|arg| arg.get_env())
            .map(|env| env.to_string_lossy().into_owned())
            .collect();
        for variable in [
            "DECKMATE_MAX_CALL_TIME",
            "DECKMATE_MAX_CONCURRENT_CALLS",
            "DECKMATE_CREATE_RATE",
            "DECKMATE_CREATE_BURST",
            "DECKMATE_MAX_GAMES_PER_CLIENT",
            "DECKMATE_MAX_WATCHERS_PER_GAME",
            "DECKMATE_MAX_WATCHERS_PER_CLIENT",
            "DECKMATE_TRUSTED_PROXIES",
            "DECKMATE_API_KEYS_FILE",
            "DECKMATE_CORS_ORIGINS",
        ] {
            assert!(variables.iter().any(|v| v == variable), "{variable}");
        }
        let zero = parse_without_env(&["deckmate-server", "--max-concurrent-calls", "0"]);
        assert!(zero.is_err());
        let bad = parse_without_env(&["deckmate-server", "--trusted-proxies", "10.0.0.0/8,x"]);
        assert!(bad.unwrap_err().to_string().contains("--trusted-proxies"));
        let off = parse_without_env(&["deckmate-server", "--create-rate", "off"]).unwrap();
        assert_eq!(off.create_rate, Rate::Off);
    }

    #[test]
    fn deployment_flags_have_variables_defaults_and_refuse_zero() {
        let command = Config::command();
        for (id, variable) in [
            ("drain_timeout", "DECKMATE_DRAIN_TIMEOUT"),
            ("max_connection_age", "DECKMATE_MAX_CONNECTION_AGE"),
            ("max_connections", "DECKMATE_MAX_CONNECTIONS"),
            ("idle_timeout", "DECKMATE_IDLE_TIMEOUT"),
            ("handshake_timeout", "DECKMATE_HANDSHAKE_TIMEOUT"),
        ] {
            let arg = command
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .unwrap_or_else(|| panic!("no flag {id}"));
            assert_eq!(arg.get_env().unwrap(), variable);
        }
        let config = parse_without_env(&["deckmate-server"]).unwrap();
        assert_eq!(config.drain_timeout, Duration::from_secs(30));
        assert_eq!(config.max_connection_age, Duration::from_secs(600));
        assert_eq!(config.max_connections, None);
        assert_eq!(config.idle_timeout, Duration::from_secs(300));
        assert_eq!(config.handshake_timeout, Duration::from_secs(10));
        for flag in [
            "--drain-timeout",
            "--max-connection-age",
            "--max-connections",
            "--idle-timeout",
            "--handshake-timeout",
        ] {
            let error = parse_without_env(&["deckmate-server", flag, "0s"]).unwrap_err();
            assert!(error.to_string().contains(flag), "{error}");
        }
    }

    #[test]
    fn client_seed_flag_takes_an_optional_value() {
        let on = parse_without_env(&["deckmate-server", "--allow-client-seed", "--max-games", "3"]);
        assert!(on.as_ref().unwrap().allow_client_seed);
        assert_eq!(on.unwrap().max_games, 3);
        let off = parse_without_env(&["deckmate-server", "--allow-client-seed=no"]).unwrap();
        assert!(!off.allow_client_seed);
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("24h"), Ok(DEFAULT_GAME_TTL));
        assert_eq!(parse_duration("1h 30m"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn store_urls_parse_and_hide_credentials() {
        assert_eq!(StoreUrl::parse("memory"), Ok(StoreUrl::Memory));
        let url = StoreUrl::parse("redis://user:secret@cache:6379").unwrap();
        assert_eq!(
            url,
            StoreUrl::Redis {
                url: "redis://user:secret@cache:6379".into(),
                transport: RedisTransport::Tcp
            }
        );
        assert!(!format!("{url} {url:?}").contains("secret"));
        assert_eq!(url.to_string(), "redis://***@cache:6379");
        assert_eq!(
            StoreUrl::parse("REDISS://cache"),
            Ok(StoreUrl::Redis {
                url: "REDISS://cache".into(),
                transport: RedisTransport::Tls
            })
        );
        assert!(StoreUrl::parse("redis://").is_err());
        assert!(StoreUrl::parse("postgres://db").is_err());
        let unix = StoreUrl::parse("redis+unix:///run/redis.sock?db=2&user=u&pass=secret").unwrap();
        assert_eq!(
            unix.to_string(),
            "redis+unix:///run/redis.sock?db=2&user=***&pass=***"
        );
        assert!(!format!("{unix:?}").contains("secret"));
        assert_eq!(
            StoreUrl::parse("unix:///run/redis.sock"),
            Ok(StoreUrl::Redis {
                url: "unix:///run/redis.sock".into(),
                transport: RedisTransport::UnixSocket
            })
        );
        let relative = StoreUrl::parse("redis+unix://redis.sock").unwrap_err();
        assert!(relative.contains("absolute path"), "{relative}");
        let with_query = StoreUrl::parse("redis://u:secret@cache:6379/?protocol=resp3").unwrap();
        assert_eq!(
            with_query.to_string(),
            "redis://***@cache:6379/?protocol=resp3"
        );
        // An `@` in a query value is not where the credentials of a TCP URL end.
        let at_in_password = StoreUrl::parse("unix:///r.sock?pass=a@b").unwrap();
        assert_eq!(at_in_password.to_string(), "unix:///r.sock?pass=***");
        let second = Duration::from_secs(1);
        assert_eq!(ReplicaAck::parse("auto"), Ok(ReplicaAck::Auto));
        assert_eq!(ReplicaAck::parse("OFF"), Ok(ReplicaAck::Off));
        assert_eq!(
            ReplicaAck::parse("250ms"),
            Ok(ReplicaAck::Within(second / 4))
        );
        assert!(ReplicaAck::parse("soon").is_err());
        assert_eq!(ReplicaAck::Auto.wait(true, 2 * second), Some(second));
        assert_eq!(ReplicaAck::Auto.wait(false, 2 * second), None);
        assert_eq!(ReplicaAck::Off.wait(true, 2 * second), None);
        assert_eq!(
            ReplicaAck::Within(second / 4).wait(false, second),
            Some(second / 4)
        );
        let cluster = StoreUrl::parse("redis-cluster://u:secret@a:7000,b:7001").unwrap();
        assert_eq!(
            cluster,
            StoreUrl::RedisCluster("redis-cluster://u:secret@a:7000,b:7001".into())
        );
        assert_eq!(cluster.to_string(), "redis-cluster://***@a:7000,b:7001");
        assert!(!format!("{cluster:?}").contains("secret"));
        let bad = StoreUrl::parse("redis-cluster://u:secret@a").unwrap_err();
        assert!(!bad.contains("secret"), "{bad}");
    }
}
