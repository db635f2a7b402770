//! `--max-watchers-per-game`: how many `Watch` streams one game may have open on this replica
//! (a replica-local count, beside the server-wide `--max-watchers`).
//!
//! Spectators and seat holders are counted apart, so that spectators can never use up the places
//! of the players: the spectators of a game share `--max-watchers-per-game` streams, and each seat
//! (a caller presenting that seat's token) has as many of its own. A seat's allowance is bounded
//! too, so that one leaked or misused token cannot open streams without end; a player needs one
//! stream per device or tab, far fewer than the limit. A game therefore has at most
//! `limit × (seats + 1)` streams on a replica.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use deckmate_engine::Viewer;

use crate::error::ApiError;

/// Open streams, by game id and by who watches.
type Table = Arc<Mutex<HashMap<(String, Viewer), usize>>>;

/// Open Watch streams per game: its spectators' together, and each seat's.
#[derive(Clone, Debug)]
pub struct WatchersPerGame {
    limit: usize,
    open: Table,
}

impl WatchersPerGame {
    /// At most `limit` open streams for the spectators of a game, and as many for each seat.
    pub fn new(limit: usize) -> WatchersPerGame {
        WatchersPerGame {
            limit,
            open: Arc::default(),
        }
    }

    /// A place for one more stream of game `id` watched by `viewer`, held until the slot is
    /// dropped; refused with `LIMIT_REACHED` when the game's spectators (for a spectator) or the
    /// viewer's seat (for a seat holder) have their maximum. A refusal changes no count.
    pub fn open(&self, id: &str, viewer: Viewer) -> Result<WatchSlot, ApiError> {
        let key = (id.to_string(), viewer);
        let mut open = lock(&self.open);
        let count = open.get(&key).copied().unwrap_or(0);
        if count >= self.limit {
            // The message names only what the caller already knows: its own kind of viewer and
            // the server's limit, never how many others watch.
            return Err(ApiError::LimitReached(match viewer {
                Viewer::Spectator => format!(
                    "this game has its maximum of {} open spectator watch streams; retry later",
                    self.limit
                ),
                Viewer::Seat(_) => format!(
                    "this seat has its maximum of {} open watch streams on this game; close one \
                     or retry later",
                    self.limit
                ),
            }));
        }
        open.insert(key.clone(), count + 1);
        Ok(WatchSlot {
            open: self.open.clone(),
            key,
        })
    }

    /// Streams open now on game `id` watched by `viewer` (all spectators count as one viewer).
    pub fn count(&self, id: &str, viewer: Viewer) -> usize {
        lock(&self.open)
            .get(&(id.to_string(), viewer))
            .copied()
            .unwrap_or(0)
    }
}

/// One open stream's place under `--max-watchers-per-game`.
#[derive(Debug)]
pub struct WatchSlot {
    open: Table,
    key: (String, Viewer),
}

impl Drop for WatchSlot {
    fn drop(&mut self) {
        let mut open = lock(&self.open);
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                // Forgotten at zero, so that the table holds only games being watched.
                open.remove(&self.key);
            }
        }
    }
}

fn lock(table: &Table) -> MutexGuard<'_, HashMap<(String, Viewer), usize>> {
    // Every update is a single statement: a panic elsewhere leaves the table consistent.
    table.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use deckmate_engine::Seat;

    use super::*;

    const SPECTATOR: Viewer = Viewer::Spectator;

    fn seat(index: u8) -> Viewer {
        Viewer::Seat(Seat(index))
    }

    #[test]
    fn slots_are_per_game_and_given_back() {
        let watchers = WatchersPerGame::new(2);
        let first = watchers.open("a", SPECTATOR).unwrap();
        let _second = watchers.open("a", SPECTATOR).unwrap();
        assert_eq!(
            watchers.open("a", SPECTATOR).unwrap_err().reason(),
            "LIMIT_REACHED"
        );
        let _other = watchers.open("b", SPECTATOR).unwrap();
        drop(first);
        let _again = watchers.open("a", SPECTATOR).unwrap();
        assert_eq!(watchers.count("a", SPECTATOR), 2);
    }

    #[test]
    fn spectators_never_take_the_places_of_seats() {
        let watchers = WatchersPerGame::new(1);
        let _spectator = watchers.open("a", SPECTATOR).unwrap();
        assert!(watchers.open("a", SPECTATOR).is_err());
        // Both seats still get a stream each with the spectators' places all taken.
        let _seat0 = watchers.open("a", seat(0)).unwrap();
        let _seat1 = watchers.open("a", seat(1)).unwrap();
        assert_eq!(watchers.count("a", SPECTATOR), 1);
        assert_eq!(watchers.count("a", seat(0)), 1);
    }

    #[test]
    fn each_seat_is_bounded_on_its_own() {
        let watchers = WatchersPerGame::new(2);
        let _first = watchers.open("a", seat(0)).unwrap();
        let _second = watchers.open("a", seat(0)).unwrap();
        let refused = watchers.open("a", seat(0)).unwrap_err();
        assert_eq!(refused.reason(), "LIMIT_REACHED");
        assert!(refused.to_string().contains("seat"), "{refused}");
        // The seat's streams leave the other seat's and the spectators' places alone.
        let _other_seat = watchers.open("a", seat(1)).unwrap();
        let _spectator = watchers.open("a", SPECTATOR).unwrap();
        // The same seat of another game is another count.
        let _elsewhere = watchers.open("b", seat(0)).unwrap();
    }

    #[test]
    fn a_refusal_changes_no_count_and_the_table_empties() {
        let watchers = WatchersPerGame::new(1);
        let slot = watchers.open("a", seat(0)).unwrap();
        for _ in 0..3 {
            assert!(watchers.open("a", seat(0)).is_err());
        }
        assert_eq!(watchers.count("a", seat(0)), 1);
        drop(slot);
        assert_eq!(watchers.count("a", seat(0)), 0);
        assert!(lock(&watchers.open).is_empty());
    }
}
