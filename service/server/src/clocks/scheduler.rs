//! [`Scheduler`]: every replica's loop over the store's due index (docs/CLOCKS.md, "The due
//! index").
//!
//! Every `--timer-poll` it reads the store's clock, claims the games due by then for
//! `--timer-lease`, and looks at each: a clock that ran out is committed as a timeout (checked
//! against the version its deadline was computed from, so a second firing conflicts and does
//! nothing); a bot turn that is due is resumed here; anything else is filed again under its
//! real due time, or taken out once nothing is pending. A game it cannot look at (the store
//! failed) keeps its lease and comes due again when the lease ends.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

use super::due::{due_at, files_due};
use crate::api::act::settle_clock;
use crate::bots::BotRunner;
use crate::config::Config;
use crate::error::ApiError;
use crate::shutdown::Shutdown;
use crate::store::SessionStore;

/// The most games one sweep claims; the rest wait for the next poll.
const CLAIM_BATCH: usize = 256;

/// How a server runs its clock scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    /// How long a claim keeps other replicas off a due game (`--timer-lease`).
    pub lease: Duration,
    /// How often the due index is swept (`--timer-poll`).
    pub poll: Duration,
}

impl ClockSettings {
    /// The settings of a server configuration.
    pub fn from_config(config: &Config) -> ClockSettings {
        ClockSettings {
            lease: config.timer_lease,
            poll: config.timer_poll,
        }
    }
}

impl Default for ClockSettings {
    /// The defaults of the flags.
    fn default() -> ClockSettings {
        ClockSettings::from_config(&Config::default())
    }
}

/// Fires the due deadlines and bot turns of the store this replica serves.
#[derive(Clone)]
pub struct Scheduler {
    store: Arc<dyn SessionStore>,
    bots: BotRunner,
    settings: ClockSettings,
    shutdown: Shutdown,
}

impl std::fmt::Debug for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scheduler")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Scheduler {
    /// A scheduler over `store` that commits through `bots`' runner (the one the handlers use)
    /// and stops with `shutdown`.
    pub fn new(
        store: Arc<dyn SessionStore>,
        bots: BotRunner,
        settings: ClockSettings,
        shutdown: Shutdown,
    ) -> Scheduler {
        Scheduler {
            store,
            bots,
            settings,
            shutdown,
        }
    }

    /// Runs the loop on the current Tokio runtime until shutdown begins.
    pub fn spawn(self) -> JoinHandle<()> {
        tokio::spawn(async move { self.run().await })
    }

    async fn run(self) {
        // The first sweep one poll after start, not at once: nothing is due that early.
        let start = tokio::time::Instant::now() + self.settings.poll;
        let mut ticker = tokio::time::interval_at(start, self.settings.poll);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = self.shutdown.wait() => return,
                _ = ticker.tick() => {}
            }
            if let Err(error) = self.sweep().await {
                tracing::warn!(%error, "the clock scheduler could not sweep the due index");
            }
        }
    }

    /// One sweep: claims what is due now and looks at each game claimed. Returns how many games
    /// it claimed.
    pub async fn sweep(&self) -> Result<usize, ApiError> {
        let now_ms = self.store.now_ms().await?;
        let lease_ms = u64::try_from(self.settings.lease.as_millis()).unwrap_or(u64::MAX);
        let claimed = self.store.claim_due(now_ms, lease_ms, CLAIM_BATCH).await?;
        for id in &claimed {
            if self.shutdown.is_triggered() {
                break;
            }
            if let Err(error) = self.fire(id, now_ms).await {
                tracing::warn!(game_id = %id, %error, "a due game could not be settled; it comes due again after the lease");
            }
        }
        Ok(claimed.len())
    }

    /// Looks at game `id`, claimed as due at `now_ms`.
    async fn fire(&self, id: &str, now_ms: u64) -> Result<(), ApiError> {
        let Some(record) = self.store.load(id).await? else {
            // Expired or removed: nothing is pending any more.
            return Ok(self.store.file_due(id, None).await?);
        };
        if settle_clock(self.store.as_ref(), &self.bots, &record, now_ms).await? {
            // The commit filed the game's next due time (a racing commit filed its own).
            return Ok(());
        }
        // No time ran out: a bot turn that may have been lost, or an entry filed early.
        self.bots.resume(&record);
        let due = if files_due(record.game.as_ref()) {
            due_at(
                record.game.as_ref(),
                now_ms,
                self.bots.settings().turn_backstop,
            )
        } else {
            None
        };
        Ok(self.store.file_due(id, due).await?)
    }
}
