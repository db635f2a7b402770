//! The Redis [`SessionStore`] (docs/ARCHITECTURE.md §4): games live in Redis, so the server process
//! keeps no state and any replica serves any game.
//!
//! * **Layout.** Each game is a hash (format, version, record bytes), a list of its actions, a
//!   stream of its committed versions and a sorted set of its recent request keys, all under the hash
//!   tag `{<game id>}` (`redis/keys.rs`). Records carry a format version (`redis/record.rs`).
//! * **Atomic commits.** One Lua script per commit checks the request window and the expected
//!   version, appends the version to the game's stream, writes the record (whose size does not
//!   grow with the game) and appends the new action to the log, remembers the request key and
//!   refreshes the TTL of every key of the game (`redis/scripts.rs`). Creation, loading, the game
//!   limit and CreateGame answers are scripts too.
//! * **One round trip per action.** The store keeps copies of the records it last loaded or
//!   committed (`redis/record_cache.rs`) for [`SessionStore::load_for_update`]; the commit's
//!   version check validates them, so an `Act` on a game this replica served last costs one
//!   script call.
//! * **Watching across replicas.** On one server, a reader task per store follows the streams
//!   of the games watched in this process, on a connection of its own (`redis/hub.rs`). On a
//!   Redis Cluster, commits publish on each game's shard channel and the store subscribes to
//!   the channels of the games it watches (`redis/channel_hub.rs`).
//! * **Redis Cluster** (`redis-cluster://` URLs, `redis/nodes.rs`): every key of a game shares
//!   its hash tag, so one script still changes a game atomically; the game index is split
//!   into slots of their own (`redis/keys.rs`); after each write the store can ask for a
//!   replica's acknowledgement (`WAIT`, [`RedisSettings::replica_ack`]), so that an
//!   acknowledged action survives the loss of its master.
//! * **Faults.** Every call has a deadline ([`RedisSettings::timeout`]); an unreachable or
//!   silent Redis is [`StoreError::Unavailable`], and nothing is half-applied because every
//!   change is one script. The connection to a single server is made again once lost
//!   (`redis/single_server.rs`; the cluster client does the same for its nodes), so the server
//!   serves again as soon as Redis answers.
//! * **Commands sent together.** The socket to a single server writes the commands of every
//!   call ready at the time in one write (`crate::batched_writes`), so that under load Redis
//!   reads, and answers, many calls at a time.
//!
//! Requires Redis 7.0 or later (scripts with a `#!lua` shebang), run with `noeviction`.

mod channel_hub;
mod connection;
mod current_copy;
mod epoch;
mod failure;
mod hub;
mod keys;
mod nodes;
mod record;
mod record_cache;
mod script_call;
mod scripts;
mod settings;
mod single_server;

use std::sync::Arc;
use std::time::Duration;

use ::redis::cluster::ClusterClientBuilder;
use ::redis::cluster_routing::Slot;
use ::redis::{AsyncCommands, Client, ProtocolVersion, Script, Value};
use async_trait::async_trait;
use futures::StreamExt;

use self::channel_hub::ChannelHub;
use self::connection::StoreConnection;
use self::failure::bounded;
use self::hub::Hub;
use self::keys::{KeySpace, request_entry};
pub use self::nodes::cluster_nodes;
pub use self::record::{BOT_RECORD_FORMAT, CLOCK_RECORD_FORMAT, RECORD_FORMATS};
use self::record::{
    LogItems, RECORD_FORMAT_ONE, decode_create, decode_record, encode_create, encode_record,
};
pub use self::record_cache::DEFAULT_RECORD_CACHE;
use self::record_cache::RecordCache;
use self::script_call::ScriptCall;
use self::scripts::{CommitReply, ScriptReply, Scripts, commit_outcome};
pub use self::settings::{
    DEFAULT_NAMESPACE, DEFAULT_TIMEOUT, OpenError, RedisSettings, is_cluster_url,
};
use self::single_server::SingleServer;
use super::{
    Commit, CommitOutcome, CreateError, CreateOutcome, GameRecord, PutCreateOutcome,
    REQUEST_WINDOW, SealedCreate, SeatRequest, SessionStore, StoreError, VersionStream,
};

/// Reads a game's stored record as [`RedisStore`] does: `format` and `version` are the fields
/// of the game's hash, `record` its record bytes and `log` its log list (formats 2 and 3; empty
/// in format 1). Malformed input of any kind is [`StoreError::Corrupt`], never a panic. Public for
/// tools and the `decode_record` fuzz target (docs/RELIABILITY.md, "Fuzzing").
pub fn decode_stored_record(
    id: &str,
    format: u32,
    version: u64,
    record: &[u8],
    log: &[Vec<u8>],
) -> Result<GameRecord, StoreError> {
    decode_record(id, format, version, record, LogItems::all(log), None)
}

/// The bytes [`RedisStore`] stores for `record` in `format` (one of [`RECORD_FORMATS`]): the
/// record bytes, and in formats 2 and 3 the log list apart (empty in format 1). The inverse of
/// [`decode_stored_record`]; public for the same tools.
pub fn encode_stored_record(
    record: &GameRecord,
    format: u32,
) -> Result<(Vec<u8>, Vec<Vec<u8>>), StoreError> {
    let bytes = encode_record(record, format)?;
    let log = if format == RECORD_FORMAT_ONE {
        Vec::new()
    } else {
        record.game.encode_entries(0).map_err(|error| {
            StoreError::Corrupt(format!("encoding game {}: {error:?}", record.id))
        })?
    };
    Ok((bytes, log))
}

/// Reads a remembered CreateGame answer as [`RedisStore`] does; malformed bytes are
/// [`StoreError::Corrupt`]. Public for the `decode_record` fuzz target.
pub fn decode_stored_create(bytes: &[u8]) -> Result<SealedCreate, StoreError> {
    decode_create(bytes)
}

/// The longest lifetime the store gives anything (about 100 years), so that expiry times stay
/// exact in Lua numbers and within what Redis accepts.
const MAX_LIFETIME: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);

/// About how many entries a game's event stream keeps. Watchers only need the entries after
/// their reader's cursor; one further behind sees a coalesced jump, which watchers allow.
const STREAM_CAP: usize = 256;

/// The rank the commit script trims a game's request window to (`ZREMRANGEBYRANK 0 -65` keeps
/// the newest [`REQUEST_WINDOW`] entries), given as the script's argument so that Lua converts
/// no number to text.
const REQUEST_WINDOW_TRIM: i64 = -1 - REQUEST_WINDOW as i64;

/// Games kept in Redis. Cheap to clone; clones share connections.
#[derive(Clone, Debug)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    connection: StoreConnection,
    keys: KeySpace,
    scripts: Scripts,
    ttl_ms: u64,
    max_games: usize,
    timeout: Duration,
    watching: Watching,
    replica_ack: Option<Duration>,
    /// Slots whose master was last seen without any replica, and when: writes there are not
    /// waited for until [`UNREPLICATED_RECHECK`] has passed.
    unreplicated: std::sync::Mutex<std::collections::HashMap<Slot, std::time::Instant>>,
    write_record_format: u32,
    cache: RecordCache,
}

/// How long a master seen without replicas is written to without waiting, before the store
/// looks again.
const UNREPLICATED_RECHECK: Duration = Duration::from_secs(1);

/// How long after a master was last seen without replicas the store still asks a master how
/// many replicas it has before making it wait (see `RedisStore::replicated`).
const UNREPLICATED_MEMORY: Duration = Duration::from_secs(10);

/// How the store learns of other replicas' commits.
#[derive(Debug)]
enum Watching {
    /// One server: the stream hub.
    Streams(Hub),
    /// A cluster: the shard-channel hub; commits publish on the game's channel.
    Channels(ChannelHub),
}

impl RedisStore {
    /// A store on the server `settings` names. Nothing is connected yet: the first call
    /// connects, and while Redis does not answer calls fail with [`StoreError::Unavailable`].
    /// Must be called inside a Tokio runtime.
    pub fn open(settings: RedisSettings) -> Result<RedisStore, OpenError> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(OpenError::NoRuntime);
        }
        let (connection, keys, watching) = if settings.is_cluster() {
            open_cluster(&settings)?
        } else {
            open_single(&settings)?
        };
        Ok(RedisStore {
            inner: Arc::new(Inner {
                connection,
                keys,
                scripts: Scripts::new(),
                ttl_ms: millis(settings.ttl),
                max_games: settings.max_games,
                timeout: settings.timeout,
                watching,
                replica_ack: settings.replica_ack,
                unreplicated: Default::default(),
                write_record_format: settings.write_record_format,
                cache: RecordCache::new(settings.record_cache),
            }),
        })
    }

    fn connection(&self) -> StoreConnection {
        self.inner.connection.clone()
    }

    /// Waits for a replica to acknowledge the writes made so far to the node holding `key`,
    /// when the store is set to ([`RedisSettings::replica_ack`]).
    async fn replicated(
        &self,
        connection: &mut StoreConnection,
        key: &str,
        what: &str,
    ) -> Result<(), StoreError> {
        let Some(within) = self.inner.replica_ack else {
            return Ok(());
        };
        // The wait's calls (to a cluster's master, twice at most) make a future of kilobytes:
        // boxed apart, so that every commit's future, copied once into its box, does not
        // carry it where no wait is asked for.
        Box::pin(self.acknowledged(connection, key, what, within)).await
    }

    /// The wait of [`RedisStore::replicated`], for up to `within`.
    async fn acknowledged(
        &self,
        connection: &mut StoreConnection,
        key: &str,
        what: &str,
        within: Duration,
    ) -> Result<(), StoreError> {
        let slot = Slot::for_key(key);
        let (seen_alone, after_failover) = {
            let mut alone = lock(&self.inner.unreplicated);
            alone.retain(|_, since| since.elapsed() < UNREPLICATED_MEMORY);
            (alone.get(&slot).copied(), !alone.is_empty())
        };
        if seen_alone.is_some_and(|since| since.elapsed() < UNREPLICATED_RECHECK) {
            return Ok(());
        }
        // A `WAIT` on a master without replicas blocks for its whole time, and every command
        // queued behind it on the shared connection to that master waits as long. So once a
        // master has been seen alone (after a failover, typically), masters are asked how many
        // replicas they have (`ROLE`, answered at once) before they are made to wait, until
        // none has been seen alone for a while: writes to a master still alone go on, and only
        // the first write after the failover waits.
        if after_failover {
            let replicas = self.call(what, connection.replica_count(key)).await?;
            if replicas == Some(0) {
                lock(&self.inner.unreplicated).insert(slot, std::time::Instant::now());
                return Ok(());
            }
        }
        let acknowledged = self
            .call(what, connection.wait_for_replica(key, within))
            .await?;
        if acknowledged >= 1 {
            lock(&self.inner.unreplicated).remove(&slot);
            return Ok(());
        }
        // A master with no replica at all (its old master died and it took over, and no
        // replica has joined since) can acknowledge nothing: refusing every write to its slots
        // until one joins would turn the loss of one node into an outage, so such writes go
        // on unreplicated, as they would without the wait.
        let replicas = self.call(what, connection.replica_count(key)).await?;
        if replicas == Some(0) {
            if !after_failover {
                tracing::warn!(
                    "a Redis master has no replica: its writes are not replicated until one joins"
                );
            }
            lock(&self.inner.unreplicated).insert(slot, std::time::Instant::now());
            return Ok(());
        }
        Err(StoreError::Unavailable(format!(
            "{what}: no replica acknowledged the write within {within:?}"
        )))
    }

    async fn call<T>(
        &self,
        what: &str,
        call: impl Future<Output = ::redis::RedisResult<T>>,
    ) -> Result<T, StoreError> {
        bounded(self.inner.timeout, what, call).await
    }

    /// Keeps, as this replica's copy of game `id`, the stored game a conflicting commit was
    /// answered with (`{'conflict', version, format, record, log...}`); an answer that does not
    /// decode drops the copy instead, and the next update loads.
    fn keep_conflicting(&self, id: &str, version: u64, reply: &[Vec<u8>]) {
        let cache = &self.inner.cache;
        let decoded = match reply {
            [_, _, format, record, log @ ..] => std::str::from_utf8(format)
                .ok()
                .and_then(|format| format.parse().ok())
                .ok_or_else(|| StoreError::Corrupt(format!("game {id}: unreadable format")))
                .and_then(|format| {
                    let previous = cache.get(id);
                    let log = LogItems::all(log);
                    decode_record(id, format, version, record, log, previous.as_deref())
                }),
            _ => Err(StoreError::Corrupt(format!(
                "game {id}: short conflict answer"
            ))),
        };
        match decoded {
            Ok(record) => cache.put_read(Arc::new(record), false),
            Err(error) => {
                tracing::warn!(%error, "a conflicting commit's game did not decode");
                cache.forget(id);
            }
        }
    }

    /// `script` invoked on the game index (shard) of game `id` with the store's TTL: the first
    /// key and arguments of every script that keeps the index (`reserve`, `touch`), and the
    /// game limit of that index (shard).
    fn on_index<'a>(&self, script: &'a Script, id: &str) -> (ScriptCall<'a>, usize) {
        let (index, limit) = self.inner.keys.index_for(id, self.inner.max_games);
        let mut call = ScriptCall::new(script, &[&index]);
        call.arg(id).arg(self.inner.ttl_ms);
        (call, limit)
    }

    /// Loads game `id` (see [`SessionStore::load`]), keeping the copy read as `keep` says and
    /// asking first whether the copy held is current as `check` says.
    async fn read(
        &self,
        id: &str,
        keep: Keep,
        check: CopyCheck,
    ) -> Result<Option<Arc<GameRecord>>, StoreError> {
        let inner = &self.inner;
        let keys = inner.keys.game(id);
        // With a copy of the game at hand, only the actions after it are read (the script
        // checks that the stored log holds the copy's last action where the copy has it), and
        // nothing at all when the copy is the stored version.
        let (previous, found_current) = match inner.cache.get_for_read(id) {
            Some((copy, found_current)) => (Some(copy), found_current),
            None => (None, false),
        };
        let (held, last) = match &previous {
            Some(copy) if copy.version() > 0 => {
                let last = copy
                    .game
                    .encode_entries(copy.version() - 1)
                    .map_err(|error| StoreError::Corrupt(format!("game {id}: {error:?}")))?
                    .pop()
                    .unwrap_or_default();
                (copy.version(), last)
            }
            _ => (0, Vec::new()),
        };
        let mut connection = self.connection();
        // Asked first only where the last read found the copy current: where another replica
        // keeps committing, the answer would be no, and the script is then one call, not two.
        // A copy of a game without actions is asked about too: its creation wrote the `tail`
        // that confirms it, and the script would send the whole record back.
        if previous.is_some() && check == CopyCheck::First && found_current {
            let head: Value = self
                .call(
                    "reading a game's version",
                    current_copy::head_of(&keys.game).query_async(&mut connection),
                )
                .await?;
            if current_copy::is_current(&head, held, &last) {
                return Ok(previous);
            }
        }
        let reply: Value = self
            .call(
                "loading a game",
                ScriptCall::new(&inner.scripts.load, &[&keys.game, &keys.log])
                    .arg(held)
                    .arg(last)
                    .invoke(&mut connection),
            )
            .await?;
        let reply = match ScriptReply::read(reply, "loading a game")? {
            // The copy held is the stored version.
            ScriptReply::Word(word) if word == b"current" && held > 0 => {
                inner.cache.found_current(id);
                return Ok(previous);
            }
            ScriptReply::Word(word) => {
                return Err(StoreError::Corrupt(format!(
                    "loading game {id} returned {:?}",
                    String::from_utf8_lossy(&word)
                )));
            }
            ScriptReply::Parts(parts) => parts,
        };
        let Some((hash, log)) = reply.split_first_chunk::<4>() else {
            if reply.is_empty() {
                return Ok(None);
            }
            return Err(StoreError::Corrupt(format!(
                "loading game {id} returned {} values",
                reply.len()
            )));
        };
        let [format, version, bytes, first] = hash;
        let number = |field: &str, text: &[u8]| -> Result<u64, StoreError> {
            std::str::from_utf8(text)
                .ok()
                .and_then(|text| text.parse().ok())
                .ok_or_else(|| {
                    StoreError::Corrupt(format!(
                        "game {id} has an incomplete hash: no readable {field}"
                    ))
                })
        };
        let format = u32::try_from(number("format", format)?)
            .map_err(|_| StoreError::Corrupt(format!("game {id} has an unknown format")))?;
        let version = number("version", version)?;
        let held = number("log start", first)?;
        if bytes.is_empty() {
            return Err(StoreError::Corrupt(format!(
                "game {id} has an incomplete hash: no record"
            )));
        }
        let log = LogItems { held, items: log };
        let record = Arc::new(decode_record(
            id,
            format,
            version,
            bytes,
            log,
            previous.as_deref(),
        )?);
        if keep == Keep::Always || previous.is_some() {
            let same = previous
                .as_ref()
                .is_some_and(|copy| copy.version() == record.version());
            inner.cache.put_read(record.clone(), same);
        }
        Ok(Some(record))
    }
}

/// The connection, keys and watch hub of a single server.
fn open_single(
    settings: &RedisSettings,
) -> Result<(StoreConnection, KeySpace, Watching), OpenError> {
    let client = match &settings.ca_cert_pem {
        None => Client::open(settings.url.as_str()),
        // Only `rediss://` URLs take a CA; the client refuses the others.
        Some(ca) => Client::build_with_tls(
            settings.url.as_str(),
            ::redis::TlsCertificates {
                client_tls: None,
                root_cert: Some(ca.clone()),
            },
        ),
    }
    .map_err(|error| OpenError::InvalidUrl(error.to_string()))?;
    let server = SingleServer::new(&client, settings.ca_cert_pem.as_deref(), settings.timeout)
        .map_err(OpenError::InvalidUrl)?;
    let connection = StoreConnection::Single(server);
    let hub = Hub::new(client, connection.clone(), settings.timeout);
    Ok((
        connection,
        KeySpace::new(&settings.namespace),
        Watching::Streams(hub),
    ))
}

/// The connection, keys and watch hub of a cluster. Nothing connects until first use.
fn open_cluster(
    settings: &RedisSettings,
) -> Result<(StoreConnection, KeySpace, Watching), OpenError> {
    if settings.ca_cert_pem.is_some() {
        return Err(OpenError::InvalidUrl(
            "a Redis CA applies to `rediss://` URLs only".into(),
        ));
    }
    let nodes = cluster_nodes(&settings.url).map_err(OpenError::InvalidUrl)?;
    // Every call has the store's deadline around it; the client's own retries (redirections,
    // a failover's reconnects and slot-map refreshes) stay within it, frequent enough that a
    // call waiting out a failover sees the new master soon after it takes over.
    let builder = || {
        ClusterClientBuilder::new(nodes.clone())
            .connection_timeout(settings.timeout)
            .response_timeout(settings.timeout)
            .retries(8)
            .min_retry_wait(25)
            .max_retry_wait(250)
    };
    let client = builder()
        .build()
        .map_err(|error| OpenError::InvalidUrl(error.to_string()))?;
    let connection = StoreConnection::Cluster(
        client.get_pending_async_connection_with_config(Default::default()),
    );
    let (pushes_in, pushes) = tokio::sync::mpsc::unbounded_channel();
    let subscriber = builder()
        .use_protocol(ProtocolVersion::RESP3)
        .push_sender(pushes_in)
        .build()
        .map_err(|error| OpenError::InvalidUrl(error.to_string()))?;
    let hub = ChannelHub::new(subscriber, pushes, connection.clone(), settings.timeout);
    Ok((
        connection,
        KeySpace::sharded(&settings.namespace),
        Watching::Channels(hub),
    ))
}

/// Whether a load keeps the copy it read in the record cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keep {
    /// Keep it: the caller is serving the game.
    Always,
    /// Keep it only in place of a copy kept already, so that a look from the background
    /// never pushes another game's copy out.
    IfKept,
}

/// Whether a load first asks if the copy held is current (`current_copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CopyCheck {
    /// Ask with one `HMGET` when the last read of the game found the copy current (most reads
    /// come from the replica that served the last action, whose copy is current); load with the
    /// script when the copy is not known to be current.
    First,
    /// The caller found its copy out of date: load with the script at once (which still sends
    /// nothing of the game when the copy turns out current).
    Skip,
}

/// What a commit does to the game's log list (the `COMMIT` script's log mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LogWrite {
    /// Record format 1 holds the log in the record: the list is dropped.
    Drop,
    /// Push the actions after this version.
    Append(u64),
    /// Replace the list with the whole log.
    Full,
}

impl LogWrite {
    fn mode(self) -> &'static str {
        match self {
            LogWrite::Drop => "",
            LogWrite::Append(_) => "append",
            LogWrite::Full => "full",
        }
    }
}

/// A lifetime in whole milliseconds, at least 1 and at most [`MAX_LIFETIME`].
fn millis(duration: Duration) -> u64 {
    duration.min(MAX_LIFETIME).as_millis().max(1) as u64
}

#[async_trait]
impl SessionStore for RedisStore {
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError> {
        let record = Arc::new(record);
        let inner = &self.inner;
        let keys = inner.keys.game(&record.id);
        let bytes = encode_record(&record, inner.write_record_format)?;
        let mut connection = self.connection();
        let (mut reserve, limit) = self.on_index(&inner.scripts.reserve, &record.id);
        let admitted: i64 = self
            .call(
                "reserving a game slot",
                reserve.arg(limit).invoke(&mut connection),
            )
            .await?;
        if admitted == 0 {
            return Err(CreateError::GameLimit(inner.max_games));
        }
        let created: i64 = self
            .call(
                "creating a game",
                ScriptCall::new(
                    &inner.scripts.create,
                    &[&keys.game, &keys.events, &keys.requests, &keys.log],
                )
                .arg(inner.write_record_format)
                .arg(record.version())
                .arg(bytes)
                .arg(inner.ttl_ms)
                .invoke(&mut connection),
            )
            .await?;
        if created != 1 {
            return Ok(CreateOutcome::AlreadyExists);
        }
        // The creator's replica usually serves the first action too.
        inner.cache.put(record);
        self.replicated(&mut connection, &keys.game, "replicating a new game")
            .await?;
        Ok(CreateOutcome::Created)
    }

    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.read(id, Keep::Always, CopyCheck::First).await
    }

    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.read(id, Keep::IfKept, CopyCheck::First).await
    }

    async fn reload(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.read(id, Keep::Always, CopyCheck::Skip).await
    }

    async fn load_for_update(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        match self.inner.cache.get(id) {
            Some(record) => Ok(Some(record)),
            None => self.load(id).await,
        }
    }

    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError> {
        let inner = &self.inner;
        let keys = inner.keys.game(&commit.id);
        let format = inner.write_record_format;
        let bytes = encode_record(&commit.record, format)?;
        let request = commit
            .request
            .map(|(seat, key)| request_entry(seat, key))
            .unwrap_or_default();
        let mut connection = self.connection();
        // Format 2 appends the actions after the version read; a store that cannot take them
        // (its record is in format 1, or its log is not where the version says) gets the whole
        // log once.
        let mut log = if format == RECORD_FORMAT_ONE {
            LogWrite::Drop
        } else {
            LogWrite::Append(commit.expected_version)
        };
        let (outcome, refresh_index) = loop {
            let entries = match log {
                LogWrite::Drop => Ok(Vec::new()),
                LogWrite::Append(from) => commit.record.game.encode_entries(from),
                LogWrite::Full => commit.record.game.encode_entries(0),
            }
            .map_err(|error| {
                StoreError::Corrupt(format!("encoding game {}: {error:?}", commit.id))
            })?;
            // The record, the log items and ten short arguments.
            let room = bytes.len() + entries.iter().map(Vec::len).sum::<usize>() + 160;
            let mut write = ScriptCall::with_room(
                &inner.scripts.commit,
                &[&keys.game, &keys.events, &keys.requests, &keys.log],
                10 + entries.len(),
                room,
            );
            write
                .arg(commit.expected_version)
                .arg(commit.record.version())
                .arg(format)
                .arg(&bytes)
                .arg(inner.ttl_ms)
                .arg(&request)
                .arg(REQUEST_WINDOW_TRIM)
                .arg(STREAM_CAP)
                .arg(match &inner.watching {
                    Watching::Channels(_) => inner.keys.channel(&commit.id),
                    Watching::Streams(_) => String::new(),
                })
                .arg(log.mode());
            for entry in entries {
                write.arg(entry);
            }
            let reply: Value = self
                .call("committing", write.invoke(&mut connection))
                .await?;
            let reply = ScriptReply::read(reply, "committing")?;
            let answer = commit_outcome(&reply)?;
            if let (
                CommitReply::Done(CommitOutcome::Conflict { current_version }, _),
                ScriptReply::Parts(parts),
            ) = (answer, &reply)
            {
                // The script sent the stored game along: the caller's retry starts from it
                // without loading.
                self.keep_conflicting(&commit.id, current_version, parts);
            }
            match answer {
                CommitReply::Done(outcome, refresh) => break (outcome, refresh),
                CommitReply::NeedLog if log != LogWrite::Full => log = LogWrite::Full,
                CommitReply::NeedLog => {
                    return Err(StoreError::Corrupt(format!(
                        "game {}: the store refused its whole log",
                        commit.id
                    )));
                }
            }
        };
        match outcome {
            CommitOutcome::Committed { .. } => inner.cache.put(Arc::new(commit.record)),
            CommitOutcome::Conflict { .. } => {}
            CommitOutcome::Duplicate { .. } | CommitOutcome::NotFound => {
                inner.cache.forget(&commit.id);
            }
        }
        if matches!(
            outcome,
            CommitOutcome::Committed { .. } | CommitOutcome::Duplicate { .. }
        ) {
            // A duplicate is a retry of a commit that may not have been acknowledged yet.
            self.replicated(&mut connection, &keys.game, "replicating a commit")
                .await?;
        }
        if refresh_index {
            // The game limit's count of this game; failing here only lets the index forget the
            // game early, so the commit stands.
            let (touch, _) = self.on_index(&inner.scripts.touch, &commit.id);
            let touched: Result<i64, StoreError> = self
                .call("refreshing the game index", touch.invoke(&mut connection))
                .await;
            if let Err(error) = touched {
                tracing::warn!(%error, "the game index was not refreshed");
            }
        }
        Ok(outcome)
    }

    async fn find_request(
        &self,
        id: &str,
        request: SeatRequest,
    ) -> Result<Option<u64>, StoreError> {
        let keys = self.inner.keys.game(id);
        let (seat, key) = request;
        let entry = request_entry(seat, key);
        let mut connection = self.connection();
        let version: Option<f64> = self
            .call(
                "reading request ids",
                connection.zscore(&keys.requests, entry),
            )
            .await?;
        // Versions are scores, exact as doubles far beyond any game's length.
        Ok(version
            .filter(|version| version.is_finite() && *version >= 0.0)
            .map(|version| version as u64))
    }

    async fn remove(&self, id: &str) -> Result<(), StoreError> {
        let inner = &self.inner;
        let keys = inner.keys.game(id);
        let mut connection = self.connection();
        let () = self
            .call(
                "removing a game",
                connection.del(&[&keys.game, &keys.events, &keys.requests, &keys.log]),
            )
            .await?;
        inner.cache.forget(id);
        let () = self
            .call(
                "removing a game from the index",
                connection.zrem(inner.keys.index_for(id, inner.max_games).0, id),
            )
            .await?;
        match &inner.watching {
            Watching::Streams(hub) => hub.forget(id),
            Watching::Channels(hub) => hub.forget(id),
        }
        Ok(())
    }

    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError> {
        let mut connection = self.connection();
        let bytes: Option<Vec<u8>> = self
            .call(
                "reading a create request",
                connection.get(self.inner.keys.create(key)),
            )
            .await?;
        bytes.map(|bytes| decode_create(&bytes)).transpose()
    }

    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError> {
        let bytes = encode_create(&sealed)?;
        let mut connection = self.connection();
        let create_key = self.inner.keys.create(key);
        let existing: Option<Vec<u8>> = self
            .call(
                "remembering a create request",
                ScriptCall::new(&self.inner.scripts.put_create, &[&create_key])
                    .arg(bytes)
                    .arg(millis(window))
                    .invoke(&mut connection),
            )
            .await?;
        self.replicated(&mut connection, &create_key, "replicating a create request")
            .await?;
        match existing {
            None => Ok(PutCreateOutcome::Stored),
            Some(bytes) => Ok(PutCreateOutcome::Existing(decode_create(&bytes)?)),
        }
    }

    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError> {
        let keys = self.inner.keys.game(id);
        let mut connection = self.connection();
        let version: Option<u64> = self
            .call(
                "reading a game's version",
                connection.hget(&keys.game, "version"),
            )
            .await?;
        let Some(version) = version else {
            return Ok(futures::stream::empty().boxed());
        };
        match &self.inner.watching {
            Watching::Streams(hub) => {
                Ok(hub.subscribe(id, &keys.game, &keys.events, version).await)
            }
            Watching::Channels(hub) => {
                hub.subscribe(id, &keys.game, &self.inner.keys.channel(id), version)
                    .await
            }
        }
    }

    async fn health(&self) -> bool {
        let mut connection = self.connection();
        let pong = self
            .call(
                "health check",
                ::redis::cmd("PING").query_async::<String>(&mut connection),
            )
            .await;
        match pong {
            Ok(_) => true,
            Err(error) => {
                tracing::debug!(%error, "Redis health check failed");
                false
            }
        }
    }

    async fn epoch(&self) -> Result<u64, StoreError> {
        let now = super::unix_millis();
        let marker = epoch::new_marker(now)
            .map_err(|_| StoreError::Unavailable("no randomness for the epoch marker".into()))?;
        let mut connection = self.connection();
        // One command: keeps the marker there is, or writes this one when the data set has
        // none (it is new, or Redis lost its data), and says which.
        let previous: Option<String> = self
            .call(
                "reading the store's epoch",
                ::redis::cmd("SET")
                    .arg(self.inner.keys.epoch())
                    .arg(&marker)
                    .arg("NX")
                    .arg("GET")
                    .query_async(&mut connection),
            )
            .await?;
        match previous {
            None => {
                tracing::info!("the Redis store holds no epoch marker: its data set begins now");
                Ok(now)
            }
            Some(previous) => epoch::marker_time(&previous).ok_or_else(|| {
                StoreError::Corrupt("the store's epoch marker is unreadable".to_string())
            }),
        }
    }

    async fn now_ms(&self) -> Result<u64, StoreError> {
        let mut connection = self.connection();
        let (seconds, micros): (u64, u64) = self
            .call(
                "reading Redis's clock",
                ::redis::cmd("TIME").query_async(&mut connection),
            )
            .await?;
        Ok(seconds.saturating_mul(1_000).saturating_add(micros / 1_000))
    }

    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError> {
        let key = self.inner.keys.due_for(id);
        let mut connection = self.connection();
        match due_ms {
            Some(due_ms) => {
                let _: u64 = self
                    .call("filing a due game", connection.zadd(&key, id, due_ms))
                    .await?;
            }
            None => {
                let _: u64 = self
                    .call("taking out a due game", connection.zrem(&key, id))
                    .await?;
            }
        }
        self.replicated(&mut connection, &key, "replicating the due index")
            .await
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let mut connection = self.connection();
        let mut claimed = Vec::new();
        for key in self.inner.keys.dues() {
            let room = limit.saturating_sub(claimed.len());
            if room == 0 {
                break;
            }
            let ids: Vec<String> = self
                .call(
                    "claiming due games",
                    ScriptCall::new(&self.inner.scripts.claim_due, &[&key])
                        .arg(now_ms)
                        .arg(now_ms.saturating_add(lease_ms))
                        .arg(room)
                        .invoke(&mut connection),
                )
                .await?;
            claimed.extend(ids);
        }
        Ok(claimed)
    }

    fn game_ttl(&self) -> Duration {
        Duration::from_millis(self.inner.ttl_ms)
    }

    async fn live_games(&self) -> Result<u64, StoreError> {
        let inner = &self.inner;
        let mut connection = self.connection();
        let mut live = 0;
        for index in inner.keys.indexes() {
            let counted: u64 = self
                .call(
                    "counting live games",
                    ScriptCall::new(&inner.scripts.live_games, &[&index]).invoke(&mut connection),
                )
                .await?;
            live += counted;
        }
        Ok(live)
    }
}

/// Locks `mutex`, poisoned or not: every lock of this store guards a few map operations that
/// cannot panic half-way, so a poisoned lock is still consistent.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifetimes_are_whole_bounded_milliseconds() {
        assert_eq!(millis(Duration::from_secs(2)), 2000);
        assert_eq!(millis(Duration::from_micros(10)), 1);
        assert_eq!(millis(Duration::MAX), MAX_LIFETIME.as_millis() as u64);
        // Exact as a Lua number (a double).
        assert!(millis(Duration::MAX) < 1 << 53);
    }

    #[test]
    fn opening_needs_a_runtime_and_a_redis_url() {
        assert_eq!(
            RedisStore::open(RedisSettings::new("redis://127.0.0.1:6379")).err(),
            Some(OpenError::NoRuntime)
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            assert!(RedisStore::open(RedisSettings::new("redis://127.0.0.1:6379")).is_ok());
            let bad = RedisStore::open(RedisSettings::new("redis://127.0.0.1:notaport"));
            assert!(matches!(bad, Err(OpenError::InvalidUrl(_))), "{bad:?}");
            // TLS URLs open (rustls, public roots or a given CA); a CA with a plain URL is
            // refused without echoing the credentials.
            crate::tls::install_default_provider();
            assert!(
                RedisStore::open(RedisSettings::new("rediss://user:hunter2@cache:6380")).is_ok()
            );
            let plain_with_ca = RedisStore::open(RedisSettings {
                ca_cert_pem: Some(b"not used".to_vec()),
                ..RedisSettings::new("redis://user:hunter2@cache:6380")
            });
            assert!(
                matches!(&plain_with_ca, Err(OpenError::InvalidUrl(m)) if !m.contains("hunter2")),
                "{plain_with_ca:?}"
            );
        });
    }

    #[tokio::test]
    async fn an_unreachable_server_is_unavailable_within_the_timeout() {
        // Nothing listens on port 1 of the loopback interface.
        let settings = RedisSettings {
            timeout: Duration::from_millis(500),
            ..RedisSettings::new("redis://127.0.0.1:1")
        };
        let store = RedisStore::open(settings).unwrap();
        assert!(!store.health().await);
        let load = store.load("0123").await;
        assert!(matches!(load, Err(StoreError::Unavailable(_))), "{load:?}");
        let watch = store.watch("0123").await.err();
        assert!(
            matches!(watch, Some(StoreError::Unavailable(_))),
            "{watch:?}"
        );
    }
}
