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
//!
//! So that the table holds only live games however many games and callers come and go, a
//! background pass ([`GamesPerClient::prune`], every [`prune_period`] while the server runs) looks up each counted
//! game not looked at for a period, drops those finished or gone, and forgets callers left with
//! none. Each game counted costs one store look-up per period while it lives. Without a limit
//! (`usize::MAX`, handlers driven in process) nothing is counted at all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use super::caller::Caller;
use crate::error::ApiError;
use crate::store::{SessionStore, StoreError};

/// One counted game.
#[derive(Debug)]
struct Counted {
    /// What it weighs: one, plus one per bot seat.
    weight: usize,
    /// When it was last known to be live: counted, or found live by a look-up.
    checked_at: Instant,
}

/// The games of one caller.
#[derive(Debug, Default)]
struct Owned {
    /// Each game by id.
    ids: HashMap<String, Counted>,
    /// The weight of the CreateGame calls admitted and not yet finished.
    pending: usize,
}

impl Owned {
    fn count(&self) -> usize {
        self.ids
            .values()
            .map(|counted| counted.weight)
            .sum::<usize>()
            + self.pending
    }
}

type Table = Arc<Mutex<HashMap<Caller, Owned>>>;

/// Live games per caller.
#[derive(Clone, Debug)]
pub struct GamesPerClient {
    limit: usize,
    table: Table,
}

/// How often counted games are looked up again: a tenth of the game TTL (the store's own sweep
/// period), between one second and one minute.
pub fn prune_period(game_ttl: Duration) -> Duration {
    (game_ttl / 10).clamp(Duration::from_secs(1), Duration::from_secs(60))
}

impl GamesPerClient {
    /// At most `limit` live games per caller; `usize::MAX` counts nothing.
    pub fn new(limit: usize) -> GamesPerClient {
        GamesPerClient {
            limit,
            table: Arc::default(),
        }
    }

    fn counts(&self) -> bool {
        self.limit != usize::MAX
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
            if !is_live(store, &id).await? {
                gone.push(id);
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
        if !self.counts() {
            return Some(Reservation {
                table: None,
                caller: caller.clone(),
                weight,
            });
        }
        let mut table = lock(&self.table);
        let owned = table.entry(caller.clone()).or_default();
        if owned.count().saturating_add(weight) > self.limit {
            return None;
        }
        owned.pending += weight;
        Some(Reservation {
            table: Some(self.table.clone()),
            caller: caller.clone(),
            weight,
        })
    }

    /// The games counted for `caller` now.
    pub fn count(&self, caller: &Caller) -> usize {
        lock(&self.table).get(caller).map_or(0, Owned::count)
    }

    /// The callers with games counted now.
    pub fn callers(&self) -> usize {
        lock(&self.table).len()
    }

    /// Looks up every counted game not looked at for `period`: drops those the store says
    /// finished or gone, and forgets the callers left with nothing counted. A store error ends
    /// the pass (the next one tries again).
    pub async fn prune(
        &self,
        store: &dyn SessionStore,
        period: Duration,
    ) -> Result<(), StoreError> {
        let now = Instant::now();
        let stale: Vec<(Caller, String)> = lock(&self.table)
            .iter()
            .flat_map(|(caller, owned)| {
                owned
                    .ids
                    .iter()
                    .filter(|(_, counted)| {
                        now.saturating_duration_since(counted.checked_at) >= period
                    })
                    .map(|(id, _)| (caller.clone(), id.clone()))
            })
            .collect();
        for (caller, id) in stale {
            let live = is_live(store, &id).await?;
            let mut table = lock(&self.table);
            let Some(owned) = table.get_mut(&caller) else {
                continue;
            };
            if live {
                if let Some(counted) = owned.ids.get_mut(&id) {
                    counted.checked_at = Instant::now();
                }
            } else {
                owned.ids.remove(&id);
            }
        }
        lock(&self.table).retain(|_, owned| owned.count() > 0);
        Ok(())
    }
}

/// Whether game `id` is in the store and not over (a peek: the store keeps no copy for it).
async fn is_live(store: &dyn SessionStore, id: &str) -> Result<bool, StoreError> {
    Ok(matches!(store.peek(id).await?, Some(record) if !record.game.is_over()))
}

/// Runs [`GamesPerClient::prune`] on `games` every `period`, for as long as the task runs
/// (the server aborts it when it stops).
pub(super) async fn prune_periodically(
    games: GamesPerClient,
    store: Arc<dyn SessionStore>,
    period: Duration,
) {
    let mut ticks = tokio::time::interval_at(Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(error) = games.prune(store.as_ref(), period).await {
            tracing::warn!(
                %error,
                "could not look up the games counted per client; trying again later"
            );
        }
    }
}

/// One admitted CreateGame: [`Reservation::created`] counts its game; dropped without it (the
/// call failed), the place is given back.
#[must_use]
pub struct Reservation {
    /// The table it holds a place in; none when nothing is counted.
    table: Option<Table>,
    caller: Caller,
    weight: usize,
}

impl Reservation {
    /// Counts the game `id` for the caller (a replayed CreateGame names a game already counted,
    /// which counts once).
    pub fn created(self, id: &str) {
        let Some(table) = &self.table else {
            return;
        };
        if let Some(owned) = lock(table).get_mut(&self.caller) {
            owned.ids.insert(
                id.to_string(),
                Counted {
                    weight: self.weight,
                    checked_at: Instant::now(),
                },
            );
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let Some(table) = &self.table else {
            return;
        };
        let mut table = lock(table);
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
    use crate::catalog;
    use crate::store::{Commit, GameRecord, MemoryStore};

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

    /// A Pigeon Chess record with id `id`, resigned by seat 0 when `over`.
    fn record(id: &str, over: bool) -> GameRecord {
        let game = match over {
            true => catalog::resigned_test_game(5),
            false => catalog::test_game(5),
        };
        GameRecord::for_test(id, game)
    }

    #[tokio::test(start_paused = true)]
    async fn a_prune_keeps_live_games_and_forgets_finished_and_gone_ones_and_their_callers() {
        let store = MemoryStore::new(Duration::from_secs(600), 100);
        let live = "00000000000000000000000000000001";
        let over = "00000000000000000000000000000002";
        let gone = "00000000000000000000000000000003";
        store.create(record(live, false)).await.unwrap();
        store.create(record(over, true)).await.unwrap();
        let games = GamesPerClient::new(10);
        let (me, other) = (Caller::Key("me".into()), Caller::Key("other".into()));
        games.reserve(&me, 1, &store).await.unwrap().created(live);
        games.reserve(&me, 2, &store).await.unwrap().created(over);
        games
            .reserve(&other, 1, &store)
            .await
            .unwrap()
            .created(gone);
        let period = prune_period(Duration::from_secs(600));
        assert_eq!(period, Duration::from_secs(60));

        // Games counted less than a period ago are not looked up yet.
        games.prune(&store, period).await.unwrap();
        assert_eq!((games.count(&me), games.count(&other)), (3, 1));
        assert_eq!(games.callers(), 2);

        tokio::time::advance(period).await;
        games.prune(&store, period).await.unwrap();
        assert_eq!(games.count(&me), 1, "only the live game still counts");
        assert_eq!(games.count(&other), 0);
        assert_eq!(
            games.callers(),
            1,
            "a caller with nothing counted is forgotten"
        );

        // The live game was looked at just now: the next look-up is a period later.
        let resigned = Commit {
            id: live.to_string(),
            expected_version: 0,
            record: record(live, true),
            request: None,
        };
        store.commit(resigned).await.unwrap();
        games.prune(&store, period).await.unwrap();
        assert_eq!(games.count(&me), 1);
        tokio::time::advance(period).await;
        games.prune(&store, period).await.unwrap();
        assert_eq!(games.callers(), 0);
    }

    #[tokio::test]
    async fn nothing_is_counted_without_a_limit() {
        let store = MemoryStore::new(Duration::from_secs(60), 100);
        let games = GamesPerClient::new(usize::MAX);
        let me = Caller::Key("me".into());
        for id in ["a", "b", "c"] {
            games.reserve(&me, 1, &store).await.unwrap().created(id);
        }
        let pending = games.reserve(&me, 1, &store).await.unwrap();
        assert_eq!((games.count(&me), games.callers()), (0, 0));
        drop(pending);
        assert_eq!(games.callers(), 0);
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
