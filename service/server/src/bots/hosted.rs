//! `--max-bot-games`: the running games with bot seats one replica hosts.
//!
//! A replica hosts a bot game from the moment it creates one, or schedules a bot turn of one
//! (a game created elsewhere, or resumed after another replica was lost), until it sees the game
//! finished or gone, or has not scheduled a turn of it for the store's game TTL (by then the
//! game has expired unless people play it through another replica, which then hosts it). Only
//! creation is refused at the limit: a game already running keeps its bots wherever its turns
//! are scheduled. The count is per replica, like `--max-games-per-client`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::error::ApiError;
use crate::monitoring::{self, Limit};

/// The bot games of one replica.
#[derive(Debug, Default)]
struct Hosted {
    /// Game id and when a turn of it was last scheduled here. The instant only ages entries
    /// out; it never decides play.
    games: HashMap<String, Instant>,
    /// CreateGame calls admitted and not yet finished.
    pending: usize,
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

    /// Admits one more bot game for a CreateGame call, or refuses with `LIMIT_REACHED`.
    pub fn admit(&self) -> Result<Admission, ApiError> {
        let mut hosted = self.lock();
        let ttl = self.ttl;
        hosted.games.retain(|_, touched| touched.elapsed() < ttl);
        monitoring::bot_games(hosted.games.len());
        if hosted.games.len() + hosted.pending >= self.limit {
            monitoring::limit_rejected(Limit::MaxBotGames);
            return Err(ApiError::LimitReached(format!(
                "this server runs its maximum of {} games with bot seats; try again later",
                self.limit
            )));
        }
        hosted.pending += 1;
        Ok(Admission {
            hosted: self.hosted.clone(),
        })
    }

    /// Notes that a turn of game `id` was scheduled here (it is hosted from now on).
    pub fn touch(&self, id: &str) {
        let mut hosted = self.lock();
        match hosted.games.get_mut(id) {
            Some(touched) => *touched = Instant::now(),
            None => {
                hosted.games.insert(id.to_string(), Instant::now());
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
        hosted.games.insert(id.to_string(), Instant::now());
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

    #[test]
    fn the_limit_counts_hosted_and_admitted_games() {
        let hosted = HostedGames::new(2, Duration::from_secs(60));
        hosted.admit().unwrap().hosted("a");
        let second = hosted.admit().unwrap();
        assert_eq!(hosted.count(), 2);
        assert_eq!(hosted.admit().unwrap_err().reason(), "LIMIT_REACHED");
        // A failed call gives its place back.
        drop(second);
        assert_eq!(hosted.count(), 1);
        hosted.admit().unwrap().hosted("b");
        assert!(hosted.admit().is_err());
        hosted.release("a");
        hosted.touch("b");
        assert_eq!(hosted.count(), 1);
        hosted.admit().unwrap().hosted("c");
        assert_eq!(hosted.count(), 2);
    }

    #[test]
    fn untouched_games_age_out() {
        let hosted = HostedGames::new(1, Duration::ZERO);
        hosted.touch("a");
        assert_eq!(hosted.count(), 1);
        // With a zero TTL every entry has aged out by the next admission.
        hosted.admit().unwrap().hosted("b");
    }
}
