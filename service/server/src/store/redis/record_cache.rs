//! This replica's copies of the game records it last loaded or committed, so that an `Act` on a
//! game this replica served before needs no load: one commit script call is the whole round
//! trip (docs/PERFORMANCE.md, "Redis round trips").
//!
//! A copy may be stale (another replica committed since, or the game expired): the commit
//! script checks the version the copy was read at, so a stale copy can only lose its commit,
//! never overwrite anything; the caller then loads afresh. Only
//! [`SessionStore::load_for_update`](crate::store::SessionStore::load_for_update) answers from
//! here; reads that show a client the game (`Observe`, `Watch`, `GetHistory`) always ask Redis.
//!
//! Each copy also remembers what the last read of its game on this replica found: the copy
//! current, or behind the stored game. A read first asks whether the copy is current with one
//! plain command (`current_copy`) only when the last read found it so; that is the common case
//! of one replica serving a game, where the answer is yes. Where another replica keeps
//! committing (two players on two replicas), the last read found the copy behind, and the next
//! read goes to the load script at once rather than asking first and then loading: one call
//! either way, never two in a row for the same reason.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard};

use lru::LruCache;

use crate::store::GameRecord;

/// The default number of games a replica keeps copies of.
pub const DEFAULT_RECORD_CACHE: usize = 4096;

/// The least recently used records beyond the capacity are dropped.
#[derive(Debug)]
pub(super) struct RecordCache {
    /// `None` when the cache is off (capacity 0).
    records: Option<Mutex<LruCache<String, Kept>>>,
}

/// A kept copy and what the last read of its game found.
#[derive(Debug)]
struct Kept {
    record: Arc<GameRecord>,
    /// Whether the last read of the game on this replica found this copy (or the one it
    /// replaced by a commit of this replica) current: no read yet counts as current.
    found_current: bool,
}

impl RecordCache {
    /// A cache of at most `capacity` records; 0 turns it off.
    pub(super) fn new(capacity: usize) -> RecordCache {
        RecordCache {
            records: NonZeroUsize::new(capacity)
                .map(|capacity| Mutex::new(LruCache::new(capacity))),
        }
    }

    /// The copy of game `id`, if one is kept.
    pub(super) fn get(&self, id: &str) -> Option<Arc<GameRecord>> {
        self.lock()?.get(id).map(|kept| kept.record.clone())
    }

    /// The copy of game `id`, if one is kept, and whether the last read of the game found its
    /// copy current.
    pub(super) fn get_for_read(&self, id: &str) -> Option<(Arc<GameRecord>, bool)> {
        self.lock()?
            .get(id)
            .map(|kept| (kept.record.clone(), kept.found_current))
    }

    /// Keeps `record`, made or committed by this replica, as the copy of its game, unless a
    /// newer copy is kept already (a concurrent load may finish after a commit). What the last
    /// read found stays: a commit says nothing about other replicas' commits.
    pub(super) fn put(&self, record: Arc<GameRecord>) {
        self.keep(record, |kept| kept.is_none_or(|kept| kept.found_current));
    }

    /// Keeps `record`, read whole from Redis, as the copy of its game, unless a newer copy is
    /// kept already; `found_current` tells whether the read found the copy held current (a
    /// game without actions is read whole, whatever the copy held).
    pub(super) fn put_read(&self, record: Arc<GameRecord>, found_current: bool) {
        self.keep(record, |_| found_current);
    }

    /// Keeps `record` unless a newer copy is kept, with what the last read found as
    /// `found_current` says from the copy it replaces (if any).
    fn keep(&self, record: Arc<GameRecord>, found_current: impl FnOnce(Option<&Kept>) -> bool) {
        let Some(mut records) = self.lock() else {
            return;
        };
        let replaced = records.get(&record.id);
        if replaced.is_some_and(|kept| kept.version() > record.version()) {
            return;
        }
        let found_current = found_current(replaced);
        records.put(
            record.id.clone(),
            Kept {
                record,
                found_current,
            },
        );
    }

    /// Notes that a read of game `id` found the copy kept current.
    pub(super) fn found_current(&self, id: &str) {
        if let Some(kept) = self.lock().as_mut().and_then(|records| records.get_mut(id)) {
            kept.found_current = true;
        }
    }

    /// Drops the copy of game `id` (it is stale or gone).
    pub(super) fn forget(&self, id: &str) {
        if let Some(mut records) = self.lock() {
            records.pop(id);
        }
    }

    fn lock(&self) -> Option<MutexGuard<'_, LruCache<String, Kept>>> {
        // A poisoned lock only means a panic elsewhere mid-update of a cache entry: the cache
        // holds nothing that must stay consistent, so keep using it.
        self.records.as_ref().map(|records| {
            records
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        })
    }
}

impl Kept {
    fn version(&self) -> u64 {
        self.record.version()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use deckmate_engine::{Seat, Viewer};

    fn record(id: &str, actions: usize) -> Arc<GameRecord> {
        let mut game = catalog::test_game(1);
        for _ in 0..actions {
            let seat = Seat(game.view(Viewer::Spectator).to_act[0] as u8);
            let action = game.view(Viewer::Seat(seat)).legal_actions[0].clone();
            game.act(seat, &action).unwrap();
        }
        Arc::new(GameRecord::for_test(id, game))
    }

    #[test]
    fn keeps_the_newest_copy_within_its_capacity() {
        let cache = RecordCache::new(2);
        cache.put(record("a", 2));
        cache.put(record("a", 1));
        assert_eq!(cache.get("a").map(|kept| kept.version()), Some(2));
        cache.put(record("b", 0));
        cache.put(record("c", 0));
        assert!(
            cache.get("a").is_none(),
            "the least recently used copy goes"
        );
        cache.forget("b");
        assert!(cache.get("b").is_none());
        assert!(cache.get("c").is_some());
    }

    #[test]
    fn reads_remember_what_they_found_and_commits_keep_it() {
        let cache = RecordCache::new(4);
        let found = |cache: &RecordCache| cache.get_for_read("a").map(|(_, current)| current);
        cache.put(record("a", 1));
        assert_eq!(
            found(&cache),
            Some(true),
            "a copy made here: nothing read yet"
        );
        cache.put_read(record("a", 2), false);
        assert_eq!(found(&cache), Some(false), "a read brought a newer copy");
        cache.put(record("a", 3));
        assert_eq!(
            found(&cache),
            Some(false),
            "a commit keeps what the last read found"
        );
        cache.found_current("a");
        assert_eq!(found(&cache), Some(true));
        cache.put(record("a", 4));
        assert_eq!(found(&cache), Some(true));
        cache.put_read(record("a", 2), false);
        assert_eq!(
            cache
                .get_for_read("a")
                .map(|(kept, current)| (kept.version(), current)),
            Some((4, true)),
            "an older copy read late changes nothing"
        );
        cache.put_read(record("a", 4), false);
        assert_eq!(found(&cache), Some(false));
        cache.put_read(record("a", 4), true);
        assert_eq!(
            found(&cache),
            Some(true),
            "a read of the copy's own version"
        );
        cache.found_current("b");
        assert!(cache.get("b").is_none(), "noting a read keeps no copy");
    }

    #[test]
    fn capacity_zero_keeps_nothing() {
        let cache = RecordCache::new(0);
        cache.put(record("a", 0));
        assert!(cache.get("a").is_none());
    }
}
