//! The session store conformance suite (docs/ARCHITECTURE.md §4): one set of cases, written once
//! over any [`SessionStore`] through a [`Harness`], run against every store: the memory store and
//! the Redis store. The Redis cases need a Redis server at `DECKMATE_TEST_REDIS_URL` (default
//! `redis://127.0.0.1:6379`, which CI starts) and fail, never skip, when none answers.
//!
//! The cases cover: create (and a taken id), load, commit, conflicts (a stale expected version
//! changes nothing), duplicate request ids (the first version is returned and nothing is
//! applied), the request-id window, idle expiry, watching, and create-request entries. Time is
//! the store's own: the memory store runs on Tokio's paused clock, and for the Redis store time
//! passes by shortening the TTL of every key of the case's namespace (which is exactly how time
//! acts on Redis expiry), so nothing here waits on the wall clock or asserts on timings. The
//! Redis-only cases at the end check expiry on the real Redis clock, watching across two
//! stores (replicas) and the key layout.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deckmate_engine::{Seat, Seed};
use deckmate_proto::v1 as pb;
use deckmate_server::auth::{self, SeatToken};
use deckmate_server::catalog;
use deckmate_server::live::LiveGame;
use deckmate_server::store::redis::{RedisSettings, RedisStore};
use deckmate_server::store::{
    Commit, CommitOutcome, CreateError, CreateOutcome, GameRecord, MemoryStore, PutCreateOutcome,
    REQUEST_WINDOW, RequestKey, SealedCreate, SessionStore,
};
use futures::StreamExt;
use redis::AsyncCommands;

#[path = "shared/padded_step.rs"]
mod padded_step;
use padded_step::padded_step;

/// How a store under test is made and how time passes for it.
#[async_trait]
trait Harness: Sync {
    /// The store type.
    type Store: SessionStore;

    /// A store whose games expire after `ttl` without a commit, holding at most `max_games`.
    async fn store(&self, ttl: Duration, max_games: usize) -> Self::Store;

    /// Lets `duration` pass on the store's clock.
    async fn pass_time(&self, duration: Duration);

    /// Whether the store splits its game limit over index shards (a Redis Cluster), so that a
    /// create may be refused before the total is reached.
    fn limit_is_sharded(&self) -> bool {
        false
    }
}

/// The memory store, on Tokio's paused clock.
struct Memory;

#[async_trait]
impl Harness for Memory {
    type Store = MemoryStore;

    async fn store(&self, ttl: Duration, max_games: usize) -> MemoryStore {
        MemoryStore::new(ttl, max_games)
    }

    async fn pass_time(&self, duration: Duration) {
        tokio::time::advance(duration).await;
    }
}

/// The Redis store on the test server, in a namespace of its own per case, so that cases run
/// in parallel and time passing for one case touches no other.
struct Redis {
    namespace: String,
}

impl Redis {
    fn new() -> Redis {
        Redis {
            namespace: format!("deckmate-test-{}", fresh_id()),
        }
    }

    /// The settings of a store in this case's namespace.
    fn settings(&self, ttl: Duration, max_games: usize) -> RedisSettings {
        RedisSettings {
            ttl,
            max_games,
            namespace: self.namespace.clone(),
            ..RedisSettings::new(redis_url())
        }
    }
}

#[async_trait]
impl Harness for Redis {
    type Store = RedisStore;

    async fn store(&self, ttl: Duration, max_games: usize) -> RedisStore {
        let store = RedisStore::open(self.settings(ttl, max_games)).expect("a Redis URL");
        assert!(
            store.health().await,
            "no Redis answers at {} (set DECKMATE_TEST_REDIS_URL, or start redis-server)",
            redis_url()
        );
        store
    }

    async fn pass_time(&self, duration: Duration) {
        let passed = duration.as_millis() as i64;
        let mut connection = raw_connection().await;
        let pattern = format!("{}:*", self.namespace);
        let keys: Vec<String> = {
            let mut scan = connection.scan_match::<_, String>(&pattern).await.unwrap();
            let mut keys = Vec::new();
            while let Some(key) = scan.next().await {
                keys.push(key.unwrap());
            }
            keys
        };
        for key in keys {
            let left: i64 = connection.pttl(&key).await.unwrap();
            if left > passed {
                let _: bool = connection.pexpire(&key, left - passed).await.unwrap();
            } else if left >= 0 {
                let _: usize = connection.del(&key).await.unwrap();
            }
        }
    }
}

/// The test Redis server's URL.
fn redis_url() -> String {
    std::env::var("DECKMATE_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// A plain connection to the test Redis server, for looking at keys.
async fn raw_connection() -> redis::aio::MultiplexedConnection {
    let client = redis::Client::open(redis_url()).expect("a Redis URL");
    client
        .get_multiplexed_async_connection()
        .await
        .unwrap_or_else(|error| panic!("no Redis answers at {}: {error}", redis_url()))
}

/// Runs every case against one harness, each as its own test.
macro_rules! suite {
    ($module:ident, $harness:expr, #[$test:meta]) => {
        mod $module {
            use super::*;
            suite!(@cases $harness, #[$test],
                create_and_load,
                create_refuses_a_taken_id,
                create_respects_the_game_limit,
                commit_replaces_the_record,
                stale_commit_changes_nothing,
                commit_to_a_missing_game,
                duplicate_request_applies_nothing,
                request_ids_are_scoped_by_seat,
                request_window_keeps_the_latest,
                idle_games_expire,
                removed_games_are_gone,
                watchers_see_new_versions_in_order,
                watchers_resume_without_gaps,
                watch_ends_with_the_game,
                create_requests_are_remembered,
                health_reports_a_working_store,
                live_games_counts_what_the_limit_counts,
                due_games_are_claimed_in_order_under_a_lease,
                the_store_clock_is_unix_time,
            );
        }
    };
    (@cases $harness:expr, #[$test:meta], $($case:ident),* $(,)?) => {
        $(
            #[$test]
            async fn $case() {
                super::$case(&$harness).await;
            }
        )*
    };
}

/// The cases of every store that replicas share over the network (two stores, one Redis) and
/// whose time is the Redis clock, each as its own test.
macro_rules! networked_cases {
    ($harness:expr) => {
        suite!(@cases $harness, #[tokio::test],
            replicas_watch_each_others_commits,
            one_reader_follows_many_games,
            games_expire_on_the_redis_clock,
            a_peek_keeps_no_copy,
            reads_see_another_replicas_commits,
        );
    };
}

suite!(memory, Memory, #[tokio::test(start_paused = true)]);
suite!(redis_store, Redis::new(), #[tokio::test]);
suite!(redis_cluster, cluster::Cluster::new(), #[tokio::test]);

/// The Redis Cluster harness and the cases only a cluster has.
#[path = "store/cluster.rs"]
mod cluster;

/// Long enough that nothing expires unless a case means it to.
const LONG_TTL: Duration = Duration::from_secs(3600);

// ---------------------------------------------------------------------------------------------
// Games and records
// ---------------------------------------------------------------------------------------------

fn new_game(seed: u64) -> Box<dyn LiveGame> {
    let config = pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(Default::default())),
    };
    catalog::new_game(&config, 0, Seed::from_u64(seed)).expect("a default Pigeon Chess game")
}

fn record(id: &str, game: Box<dyn LiveGame>) -> GameRecord {
    GameRecord {
        id: id.to_string(),
        token_hashes: (0..game.seats())
            .map(|_| SeatToken::generate().unwrap().hash())
            .collect(),
        spectators_allowed: true,
        seed_commitment: [9; 32],
        created_at: 1_000,
        updated_at: 1_000,
        game,
    }
}

fn fresh_id() -> String {
    auth::new_game_id().unwrap()
}

/// The game after one more accepted action. To keep games long (the request-window case needs
/// more versions than a quick game has), draw offers are made and declined whenever possible;
/// otherwise the first legal game action of the first seat to act is played.
fn advanced(game: &dyn LiveGame) -> Box<dyn LiveGame> {
    let mut next = game.clone_box();
    let (seat, action) = padded_step(game);
    next.act(seat, &action).expect("a listed action applies");
    next
}

/// The record after one more action, as a handler would commit it.
fn successor(current: &GameRecord) -> GameRecord {
    GameRecord {
        game: advanced(current.game.as_ref()),
        updated_at: current.updated_at + 1,
        ..current.clone()
    }
}

/// Creates a game and returns its record as stored.
async fn created(store: &impl SessionStore) -> Arc<GameRecord> {
    let id = fresh_id();
    assert_eq!(
        store.create(record(&id, new_game(7))).await,
        Ok(CreateOutcome::Created)
    );
    store
        .load(&id)
        .await
        .unwrap()
        .expect("a created game loads")
}

/// Commits the next action over `current` and returns the stored result.
async fn commit_next(
    store: &impl SessionStore,
    current: &GameRecord,
    request: Option<(Seat, RequestKey)>,
) -> Arc<GameRecord> {
    let outcome = store
        .commit(Commit {
            id: current.id.clone(),
            expected_version: current.version(),
            record: successor(current),
            request,
        })
        .await;
    assert_eq!(
        outcome,
        Ok(CommitOutcome::Committed {
            version: current.version() + 1
        })
    );
    store
        .load(&current.id)
        .await
        .unwrap()
        .expect("the game loads")
}

fn assert_same_record(actual: &GameRecord, expected: &GameRecord) {
    assert_eq!(actual.id, expected.id);
    assert_eq!(actual.version(), expected.version());
    assert_eq!(actual.token_hashes, expected.token_hashes);
    assert_eq!(actual.spectators_allowed, expected.spectators_allowed);
    assert_eq!(actual.seed_commitment, expected.seed_commitment);
    assert_eq!(
        (actual.created_at, actual.updated_at),
        (expected.created_at, expected.updated_at)
    );
    assert_eq!(actual.game.encode(), expected.game.encode());
}

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------

async fn create_and_load(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let id = fresh_id();
    let original = record(&id, new_game(1));
    assert_eq!(
        store.create(original.clone()).await,
        Ok(CreateOutcome::Created)
    );
    let loaded = store.load(&id).await.unwrap().expect("the game loads");
    assert_same_record(&loaded, &original);
    assert_eq!(loaded.version(), 0);
    assert!(store.load(&fresh_id()).await.unwrap().is_none());
    let peeked = store.peek(&id).await.unwrap().expect("the game peeks");
    assert_same_record(&peeked, &original);
    assert!(store.peek(&fresh_id()).await.unwrap().is_none());
}

async fn create_refuses_a_taken_id(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let id = fresh_id();
    let original = record(&id, new_game(1));
    store.create(original.clone()).await.unwrap();
    let mut intruder = record(&id, new_game(2));
    intruder.spectators_allowed = false;
    assert_eq!(
        store.create(intruder).await,
        Ok(CreateOutcome::AlreadyExists)
    );
    assert_same_record(&store.load(&id).await.unwrap().unwrap(), &original);
}

async fn create_respects_the_game_limit(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 2).await;
    if harness.limit_is_sharded() {
        // Each index shard holds its part of the limit (at least one game): creates succeed
        // until one lands in a full shard, and fit again once the games are gone.
        let mut admitted = Vec::new();
        let mut refused = None;
        for seed in 0..200 {
            match store.create(record(&fresh_id(), new_game(seed))).await {
                Ok(CreateOutcome::Created) => admitted.push(seed),
                other => {
                    refused = Some(other);
                    break;
                }
            }
        }
        assert_eq!(refused, Some(Err(CreateError::GameLimit(2))));
        assert!((1..=16).contains(&admitted.len()), "{admitted:?}");
        return;
    }
    let first = created(&store).await;
    created(&store).await;
    let refused = store.create(record(&fresh_id(), new_game(3))).await;
    assert_eq!(refused, Err(CreateError::GameLimit(2)));
    store.remove(&first.id).await.unwrap();
    created(&store).await;
}

async fn commit_replaces_the_record(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let v0 = created(&store).await;
    let expected = successor(&v0);
    let outcome = store
        .commit(Commit {
            id: v0.id.clone(),
            expected_version: 0,
            record: expected.clone(),
            request: None,
        })
        .await;
    assert_eq!(outcome, Ok(CommitOutcome::Committed { version: 1 }));
    let v1 = store.load(&v0.id).await.unwrap().unwrap();
    assert_same_record(&v1, &expected);
    let v2 = commit_next(&store, &v1, None).await;
    assert_eq!(v2.version(), 2);
}

async fn stale_commit_changes_nothing(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let v0 = created(&store).await;
    let v1 = commit_next(&store, &v0, None).await;
    // A second writer that also read version 0 loses.
    let late = Commit {
        id: v0.id.clone(),
        expected_version: 0,
        record: successor(&v0),
        request: Some((Seat(1), RequestKey::for_act("late"))),
    };
    assert_eq!(
        store.commit(late).await,
        Ok(CommitOutcome::Conflict { current_version: 1 })
    );
    assert_same_record(&store.load(&v0.id).await.unwrap().unwrap(), &v1);
    // Its request id was not remembered either.
    let remembered = store
        .find_request(&v0.id, (Seat(1), RequestKey::for_act("late")))
        .await;
    assert_eq!(remembered, Ok(None));
    // Nor does a writer from the future get in.
    let ahead = Commit {
        id: v0.id.clone(),
        expected_version: 5,
        record: successor(&v1),
        request: None,
    };
    assert_eq!(
        store.commit(ahead).await,
        Ok(CommitOutcome::Conflict { current_version: 1 })
    );
}

async fn commit_to_a_missing_game(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let id = fresh_id();
    let ghost = record(&id, new_game(1));
    let commit = Commit {
        id: id.clone(),
        expected_version: 0,
        record: successor(&ghost),
        request: None,
    };
    assert_eq!(store.commit(commit).await, Ok(CommitOutcome::NotFound));
    assert!(store.load(&id).await.unwrap().is_none());
}

async fn duplicate_request_applies_nothing(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let v0 = created(&store).await;
    let key = RequestKey::for_act("move-1");
    let v1 = commit_next(&store, &v0, Some((Seat(0), key))).await;
    assert_eq!(
        store.find_request(&v0.id, (Seat(0), key)).await,
        Ok(Some(1))
    );

    // The retry, whether it read the old version or the new one, is reported and not applied.
    for read in [&v0, &v1] {
        let retry = Commit {
            id: v0.id.clone(),
            expected_version: read.version(),
            record: successor(read),
            request: Some((Seat(0), key)),
        };
        assert_eq!(
            store.commit(retry).await,
            Ok(CommitOutcome::Duplicate { version: 1 })
        );
    }
    assert_same_record(&store.load(&v0.id).await.unwrap().unwrap(), &v1);

    // Later requests still remember the first one's version.
    let v2 = commit_next(&store, &v1, Some((Seat(0), RequestKey::for_act("move-2")))).await;
    assert_eq!(v2.version(), 2);
    assert_eq!(
        store.find_request(&v0.id, (Seat(0), key)).await,
        Ok(Some(1))
    );
}

async fn request_ids_are_scoped_by_seat(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let a = created(&store).await;
    let b = created(&store).await;
    let key = RequestKey::for_act("same-id");
    let a1 = commit_next(&store, &a, Some((Seat(0), key))).await;
    assert_eq!(store.find_request(&a.id, (Seat(1), key)).await, Ok(None));
    assert_eq!(store.find_request(&b.id, (Seat(0), key)).await, Ok(None));
    // The same id from the other seat, or in another game, is a new request.
    let a2 = commit_next(&store, &a1, Some((Seat(1), key))).await;
    commit_next(&store, &b, Some((Seat(0), key))).await;
    assert_eq!(store.find_request(&a.id, (Seat(0), key)).await, Ok(Some(1)));
    assert_eq!(store.find_request(&a.id, (Seat(1), key)).await, Ok(Some(2)));
    assert_eq!(store.find_request(&b.id, (Seat(0), key)).await, Ok(Some(1)));
    assert_eq!(a2.version(), 2);
}

async fn request_window_keeps_the_latest(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let mut current = created(&store).await;
    let key = |n: usize| RequestKey::for_act(&format!("request-{n}"));
    for n in 0..=REQUEST_WINDOW {
        current = commit_next(&store, &current, Some((Seat(0), key(n)))).await;
    }
    // REQUEST_WINDOW + 1 requests: the oldest is forgotten, the rest are remembered.
    assert_eq!(
        store.find_request(&current.id, (Seat(0), key(0))).await,
        Ok(None)
    );
    for n in 1..=REQUEST_WINDOW {
        let version = store.find_request(&current.id, (Seat(0), key(n))).await;
        assert_eq!(version, Ok(Some(n as u64 + 1)), "request {n}");
    }
    // A forgotten request id is a new request: it is applied again.
    let again = commit_next(&store, &current, Some((Seat(0), key(0)))).await;
    assert_eq!(again.version(), REQUEST_WINDOW as u64 + 2);
}

async fn idle_games_expire(harness: &impl Harness) {
    let ttl = Duration::from_secs(10);
    let store = harness.store(ttl, 100).await;
    let idle = created(&store).await;
    let busy = created(&store).await;
    harness.pass_time(Duration::from_secs(6)).await;
    // A commit restarts the TTL; reading does not.
    let busy = commit_next(&store, &busy, None).await;
    assert!(store.load(&idle.id).await.unwrap().is_some());
    harness.pass_time(Duration::from_secs(6)).await;
    assert!(
        store.load(&idle.id).await.unwrap().is_none(),
        "idle game expired"
    );
    assert!(
        store.load(&busy.id).await.unwrap().is_some(),
        "busy game lives"
    );
    let late = Commit {
        id: idle.id.clone(),
        expected_version: 0,
        record: successor(&idle),
        request: None,
    };
    assert_eq!(store.commit(late).await, Ok(CommitOutcome::NotFound));
    harness.pass_time(Duration::from_secs(6)).await;
    assert!(
        store.load(&busy.id).await.unwrap().is_none(),
        "busy game expired too"
    );
}

async fn removed_games_are_gone(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let game = created(&store).await;
    store.remove(&game.id).await.unwrap();
    assert!(store.load(&game.id).await.unwrap().is_none());
    // Removing again is fine.
    store.remove(&game.id).await.unwrap();
}

async fn watchers_see_new_versions_in_order(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let mut current = created(&store).await;
    let mut versions = store.watch(&current.id).await.unwrap();
    for _ in 0..3 {
        current = commit_next(&store, &current, None).await;
    }
    // Notifications may be coalesced, but they increase and reach the latest version.
    let mut seen = Vec::new();
    while seen.last() != Some(&3) {
        let version = versions.next().await.expect("stream open").unwrap();
        assert!(
            seen.last().is_none_or(|last| version > *last),
            "{seen:?} then {version}"
        );
        assert!((1..=3).contains(&version));
        seen.push(version);
    }
    // A later commit is seen too.
    commit_next(&store, &current, None).await;
    assert_eq!(versions.next().await.unwrap(), Ok(4));
}

async fn watchers_resume_without_gaps(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let v0 = created(&store).await;
    let v1 = commit_next(&store, &v0, None).await;
    // A watcher that saw version 1 resumes: subscribe, then load to catch up.
    let mut versions = store.watch(&v0.id).await.unwrap();
    let v2 = commit_next(&store, &v1, None).await;
    let caught_up = store.load(&v0.id).await.unwrap().unwrap();
    assert_eq!(caught_up.version(), 2);
    // The commit between subscribing and loading is notified as well, so nothing is missed
    // whichever way the race went.
    assert_eq!(versions.next().await.unwrap(), Ok(2));
    commit_next(&store, &v2, None).await;
    assert_eq!(versions.next().await.unwrap(), Ok(3));
}

async fn watch_ends_with_the_game(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let unknown = store.watch(&fresh_id()).await.unwrap();
    assert_eq!(
        unknown.count().await,
        0,
        "an unknown game's stream ends at once"
    );
    let game = created(&store).await;
    let mut versions = store.watch(&game.id).await.unwrap();
    store.remove(&game.id).await.unwrap();
    assert!(versions.next().await.is_none());
}

async fn create_requests_are_remembered(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let window = Duration::from_secs(600);
    let sealed = |game_id: &str, byte: u8| SealedCreate {
        game_id: game_id.to_string(),
        nonce: [byte; 12],
        ciphertext: vec![byte; 40],
    };
    let key = "a".repeat(64);
    let first = sealed(&fresh_id(), 1);
    assert_eq!(store.find_create(&key).await, Ok(None));
    assert_eq!(
        store.put_create(&key, first.clone(), window).await,
        Ok(PutCreateOutcome::Stored)
    );
    assert_eq!(store.find_create(&key).await, Ok(Some(first.clone())));
    // A concurrent duplicate loses and learns the first entry.
    assert_eq!(
        store.put_create(&key, sealed(&fresh_id(), 2), window).await,
        Ok(PutCreateOutcome::Existing(first.clone()))
    );
    assert_eq!(store.find_create(&"b".repeat(64)).await, Ok(None));
    // The entry lives for its window only.
    harness.pass_time(window - Duration::from_secs(1)).await;
    assert_eq!(store.find_create(&key).await, Ok(Some(first)));
    harness.pass_time(Duration::from_secs(2)).await;
    assert_eq!(store.find_create(&key).await, Ok(None));
    let second = sealed(&fresh_id(), 3);
    assert_eq!(
        store.put_create(&key, second.clone(), window).await,
        Ok(PutCreateOutcome::Stored)
    );
    assert_eq!(store.find_create(&key).await, Ok(Some(second)));
}

async fn health_reports_a_working_store(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    assert!(store.health().await);
}

// ---------------------------------------------------------------------------------------------
// Redis only: the real clock, replicas, key layout
// ---------------------------------------------------------------------------------------------

/// How often a bounded wait looks again.
const POLL: Duration = Duration::from_millis(100);
/// The most looks of a bounded wait (20 s in all), far above what the waits need.
const POLLS: usize = 200;

mod redis_only {
    use super::*;

    networked_cases!(Redis::new());

    #[tokio::test]
    async fn every_key_of_a_game_shares_its_hash_tag_and_ttl() {
        let harness = Redis::new();
        let store = harness.store(Duration::from_secs(600), 100).await;
        let game = created(&store).await;
        commit_next(&store, &game, Some((Seat(0), RequestKey::for_act("k")))).await;
        let mut connection = raw_connection().await;
        let pattern = format!("{}:{{{}}}:*", harness.namespace, game.id);
        let keys: Vec<String> = connection.keys(&pattern).await.unwrap();
        assert_eq!(
            keys.len(),
            4,
            "record, action log, event stream and request window: {keys:?}"
        );
        for key in &keys {
            let ttl: i64 = connection.pttl(key).await.unwrap();
            assert!(ttl > 0 && ttl <= 600_000, "{key} has TTL {ttl}");
        }
        let game_key = format!("{}:{{{}}}:game", harness.namespace, game.id);
        let (format, version): (String, String) = redis::cmd("HMGET")
            .arg(&game_key)
            .arg("format")
            .arg("version")
            .query_async(&mut connection)
            .await
            .unwrap();
        assert_eq!((format.as_str(), version.as_str()), ("4", "1"));
        // The action log holds one item per version.
        let log_key = format!("{}:{{{}}}:log", harness.namespace, game.id);
        let logged: usize = connection.llen(&log_key).await.unwrap();
        assert_eq!(logged, 1);
        // The event stream holds one entry per version, with the version as its id.
        let events_key = format!("{}:{{{}}}:events", harness.namespace, game.id);
        let entries: redis::Value = redis::cmd("XRANGE")
            .arg(&events_key)
            .arg("-")
            .arg("+")
            .query_async(&mut connection)
            .await
            .unwrap();
        let entries: Vec<(String, Vec<String>)> = redis::from_redis_value(entries).unwrap();
        assert_eq!(
            entries,
            vec![(
                "1-0".to_string(),
                vec!["version".to_string(), "1".to_string()]
            )]
        );
    }

    /// A commit appends to the log list when the hash's `tail` names the stored version; a game
    /// whose last write has no tail (a release before it) has the list counted instead, so a
    /// list that does not hold the stored version is replaced with the whole log, never appended
    /// to.
    #[tokio::test]
    async fn a_commit_without_the_log_tail_counts_the_log() {
        let harness = Redis::new();
        let store = harness.store(LONG_TTL, 100).await;
        let mut game = created(&store).await;
        for _ in 0..2 {
            game = commit_next(&store, &game, None).await;
        }
        let mut connection = raw_connection().await;
        let game_key = format!("{}:{{{}}}:game", harness.namespace, game.id);
        let log_key = format!("{}:{{{}}}:log", harness.namespace, game.id);
        let tail: String = connection.hget(&game_key, "tail").await.unwrap();
        assert!(tail.starts_with("2:"), "{tail}");

        // No tail, the list whole: appended to.
        let _: () = connection.hdel(&game_key, "tail").await.unwrap();
        game = commit_next(&store, &game, None).await;
        let length: usize = connection.llen(&log_key).await.unwrap();
        assert_eq!(length, 3);

        // No tail, the list one action short: counted, found short and written whole.
        let _: () = connection.hdel(&game_key, "tail").await.unwrap();
        let _: Option<String> = connection.rpop(&log_key, None).await.unwrap();
        game = commit_next(&store, &game, None).await;
        let length: usize = connection.llen(&log_key).await.unwrap();
        assert_eq!(length, 4);
        let reader = harness.store(LONG_TTL, 100).await;
        let loaded = reader.load(&game.id).await.unwrap().unwrap();
        assert_eq!(loaded.game.encode(), game.game.encode());
    }

    #[tokio::test]
    async fn the_game_limit_counts_played_games_until_they_expire() {
        let harness = Redis::new();
        let ttl = Duration::from_secs(4);
        let store = harness.store(ttl, 1).await;
        let connection = raw_connection().await;
        let index = format!("{}:games", harness.namespace);
        let game = created(&store).await;
        let counted_until = || {
            let mut connection = connection.clone();
            let (index, id) = (index.clone(), game.id.clone());
            async move {
                let score: Option<f64> = connection.zscore(&index, &id).await.unwrap();
                score.expect("the game is counted")
            }
        };
        let at_creation = counted_until().await;
        // A commit within half a TTL of the last refresh leaves the index alone...
        let game = commit_next(&store, &game, None).await;
        assert_eq!(counted_until().await, at_creation);
        // ...a later one refreshes the game's entry.
        tokio::time::sleep(ttl / 2 + POLL).await;
        let game = commit_next(&store, &game, None).await;
        assert!(counted_until().await > at_creation);
        // While it lives, the limit of one game holds; once it has expired, a new game fits.
        let refused = store.create(record(&fresh_id(), new_game(4))).await;
        assert_eq!(refused, Err(CreateError::GameLimit(1)));
        let mut admitted = false;
        for _ in 0..POLLS {
            if store.create(record(&fresh_id(), new_game(4))).await.is_ok() {
                admitted = true;
                break;
            }
            tokio::time::sleep(POLL).await;
        }
        assert!(admitted, "the expired game still counts after 20 s");
        assert!(store.load(&game.id).await.unwrap().is_none());
    }

    /// A rolling upgrade: replicas writing record format 1 (`--write-record-format 1`), format
    /// 2 (`--write-record-format 2`), format 3 (`--write-record-format 3`) and format 4 take
    /// turns on one game; each reads what the others wrote, and the stored game is always the
    /// one committed last.
    #[tokio::test]
    async fn every_record_format_is_read_and_continued_by_the_others() {
        let harness = Redis::new();
        let writing = |format| {
            RedisStore::open(RedisSettings {
                write_record_format: format,
                ..harness.settings(LONG_TTL, 100)
            })
            .unwrap()
        };
        let format_one = writing(1);
        let format_two = writing(2);
        let format_three = writing(3);
        let format_four = harness.store(LONG_TTL, 100).await;
        let mut connection = raw_connection().await;
        let mut game = created(&format_one).await;
        let game_key = format!("{}:{{{}}}:game", harness.namespace, game.id);
        let log_key = format!("{}:{{{}}}:log", harness.namespace, game.id);
        for (writer, format, logged) in [
            (&format_one, "1", 0),
            (&format_three, "3", 2),
            (&format_three, "3", 3),
            (&format_two, "2", 4),
            (&format_two, "2", 5),
            (&format_one, "1", 0),
            (&format_two, "2", 7),
            (&format_three, "3", 8),
            (&format_four, "4", 9),
            (&format_three, "3", 10),
            (&format_four, "4", 11),
            (&format_one, "1", 0),
            (&format_four, "4", 13),
        ] {
            // With a request id: a commit that must resend the whole log (after format 1) is
            // refused once and sent again, and the id it entered is not taken for a retry.
            let request = (
                Seat(0),
                RequestKey::for_act(&format!("at {}", game.version())),
            );
            game = commit_next(writer, &game, Some(request)).await;
            assert_eq!(
                writer.find_request(&game.id, request).await,
                Ok(Some(game.version()))
            );
            let stored: String = connection.hget(&game_key, "format").await.unwrap();
            let length: usize = connection.llen(&log_key).await.unwrap();
            assert_eq!(
                (stored.as_str(), length),
                (format, logged),
                "at version {}",
                game.version()
            );
            for reader in [&format_one, &format_two, &format_three, &format_four] {
                let loaded = reader.load(&game.id).await.unwrap().unwrap();
                assert_eq!(loaded.game.encode(), game.game.encode());
            }
        }
    }

    /// An update from a copy another replica made stale loses its commit and changes nothing;
    /// the conflict answer brings the stored game along, so the retry starts from it.
    #[tokio::test]
    async fn stale_copies_for_updates_lose_their_commit() {
        let harness = Redis::new();
        let a = harness.store(LONG_TTL, 100).await;
        let b = harness.store(LONG_TTL, 100).await;
        let game = created(&a).await;
        let copy = a.load_for_update(&game.id).await.unwrap().unwrap();
        let on_b = commit_next(&b, &game, None).await;
        assert_eq!(copy.version(), 0, "a keeps its copy until it commits");
        let outcome = a
            .commit(Commit {
                id: game.id.clone(),
                expected_version: copy.version(),
                record: successor(&copy),
                request: None,
            })
            .await;
        assert_eq!(outcome, Ok(CommitOutcome::Conflict { current_version: 1 }));
        let fresh = a.load_for_update(&game.id).await.unwrap().unwrap();
        assert_eq!(fresh.game.encode(), on_b.game.encode());
    }

    /// A load that finds the copy this replica holds still current is answered without the
    /// record, and the copy itself comes back; once another replica commits, the load brings the
    /// new version.
    #[tokio::test]
    async fn a_load_of_an_unchanged_game_keeps_the_copy_held() {
        let harness = Redis::new();
        let a = harness.store(LONG_TTL, 100).await;
        let b = harness.store(LONG_TTL, 100).await;
        let game = created(&a).await;
        let first = commit_next(&a, &game, None).await;
        let again = a.load(&game.id).await.unwrap().unwrap();
        assert!(Arc::ptr_eq(&first, &again), "the copy held is current");
        let on_b = commit_next(&b, &first, None).await;
        let fresh = a.load(&game.id).await.unwrap().unwrap();
        assert_eq!(fresh.version(), 2);
        assert_same_record(&fresh, &on_b);
        let from_b = b.load(&game.id).await.unwrap().unwrap();
        assert_same_record(&from_b, &fresh);
    }

    #[tokio::test]
    async fn records_in_an_unknown_format_are_reported_not_misread() {
        let harness = Redis::new();
        let store = harness.store(LONG_TTL, 100).await;
        let game = created(&store).await;
        let mut connection = raw_connection().await;
        let game_key = format!("{}:{{{}}}:game", harness.namespace, game.id);
        let _: usize = connection.hset(&game_key, "format", 99).await.unwrap();
        // Read by a replica without a copy: a release writing another format does so in a
        // commit, which also moves the version, so no copy held elsewhere is confirmed by it;
        // here only the format changed, and the creator's copy still matches version and tail.
        let reader = harness.store(LONG_TTL, 100).await;
        let loaded = reader.load(&game.id).await;
        assert!(
            matches!(&loaded, Err(deckmate_server::store::StoreError::Corrupt(m)) if m.contains("format 99")),
            "{loaded:?}"
        );
    }
}

async fn live_games_counts_what_the_limit_counts(harness: &impl Harness) {
    let ttl = Duration::from_secs(10);
    let store = harness.store(ttl, 100).await;
    assert_eq!(store.live_games().await, Ok(0));
    let first = created(&store).await;
    created(&store).await;
    assert_eq!(store.live_games().await, Ok(2));
    store.remove(&first.id).await.unwrap();
    assert_eq!(store.live_games().await, Ok(1));
    // Idle past every grace period: nothing counts any more.
    harness.pass_time(Duration::from_secs(16)).await;
    assert_eq!(store.live_games().await, Ok(0));
}

/// The due index (docs/CLOCKS.md): a game filed as due is claimed once it is due and not
/// before, earliest first and up to the limit; a claim leases it, so no other claim returns it
/// until the lease ends; filing again replaces the entry, and taking it out removes it. Times
/// are the store's clock plus offsets, so nothing waits.
async fn due_games_are_claimed_in_order_under_a_lease(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let now = store.now_ms().await.unwrap();
    let (early, late, moved) = (fresh_id(), fresh_id(), fresh_id());
    store.file_due(&late, Some(now + 3_000)).await.unwrap();
    store.file_due(&early, Some(now + 1_000)).await.unwrap();
    store.file_due(&moved, Some(now + 60_000)).await.unwrap();
    // Filed again: the latest filing counts.
    store.file_due(&moved, Some(now + 2_000)).await.unwrap();
    assert_eq!(store.claim_due(now, 500, 10).await, Ok(vec![]));
    assert_eq!(
        store.claim_due(now + 1_000, 500, 10).await,
        Ok(vec![early.clone()])
    );
    // Leased until now + 1,500.
    assert_eq!(store.claim_due(now + 1_400, 500, 10).await, Ok(vec![]));
    let mut claimed = store.claim_due(now + 2_000, 500, 10).await.unwrap();
    claimed.sort();
    let mut expected = vec![early.clone(), moved.clone()];
    expected.sort();
    assert_eq!(
        claimed, expected,
        "the lease ended; the moved entry came due"
    );
    // The limit holds over every shard together.
    let limited = store.claim_due(now + 10_000, 500, 1).await.unwrap();
    assert_eq!(limited.len(), 1);
    for id in [&early, &late, &moved] {
        store.file_due(id, None).await.unwrap();
    }
    assert_eq!(store.claim_due(now + 100_000, 500, 10).await, Ok(vec![]));
    // Taking out what is not filed is no error.
    store.file_due(&early, None).await.unwrap();
}

/// The store's clock, by which turn clocks run, is Unix time in milliseconds (the memory
/// store's moves with Tokio's clock, so paused tests move it).
async fn the_store_clock_is_unix_time(harness: &impl Harness) {
    let store = harness.store(LONG_TTL, 100).await;
    let now = store.now_ms().await.unwrap();
    let wall = deckmate_server::store::unix_millis();
    assert!(
        now.abs_diff(wall) < 60_000,
        "store clock {now}, wall clock {wall}"
    );
    let later = store.now_ms().await.unwrap();
    assert!(later >= now);
}

/// Two stores on one Redis (two replicas) see each other's commits: writers alternate, both
/// watchers hear every version, removal on one ends the watchers on the other.
async fn replicas_watch_each_others_commits(harness: &impl Harness) {
    let a = harness.store(LONG_TTL, 100).await;
    let b = harness.store(LONG_TTL, 100).await;
    let mut current = created(&a).await;
    let mut on_a = a.watch(&current.id).await.unwrap();
    let mut on_b = b.watch(&current.id).await.unwrap();
    for expected in 1..=3 {
        // Commits alternate between the replicas; both watchers hear every one.
        let writer = if expected % 2 == 1 { &b } else { &a };
        current = commit_next(writer, &current, None).await;
        for versions in [&mut on_a, &mut on_b] {
            let heard = tokio::time::timeout(POLL * POLLS as u32, versions.next()).await;
            assert_eq!(heard.expect("a version arrives"), Some(Ok(expected)));
        }
    }
    // A watcher that starts later on A resumes from the version it subscribed at.
    let mut late = a.watch(&current.id).await.unwrap();
    commit_next(&b, &current, None).await;
    let heard = tokio::time::timeout(POLL * POLLS as u32, late.next()).await;
    assert_eq!(heard.expect("a version arrives"), Some(Ok(4)));
    // Removal on B ends the watchers on A, after what they had not yet taken.
    b.remove(&current.id).await.unwrap();
    let rest = tokio::time::timeout(POLL * POLLS as u32, on_a.collect::<Vec<_>>()).await;
    assert!(
        rest.expect("the watch stream ends")
            .iter()
            .all(|version| *version == Ok(4)),
        "only version 4 was left to hear"
    );
}

/// One store follows several games written by another, each watcher hearing only its own
/// game (on a cluster the games live in different slots).
async fn one_reader_follows_many_games(harness: &impl Harness) {
    let reader = harness.store(LONG_TTL, 100).await;
    let writer = harness.store(LONG_TTL, 100).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let game = created(&writer).await;
        let versions = reader.watch(&game.id).await.unwrap();
        games.push((game, versions));
    }
    // Each game moves a different number of times; each watcher hears only its own game.
    for (steps, (game, _)) in games.iter_mut().enumerate() {
        for _ in 0..=steps {
            *game = commit_next(&writer, game, None).await;
        }
    }
    for (steps, (_, versions)) in games.iter_mut().enumerate() {
        let target = steps as u64 + 1;
        let mut last = 0;
        while last < target {
            let heard = tokio::time::timeout(POLL * POLLS as u32, versions.next()).await;
            let version = heard.expect("a version arrives").unwrap().unwrap();
            assert!(version > last && version <= target, "{last} then {version}");
            last = version;
        }
    }
}

/// A game expires on the Redis clock; its watchers' streams end and a late commit finds nothing.
/// A peek (the game-count prune's look) leaves no copy behind on the replica that peeked: an
/// update there after it reads the stored game, where an update after a load may start from
/// the copy that load kept (the commit's version check makes such a copy harmless).
async fn a_peek_keeps_no_copy(harness: &impl Harness) {
    let writer = harness.store(LONG_TTL, 100).await;
    let reader = harness.store(LONG_TTL, 100).await;
    let game = created(&writer).await;
    let peeked = reader
        .peek(&game.id)
        .await
        .unwrap()
        .expect("the game peeks");
    assert_eq!(peeked.version(), 0);
    let first = commit_next(&writer, &game, None).await;
    let for_update = reader.load_for_update(&game.id).await.unwrap().unwrap();
    assert_eq!(for_update.version(), 1, "the peek left a copy behind");
    // That update loaded the game, and a load keeps its copy: the same steps now find it.
    commit_next(&writer, &first, None).await;
    let kept = reader.load_for_update(&game.id).await.unwrap().unwrap();
    assert_eq!(kept.version(), 1, "the load kept no copy");
    assert_eq!(reader.load(&game.id).await.unwrap().unwrap().version(), 2);
}

/// A replica holding a copy of a game reads what another replica committed since, whether it
/// loads (which may first ask whether its copy is current) or reloads (which reads at once), and
/// gets the stored game from either when its copy is the stored version.
async fn reads_see_another_replicas_commits(harness: &impl Harness) {
    let writer = harness.store(LONG_TTL, 100).await;
    let reader = harness.store(LONG_TTL, 100).await;
    let game = created(&writer).await;
    assert_eq!(reader.load(&game.id).await.unwrap().unwrap().version(), 0);
    let first = commit_next(&writer, &game, None).await;
    let loaded = reader.load(&game.id).await.unwrap().unwrap();
    assert_same_record(&loaded, &first);
    let second = commit_next(&writer, &first, None).await;
    let reloaded = reader.reload(&game.id).await.unwrap().unwrap();
    assert_same_record(&reloaded, &second);
    // The reader's copy is now the stored version.
    assert_same_record(&reader.load(&game.id).await.unwrap().unwrap(), &second);
    assert_same_record(&reader.reload(&game.id).await.unwrap().unwrap(), &second);
    // Reads in turn with commits, so that a store choosing how to read from what its last read
    // found takes each way: a copy found behind, found current, then behind again.
    let mut latest = second;
    for _ in 0..3 {
        latest = commit_next(&writer, &latest, None).await;
        assert_same_record(&reader.load(&game.id).await.unwrap().unwrap(), &latest);
        assert_same_record(&reader.load(&game.id).await.unwrap().unwrap(), &latest);
    }
    // And a game that is gone is gone either way.
    writer.remove(&latest.id).await.unwrap();
    assert!(reader.load(&game.id).await.unwrap().is_none());
    assert!(reader.reload(&game.id).await.unwrap().is_none());
}

async fn games_expire_on_the_redis_clock(harness: &impl Harness) {
    let store = harness.store(Duration::from_secs(2), 100).await;
    let game = created(&store).await;
    let mut versions = store.watch(&game.id).await.unwrap();
    let mut expired = false;
    for _ in 0..POLLS {
        if store.load(&game.id).await.unwrap().is_none() {
            expired = true;
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert!(expired, "a game with a 2 s TTL still loads after 20 s");
    // Its watcher's stream ends too (the reader checks that watched games exist).
    let ended = tokio::time::timeout(POLL * POLLS as u32, versions.next()).await;
    assert_eq!(ended.expect("the watch stream ends"), None);
    let late = Commit {
        id: game.id.clone(),
        expected_version: 0,
        record: successor(&game),
        request: None,
    };
    assert_eq!(store.commit(late).await, Ok(CommitOutcome::NotFound));
}
