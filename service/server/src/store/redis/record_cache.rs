//! This replica's copies of the game records it last loaded or committed, so that an `Act` on a
//! game this replica served before needs no load: one commit script call is the whole round
//! trip (docs/PERFORMANCE.md, "Redis round trips").
//!
//! A copy may be stale (another replica committed since, or the game expired): the commit
//! script checks the version the copy was read at, so a stale copy can only lose its commit,
//! never overwrite anything; the caller then loads afresh. Only
//! [`SessionStore::load_for_update`](crate::store::SessionStore::load_for_update) answers from
//! here; reads that show a client the game (`Observe`, `Watch`, `GetHistory`) always load.

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
    records: Option<Mutex<LruCache<String, Arc<GameRecord>>>>,
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
        self.lock()?.get(id).cloned()
    }

    /// Keeps `record` as the copy of its game, unless a newer copy is kept already (a
    /// concurrent load may finish after a commit).
    pub(super) fn put(&self, record: Arc<GameRecord>) {
        let Some(mut records) = self.lock() else {
            return;
        };
        if let Some(kept) = records.get(&record.id)
            && kept.version() > record.version()
        {
            return;
        }
        records.put(record.id.clone(), record);
    }

    /// Drops the copy of game `id` (it is stale or gone).
    pub(super) fn forget(&self, id: &str) {
        if let Some(mut records) = self.lock() {
            records.pop(id);
        }
    }

    fn lock(&self) -> Option<MutexGuard<'_, LruCache<String, Arc<GameRecord>>>> {
        // A poisoned lock only means a panic elsewhere mid-update of a cache entry: the cache
        // holds nothing that must stay consistent, so keep using it.
        self.records.as_ref().map(|records| {
            records
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        })
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
    fn capacity_zero_keeps_nothing() {
        let cache = RecordCache::new(0);
        cache.put(record("a", 0));
        assert!(cache.get("a").is_none());
    }
}
