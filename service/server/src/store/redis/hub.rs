//! Watching across replicas (docs/ARCHITECTURE.md §4): one reader task per store reads the event
//! streams of every game watched in this process and fans new versions out to the local
//! subscribers.
//!
//! Each commit appends an entry with id `<version>-0` to its game's stream, so "every version
//! after v" is simply "every entry after `v-0`": a watcher registered at version v misses
//! nothing committed later, whenever the reader gets to it, and nothing is lost between two
//! reads (unlike pub/sub). The reader's blocking `XREAD` runs on its own connection, never on
//! the shared multiplexed one, and a new game to watch interrupts it with `CLIENT UNBLOCK`.
//!
//! A subscription's stream yields increasing versions (possibly coalesced) and ends when the
//! game is removed or expires (checked every [`LIVENESS_PERIOD`]). When Redis cannot be read,
//! every subscription yields [`StoreError::Unavailable`] and ends; watchers resume later.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use ::redis::aio::MultiplexedConnection;
use ::redis::{AsyncConnectionConfig, Client, Value};
use futures::StreamExt;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

use super::connection::StoreConnection;
use super::failure::{bounded, classify};
use super::lock;
use crate::store::{StoreError, VersionStream};

/// How long one `XREAD` blocks; also the longest a new watcher may wait to be read when its
/// wake-up raced with the start of a read.
const BLOCK: Duration = Duration::from_secs(1);

/// How often the reader checks that watched games still exist.
const LIVENESS_PERIOD: Duration = Duration::from_secs(1);

/// The pause before reconnecting after a failed read.
const RECONNECT_PAUSE: Duration = Duration::from_millis(250);

/// Entries read per stream and call; a game further behind is read over several calls.
const READ_COUNT: usize = 128;

/// The watch fan-out of one store.
#[derive(Debug)]
pub(super) struct Hub {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    client: Client,
    /// The shared connection, for `CLIENT UNBLOCK`.
    commands: StoreConnection,
    timeout: Duration,
    games: Mutex<HashMap<String, Watched>>,
    /// Wakes an idle reader when a game is added.
    added: Notify,
    /// The `CLIENT ID` of the reader's connection; 0 while it has none.
    reader_id: AtomicI64,
    reader_started: AtomicBool,
}

/// One game watched in this process.
#[derive(Debug)]
struct Watched {
    game_key: String,
    events_key: String,
    /// The last version notified, or the version the first subscriber started from.
    cursor: u64,
    sender: watch::Sender<Signal>,
}

/// What subscribers of one game are told: the latest version, or that reading failed. (The
/// cluster's channel hub tells its subscribers the same way.)
#[derive(Clone, Debug)]
pub(super) struct Signal {
    /// The latest version known.
    pub(super) version: u64,
    /// Why the game can no longer be followed, if it cannot.
    pub(super) failure: Option<StoreError>,
}

impl Hub {
    /// A hub reading through connections made by `client`; `commands` carries its wake-ups.
    pub(super) fn new(client: Client, commands: StoreConnection, timeout: Duration) -> Hub {
        Hub {
            shared: Arc::new(Shared {
                client,
                commands,
                timeout,
                games: Mutex::new(HashMap::new()),
                added: Notify::new(),
                reader_id: AtomicI64::new(0),
                reader_started: AtomicBool::new(false),
            }),
        }
    }

    /// The versions of game `id` committed after `from`, read from `events_key`; the stream
    /// ends when `game_key` is gone.
    pub(super) async fn subscribe(
        &self,
        id: &str,
        game_key: &str,
        events_key: &str,
        from: u64,
    ) -> VersionStream {
        let (receiver, added) = {
            let mut games = lock(&self.shared.games);
            match games.get(id) {
                Some(watched) => (watched.sender.subscribe(), false),
                None => {
                    let (sender, receiver) = watch::channel(Signal {
                        version: from,
                        failure: None,
                    });
                    games.insert(
                        id.to_string(),
                        Watched {
                            game_key: game_key.to_string(),
                            events_key: events_key.to_string(),
                            cursor: from,
                            sender,
                        },
                    );
                    (receiver, true)
                }
            }
        };
        self.start_reader();
        if added {
            self.shared.wake_reader().await;
        }
        subscription(receiver, from)
    }

    /// Ends the subscriptions of game `id` (it was removed).
    pub(super) fn forget(&self, id: &str) {
        lock(&self.shared.games).remove(id);
    }

    fn start_reader(&self) {
        if !self.shared.reader_started.swap(true, Ordering::AcqRel) {
            tokio::spawn(read_loop(Arc::downgrade(&self.shared)));
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        // The reader holds only a weak reference and stops on its next round (within one
        // block); wake it in case it is idle, so that it notices at once.
        self.shared.added.notify_one();
    }
}

/// A subscriber's stream: each version above the last one it yielded, then the end when the
/// game's sender is dropped; a failure is yielded once and ends the stream.
pub(super) fn subscription(receiver: watch::Receiver<Signal>, from: u64) -> VersionStream {
    struct State {
        receiver: watch::Receiver<Signal>,
        last: u64,
        done: bool,
    }
    let state = State {
        receiver,
        last: from,
        done: false,
    };
    futures::stream::unfold(state, |mut state| async move {
        if state.done {
            return None;
        }
        loop {
            let signal = state.receiver.borrow_and_update().clone();
            if let Some(failure) = signal.failure {
                state.done = true;
                return Some((Err(failure), state));
            }
            if signal.version > state.last {
                state.last = signal.version;
                return Some((Ok(signal.version), state));
            }
            if state.receiver.changed().await.is_err() {
                return None;
            }
        }
    })
    .boxed()
}

/// A snapshot of what to read: (game id, game key, events key, cursor).
type ReadSet = Vec<(String, String, String, u64)>;

impl Shared {
    /// Wakes the reader: an idle one through the notification, a blocked one by unblocking
    /// its read. Failing to unblock only delays the new game's first read by at most [`BLOCK`].
    async fn wake_reader(&self) {
        self.added.notify_one();
        let reader = self.reader_id.load(Ordering::Acquire);
        if reader != 0 {
            let mut connection = self.commands.clone();
            let mut unblock = ::redis::cmd("CLIENT");
            unblock.arg("UNBLOCK").arg(reader);
            let unblocked = unblock.query_async::<i64>(&mut connection);
            if let Err(error) = bounded(self.timeout, "waking the watch reader", unblocked).await {
                tracing::debug!(%error, "could not unblock the watch reader");
            }
        }
    }

    /// The games to read, dropping those nobody watches any more.
    fn read_set(&self) -> ReadSet {
        let mut games = lock(&self.games);
        games.retain(|_, watched| watched.sender.receiver_count() > 0);
        games
            .iter()
            .map(|(id, watched)| {
                (
                    id.clone(),
                    watched.game_key.clone(),
                    watched.events_key.clone(),
                    watched.cursor,
                )
            })
            .collect()
    }

    /// Tells the subscribers of `id` about `version` if it is new to them.
    fn deliver(&self, id: &str, version: u64) {
        let mut games = lock(&self.games);
        if let Some(watched) = games.get_mut(id)
            && version > watched.cursor
        {
            watched.cursor = version;
            watched.sender.send_replace(Signal {
                version,
                failure: None,
            });
        }
    }

    /// Ends the subscriptions of games that no longer exist.
    fn end_gone(&self, gone: &[String]) {
        let mut games = lock(&self.games);
        for id in gone {
            games.remove(id);
        }
    }

    /// Ends every subscription with `error`.
    fn fail_all(&self, error: &StoreError) {
        let failed: Vec<Watched> = lock(&self.games)
            .drain()
            .map(|(_, watched)| watched)
            .collect();
        if !failed.is_empty() {
            tracing::warn!(%error, watchers = failed.len(), "ending watch streams: Redis cannot be read");
        }
        for watched in failed {
            watched.sender.send_replace(Signal {
                version: watched.cursor,
                failure: Some(error.clone()),
            });
        }
    }

    /// A new connection for the reader, with no response timeout of its own (its reads block
    /// on purpose; each is bounded by the caller), and its client id.
    async fn connect_reader(&self) -> Result<MultiplexedConnection, StoreError> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(None);
        let mut connection = bounded(
            self.timeout,
            "connecting the watch reader",
            self.client
                .get_multiplexed_async_connection_with_config(&config),
        )
        .await?;
        let mut identify = ::redis::cmd("CLIENT");
        identify.arg("ID");
        let id = bounded(
            self.timeout,
            "identifying the watch reader",
            identify.query_async::<i64>(&mut connection),
        )
        .await?;
        self.reader_id.store(id, Ordering::Release);
        Ok(connection)
    }
}

/// The reader task: runs while the store lives.
async fn read_loop(shared: Weak<Shared>) {
    let mut connection: Option<MultiplexedConnection> = None;
    let mut last_liveness_check = Instant::now();
    loop {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let read_set = shared.read_set();
        if read_set.is_empty() {
            // Idle: wait for a game to watch, looking up now and then whether the store is gone.
            let _ = tokio::time::timeout(BLOCK, shared.added.notified()).await;
            continue;
        }
        let mut reader = match connection.take() {
            Some(reader) => reader,
            None => match shared.connect_reader().await {
                Ok(reader) => reader,
                Err(error) => {
                    shared.fail_all(&error);
                    drop(shared);
                    tokio::time::sleep(RECONNECT_PAUSE).await;
                    continue;
                }
            },
        };
        let round = if last_liveness_check.elapsed() >= LIVENESS_PERIOD {
            last_liveness_check = Instant::now();
            check_liveness(&shared, &mut reader, &read_set).await
        } else {
            read_new_versions(&shared, &mut reader, &read_set).await
        };
        match round {
            Ok(()) => connection = Some(reader),
            Err(error) => {
                shared.reader_id.store(0, Ordering::Release);
                shared.fail_all(&error);
                drop(shared);
                tokio::time::sleep(RECONNECT_PAUSE).await;
            }
        }
    }
}

/// Ends the subscriptions of watched games whose record is gone (removed or expired).
async fn check_liveness(
    shared: &Shared,
    reader: &mut MultiplexedConnection,
    read_set: &ReadSet,
) -> Result<(), StoreError> {
    let mut pipeline = ::redis::pipe();
    for (_, game_key, _, _) in read_set {
        pipeline.exists(game_key);
    }
    let exists: Vec<bool> = bounded(
        shared.timeout,
        "checking watched games",
        pipeline.query_async(reader),
    )
    .await?;
    let gone: Vec<String> = read_set
        .iter()
        .zip(exists)
        .filter(|(_, exists)| !exists)
        .map(|((id, ..), _)| id.clone())
        .collect();
    shared.end_gone(&gone);
    Ok(())
}

/// One blocking read of every watched stream after its cursor.
async fn read_new_versions(
    shared: &Shared,
    reader: &mut MultiplexedConnection,
    read_set: &ReadSet,
) -> Result<(), StoreError> {
    let mut read = ::redis::cmd("XREAD");
    read.arg("COUNT")
        .arg(READ_COUNT)
        .arg("BLOCK")
        .arg(BLOCK.as_millis() as u64)
        .arg("STREAMS");
    for (_, _, events_key, _) in read_set {
        read.arg(events_key);
    }
    for (_, _, _, cursor) in read_set {
        read.arg(format!("{cursor}-0"));
    }
    let reply: Value =
        match tokio::time::timeout(BLOCK + shared.timeout, read.query_async(reader)).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(error)) => return Err(classify("reading game events", &error)),
            Err(_) => {
                return Err(StoreError::Unavailable(format!(
                    "reading game events: Redis did not answer within {:?}",
                    BLOCK + shared.timeout
                )));
            }
        };
    let by_key: HashMap<&str, &str> = read_set
        .iter()
        .map(|(id, _, events_key, _)| (events_key.as_str(), id.as_str()))
        .collect();
    for (events_key, latest) in latest_versions(reply)? {
        if let Some(id) = by_key.get(events_key.as_str()) {
            shared.deliver(id, latest);
        }
    }
    Ok(())
}

/// The highest version read from each stream of an `XREAD` reply (nil when the read timed out
/// or was unblocked).
fn latest_versions(reply: Value) -> Result<Vec<(String, u64)>, StoreError> {
    type Entries = Vec<(String, Value)>;
    let streams: Option<Vec<(String, Entries)>> = ::redis::from_redis_value(reply)
        .map_err(|error| StoreError::Corrupt(format!("unexpected XREAD reply: {error}")))?;
    Ok(streams
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(key, entries)| {
            let latest = entries
                .iter()
                .filter_map(|(entry_id, _)| entry_version(entry_id))
                .max()?;
            Some((key, latest))
        })
        .collect())
}

/// The version of a stream entry id `<version>-0`.
fn entry_version(entry_id: &str) -> Option<u64> {
    entry_id.split_once('-')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ids_carry_versions() {
        assert_eq!(entry_version("17-0"), Some(17));
        assert_eq!(entry_version("1-0"), Some(1));
        assert_eq!(entry_version("x-0"), None);
        assert_eq!(entry_version("17"), None);
    }

    #[test]
    fn xread_replies_give_the_latest_version_per_stream() {
        let entry = |id: &str| {
            Value::Array(vec![
                Value::BulkString(id.as_bytes().to_vec()),
                Value::Array(vec![
                    Value::BulkString(b"version".to_vec()),
                    Value::BulkString(id.split('-').next().unwrap().as_bytes().to_vec()),
                ]),
            ])
        };
        let reply = Value::Array(vec![
            Value::Array(vec![
                Value::BulkString(b"a".to_vec()),
                Value::Array(vec![entry("3-0"), entry("4-0")]),
            ]),
            Value::Array(vec![
                Value::BulkString(b"b".to_vec()),
                Value::Array(vec![entry("9-0")]),
            ]),
        ]);
        assert_eq!(
            latest_versions(reply).unwrap(),
            vec![("a".to_string(), 4), ("b".to_string(), 9)]
        );
        assert_eq!(latest_versions(Value::Nil).unwrap(), Vec::new());
    }

    #[tokio::test]
    async fn subscriptions_yield_new_versions_then_end() {
        let (sender, receiver) = watch::channel(Signal {
            version: 2,
            failure: None,
        });
        let mut versions = subscription(receiver, 2);
        sender.send_replace(Signal {
            version: 3,
            failure: None,
        });
        assert_eq!(versions.next().await, Some(Ok(3)));
        // Coalesced and stale values are skipped; only increases are yielded.
        sender.send_replace(Signal {
            version: 3,
            failure: None,
        });
        sender.send_replace(Signal {
            version: 6,
            failure: None,
        });
        assert_eq!(versions.next().await, Some(Ok(6)));
        drop(sender);
        assert_eq!(versions.next().await, None);
    }

    #[tokio::test]
    async fn a_late_subscriber_hears_what_it_missed() {
        // The reader already announced 5; a subscriber that read version 4 must still hear 5.
        let (sender, _) = watch::channel(Signal {
            version: 5,
            failure: None,
        });
        let mut versions = subscription(sender.subscribe(), 4);
        assert_eq!(versions.next().await, Some(Ok(5)));
        // One that read 5 already waits for 6.
        let mut current = subscription(sender.subscribe(), 5);
        sender.send_replace(Signal {
            version: 6,
            failure: None,
        });
        assert_eq!(current.next().await, Some(Ok(6)));
    }

    #[tokio::test]
    async fn failures_are_yielded_once_and_end_the_stream() {
        let (sender, receiver) = watch::channel(Signal {
            version: 1,
            failure: None,
        });
        let mut versions = subscription(receiver, 1);
        let failure = StoreError::Unavailable("down".into());
        sender.send_replace(Signal {
            version: 1,
            failure: Some(failure.clone()),
        });
        drop(sender);
        assert_eq!(versions.next().await, Some(Err(failure)));
        assert_eq!(versions.next().await, None);
    }
}
