//! [`BotRunner`]: schedules bot turns and plays them (see the module documentation of
//! `crate::bots`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use deckmate_engine::Seat;
use deckmate_engine::bots::{BotLevel, Budget};
use tokio::sync::Semaphore;

use super::hosted::HostedGames;
use super::{bot_to_act, levels, seed};
use crate::api::act::{Attempt, commit_action};
use crate::config::Config;
use crate::error::ApiError;
use crate::monitoring;
use crate::shutdown::Shutdown;
use crate::store::{GameRecord, SessionStore};

/// How a server runs its bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotSettings {
    /// Whether any caller may create a game whose every seat is a bot
    /// (`--allow-bot-only-games`; callers with an API key always may).
    pub allow_bot_only_games: bool,
    /// Bot moves computed at once (`--bot-workers`).
    pub workers: usize,
    /// The longest one move may think (`--bot-max-think`).
    pub max_think: Duration,
    /// Running bot games this replica hosts at most (`--max-bot-games`).
    pub max_games: usize,
    /// Whether the store writes a record format that holds bot seats (false under an older
    /// `--write-record-format`).
    pub records_hold_bots: bool,
    /// How long after a commit a bot turn not yet committed counts as lost, so that the clock
    /// scheduler of any replica resumes it: `--bot-max-think` plus `--timer-lease`.
    pub turn_backstop: Duration,
}

impl BotSettings {
    /// The settings of a server configuration.
    pub fn from_config(config: &Config) -> BotSettings {
        BotSettings {
            allow_bot_only_games: config.allow_bot_only_games,
            workers: config.bot_workers,
            max_think: config.bot_max_think,
            max_games: config.max_bot_games,
            turn_backstop: config.bot_max_think + config.timer_lease,
            records_hold_bots: match config.store {
                crate::config::StoreUrl::Memory => true,
                _ => config.write_record_format >= crate::store::redis::BOT_RECORD_FORMAT,
            },
        }
    }
}

impl Default for BotSettings {
    /// The defaults of the flags (what handlers driven in process get).
    fn default() -> BotSettings {
        BotSettings::from_config(&Config::default())
    }
}

/// Plays the bot seats of the games this replica commits or serves.
#[derive(Clone)]
pub struct BotRunner {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for BotRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotRunner")
            .field("settings", &self.inner.settings)
            .field("queued", &lock(&self.inner.queued).len())
            .field("hosted", &self.inner.hosted.count())
            .finish_non_exhaustive()
    }
}

struct Inner {
    store: Arc<dyn SessionStore>,
    settings: BotSettings,
    /// One permit per move being computed or committed.
    workers: Arc<Semaphore>,
    /// The (game, version) turns scheduled here and not yet done.
    queued: Mutex<HashSet<(String, u64)>>,
    hosted: HostedGames,
    shutdown: Shutdown,
}

impl BotRunner {
    /// A runner over `store` (the one the handlers use) that stops with `shutdown`.
    pub fn new(
        store: Arc<dyn SessionStore>,
        settings: BotSettings,
        shutdown: Shutdown,
    ) -> BotRunner {
        let workers = settings.workers.clamp(1, Semaphore::MAX_PERMITS);
        let hosted = HostedGames::new(settings.max_games, store.game_ttl());
        BotRunner {
            inner: Arc::new(Inner {
                store,
                settings,
                workers: Arc::new(Semaphore::new(workers)),
                queued: Mutex::default(),
                hosted,
                shutdown,
            }),
        }
    }

    /// The settings in force.
    pub fn settings(&self) -> &BotSettings {
        &self.inner.settings
    }

    /// The running bot games this replica hosts (`--max-bot-games`).
    pub fn hosted(&self) -> &HostedGames {
        &self.inner.hosted
    }

    /// Schedules a bot turn of `record`'s game at its version when a bot seat is to act and
    /// none is queued here: how a turn a lost replica left behind resumes.
    pub fn resume(&self, record: &GameRecord) {
        if bot_to_act(record.game.as_ref()) {
            self.schedule(&record.id, record.version());
        }
    }

    /// Schedules the bot turn of game `id` at `version` unless one is queued here already or the
    /// server is shutting down. Needs a Tokio runtime (handlers run in one).
    pub fn schedule(&self, id: &str, version: u64) {
        let inner = &self.inner;
        if inner.shutdown.is_triggered() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::warn!("a bot turn was scheduled outside a runtime; it waits for a request");
            return;
        };
        let key = (id.to_string(), version);
        if !lock(&inner.queued).insert(key.clone()) {
            return;
        }
        inner.hosted.touch(id);
        let runner = self.clone();
        runtime.spawn(async move {
            runner.turn(&key.0, key.1).await;
            lock(&runner.inner.queued).remove(&key);
        });
    }

    /// Plays one turn: waits for a worker (or shutdown, which ends the turn), then moves if the
    /// game is still at `version`. A move being committed is never cut: the store's commit is
    /// atomic, and cutting it would only leave its outcome unknown.
    async fn turn(&self, id: &str, version: u64) {
        let workers = self.inner.workers.clone();
        let permit = tokio::select! {
            () = self.inner.shutdown.wait() => return,
            permit = workers.acquire_owned() => permit,
        };
        let Ok(_permit) = permit else {
            return;
        };
        if self.inner.shutdown.is_triggered() {
            return;
        }
        if let Err(error) = self.play(id, version).await {
            match error {
                // A racing commit won; it scheduled the next turn.
                ApiError::StaleVersion { .. } => {}
                ApiError::StoreUnavailable => {
                    tracing::warn!(game_id = id, version, "bot turn: the store is unavailable")
                }
                error => tracing::warn!(game_id = id, version, %error, "bot turn failed"),
            }
        }
    }

    async fn play(&self, id: &str, version: u64) -> Result<(), ApiError> {
        let inner = &self.inner;
        let Some(record) = inner.store.load(id).await? else {
            inner.hosted.release(id);
            return Ok(());
        };
        if record.version() != version {
            return Ok(());
        }
        if record.game.is_over() {
            inner.hosted.release(id);
            return Ok(());
        }
        let Some((seat, level)) = mover(&record, version) else {
            return Ok(());
        };
        let think_for = self.think_time(&record, seat).await?;
        let started = Instant::now();
        let action = self
            .think(record.clone(), seat, level, version, think_for)
            .await?;
        monitoring::bot_thought(started.elapsed());
        let Some(action) = action else {
            return Ok(());
        };
        if inner.shutdown.is_triggered() {
            return Ok(());
        }
        let attempt = Attempt {
            seat,
            action: &action,
            key: None,
            expected_version: Some(version),
        };
        // A move that finishes the game gives back its place among the hosted games there.
        commit_action(inner.store.as_ref(), self, record.clone(), &attempt, true).await?;
        monitoring::bot_moved(record.game.kind().id(), levels::label(level));
        Ok(())
    }

    /// How long the bot of `seat` may think: `--bot-max-think`, or less when the seat's turn
    /// clock has less left ([`think_time`]).
    async fn think_time(&self, record: &GameRecord, seat: Seat) -> Result<Duration, ApiError> {
        let max_think = self.inner.settings.max_think;
        let Some(clock) = record.game.clock() else {
            return Ok(max_think);
        };
        let now_ms = self.inner.store.now_ms().await?;
        Ok(think_time(max_think, clock.deadline_of(seat), now_ms))
    }

    /// Computes `seat`'s move on a blocking thread, stopped after `think_for` or by shutdown.
    async fn think(
        &self,
        record: Arc<GameRecord>,
        seat: Seat,
        level: BotLevel,
        version: u64,
        think_for: Duration,
    ) -> Result<Option<deckmate_proto::v1::Action>, ApiError> {
        let seed = seed::move_seed(record.game.seed(), version, seat);
        let shutdown = self.inner.shutdown.clone();
        tokio::task::spawn_blocking(move || {
            let deadline = Instant::now() + think_for;
            // The clock only cuts a search short; the seed decides the move.
            let stop = || shutdown.is_triggered() || Instant::now() >= deadline;
            record
                .game
                .bot_action(seat, level, Budget::standard(level), seed, &stop)
        })
        .await
        .map_err(|error| ApiError::Internal(format!("a bot move panicked: {error}")))
    }
}

/// How long a bot may think when its seat's clock runs out at `deadline_ms` (store time) and it
/// is `now_ms`: at most `max_think`, and at most half the time left, so that the move (which a
/// searching bot cut short still makes, with its best so far) is committed before the clock
/// runs out. Without a running clock, `max_think`.
fn think_time(max_think: Duration, deadline_ms: Option<u64>, now_ms: u64) -> Duration {
    match deadline_ms {
        Some(deadline_ms) => max_think.min(Duration::from_millis(
            deadline_ms.saturating_sub(now_ms) / 2,
        )),
        None => max_think,
    }
}

/// The bot seat that moves at `version`: of the `n` bot seats to act, the one at `version mod n`
/// (so that in a simultaneous turn each moves in turn).
fn mover(record: &GameRecord, version: u64) -> Option<(Seat, BotLevel)> {
    let to_act = record.game.to_act();
    let movers: Vec<(Seat, BotLevel)> = record
        .game
        .bot_seats()
        .iter()
        .copied()
        .filter(|(seat, _)| to_act.contains(seat))
        .collect();
    let count = u64::try_from(movers.len())
        .ok()
        .filter(|&count| count > 0)?;
    let index = usize::try_from(version % count).ok()?;
    movers.get(index).copied()
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Consistent after every statement, so a panic elsewhere cannot poison it.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::store::MemoryStore;

    fn record(bots: Vec<(Seat, BotLevel)>) -> GameRecord {
        let mut game = catalog::test_game(3);
        game.set_bot_seats(bots);
        GameRecord::for_test("00112233445566778899aabbccddeeff", game)
    }

    #[test]
    fn a_bot_thinks_at_most_half_of_its_clock() {
        let max = Duration::from_secs(2);
        assert_eq!(think_time(max, None, 1_000), max);
        assert_eq!(think_time(max, Some(61_000), 1_000), max);
        assert_eq!(
            think_time(max, Some(2_000), 1_000),
            Duration::from_millis(500)
        );
        assert_eq!(think_time(max, Some(900), 1_000), Duration::ZERO);
    }

    #[test]
    fn bot_seats_to_act_take_turns_by_version() {
        // Pigeon Chess opens with both seats placing at once.
        let both = record(vec![
            (Seat(0), BotLevel::Random),
            (Seat(1), BotLevel::Greedy),
        ]);
        assert_eq!(mover(&both, 0), Some((Seat(0), BotLevel::Random)));
        assert_eq!(mover(&both, 1), Some((Seat(1), BotLevel::Greedy)));
        let one = record(vec![(Seat(1), BotLevel::Search)]);
        assert_eq!(mover(&one, 0), Some((Seat(1), BotLevel::Search)));
        assert_eq!(mover(&record(Vec::new()), 0), None);
    }

    #[tokio::test]
    async fn nothing_is_scheduled_once_shutdown_began() {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(60), 10));
        let shutdown = Shutdown::new();
        let runner = BotRunner::new(store, BotSettings::default(), shutdown.clone());
        let game = record(vec![(Seat(0), BotLevel::Random)]);
        shutdown.trigger();
        runner.resume(&game);
        assert!(lock(&runner.inner.queued).is_empty());
        assert_eq!(runner.hosted().count(), 0);
    }

    #[tokio::test]
    async fn a_turn_is_queued_once_per_version() {
        let store = Arc::new(MemoryStore::new(Duration::from_secs(60), 10));
        let runner = BotRunner::new(store, BotSettings::default(), Shutdown::new());
        let game = record(vec![(Seat(0), BotLevel::Random)]);
        // The game is not in the store: the turns find nothing and end.
        runner.resume(&game);
        runner.resume(&game);
        assert_eq!(lock(&runner.inner.queued).len(), 1);
        assert_eq!(runner.hosted().count(), 1);
        for _ in 0..100 {
            if lock(&runner.inner.queued).is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(lock(&runner.inner.queued).is_empty());
        // A game gone from the store is no longer hosted.
        assert_eq!(runner.hosted().count(), 0);
    }
}
