//! Watching on a Redis Cluster (docs/ARCHITECTURE.md §4). The stream hub's one multi-key `XREAD`
//! cannot run there (the streams of different games live in different slots), so a cluster
//! store watches by sharded pub/sub instead: the commit script `SPUBLISH`es each new version on
//! the game's shard channel (`<ns>:{<id>}:watch`, in the game's slot), and this hub keeps one
//! subscriber connection per master (the cluster client's), subscribed to the channels of the
//! games watched in this process.
//!
//! Pub/sub may drop a message (a reconnect, a failover), so it only makes watchers quick, never
//! correct: what a watcher needs is the game's latest version, and every
//! [`CATCH_UP_PERIOD`] (and at once after the subscriber reconnects or re-subscribes after a
//! failover or slot move) the hub reads each watched game's version from its hash, delivering
//! anything missed and ending the streams of games that are gone. Watchers then read the views
//! they missed from the game's record, as on every store.
//!
//! A subscription's stream yields increasing versions (possibly coalesced) and ends when the
//! game is removed or expires. When a game's master cannot be read, that game's subscriptions
//! yield [`StoreError::Unavailable`] and end; watchers resume later.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use ::redis::cluster::ClusterClient;
use ::redis::cluster_async::ClusterConnection;
use ::redis::{AsyncCommands, PushInfo, PushKind, Value};
use futures::StreamExt;
use tokio::sync::{Notify, mpsc, watch};

use super::connection::StoreConnection;
use super::failure::bounded;
use super::hub::{Signal, subscription};
use super::lock;
use crate::store::{StoreError, VersionStream};

/// How often every watched game's version is read, whatever pub/sub delivered.
const CATCH_UP_PERIOD: Duration = Duration::from_secs(1);

/// The watch fan-out of one cluster store.
#[derive(Debug)]
pub(super) struct ChannelHub {
    shared: Arc<Shared>,
}

struct Shared {
    /// Makes the subscriber connection (RESP3, pushes to the pump task).
    client: ClusterClient,
    /// The subscriber connection, made on first use.
    subscriber: tokio::sync::Mutex<Option<ClusterConnection>>,
    /// The store's command connection, for reading versions.
    commands: StoreConnection,
    timeout: Duration,
    games: Mutex<Games>,
    /// Wakes the catch-up task early (after a reconnect or re-subscription).
    catch_up: Arc<Notify>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChannelHub")
            .field("timeout", &self.timeout)
            .field("games", &lock(&self.games).by_id.len())
            .finish()
    }
}

/// The games watched in this process.
#[derive(Default)]
struct Games {
    by_id: HashMap<String, Watched>,
    /// Channel name → game id, for incoming messages.
    by_channel: HashMap<String, String>,
    /// Channels of games no longer watched, to unsubscribe from.
    stale_channels: Vec<String>,
}

/// One game watched in this process.
struct Watched {
    game_key: String,
    channel: String,
    /// The last version notified, or the version the first subscriber started from.
    cursor: u64,
    sender: watch::Sender<Signal>,
}

impl Games {
    /// Stops watching game `id`; its subscribers' streams end (or get `failure` first).
    fn end(&mut self, id: &str, failure: Option<StoreError>) {
        if let Some(watched) = self.by_id.remove(id) {
            self.by_channel.remove(&watched.channel);
            self.stale_channels.push(watched.channel);
            if let Some(failure) = failure {
                watched.sender.send_replace(Signal {
                    version: watched.cursor,
                    failure: Some(failure),
                });
            }
        }
    }
}

impl ChannelHub {
    /// A hub whose subscriber connection `client` makes; its pushes arrive on `pushes`.
    /// `commands` reads versions. Starts the hub's tasks, which end with the hub.
    pub(super) fn new(
        client: ClusterClient,
        pushes: mpsc::UnboundedReceiver<PushInfo>,
        commands: StoreConnection,
        timeout: Duration,
    ) -> ChannelHub {
        let shared = Arc::new(Shared {
            client,
            subscriber: tokio::sync::Mutex::new(None),
            commands,
            timeout,
            games: Mutex::new(Games::default()),
            catch_up: Arc::new(Notify::new()),
        });
        tokio::spawn(pump(Arc::downgrade(&shared), pushes));
        tokio::spawn(catch_up_loop(
            Arc::downgrade(&shared),
            shared.catch_up.clone(),
        ));
        ChannelHub { shared }
    }

    /// The versions of game `id` committed after `from`, announced on `channel`; the stream
    /// ends when `game_key` is gone.
    pub(super) async fn subscribe(
        &self,
        id: &str,
        game_key: &str,
        channel: &str,
        from: u64,
    ) -> Result<VersionStream, StoreError> {
        let (receiver, added) = {
            let mut games = lock(&self.shared.games);
            match games.by_id.get(id) {
                Some(watched) => (watched.sender.subscribe(), false),
                None => {
                    let (sender, receiver) = watch::channel(Signal {
                        version: from,
                        failure: None,
                    });
                    games.by_id.insert(
                        id.to_string(),
                        Watched {
                            game_key: game_key.to_string(),
                            channel: channel.to_string(),
                            cursor: from,
                            sender,
                        },
                    );
                    games.by_channel.insert(channel.to_string(), id.to_string());
                    (receiver, true)
                }
            }
        };
        if added {
            if let Err(error) = self.shared.listen(channel).await {
                lock(&self.shared.games).end(id, None);
                return Err(error);
            }
            // A commit between the caller's read of the version and the subscription was
            // published to nobody: read the version once more.
            self.shared.catch_up_game(id, game_key).await;
        }
        Ok(subscription(receiver, from))
    }

    /// Ends the subscriptions of game `id` (it was removed).
    pub(super) fn forget(&self, id: &str) {
        lock(&self.shared.games).end(id, None);
    }
}

impl Shared {
    /// The subscriber connection, connecting it on first use.
    async fn subscriber(&self) -> Result<ClusterConnection, StoreError> {
        let mut subscriber = self.subscriber.lock().await;
        if let Some(connection) = subscriber.as_ref() {
            return Ok(connection.clone());
        }
        let connection = bounded(
            self.timeout,
            "connecting the watch subscriber",
            self.client.get_async_connection(),
        )
        .await?;
        *subscriber = Some(connection.clone());
        Ok(connection)
    }

    /// Subscribes the subscriber connection to `channel` (the client routes it to the master of
    /// the channel's slot, and follows the slot after a failover or move).
    async fn listen(&self, channel: &str) -> Result<(), StoreError> {
        let mut subscriber = self.subscriber().await?;
        bounded(
            self.timeout,
            "subscribing to a game's channel",
            subscriber.ssubscribe(channel),
        )
        .await
    }

    /// Unsubscribes from the channels of games no longer watched.
    async fn unlisten_stale(&self) {
        let stale = std::mem::take(&mut lock(&self.games).stale_channels);
        if stale.is_empty() {
            return;
        }
        let Ok(mut subscriber) = self.subscriber().await else {
            return;
        };
        for channel in stale {
            // Failing only leaves a subscription whose messages are ignored.
            let unsubscribed = bounded(
                self.timeout,
                "unsubscribing from a game's channel",
                subscriber.sunsubscribe(&channel),
            )
            .await;
            if let Err(error) = unsubscribed {
                tracing::debug!(%error, "could not unsubscribe a watch channel");
            }
        }
    }

    /// Tells the subscribers of `id` about `version` if it is new to them.
    fn deliver(&self, id: &str, version: u64) {
        let mut games = lock(&self.games);
        if let Some(watched) = games.by_id.get_mut(id)
            && version > watched.cursor
        {
            watched.cursor = version;
            watched.sender.send_replace(Signal {
                version,
                failure: None,
            });
        }
    }

    /// Reads game `id`'s version and delivers it, or ends its subscriptions when the game is
    /// gone or cannot be read.
    async fn catch_up_game(&self, id: &str, game_key: &str) {
        let mut commands = self.commands.clone();
        let version: Result<Option<u64>, StoreError> = bounded(
            self.timeout,
            "reading a watched game's version",
            commands.hget(game_key, "version"),
        )
        .await;
        match version {
            Ok(Some(version)) => self.deliver(id, version),
            Ok(None) => lock(&self.games).end(id, None),
            Err(error) => {
                tracing::warn!(%error, "ending a game's watch streams: its Redis node cannot be read");
                lock(&self.games).end(id, Some(error));
            }
        }
    }

    /// Reads every watched game's version (see [`Shared::catch_up_game`]), after dropping the
    /// games nobody watches any more.
    async fn catch_up_all(&self) {
        let watched: Vec<(String, String)> = {
            let mut games = lock(&self.games);
            let unwatched: Vec<String> = games
                .by_id
                .iter()
                .filter(|(_, watched)| watched.sender.receiver_count() == 0)
                .map(|(id, _)| id.clone())
                .collect();
            for id in unwatched {
                games.end(&id, None);
            }
            games
                .by_id
                .iter()
                .map(|(id, watched)| (id.clone(), watched.game_key.clone()))
                .collect()
        };
        futures::stream::iter(watched)
            .for_each_concurrent(64, |(id, game_key)| async move {
                self.catch_up_game(&id, &game_key).await;
            })
            .await;
        self.unlisten_stale().await;
    }
}

/// Hands the subscriber's pushes to the watched games, while the hub lives.
async fn pump(shared: Weak<Shared>, mut pushes: mpsc::UnboundedReceiver<PushInfo>) {
    while let Some(push) = pushes.recv().await {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        match push.kind {
            PushKind::SMessage => {
                if let Some((channel, version)) = published_version(&push.data) {
                    let id = lock(&shared.games).by_channel.get(&channel).cloned();
                    if let Some(id) = id {
                        shared.deliver(&id, version);
                    }
                }
            }
            // A re-subscription (after a reconnect, failover or slot move) or a lost
            // connection: messages may have been missed.
            PushKind::SSubscribe | PushKind::Disconnection => shared.catch_up.notify_one(),
            _ => {}
        }
    }
}

/// Reads every watched game's version each [`CATCH_UP_PERIOD`], or sooner when `wake` is
/// notified, while the hub lives (it holds only a weak reference while waiting).
async fn catch_up_loop(shared: Weak<Shared>, wake: Arc<Notify>) {
    loop {
        let _ = tokio::time::timeout(CATCH_UP_PERIOD, wake.notified()).await;
        let Some(strong) = shared.upgrade() else {
            return;
        };
        strong.catch_up_all().await;
    }
}

/// The channel and version of a sharded pub/sub message (`[channel, payload]`).
fn published_version(data: &[Value]) -> Option<(String, u64)> {
    match data {
        [Value::BulkString(channel), Value::BulkString(payload)] => Some((
            String::from_utf8(channel.clone()).ok()?,
            std::str::from_utf8(payload).ok()?.parse().ok()?,
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_the_channel_and_version() {
        let message = |channel: &str, payload: &str| {
            vec![
                Value::BulkString(channel.as_bytes().to_vec()),
                Value::BulkString(payload.as_bytes().to_vec()),
            ]
        };
        assert_eq!(
            published_version(&message("ns:{ab}:watch", "17")),
            Some(("ns:{ab}:watch".to_string(), 17))
        );
        assert_eq!(published_version(&message("c", "x")), None);
        assert_eq!(published_version(&[Value::Nil]), None);
    }

    #[test]
    fn ending_a_game_forgets_its_channel_and_tells_its_watchers() {
        let mut games = Games::default();
        let (sender, receiver) = watch::channel(Signal {
            version: 3,
            failure: None,
        });
        games.by_id.insert(
            "g".into(),
            Watched {
                game_key: "k".into(),
                channel: "c".into(),
                cursor: 3,
                sender,
            },
        );
        games.by_channel.insert("c".into(), "g".into());
        games.end("g", Some(StoreError::Unavailable("down".into())));
        assert!(games.by_id.is_empty() && games.by_channel.is_empty());
        assert_eq!(games.stale_channels, vec!["c".to_string()]);
        assert!(receiver.borrow().failure.is_some());
        // Ending an unknown game changes nothing.
        games.end("g", None);
        assert_eq!(games.stale_channels.len(), 1);
    }
}
