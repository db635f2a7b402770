//! `Act`: apply one action for the seat the bearer token names.
//!
//! The action is applied to a copy of the loaded game and committed over the version that was
//! loaded (no lost updates, docs/ARCHITECTURE.md §4). A non-empty `request_id` makes the call
//! idempotent for its (game, seat): a retry gets the first call's response, rebuilt from the game's
//! log at the version that call produced, and applies nothing.

use std::sync::Arc;

use deckmate_engine::{Seat, Viewer};
use deckmate_proto::v1 as pb;
use tonic::Request;

use super::{GameApi, check_request_id, load_game, with_game_id};
use crate::auth;
use crate::error::ApiError;
use crate::store::{Commit, CommitOutcome, GameRecord, RequestKey, unix_millis};
use crate::{monitoring, telemetry};

/// How often a commit is retried after losing a race to another seat's action (only without
/// `expected_version`: with it, a lost race is the client's STALE_VERSION).
const COMMIT_ATTEMPTS: usize = 8;

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::ActRequest>,
) -> Result<pb::ActResponse, ApiError> {
    let presented = auth::presented_token(request.metadata())?;
    let request = request.into_inner();
    check_request_id(&request.request_id)?;
    let action = request
        .action
        .as_ref()
        .ok_or_else(|| ApiError::InvalidRequest("action is required".to_string()))?;
    let store = api.store.as_ref();
    let mut record = load_game(store, &request.game_id).await?;
    let seat = auth::actor(&record.token_hashes, presented.as_ref())?;
    telemetry::record_seat(seat);
    let request_key =
        (!request.request_id.is_empty()).then(|| RequestKey::for_act(&request.request_id));

    if let Some(key) = request_key
        && let Some(version) = store.find_request(&record.id, (seat, key)).await?
    {
        monitoring::idempotent_replay();
        return answer_at(&record, seat, version);
    }

    for _ in 0..COMMIT_ATTEMPTS {
        let current = record.version();
        if let Some(expected) = request.expected_version
            && expected != current
        {
            monitoring::version_conflict();
            return Err(ApiError::StaleVersion { expected, current });
        }
        let mut game = record.game.clone_box();
        tracing::debug_span!("engine.apply").in_scope(|| game.act(seat, action))?;
        let observation = with_game_id(game.view(Viewer::Seat(seat)), &record.id);
        let finished = game
            .is_over()
            .then(|| (game.kind().id(), end_reason(&observation)));
        let commit = Commit {
            id: record.id.clone(),
            expected_version: current,
            record: successor(&record, game),
            request: request_key.map(|key| (seat, key)),
        };
        match store.commit(commit).await? {
            CommitOutcome::Committed { version } => {
                telemetry::record_version(version);
                if let Some((variant, reason)) = finished {
                    monitoring::game_finished(variant, reason);
                }
                return Ok(pb::ActResponse {
                    version,
                    observation: Some(observation),
                });
            }
            CommitOutcome::Conflict { current_version } => {
                monitoring::version_conflict();
                if let Some(expected) = request.expected_version {
                    return Err(ApiError::StaleVersion {
                        expected,
                        current: current_version,
                    });
                }
                // Another seat acted first: try again on the new state, where this action may
                // no longer be legal (then the client hears why).
                record = reload(api, &record.id).await?;
            }
            CommitOutcome::Duplicate { version } => {
                // A concurrent retry of this request committed first.
                monitoring::idempotent_replay();
                let latest = reload(api, &record.id).await?;
                return answer_at(&latest, seat, version);
            }
            CommitOutcome::NotFound => return Err(ApiError::GameNotFound),
        }
    }
    tracing::warn!(
        attempts = COMMIT_ATTEMPTS,
        "act lost every commit race; asking the client to retry"
    );
    Err(ApiError::Overloaded)
}

/// Why the game in `observation` ended, as its outcome says.
fn end_reason(observation: &pb::ObserveResponse) -> pb::EndReason {
    observation
        .outcome
        .as_ref()
        .and_then(|outcome| pb::EndReason::try_from(outcome.reason).ok())
        .unwrap_or(pb::EndReason::Unspecified)
}

/// The record after an accepted action.
fn successor(record: &GameRecord, game: Box<dyn crate::live::LiveGame>) -> GameRecord {
    GameRecord {
        id: record.id.clone(),
        game,
        token_hashes: record.token_hashes.clone(),
        spectators_allowed: record.spectators_allowed,
        seed_commitment: record.seed_commitment,
        created_at: record.created_at,
        updated_at: unix_millis(),
    }
}

/// The response a request that produced `version` got.
fn answer_at(record: &GameRecord, seat: Seat, version: u64) -> Result<pb::ActResponse, ApiError> {
    let view = record.game.view_at(Viewer::Seat(seat), version)?;
    Ok(pb::ActResponse {
        version,
        observation: Some(with_game_id(view, &record.id)),
    })
}

async fn reload(api: &GameApi, id: &str) -> Result<Arc<GameRecord>, ApiError> {
    api.store.load(id).await?.ok_or(ApiError::GameNotFound)
}
