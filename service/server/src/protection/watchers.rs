//! `--max-watchers-per-game`: how many `Watch` streams one game may have open on this replica
//! (a replica-local count, beside the server-wide `--max-watchers`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::ApiError;

type Table = Arc<Mutex<HashMap<String, usize>>>;

/// Open Watch streams per game.
#[derive(Clone, Debug)]
pub struct WatchersPerGame {
    limit: usize,
    open: Table,
}

impl WatchersPerGame {
    /// At most `limit` open streams per game.
    pub fn new(limit: usize) -> WatchersPerGame {
        WatchersPerGame {
            limit,
            open: Arc::default(),
        }
    }

    /// A place for one more stream of game `id`, held until the slot is dropped; refused with
    /// `LIMIT_REACHED` when the game has its maximum.
    pub fn open(&self, id: &str) -> Result<WatchSlot, ApiError> {
        let mut open = lock(&self.open);
        let count = open.entry(id.to_string()).or_default();
        if *count >= self.limit {
            return Err(ApiError::LimitReached(format!(
                "this game has its maximum of {} open watch streams; retry later",
                self.limit
            )));
        }
        *count += 1;
        Ok(WatchSlot {
            open: self.open.clone(),
            id: id.to_string(),
        })
    }

    /// Streams open now on game `id`.
    pub fn count(&self, id: &str) -> usize {
        lock(&self.open).get(id).copied().unwrap_or(0)
    }
}

/// One open stream's place under `--max-watchers-per-game`.
#[derive(Debug)]
pub struct WatchSlot {
    open: Table,
    id: String,
}

impl Drop for WatchSlot {
    fn drop(&mut self) {
        let mut open = lock(&self.open);
        if let Some(count) = open.get_mut(&self.id) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.id);
            }
        }
    }
}

fn lock(table: &Table) -> MutexGuard<'_, HashMap<String, usize>> {
    // Every update is a single statement: a panic elsewhere leaves the table consistent.
    table.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_per_game_and_given_back() {
        let watchers = WatchersPerGame::new(2);
        let first = watchers.open("a").unwrap();
        let _second = watchers.open("a").unwrap();
        assert_eq!(watchers.open("a").unwrap_err().reason(), "LIMIT_REACHED");
        let _other = watchers.open("b").unwrap();
        drop(first);
        let _again = watchers.open("a").unwrap();
        assert_eq!(watchers.count("a"), 2);
    }
}
