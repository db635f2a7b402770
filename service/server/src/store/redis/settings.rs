//! How a [`RedisStore`](super::RedisStore) is told where Redis is and how to use it, and why it
//! could not be opened.

use std::fmt;
use std::time::Duration;

use super::record::RECORD_FORMAT;
use super::record_cache::DEFAULT_RECORD_CACHE;
use crate::config::MaskedUrl;

/// The key namespace a server uses unless told otherwise.
pub const DEFAULT_NAMESPACE: &str = "deckmate";

/// The default deadline of one Redis call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// How to reach and use a Redis server or cluster.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisSettings {
    /// The server, as a `redis://` or `rediss://` URL (credentials and database number
    /// included), or a cluster as `redis-cluster://[user:pass@]host:port,host:port,...` (seed
    /// nodes; the rest are discovered).
    pub url: String,
    /// How long a game may go without a create or commit before it expires.
    pub ttl: Duration,
    /// The most games the store holds at once (across every replica using it).
    pub max_games: usize,
    /// The deadline of every Redis call; slower answers count as Redis being unavailable.
    pub timeout: Duration,
    /// The prefix of every key, so that several deployments (or test runs) can share a server.
    pub namespace: String,
    /// For a `rediss://` URL: the CAs (PEM) to trust instead of the built-in public roots.
    pub ca_cert_pem: Option<Vec<u8>>,
    /// After each write, wait up to this long for one replica to acknowledge it (`WAIT 1`);
    /// a write no replica acknowledged in time answers [`StoreError::Unavailable`] (it may
    /// have been applied: the caller's retry with the same request id is safe). `None` skips
    /// the wait.
    ///
    /// [`StoreError::Unavailable`]: crate::store::StoreError::Unavailable
    pub replica_ack: Option<Duration>,
    /// The record format written (one of [`RECORD_FORMATS`]): the latest, or an older one while
    /// replicas of a release that reads no later format still share the store (a rolling
    /// upgrade; games with bot seats need [`BOT_RECORD_FORMAT`] or later, games with clocks
    /// [`CLOCK_RECORD_FORMAT`]).
    ///
    /// [`RECORD_FORMATS`]: super::RECORD_FORMATS
    /// [`BOT_RECORD_FORMAT`]: super::BOT_RECORD_FORMAT
    /// [`CLOCK_RECORD_FORMAT`]: super::CLOCK_RECORD_FORMAT
    pub write_record_format: u32,
    /// How many games' records this replica keeps copies of for updates (0: none).
    pub record_cache: usize,
}

impl RedisSettings {
    /// Settings for the server at `url`, with the server's default TTL, game limit, timeout and
    /// namespace.
    pub fn new(url: impl Into<String>) -> RedisSettings {
        RedisSettings {
            url: url.into(),
            ttl: crate::config::DEFAULT_GAME_TTL,
            max_games: crate::config::DEFAULT_MAX_GAMES,
            timeout: DEFAULT_TIMEOUT,
            namespace: DEFAULT_NAMESPACE.to_string(),
            ca_cert_pem: None,
            replica_ack: None,
            write_record_format: RECORD_FORMAT,
            record_cache: DEFAULT_RECORD_CACHE,
        }
    }

    /// Whether the URL names a Redis Cluster.
    pub fn is_cluster(&self) -> bool {
        is_cluster_url(&self.url)
    }
}

/// Whether `url` is a `redis-cluster://` URL.
pub fn is_cluster_url(url: &str) -> bool {
    url.get(..16)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("redis-cluster://"))
}

// The URL may carry a password: show it masked.
impl fmt::Debug for RedisSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisSettings")
            .field("url", &MaskedUrl(&self.url).to_string())
            .field("replica_ack", &self.replica_ack)
            .field("ttl", &self.ttl)
            .field("max_games", &self.max_games)
            .field("timeout", &self.timeout)
            .field("namespace", &self.namespace)
            .field("ca_cert_pem", &self.ca_cert_pem.as_ref().map(|_| "<PEM>"))
            .finish()
    }
}

/// Why a Redis store could not be set up (connecting happens later, on first use).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The URL is not one the Redis client accepts.
    #[error("the store URL is not a usable Redis URL: {0}")]
    InvalidUrl(String),
    /// The store was opened outside a Tokio runtime.
    #[error("the Redis store must be opened inside a Tokio runtime")]
    NoRuntime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_hide_the_password() {
        let settings = RedisSettings::new("redis://user:hunter2@cache:6379/1");
        let shown = format!("{settings:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("cache:6379"), "{shown}");
        assert_eq!(settings.timeout, DEFAULT_TIMEOUT);
        assert_eq!(settings.namespace, DEFAULT_NAMESPACE);
    }
}
