//! Open things counted by key, each key bounded by the same limit: the table behind the Watch
//! stream limits per game and per client ([`super::watchers`]).
//!
//! A [`Place`] is one open thing; dropping it gives its place back. A key is forgotten when its
//! count falls to zero, so the table holds only keys with something open.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

/// The counts of one table, shared with its places.
type Table<K> = Arc<Mutex<HashMap<K, usize>>>;

/// At most `limit` open places per key.
pub struct OpenCounts<K> {
    limit: usize,
    open: Table<K>,
}

impl<K> fmt::Debug for OpenCounts<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The keys (game ids, client addresses) stay out of debug output.
        f.debug_struct("OpenCounts")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl<K> Clone for OpenCounts<K> {
    fn clone(&self) -> Self {
        OpenCounts {
            limit: self.limit,
            open: self.open.clone(),
        }
    }
}

impl<K: Hash + Eq + Clone> OpenCounts<K> {
    /// A table allowing `limit` open places per key.
    pub fn new(limit: usize) -> OpenCounts<K> {
        OpenCounts {
            limit,
            open: Arc::default(),
        }
    }

    /// The most places a key may have open.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// One more place under `key`, held until it is dropped, or `None` when `key` has its
    /// maximum open. A refusal changes no count.
    pub fn take(&self, key: K) -> Option<Place<K>> {
        let mut open = lock(&self.open);
        let count = open.get(&key).copied().unwrap_or(0);
        if count >= self.limit {
            return None;
        }
        // The key is kept twice (in the table and in its place): keys are small, and a place
        // must find its count again when dropped.
        open.insert(key.clone(), count + 1);
        Some(Place {
            open: self.open.clone(),
            key,
        })
    }

    /// The places open under `key` now.
    pub fn count(&self, key: &K) -> usize {
        lock(&self.open).get(key).copied().unwrap_or(0)
    }

    /// How many keys have places open.
    pub fn keys(&self) -> usize {
        lock(&self.open).len()
    }
}

/// One open place of an [`OpenCounts`] table, given back when dropped.
pub struct Place<K: Hash + Eq> {
    open: Table<K>,
    key: K,
}

impl<K: Hash + Eq> fmt::Debug for Place<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Place").finish_non_exhaustive()
    }
}

impl<K: Hash + Eq> Drop for Place<K> {
    fn drop(&mut self) {
        let mut open = lock(&self.open);
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

fn lock<K>(table: &Table<K>) -> MutexGuard<'_, HashMap<K, usize>> {
    // Every update is a single statement: a panic elsewhere leaves the table consistent.
    table.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_is_bounded_and_places_come_back() {
        let counts = OpenCounts::new(2);
        let first = counts.take("a").unwrap();
        let _second = counts.take("a").unwrap();
        assert!(counts.take("a").is_none());
        let _other = counts.take("b").unwrap();
        drop(first);
        let _again = counts.take("a").unwrap();
        assert_eq!(counts.count(&"a"), 2);
        assert_eq!(counts.count(&"b"), 1);
        assert_eq!(counts.limit(), 2);
    }

    #[test]
    fn a_refusal_changes_no_count_and_keys_at_zero_are_forgotten() {
        let counts = OpenCounts::new(1);
        let place = counts.take("a").unwrap();
        for _ in 0..3 {
            assert!(counts.take("a").is_none());
        }
        assert_eq!(counts.count(&"a"), 1);
        assert_eq!(counts.keys(), 1);
        drop(place);
        assert_eq!(counts.count(&"a"), 0);
        assert_eq!(counts.keys(), 0);
    }

    #[test]
    fn places_are_given_back_from_any_thread() {
        let counts = OpenCounts::new(1);
        let place = counts.take(7_u32).unwrap();
        std::thread::spawn(move || drop(place)).join().unwrap();
        assert!(counts.take(7).is_some());
    }
}
