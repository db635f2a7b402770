//! A game the store does not have: expired or never created (`GAME_NOT_FOUND`), or lost by the
//! store (`GAME_LOST`).
//!
//! Game ids carry their creation second (`auth::new_game_id`) and stores know when their data
//! set began ([`SessionStore::epoch`]). A game created before that, and younger than the TTL
//! now, cannot have expired: its store lost it (a Redis restarted without persistence, or a
//! memory store's server restarted). Clients learn that their game is gone for good rather than
//! assuming it idled out.

use std::time::Duration;

use crate::auth;
use crate::error::ApiError;
use crate::store::{SessionStore, unix_millis};

/// How far in the future a creation time may lie (clocks of replicas differ a little) and still
/// be believed; ids further ahead are treated as unknown.
const CLOCK_SKEW: Duration = Duration::from_secs(60);

/// The error for game `id`, which the store does not hold.
pub(super) async fn missing_game(store: &dyn SessionStore, id: &str) -> ApiError {
    let Some(created_s) = auth::game_id_created_at(id) else {
        return ApiError::GameNotFound;
    };
    let now_ms = unix_millis();
    // Only ids young enough to be alive are worth a store call.
    if !younger_than_ttl(created_s, now_ms, store.game_ttl()) {
        return ApiError::GameNotFound;
    }
    match store.epoch().await {
        Ok(epoch_ms) if created_before(created_s, epoch_ms) => {
            tracing::warn!(
                created_s,
                epoch_ms,
                "a game younger than the TTL is missing from a store whose data began after it"
            );
            ApiError::GameLost
        }
        Ok(_) => ApiError::GameNotFound,
        Err(error) => {
            // Unknown: say what is certain (the game is not there).
            tracing::warn!(%error, "could not read the store's epoch");
            ApiError::GameNotFound
        }
    }
}

/// Whether a game created at Unix second `created_s` is younger than `ttl` at `now_ms` (and not
/// implausibly far in the future).
fn younger_than_ttl(created_s: u64, now_ms: u64, ttl: Duration) -> bool {
    let created_ms = created_s.saturating_mul(1000);
    let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
    let skew_ms = CLOCK_SKEW.as_millis() as u64;
    created_ms <= now_ms.saturating_add(skew_ms) && now_ms < created_ms.saturating_add(ttl_ms)
}

/// Whether the whole creation second `created_s` lies before the epoch `epoch_ms`.
fn created_before(created_s: u64, epoch_ms: u64) -> bool {
    created_s.saturating_add(1).saturating_mul(1000) <= epoch_ms
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTL: Duration = Duration::from_secs(600);
    const NOW_MS: u64 = 1_764_000_000_000;
    const NOW_S: u64 = NOW_MS / 1000;

    #[test]
    fn ages_within_the_ttl() {
        assert!(younger_than_ttl(NOW_S - 10, NOW_MS, TTL));
        assert!(younger_than_ttl(NOW_S - 599, NOW_MS, TTL));
        assert!(!younger_than_ttl(NOW_S - 600, NOW_MS, TTL));
        assert!(!younger_than_ttl(1, NOW_MS, TTL), "an id from long ago");
        assert!(
            younger_than_ttl(NOW_S + 30, NOW_MS, TTL),
            "a replica's clock ahead"
        );
        assert!(!younger_than_ttl(NOW_S + 3600, NOW_MS, TTL), "far future");
    }

    /// A game id created at Unix second `created`.
    fn id_created_at(created: u64) -> String {
        format!("{created:08x}{}", "5a".repeat(12))
    }

    #[tokio::test]
    async fn a_store_that_began_after_a_young_game_lost_it() {
        let store = crate::store::MemoryStore::new(TTL, 100);
        let now_s = unix_millis() / 1000;
        // Made by an earlier server process, 10 s before this store began.
        assert_eq!(
            missing_game(&store, &id_created_at(now_s - 10)).await,
            ApiError::GameLost
        );
        // Older than the TTL: it may simply have expired.
        assert_eq!(
            missing_game(&store, &id_created_at(now_s - 601)).await,
            ApiError::GameNotFound
        );
        // Made since the store began (or too far ahead to believe): never lost by it.
        assert_eq!(
            missing_game(&store, &id_created_at(now_s + 1)).await,
            ApiError::GameNotFound
        );
        assert_eq!(
            missing_game(&store, &id_created_at(now_s + 3600)).await,
            ApiError::GameNotFound
        );
        assert_eq!(
            missing_game(&store, "no-game").await,
            ApiError::GameNotFound
        );
    }

    #[test]
    fn creation_before_the_epoch() {
        let epoch_ms = NOW_MS - 5_000;
        assert!(created_before(NOW_S - 6, epoch_ms));
        assert!(created_before(NOW_S - 5 - 1, epoch_ms));
        // A game created in the epoch's second may have been created after it.
        assert!(!created_before(NOW_S - 5, epoch_ms));
        assert!(!created_before(NOW_S, epoch_ms));
    }
}
