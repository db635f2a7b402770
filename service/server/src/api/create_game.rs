//! `CreateGame`: deal a new game and hand out one secret token per seat.
//!
//! With a non-empty `request_id`, the response is remembered (sealed, see `seal.rs`) for
//! [`CREATE_WINDOW`], filed under the caller and the id; a retry of the same request within it
//! returns the identical response and creates nothing, and the same id with a different request
//! is `REQUEST_ID_REUSED`.

use deckmate_proto::v1 as pb;

use super::{GameApi, check_request_id, seal};
use crate::auth::{self, SeatToken};
use crate::catalog;
use crate::error::ApiError;
use crate::store::{
    CREATE_WINDOW, CreateError, CreateOutcome, GameRecord, PutCreateOutcome, SessionStore,
    unix_millis,
};
use crate::{monitoring, telemetry};

/// Fresh ids to try when a new id is taken (128 random bits: never, in practice).
const ID_ATTEMPTS: usize = 4;

/// Serves one CreateGame for the caller `scope` names (its identity as
/// [`crate::protection::caller::Caller`] displays it).
pub(super) async fn handle(
    api: &GameApi,
    scope: String,
    request: pb::CreateGameRequest,
) -> Result<pb::CreateGameResponse, ApiError> {
    check_request_id(&request.request_id)?;
    let config = request
        .config
        .as_ref()
        .ok_or_else(|| ApiError::InvalidRequest("config is required".to_string()))?;
    let spectators_allowed = spectators_allowed(request.spectator_policy)?;

    let create_id = (!request.request_id.is_empty()).then(|| seal::CreateId {
        scope: &scope,
        request_id: &request.request_id,
    });
    let create_key = create_id.map(|id| id.store_key());
    let digest = seal::request_digest(&request);
    if let (Some(id), Some(key)) = (create_id, &create_key)
        && let Some(sealed) = api.store.find_create(key).await?
    {
        let response = seal::open(id, &digest, &sealed)?;
        telemetry::record_game_id(&sealed.game_id);
        monitoring::idempotent_replay();
        return Ok(response);
    }

    let seed = auth::choose_seed(request.seed, api.settings.allow_client_seed)?;
    let game = catalog::new_game(config, request.seats, seed)?;
    telemetry::record_kind(game.kind());
    let tokens = (0..game.seats())
        .map(|_| SeatToken::generate())
        .collect::<Result<Vec<_>, _>>()?;
    let seed_commitment = auth::seed_commitment(&seed);
    let kind = game.kind().id();
    let variant = kind.to_string();
    let version = game.version();
    let now = unix_millis();
    let record = GameRecord {
        id: String::new(),
        game,
        token_hashes: tokens.iter().map(SeatToken::hash).collect(),
        spectators_allowed,
        seed_commitment,
        created_at: now,
        updated_at: now,
    };
    let response = pb::CreateGameResponse {
        game_id: store_with_fresh_id(api.store.as_ref(), record).await?,
        seat_tokens: tokens
            .iter()
            .zip(0u32..)
            .map(|(token, seat)| pb::SeatToken {
                seat,
                token: token.expose().to_string(),
            })
            .collect(),
        version,
        seed_commitment: seed_commitment.to_vec(),
        variant,
    };
    telemetry::record_game_id(&response.game_id);
    telemetry::record_version(version);

    let (Some(id), Some(key)) = (create_id, create_key) else {
        monitoring::game_created(kind);
        return Ok(response);
    };
    let remembered = match seal::seal(id, &digest, &response) {
        Ok(sealed) => api
            .store
            .put_create(&key, sealed, CREATE_WINDOW)
            .await
            .map_err(ApiError::from),
        Err(error) => Err(error),
    };
    match remembered {
        Ok(PutCreateOutcome::Stored) => {
            monitoring::game_created(kind);
            Ok(response)
        }
        Ok(PutCreateOutcome::Existing(first)) => {
            // A concurrent call with the same id won: drop this game, then answer as the first
            // call did (or refuse, when it was a different request).
            discard(api.store.as_ref(), &response.game_id).await;
            let first = seal::open(id, &digest, &first)?;
            monitoring::idempotent_replay();
            Ok(first)
        }
        Err(error) => {
            // The client will retry with the same request id; leave no orphan game behind.
            discard(api.store.as_ref(), &response.game_id).await;
            Err(error)
        }
    }
}

/// Whether spectators may observe, by the request's policy (unspecified means allowed).
fn spectators_allowed(policy: i32) -> Result<bool, ApiError> {
    match pb::SpectatorPolicy::try_from(policy) {
        Ok(pb::SpectatorPolicy::Unspecified | pb::SpectatorPolicy::Allowed) => Ok(true),
        Ok(pb::SpectatorPolicy::Denied) => Ok(false),
        Err(_) => Err(ApiError::InvalidRequest(format!(
            "spectator_policy: unknown value {policy}"
        ))),
    }
}

/// Stores `record` under a new random id and returns the id.
async fn store_with_fresh_id(
    store: &dyn SessionStore,
    mut record: GameRecord,
) -> Result<String, ApiError> {
    for _ in 0..ID_ATTEMPTS {
        record.id = auth::new_game_id()?;
        // A fresh game is small; the copy keeps the record for another id if this one is taken.
        let outcome = store.create(record.clone()).await.inspect_err(|error| {
            if matches!(error, CreateError::GameLimit(_)) {
                monitoring::limit_rejected(monitoring::Limit::MaxGames);
            }
        })?;
        if outcome == CreateOutcome::Created {
            return Ok(record.id);
        }
    }
    Err(ApiError::Internal(format!(
        "{ID_ATTEMPTS} random game ids in a row were taken"
    )))
}

/// Removes a game nobody will learn about; failure only leaves it to expire.
async fn discard(store: &dyn SessionStore, id: &str) {
    if let Err(error) = store.remove(id).await {
        tracing::warn!(%error, "could not remove an unused game; it will expire");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectator_policies() {
        assert_eq!(spectators_allowed(0), Ok(true));
        assert_eq!(
            spectators_allowed(pb::SpectatorPolicy::Allowed as i32),
            Ok(true)
        );
        assert_eq!(
            spectators_allowed(pb::SpectatorPolicy::Denied as i32),
            Ok(false)
        );
        assert_eq!(
            spectators_allowed(42).unwrap_err().reason(),
            "INVALID_REQUEST"
        );
    }
}
