//! The in-memory [`SessionStore`]: the default, for development, tests and single-node use.
//!
//! Games live in sharded `std::sync::RwLock<HashMap>`s; no lock is ever held across an
//! `.await` (no method awaits while holding one). Each game carries a `tokio::sync::watch`
//! sender of its version for watchers. Expiry uses Tokio's clock, so tests can pause and
//! advance it: a background sweeper removes idle games, and `load` ignores expired ones before
//! the sweeper gets to them.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;

use async_trait::async_trait;
use deckmate_engine::Seat;
use futures::StreamExt;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_stream::wrappers::WatchStream;

use super::due_index::DueIndex;
use super::{
    Commit, CommitOutcome, CreateError, CreateOutcome, GameRecord, PutCreateOutcome,
    REQUEST_WINDOW, RequestKey, SealedCreate, SeatRequest, SessionStore, StoreError, VersionStream,
};

/// Shards of the game map: enough that two cores rarely wait on each other.
const SHARDS: usize = 16;

/// One shard of games by id. Ids are the server's own random strings, never chosen by a
/// client, so the map needs no more protection from colliding keys than foldhash's random
/// seeds give, and its hashing costs a fraction of SipHash's: every call hashes its game's id
/// twice, once for the shard and once in it.
type GameShard = HashMap<String, Entry, GameIdHasher>;

/// The hasher of game ids, seeded anew for each shard and for the choice of shard (the shard's
/// own hashes must not all share the bits that chose it).
type GameIdHasher = foldhash::fast::RandomState;

/// The longest lifetime the store keeps anything for (about 100 years): longer TTLs and
/// windows are cut to it, so deadlines never overflow the clock.
const MAX_LIFETIME: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);

/// Games and create-request entries held in this process.
#[derive(Clone, Debug)]
pub struct MemoryStore {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    shards: Vec<RwLock<GameShard>>,
    hasher: GameIdHasher,
    /// Games held, including expired ones the sweeper has not removed yet.
    game_count: AtomicUsize,
    creates: Mutex<HashMap<String, CreateEntry>>,
    ttl: Duration,
    max_games: usize,
    /// When this store was made, Unix milliseconds: everything it holds is younger.
    epoch_ms: u64,
    /// The same moment on Tokio's clock: [`SessionStore::now_ms`] counts from it, so that
    /// tests that pause and advance Tokio's clock move turn clocks too.
    epoch_instant: Instant,
    /// Games by when the clock scheduler should look at them next.
    due: Mutex<DueIndex>,
}

#[derive(Debug)]
struct Entry {
    record: Arc<GameRecord>,
    /// The last [`REQUEST_WINDOW`] request keys and the versions they produced, oldest first.
    requests: VecDeque<(Seat, RequestKey, u64)>,
    versions: watch::Sender<u64>,
    expires_at: Instant,
}

#[derive(Debug)]
struct CreateEntry {
    sealed: SealedCreate,
    expires_at: Instant,
}

impl MemoryStore {
    /// A store whose games expire after `ttl` without a commit, holding at most `max_games`.
    ///
    /// Called inside a Tokio runtime, it starts the background sweeper, which stops when the
    /// last clone of the store is dropped. Without a runtime, expired games are only skipped by
    /// reads and reclaimed when the game limit is reached.
    pub fn new(ttl: Duration, max_games: usize) -> MemoryStore {
        let inner = Arc::new(Inner {
            shards: (0..SHARDS)
                .map(|_| RwLock::new(GameShard::default()))
                .collect(),
            hasher: GameIdHasher::default(),
            game_count: AtomicUsize::new(0),
            creates: Mutex::new(HashMap::new()),
            ttl: ttl.min(MAX_LIFETIME),
            max_games,
            epoch_ms: super::unix_millis(),
            epoch_instant: Instant::now(),
            due: Mutex::default(),
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            tokio::spawn(sweep_periodically(Arc::downgrade(&inner)));
        }
        MemoryStore { inner }
    }

    /// Games held now, not counting expired ones.
    pub fn live_games(&self) -> usize {
        let now = Instant::now();
        self.inner
            .shards
            .iter()
            .map(|shard| {
                read(shard)
                    .values()
                    .filter(|entry| entry.expires_at > now)
                    .count()
            })
            .sum()
    }

    /// Removes every expired game and create-request entry now.
    pub fn sweep(&self) {
        self.inner.sweep();
    }
}

/// How often the sweeper runs: a tenth of the TTL, between one second and one minute.
fn sweep_period(ttl: Duration) -> Duration {
    (ttl / 10).clamp(Duration::from_secs(1), Duration::from_secs(60))
}

async fn sweep_periodically(inner: Weak<Inner>) {
    let Some(period) = inner.upgrade().map(|inner| sweep_period(inner.ttl)) else {
        return;
    };
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match inner.upgrade() {
            Some(inner) => inner.sweep(),
            None => return,
        }
    }
}

impl Inner {
    fn shard(&self, id: &str) -> &RwLock<GameShard> {
        let index = (self.hasher.hash_one(id) % SHARDS as u64) as usize;
        &self.shards[index]
    }

    fn sweep(&self) {
        let now = Instant::now();
        for shard in &self.shards {
            let mut games = write(shard);
            let before = games.len();
            games.retain(|_, entry| entry.expires_at > now);
            self.game_count
                .fetch_sub(before - games.len(), Ordering::AcqRel);
        }
        lock(&self.creates).retain(|_, entry| entry.expires_at > now);
    }

    /// Takes one of the `max_games` slots, sweeping expired games first when all are taken.
    fn reserve_slot(&self) -> bool {
        let take = |count: usize| (count < self.max_games).then_some(count + 1);
        if self
            .game_count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, take)
            .is_ok()
        {
            return true;
        }
        self.sweep();
        self.game_count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, take)
            .is_ok()
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    // A panic while holding the lock cannot leave a map half-updated (each update is one
    // insert, replace or remove), so a poisoned lock is still consistent.
    lock.read().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[async_trait]
impl SessionStore for MemoryStore {
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError> {
        let inner = &self.inner;
        if !inner.reserve_slot() {
            return Err(CreateError::GameLimit(inner.max_games));
        }
        let now = Instant::now();
        let mut games = write(inner.shard(&record.id));
        if let Some(existing) = games.get(&record.id)
            && existing.expires_at > now
        {
            inner.game_count.fetch_sub(1, Ordering::AcqRel);
            return Ok(CreateOutcome::AlreadyExists);
        }
        let (versions, _) = watch::channel(record.version());
        let replaced = games.insert(
            record.id.clone(),
            Entry {
                record: Arc::new(record),
                requests: VecDeque::new(),
                versions,
                expires_at: now + inner.ttl,
            },
        );
        if replaced.is_some() {
            // An expired game with the same id gave up its slot.
            inner.game_count.fetch_sub(1, Ordering::AcqRel);
        }
        Ok(CreateOutcome::Created)
    }

    /// The memory store keeps no copies: a peek is a load.
    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.load(id).await
    }

    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        let shard = self.inner.shard(id);
        let now = Instant::now();
        {
            let games = read(shard);
            match games.get(id) {
                None => return Ok(None),
                Some(entry) if entry.expires_at > now => return Ok(Some(entry.record.clone())),
                Some(_) => {}
            }
        }
        // Expired: reclaim it now rather than waiting for the sweeper.
        let mut games = write(shard);
        if games.get(id).is_some_and(|entry| entry.expires_at <= now) {
            games.remove(id);
            self.inner.game_count.fetch_sub(1, Ordering::AcqRel);
        }
        Ok(None)
    }

    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError> {
        let now = Instant::now();
        let mut games = write(self.inner.shard(&commit.id));
        let Some(entry) = games
            .get_mut(&commit.id)
            .filter(|entry| entry.expires_at > now)
        else {
            return Ok(CommitOutcome::NotFound);
        };
        if let Some((seat, key)) = commit.request
            && let Some(version) = find_in_window(&entry.requests, (seat, key))
        {
            return Ok(CommitOutcome::Duplicate { version });
        }
        let current_version = entry.record.version();
        if current_version != commit.expected_version {
            return Ok(CommitOutcome::Conflict { current_version });
        }
        let version = commit.record.version();
        entry.record = Arc::new(commit.record);
        entry.expires_at = now + self.inner.ttl;
        if let Some((seat, key)) = commit.request {
            if entry.requests.len() == REQUEST_WINDOW {
                entry.requests.pop_front();
            }
            entry.requests.push_back((seat, key, version));
        }
        // Waking watchers costs a lock per waiter list even when nobody waits, so a game nobody
        // watches only has its version updated (a watcher subscribes under the shard lock held
        // here, so none can start watching in between).
        let watched = entry.versions.receiver_count() > 0;
        entry.versions.send_if_modified(|current| {
            *current = version;
            watched
        });
        Ok(CommitOutcome::Committed { version })
    }

    async fn find_request(
        &self,
        id: &str,
        request: SeatRequest,
    ) -> Result<Option<u64>, StoreError> {
        let now = Instant::now();
        let games = read(self.inner.shard(id));
        Ok(games
            .get(id)
            .filter(|entry| entry.expires_at > now)
            .and_then(|entry| find_in_window(&entry.requests, request)))
    }

    async fn remove(&self, id: &str) -> Result<(), StoreError> {
        if write(self.inner.shard(id)).remove(id).is_some() {
            self.inner.game_count.fetch_sub(1, Ordering::AcqRel);
        }
        Ok(())
    }

    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError> {
        let now = Instant::now();
        let creates = lock(&self.inner.creates);
        Ok(creates
            .get(key)
            .filter(|entry| entry.expires_at > now)
            .map(|entry| entry.sealed.clone()))
    }

    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError> {
        let now = Instant::now();
        let mut creates = lock(&self.inner.creates);
        if let Some(existing) = creates.get(key)
            && existing.expires_at > now
        {
            return Ok(PutCreateOutcome::Existing(existing.sealed.clone()));
        }
        creates.insert(
            key.to_string(),
            CreateEntry {
                sealed,
                expires_at: now + window.min(MAX_LIFETIME),
            },
        );
        Ok(PutCreateOutcome::Stored)
    }

    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError> {
        let now = Instant::now();
        let receiver = read(self.inner.shard(id))
            .get(id)
            .filter(|entry| entry.expires_at > now)
            .map(|entry| entry.versions.subscribe());
        Ok(match receiver {
            // Only changes after this call; the sender is dropped with the game, which ends
            // the stream.
            Some(receiver) => WatchStream::from_changes(receiver).map(Ok).boxed(),
            None => futures::stream::empty().boxed(),
        })
    }

    async fn health(&self) -> bool {
        true
    }

    async fn live_games(&self) -> Result<u64, StoreError> {
        // Expired games keep their slot until a sweep; sweep first so that they are not counted.
        self.inner.sweep();
        Ok(self.inner.game_count.load(Ordering::Acquire) as u64)
    }

    async fn epoch(&self) -> Result<u64, StoreError> {
        Ok(self.inner.epoch_ms)
    }

    async fn now_ms(&self) -> Result<u64, StoreError> {
        let elapsed = Instant::now().saturating_duration_since(self.inner.epoch_instant);
        let elapsed = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        Ok(self.inner.epoch_ms.saturating_add(elapsed))
    }

    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError> {
        lock(&self.inner.due).file(id, due_ms);
        Ok(())
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        Ok(lock(&self.inner.due).claim(now_ms, now_ms.saturating_add(lease_ms), limit))
    }

    fn game_ttl(&self) -> Duration {
        self.inner.ttl
    }
}

fn find_in_window(
    requests: &VecDeque<(Seat, RequestKey, u64)>,
    (seat, key): SeatRequest,
) -> Option<u64> {
    requests
        .iter()
        .rev()
        .find(|(s, k, _)| *s == seat && *k == key)
        .map(|(_, _, version)| *version)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use crate::live::LiveGame;
    use deckmate_engine::{GameKind, Seed, Viewer};
    use deckmate_proto::v1 as pb;

    /// A minimal game for store tests: its version is all there is.
    #[derive(Clone, Debug)]
    struct Counter(u64);

    impl LiveGame for Counter {
        fn kind(&self) -> GameKind {
            GameKind::PigeonChess
        }
        fn seats(&self) -> usize {
            2
        }
        fn version(&self) -> u64 {
            self.0
        }
        fn is_over(&self) -> bool {
            false
        }
        fn seed(&self) -> Seed {
            Seed::from_u64(0)
        }
        fn config(&self) -> pb::GameConfig {
            pb::GameConfig::default()
        }
        fn clone_box(&self) -> Box<dyn LiveGame> {
            Box::new(self.clone())
        }
        fn act(&mut self, _: Seat, _: &pb::Action) -> Result<(), ApiError> {
            self.0 += 1;
            Ok(())
        }
        fn view(&self, _: Viewer) -> pb::ObserveResponse {
            pb::ObserveResponse {
                version: self.0,
                ..Default::default()
            }
        }
        fn views_between(
            &self,
            _: Viewer,
            _: u64,
            _: u64,
        ) -> Result<Vec<pb::ObserveResponse>, ApiError> {
            Ok(Vec::new())
        }
        fn made_by(&self, version: u64, _: Seat, _: &pb::Action) -> Result<bool, ApiError> {
            Ok(version >= 1 && version <= self.0)
        }
        fn view_at(&self, viewer: Viewer, _: u64) -> Result<pb::ObserveResponse, ApiError> {
            Ok(self.view(viewer))
        }
        fn history(
            &self,
            _: Viewer,
            _: std::ops::RangeInclusive<u64>,
        ) -> Result<(Vec<pb::Event>, Vec<pb::HistoryAction>), ApiError> {
            Ok((Vec::new(), Vec::new()))
        }
        fn encode(&self) -> Result<Vec<u8>, ApiError> {
            Ok(self.0.to_le_bytes().to_vec())
        }
        fn encode_head(&self) -> Result<Vec<u8>, ApiError> {
            self.encode()
        }
        fn encode_previous(&self) -> Result<Vec<u8>, ApiError> {
            self.encode()
        }
        fn encode_head_previous(&self) -> Result<Vec<u8>, ApiError> {
            self.encode()
        }
        fn bot_seats(&self) -> &[(Seat, deckmate_engine::bots::BotLevel)] {
            &[]
        }
        fn set_bot_seats(&mut self, _: Vec<(Seat, deckmate_engine::bots::BotLevel)>) {}
        fn bot_action(
            &self,
            _: Seat,
            _: deckmate_engine::bots::BotLevel,
            _: deckmate_engine::bots::Budget,
            _: Seed,
            _: &dyn Fn() -> bool,
        ) -> Option<pb::Action> {
            None
        }
        fn to_act(&self) -> Vec<Seat> {
            Vec::new()
        }
        fn clock_seats(&self) -> deckmate_engine::SeatSet {
            deckmate_engine::SeatSet::EMPTY
        }
        fn clock(&self) -> Option<&crate::clocks::GameClock> {
            None
        }
        fn clock_mut(&mut self) -> Option<&mut crate::clocks::GameClock> {
            None
        }
        fn set_clock(&mut self, _: crate::clocks::GameClock) {}
        fn time_out(&mut self, _: Seat) -> Result<(), ApiError> {
            Err(ApiError::NotYourTurn)
        }
        fn moved_on_timeout(&mut self, _: Seat, _: &pb::Action) -> Result<(), ApiError> {
            Err(ApiError::NotYourTurn)
        }
        fn may_move_on_timeout(&self, _: Seat) -> Result<bool, ApiError> {
            Ok(false)
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn encode_entries(&self, from: u64) -> Result<Vec<Vec<u8>>, ApiError> {
            Ok((from..self.0)
                .map(|version| version.to_le_bytes().to_vec())
                .collect())
        }
    }

    fn record(id: &str, version: u64) -> GameRecord {
        GameRecord::for_test(id, Box::new(Counter(version)))
    }

    fn commit(id: &str, expected: u64, request: Option<(Seat, RequestKey)>) -> Commit {
        Commit {
            id: id.to_string(),
            expected_version: expected,
            record: record(id, expected + 1),
            request,
        }
    }

    #[tokio::test]
    async fn game_limit_counts_live_games_only() {
        tokio::time::pause();
        let store = MemoryStore::new(Duration::from_secs(60), 2);
        for id in ["a", "b"] {
            assert_eq!(
                store.create(record(id, 0)).await,
                Ok(CreateOutcome::Created)
            );
        }
        assert_eq!(
            store.create(record("c", 0)).await,
            Err(CreateError::GameLimit(2))
        );
        store.remove("a").await.unwrap();
        assert_eq!(
            store.create(record("c", 0)).await,
            Ok(CreateOutcome::Created)
        );
        // Expired games give their slots back even before the sweeper runs.
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(
            store.create(record("d", 0)).await,
            Ok(CreateOutcome::Created)
        );
        assert_eq!(store.live_games(), 1);
    }

    #[tokio::test]
    async fn duplicate_id_does_not_take_a_slot() {
        let store = MemoryStore::new(Duration::from_secs(60), 1);
        assert_eq!(
            store.create(record("a", 0)).await,
            Ok(CreateOutcome::Created)
        );
        assert_eq!(
            store.create(record("a", 0)).await,
            Err(CreateError::GameLimit(1))
        );
        store.remove("a").await.unwrap();
        assert_eq!(
            store.create(record("a", 0)).await,
            Ok(CreateOutcome::Created)
        );
        let big = MemoryStore::new(Duration::from_secs(60), 5);
        big.create(record("a", 0)).await.unwrap();
        assert_eq!(
            big.create(record("a", 0)).await,
            Ok(CreateOutcome::AlreadyExists)
        );
        assert_eq!(big.inner.game_count.load(Ordering::Acquire), 1);
    }

    #[tokio::test]
    async fn commits_nobody_watched_still_reach_later_watchers() {
        let store = MemoryStore::new(Duration::from_secs(60), 10);
        store.create(record("a", 0)).await.unwrap();
        store.commit(commit("a", 0, None)).await.unwrap();
        let mut versions = store.watch("a").await.unwrap();
        store.commit(commit("a", 1, None)).await.unwrap();
        assert_eq!(versions.next().await, Some(Ok(2)));
        store.commit(commit("a", 2, None)).await.unwrap();
        assert_eq!(versions.next().await, Some(Ok(3)));
    }

    #[tokio::test]
    async fn sweeper_removes_idle_games_and_ends_their_watchers() {
        tokio::time::pause();
        let store = MemoryStore::new(Duration::from_secs(10), 10);
        store.create(record("a", 0)).await.unwrap();
        store.create(record("b", 0)).await.unwrap();
        let mut versions = store.watch("a").await.unwrap();
        tokio::time::advance(Duration::from_secs(6)).await;
        // A commit keeps "b" alive; "a" stays idle.
        store.commit(commit("b", 0, None)).await.unwrap();
        tokio::time::advance(Duration::from_secs(6)).await;
        // Let the sweeper task run its due tick.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let remaining: usize = store.inner.shards.iter().map(|s| read(s).len()).sum();
        assert_eq!(remaining, 1);
        assert!(store.load("a").await.unwrap().is_none());
        assert!(store.load("b").await.unwrap().is_some());
        assert!(versions.next().await.is_none(), "the watcher's stream ends");
    }

    #[tokio::test]
    async fn commit_checks_duplicates_before_versions() {
        let store = MemoryStore::new(Duration::from_secs(60), 10);
        store.create(record("a", 0)).await.unwrap();
        let key = RequestKey::for_act("r1");
        let first = store.commit(commit("a", 0, Some((Seat(0), key)))).await;
        assert_eq!(first, Ok(CommitOutcome::Committed { version: 1 }));
        // The retry read version 0 again: still reported as the duplicate it is.
        let retry = store.commit(commit("a", 0, Some((Seat(0), key)))).await;
        assert_eq!(retry, Ok(CommitOutcome::Duplicate { version: 1 }));
        // The same key of another seat is another request.
        let other = store.commit(commit("a", 0, Some((Seat(1), key)))).await;
        assert_eq!(other, Ok(CommitOutcome::Conflict { current_version: 1 }));
        assert_eq!(
            store.commit(commit("zz", 0, None)).await,
            Ok(CommitOutcome::NotFound)
        );
    }

    #[tokio::test]
    async fn huge_lifetimes_do_not_overflow() {
        let store = MemoryStore::new(Duration::MAX, 10);
        store.create(record("a", 0)).await.unwrap();
        store.commit(commit("a", 0, None)).await.unwrap();
        assert!(store.load("a").await.unwrap().is_some());
        let sealed = SealedCreate {
            game_id: "a".into(),
            nonce: [0; 12],
            ciphertext: Vec::new(),
        };
        store.put_create("k", sealed, Duration::MAX).await.unwrap();
        assert!(store.find_create("k").await.unwrap().is_some());
    }

    #[test]
    fn sweep_period_is_bounded() {
        assert_eq!(sweep_period(Duration::from_secs(5)), Duration::from_secs(1));
        assert_eq!(
            sweep_period(Duration::from_secs(300)),
            Duration::from_secs(30)
        );
        assert_eq!(
            sweep_period(Duration::from_secs(86_400)),
            Duration::from_secs(60)
        );
    }

    #[test]
    fn works_without_a_runtime() {
        let store = MemoryStore::new(Duration::from_secs(60), 10);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            store.create(record("a", 0)).await.unwrap();
            assert!(store.load("a").await.unwrap().is_some());
        });
    }
}
