//! `--max-bot-games`: the running games with bot seats one replica hosts.
//!
//! A replica hosts a bot game from the moment it creates one, or schedules a bot turn of one
//! (a game created elsewhere, or resumed after another replica was lost), until it sees the game
//! finished or gone, or has not scheduled a turn of it for the store's game TTL (by then the
//! game has expired unless people play it through another replica, which then hosts it). It
//! sees a game finish when it commits the finishing action, whoever made it (a player, a bot or
//! a clock); a game finished through another replica is found out lazily, like the games of
//! `--max-games-per-client`: when the limit is reached, hosted games not looked up for
//! [`RECHECK_AFTER`] are looked up in the store, and the first finished or gone one gives its
//! place. Only creation is refused at the limit: a game already running keeps its bots wherever
//! its turns are scheduled. The count is per replica, like `--max-games-per-client`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use crate::error::ApiError;
use crate::monitoring::{self, Limit};
use crate::store::SessionStore;

/// How long a hosted game found running in the store is not looked up again at the limit: at
/// most one look-up per hosted game per period, however many creations the limit refuses.
pub const RECHECK_AFTER: Duration = Duration::from_secs(10);

/// The most look-ups one CreateGame makes at the limit, so that none waits on a thousand store
/// reads; the calls that follow look at the games it did not reach.
const MAX_LOOKUPS_PER_ADMISSION: usize = 32;

/// The bot games of one replica.
#[derive(Debug, Default)]
struct Hosted {
    /// Each game by id. The instants only age entries out and pace look-ups; they never decide
    /// play.
    games: HashMap<String, Entry>,
    /// CreateGame calls admitted and not yet finished.
    pending: usize,
}

/// One hosted game.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// When a turn of it was last scheduled here (or it was created here).
    touched: Instant,
    /// When it was last known to be running: hosted, or found running by a look-up.
    checked: Instant,
}

impl Entry {
    fn now() -> Entry {
        let now = Instant::now();
        Entry {
            touched: now,
            checked: now,
        }
    }
}

/// The running bot games of this replica, against `--max-bot-games`.
#[derive(Clone, Debug)]
pub struct HostedGames {
    limit: usize,
    ttl: Duration,
    hosted: Arc<Mutex<Hosted>>,
}

impl HostedGames {
    /// At most `limit` games; an entry untouched for `ttl` (the store's game TTL) is dropped.
    pub fn new(limit: usize, ttl: Duration) -> HostedGames {
        HostedGames {
            limit,
            ttl,
            hosted: Arc::default(),
        }
    }

    /// Admits one more bot game for a CreateGame call, or refuses with `LIMIT_REACHED`. At the
    /// limit, hosted games not looked up for [`RECHECK_AFTER`] are looked up in `store` first
    /// (at most `MAX_LOOKUPS_PER_ADMISSION`), until one is found finished or gone (its place
    /// is then taken).
    pub async fn admit(&self, store: &dyn SessionStore) -> Result<Admission, ApiError> {
        for _ in 0..MAX_LOOKUPS_PER_ADMISSION {
            if let Some(admission) = self.try_admit() {
                return Ok(admission);
            }
            let Some(id) = self.next_to_check() else {
                return Err(self.refusal());
            };
            match store.peek(&id).await {
                Ok(Some(record)) if !record.game.is_over() => self.checked(&id),
                Ok(_) => self.release(&id),
                // Not known to be over: it keeps its place, and the limit stands.
                Err(_) => break,
            }
        }
        self.try_admit().ok_or_else(|| self.refusal())
    }

    /// An admission when a place is free, without looking anything up.
    fn try_admit(&self) -> Option<Admission> {
        let mut hosted = self.lock();
        let ttl = self.ttl;
        hosted
            .games
            .retain(|_, entry| entry.touched.elapsed() < ttl);
        monitoring::bot_games(hosted.games.len());
        if hosted.games.len() + hosted.pending >= self.limit {
            return None;
        }
        hosted.pending += 1;
        Some(Admission {
            hosted: self.hosted.clone(),
        })
    }

    /// The refusal of a creation at the limit (counted).
    fn refusal(&self) -> ApiError {
        monitoring::limit_rejected(Limit::MaxBotGames);
        ApiError::LimitReached(format!(
            "this server runs its maximum of {} games with bot seats; try again later",
            self.limit
        ))
    }

    /// A hosted game not known to be running for [`RECHECK_AFTER`], if any.
    fn next_to_check(&self) -> Option<String> {
        let hosted = self.lock();
        hosted
            .games
            .iter()
            .find(|(_, entry)| entry.checked.elapsed() >= RECHECK_AFTER)
            .map(|(id, _)| id.clone())
    }

    /// Notes that game `id` was found running.
    fn checked(&self, id: &str) {
        if let Some(entry) = self.lock().games.get_mut(id) {
            entry.checked = Instant::now();
        }
    }

    /// Notes that a turn of game `id` was scheduled here (it is hosted from now on).
    pub fn touch(&self, id: &str) {
        let mut hosted = self.lock();
        match hosted.games.get_mut(id) {
            Some(entry) => *entry = Entry::now(),
            None => {
                hosted.games.insert(id.to_string(), Entry::now());
                monitoring::bot_games(hosted.games.len());
            }
        }
    }

    /// Notes that game `id` finished or is gone.
    pub fn release(&self, id: &str) {
        let mut hosted = self.lock();
        if hosted.games.remove(id).is_some() {
            monitoring::bot_games(hosted.games.len());
        }
    }

    /// How many games count now (admitted calls included).
    pub fn count(&self) -> usize {
        let hosted = self.lock();
        hosted.games.len() + hosted.pending
    }

    fn lock(&self) -> MutexGuard<'_, Hosted> {
        lock(&self.hosted)
    }
}

/// One admitted CreateGame: [`Admission::hosted`] counts its game; dropped without it (the call
/// failed), the place is given back.
#[must_use]
#[derive(Debug)]
pub struct Admission {
    hosted: Arc<Mutex<Hosted>>,
}

impl Admission {
    /// Counts the created game `id`.
    pub fn hosted(self, id: &str) {
        let mut hosted = lock(&self.hosted);
        hosted.games.insert(id.to_string(), Entry::now());
        monitoring::bot_games(hosted.games.len());
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut hosted = lock(&self.hosted);
        hosted.pending = hosted.pending.saturating_sub(1);
    }
}

fn lock(hosted: &Mutex<Hosted>) -> MutexGuard<'_, Hosted> {
    // Consistent after every statement, so a panic elsewhere cannot poison it.
    hosted.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::store::{GameRecord, MemoryStore};

    #[test]
    fn the_limit_counts_hosted_and_admitted_games() {
        let hosted = HostedGames::new(2, Duration::from_secs(60));
        hosted.try_admit().unwrap().hosted("a");
        let second = hosted.try_admit().unwrap();
        assert_eq!(hosted.count(), 2);
        assert!(hosted.try_admit().is_none());
        // A failed call gives its place back.
        drop(second);
        assert_eq!(hosted.count(), 1);
        hosted.try_admit().unwrap().hosted("b");
        assert!(hosted.try_admit().is_none());
        hosted.release("a");
        hosted.touch("b");
        assert_eq!(hosted.count(), 1);
        hosted.try_admit().unwrap().hosted("c");
        assert_eq!(hosted.count(), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn at_the_limit_finished_and_gone_games_give_their_place() {
        let store = MemoryStore::new(Duration::from_secs(600), 100);
        let running = "00000000000000000000000000000001";
        let finished = "00000000000000000000000000000002";
        store.create(record(running, false)).await.unwrap();
        store.create(record(finished, true)).await.unwrap();
        let hosted = HostedGames::new(2, Duration::from_secs(600));
        hosted.try_admit().unwrap().hosted(running);
        hosted.try_admit().unwrap().hosted(finished);
        // Just hosted: nothing is looked up yet, and the limit stands.
        let refused = hosted.admit(&store).await.unwrap_err();
        assert_eq!(refused.reason(), "LIMIT_REACHED");
        tokio::time::advance(RECHECK_AFTER).await;
        // The finished game gives its place; the running one keeps its own.
        hosted.admit(&store).await.unwrap().hosted("c");
        assert_eq!(hosted.count(), 2);
        assert!(hosted.admit(&store).await.is_err());
        // A game gone from the store gives its place too, once due for a look-up.
        tokio::time::advance(RECHECK_AFTER).await;
        hosted.admit(&store).await.unwrap().hosted("d");
        assert_eq!(hosted.count(), 2, "the running game and d");
        assert!(hosted.admit(&store).await.is_err());
    }

    /// A Pigeon Chess record with id `id`, resigned by seat 0 when `over`.
    fn record(id: &str, over: bool) -> GameRecord {
        let game = match over {
            true => catalog::resigned_test_game(5),
            false => catalog::test_game(5),
        };
        GameRecord::for_test(id, game)
    }

    #[test]
    fn untouched_games_age_out() {
        let hosted = HostedGames::new(1, Duration::ZERO);
        hosted.touch("a");
        assert_eq!(hosted.count(), 1);
        // With a zero TTL every entry has aged out by the next admission.
        hosted.try_admit().unwrap().hosted("b");
    }
}
