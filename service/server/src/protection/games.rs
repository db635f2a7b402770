//! `--max-games-per-client`: how many live games one caller may have created.
//!
//! A game counts with a weight: one, plus one for each of its bot seats, since the server plays
//! those seats for the caller.
//!
//! Each replica counts the games created through it (a replica-local count: behind a load
//! balancer a caller may hold up to the limit on each replica). A counted game stops counting
//! once it has finished or expired; that is found out lazily, when a caller reaches its limit:
//! its games are then looked up in the store, and the finished or missing ones are dropped
//! before the limit is applied. Only callers at their limit pay for those look-ups.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::caller::Caller;
use crate::error::ApiError;
use crate::store::SessionStore;

/// The games of one caller.
#[derive(Debug, Default)]
struct Owned {
    /// Each game and its weight.
    ids: HashMap<String, usize>,
    /// The weight of the CreateGame calls admitted and not yet finished.
    pending: usize,
}

impl Owned {
    fn count(&self) -> usize {
        self.ids.values().sum::<usize>() + self.pending
    }
}

type Table = Arc<Mutex<HashMap<Caller, Owned>>>;

/// Live games per caller.
#[derive(Clone, Debug)]
pub struct GamesPerClient {
    limit: usize,
    table: Table,
}

impl GamesPerClient {
    /// At most `limit` live games per caller.
    pub fn new(limit: usize) -> GamesPerClient {
        GamesPerClient {
            limit,
            table: Arc::default(),
        }
    }

    /// Admits one more game of `weight` for `caller`, or refuses with `LIMIT_REACHED` when it
    /// would hold more than its limit of live games (after dropping those the store says
    /// finished or gone).
    pub async fn reserve(
        &self,
        caller: &Caller,
        weight: usize,
        store: &dyn SessionStore,
    ) -> Result<Reservation, ApiError> {
        if let Some(reservation) = self.try_reserve(caller, weight) {
            return Ok(reservation);
        }
        let counted: Vec<String> = lock(&self.table)
            .get(caller)
            .map(|owned| owned.ids.keys().cloned().collect())
            .unwrap_or_default();
        let mut gone = Vec::new();
        for id in counted {
            match store.load(&id).await? {
                Some(record) if !record.game.is_over() => {}
                _ => gone.push(id),
            }
        }
        if let Some(owned) = lock(&self.table).get_mut(caller) {
            for id in &gone {
                owned.ids.remove(id);
            }
        }
        self.try_reserve(caller, weight).ok_or_else(|| {
            ApiError::LimitReached(format!(
                "this client has its maximum of {} live games (each bot seat counts as one more); \
                 finish some first",
                self.limit
            ))
        })
    }

    fn try_reserve(&self, caller: &Caller, weight: usize) -> Option<Reservation> {
        let mut table = lock(&self.table);
        let owned = table.entry(caller.clone()).or_default();
        if owned.count().saturating_add(weight) > self.limit {
            return None;
        }
        owned.pending += weight;
        Some(Reservation {
            table: self.table.clone(),
            caller: caller.clone(),
            weight,
        })
    }

    /// The games counted for `caller` now.
    pub fn count(&self, caller: &Caller) -> usize {
        lock(&self.table).get(caller).map_or(0, Owned::count)
    }
}

/// One admitted CreateGame: [`Reservation::created`] counts its game; dropped without it (the
/// call failed), the place is given back.
#[must_use]
pub struct Reservation {
    table: Table,
    caller: Caller,
    weight: usize,
}

impl Reservation {
    /// Counts the game `id` for the caller (a replayed CreateGame names a game already counted,
    /// which counts once).
    pub fn created(self, id: &str) {
        if let Some(owned) = lock(&self.table).get_mut(&self.caller) {
            owned.ids.insert(id.to_string(), self.weight);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut table = lock(&self.table);
        if let Some(owned) = table.get_mut(&self.caller) {
            owned.pending = owned.pending.saturating_sub(self.weight);
            if owned.count() == 0 {
                table.remove(&self.caller);
            }
        }
    }
}

fn lock(table: &Table) -> MutexGuard<'_, HashMap<Caller, Owned>> {
    // The table is consistent after every statement, so a panic elsewhere cannot poison it.
    table.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;
    use std::time::Duration;

    #[tokio::test]
    async fn the_limit_counts_live_games_and_failed_calls_give_their_place_back() {
        let store = MemoryStore::new(Duration::from_secs(60), 100);
        let games = GamesPerClient::new(2);
        let me = Caller::Key("me".into());
        games.reserve(&me, 1, &store).await.unwrap().created("a");
        // A call that fails gives its place back.
        drop(games.reserve(&me, 1, &store).await.unwrap());
        games.reserve(&me, 1, &store).await.unwrap().created("b");
        assert_eq!(games.count(&me), 2);
        // "a" and "b" are not in the store: they count as gone once the limit is reached.
        let third = games.reserve(&me, 1, &store).await.unwrap();
        assert_eq!(games.count(&me), 1);
        third.created("c");
        games.reserve(&me, 1, &store).await.unwrap().created("c");
        assert_eq!(games.count(&me), 1, "a replayed game counts once");
        assert_eq!(games.count(&Caller::Key("other".into())), 0);
    }

    #[tokio::test]
    async fn bot_seats_weigh_one_game_each() {
        let store = MemoryStore::new(Duration::from_secs(60), 100);
        let games = GamesPerClient::new(3);
        let me = Caller::Key("me".into());
        // A game with two bot seats weighs three: nothing else fits, not even after a look-up.
        let heavy = games.reserve(&me, 3, &store).await.unwrap();
        assert_eq!(games.count(&me), 3);
        assert!(games.try_reserve(&me, 1).is_none());
        drop(heavy);
        assert_eq!(games.count(&me), 0);
        assert!(games.reserve(&me, 4, &store).await.is_err());
        games.reserve(&me, 2, &store).await.unwrap().created("a");
        assert_eq!(games.count(&me), 2);
    }
}
