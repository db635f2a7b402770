//! `Act`: apply one action for the seat the bearer token names.
//!
//! The action is applied to a copy of the loaded game and committed over the version that was
//! loaded (no lost updates, docs/ARCHITECTURE.md §4). A non-empty `request_id` makes the call
//! idempotent for its (game, seat): a retry gets the first call's response, rebuilt from the game's
//! log at the version that call produced, and applies nothing. The log also tells a retry from a
//! different action sent under the same id, which is refused (`REQUEST_ID_REUSED`).
//!
//! The common case costs one store round trip: the record comes from
//! [`SessionStore::load_for_update`] (a networked store answers from its copy of the record it
//! last committed), and the commit itself checks both the request id and the version. Only when
//! that copy turns out stale, the action is refused, or the request was already committed does
//! the handler load again, so that every answer that depends on the state is given from the
//! current record.
//!
//! Bots commit their moves through [`commit_action`] too, so a bot's move is checked,
//! committed, announced to watchers and counted exactly as a person's is. Every commit after
//! which a bot seat is to act schedules that bot's turn (`crate::bots`).

use std::sync::Arc;

use deckmate_engine::{Seat, Viewer};
use deckmate_proto::v1 as pb;
use tonic::Request;

use super::{GameApi, check_request_id, existing, missing, require_game_id, with_game_id};
use crate::auth;
use crate::bots::{self, BotRunner};
use crate::error::ApiError;
use crate::store::{
    Commit, CommitOutcome, GameRecord, RequestKey, SeatRequest, SessionStore, unix_millis,
};
use crate::{monitoring, telemetry};

/// How often a commit is retried after losing a race to another seat's action (only without
/// `expected_version`: with it, a lost race is the client's STALE_VERSION).
const COMMIT_ATTEMPTS: usize = 8;

/// How often an answer to a remembered request reloads a record older than the version that
/// request produced (a concurrent commit landed between the load and the lookup).
const RELOAD_ATTEMPTS: usize = 4;

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
    require_game_id(&request.game_id)?;
    let store = api.store.as_ref();
    let loaded = store.load_for_update(&request.game_id).await?;
    let record = existing(store, &request.game_id, loaded).await?;
    telemetry::record_kind(record.game.kind());
    let seat = auth::actor(&record.token_hashes, presented.as_ref())?;
    telemetry::record_seat(seat);
    // A bot turn a lost replica left behind resumes here (a no-op when one is queued).
    api.bots.resume(&record);
    let request = Attempt {
        seat,
        action,
        key: (!request.request_id.is_empty())
            .then(|| (seat, RequestKey::for_act(&request.request_id))),
        expected_version: request.expected_version,
    };
    commit_action(store, &api.bots, record, &request, false).await
}

/// Applies `request` to `record`'s game and commits it, retrying lost races as the module
/// documentation says; `fresh` tells whether `record` was just loaded (not a copy kept from
/// before). With `expected_version`, a game at another version is `STALE_VERSION`.
pub(crate) async fn commit_action(
    store: &dyn SessionStore,
    bots: &BotRunner,
    mut record: Arc<GameRecord>,
    request: &Attempt<'_>,
    mut fresh: bool,
) -> Result<pb::ActResponse, ApiError> {
    let seat = request.seat;
    let action = request.action;
    for _ in 0..COMMIT_ATTEMPTS {
        let current = record.version();
        if let Some(expected) = request.expected_version
            && expected != current
        {
            if !fresh {
                record = reload(store, &record.id).await?;
                fresh = true;
                continue;
            }
            if let Some(answer) = remembered(store, &record, request).await? {
                return Ok(answer);
            }
            monitoring::version_conflict();
            return Err(ApiError::StaleVersion { expected, current });
        }
        let mut game = record.game.clone_box();
        if let Err(error) = tracing::debug_span!("engine.apply").in_scope(|| game.act(seat, action))
        {
            if !fresh {
                record = reload(store, &record.id).await?;
                fresh = true;
                continue;
            }
            // A retry of a request that was applied: the action may not fit the state any more.
            if let Some(answer) = remembered(store, &record, request).await? {
                return Ok(answer);
            }
            return Err(error);
        }
        let observation = with_game_id(game.view(Viewer::Seat(seat)), &record.id);
        let finished = game
            .is_over()
            .then(|| (game.kind().id(), end_reason(&observation)));
        let bot_turn = bots::bot_to_act(game.as_ref());
        let commit = Commit {
            id: record.id.clone(),
            expected_version: current,
            record: successor(&record, game),
            request: request.key,
        };
        match store.commit(commit).await? {
            CommitOutcome::Committed { version } => {
                telemetry::record_version(version);
                if bot_turn {
                    bots.schedule(&record.id, version);
                }
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
                if let Some(expected) = request.expected_version
                    && fresh
                {
                    return Err(ApiError::StaleVersion {
                        expected,
                        current: current_version,
                    });
                }
                // Another seat acted first (or the copy was stale): try again on the current
                // state, where this action may no longer be legal (then the client hears why).
                // A store whose conflict answer carried the current game has it ready.
                let loaded = store.load_for_update(&record.id).await?;
                record = existing(store, &record.id, loaded).await?;
                fresh = true;
            }
            CommitOutcome::Duplicate { version } => {
                // The request was committed before (a retry, or a concurrent copy of it).
                monitoring::idempotent_replay();
                return answer_at(store, record, request, version).await;
            }
            CommitOutcome::NotFound => {
                return Err(missing::missing_game(store, &record.id).await);
            }
        }
    }
    tracing::warn!(
        attempts = COMMIT_ATTEMPTS,
        "act lost every commit race; asking the client to retry"
    );
    Err(ApiError::Overloaded)
}

/// What one `Act` call (or one bot move) asks for.
pub(crate) struct Attempt<'a> {
    /// The acting seat.
    pub(crate) seat: Seat,
    /// The action.
    pub(crate) action: &'a pb::Action,
    /// The seat's request key, for an idempotent call.
    pub(crate) key: Option<SeatRequest>,
    /// The version the action was chosen at, when it must apply there only.
    pub(crate) expected_version: Option<u64>,
}

/// The first answer to `request` when the store remembers it as committed.
async fn remembered(
    store: &dyn SessionStore,
    record: &Arc<GameRecord>,
    request: &Attempt<'_>,
) -> Result<Option<pb::ActResponse>, ApiError> {
    let Some(key) = request.key else {
        return Ok(None);
    };
    let Some(version) = store.find_request(&record.id, key).await? else {
        return Ok(None);
    };
    monitoring::idempotent_replay();
    answer_at(store, record.clone(), request, version)
        .await
        .map(Some)
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

/// The response a request that produced `version` got, from `record` or, when `record` is
/// older than that version (the request committed after it was loaded), a reloaded one. When
/// the action that made `version` is not this call's, the request id was reused for a
/// different action.
async fn answer_at(
    store: &dyn SessionStore,
    mut record: Arc<GameRecord>,
    request: &Attempt<'_>,
    version: u64,
) -> Result<pb::ActResponse, ApiError> {
    let seat = request.seat;
    for _ in 0..RELOAD_ATTEMPTS {
        if record.version() >= version {
            if !record.game.made_by(version, seat, request.action)? {
                return Err(ApiError::RequestIdReused);
            }
            let view = record.game.view_at(Viewer::Seat(seat), version)?;
            return Ok(pb::ActResponse {
                version,
                observation: Some(with_game_id(view, &record.id)),
            });
        }
        record = reload(store, &record.id).await?;
    }
    // The store remembers a version its record never reached: ask the client to retry.
    Err(ApiError::Overloaded)
}

async fn reload(store: &dyn SessionStore, id: &str) -> Result<Arc<GameRecord>, ApiError> {
    existing(store, id, store.load(id).await?).await
}
