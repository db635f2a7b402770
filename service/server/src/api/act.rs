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
//!
//! In a game with turn clocks the clock comes first: when a seat's time has run out by the
//! store's clock, its timeout is committed before the action is looked at, so a late action
//! never beats the clock (the seat that acted late then hears `GAME_OVER`, or, where play goes
//! on, is answered on the game after the timeout). Every commit of such a game charges the clocks
//! and files the game's next deadline in the due index (`crate::clocks`).

use std::sync::Arc;

use deckmate_engine::{Seat, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::{Encoded, encode_with};
use tonic::Request;

use super::{GameApi, check_request_id, existing, missing, require_game_id, with_game_id};
use crate::auth;
use crate::bots::{self, BotRunner};
use crate::clocks;
use crate::error::ApiError;
use crate::live::LiveGame;
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

/// The field numbers of `ActResponse` (proto/deckmate/v1/game_service.proto).
const VERSION_FIELD: u32 = 1;
const OBSERVATION_FIELD: u32 = 2;

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::ActRequest>,
) -> Result<Encoded, ApiError> {
    let presented = auth::presented_token(request.metadata())?;
    let request = request.into_inner();
    check_request_id(&request.request_id)?;
    let action = request
        .action
        .as_ref()
        .ok_or_else(|| ApiError::invalid_field("action", "is required"))?;
    require_game_id(&request.game_id)?;
    let store = api.store.as_ref();
    let loaded = store.load_for_update(&request.game_id).await?;
    let record = existing(store, &request.game_id, loaded).await?;
    let seat = auth::actor(&record.token_hashes, presented.as_ref());
    telemetry::record_game(record.game.kind(), seat.as_ref().ok().copied(), None);
    let seat = seat?;
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
/// before). With `expected_version`, a game at another version is `STALE_VERSION`. The answer is
/// the encoded `ActResponse` of the accepted action (or of the retried one).
pub(crate) async fn commit_action(
    store: &dyn SessionStore,
    bots: &BotRunner,
    mut record: Arc<GameRecord>,
    request: &Attempt<'_>,
    mut fresh: bool,
) -> Result<Encoded, ApiError> {
    let seat = request.seat;
    let action = request.action;
    for _ in 0..COMMIT_ATTEMPTS {
        let current = record.version();
        let now_ms = clock_time(store, record.game.as_ref()).await?;
        if let Some(now_ms) = now_ms
            && settle_clock(store, bots, &record, now_ms).await?
        {
            record = reload(store, &record.id).await?;
            fresh = true;
            if record.game.is_over() {
                if let Some(answer) = remembered(store, &record, request).await? {
                    return Ok(answer);
                }
                return Err(ApiError::GameOver);
            }
            continue;
        }
        let applied = if let Some(expected) = request.expected_version
            && expected != current
        {
            Err(ApiError::StaleVersion { expected, current })
        } else {
            tracing::debug_span!("engine.apply").in_scope(|| record.game.acted(seat, action))
        };
        let mut game = match applied {
            Ok(game) => game,
            Err(error) => match refused(store, &record, request, fresh, error).await? {
                Refused::Retry(current) => {
                    record = current;
                    fresh = true;
                    continue;
                }
                Refused::Answer(answer) => return Ok(answer),
            },
        };
        if let Some(now_ms) = now_ms {
            clocks::charge(game.as_mut(), now_ms, Some(seat), None);
        }
        // The answer is written before the game moves into the commit. A commit stores the
        // record at the record's own version (`CommitOutcome::Committed`), so that is the
        // version the answer names.
        let answered = game.version();
        let encoded = encode_with(|writer| {
            writer.nested(OBSERVATION_FIELD, |writer| {
                game.write_view(Viewer::Seat(seat), &record.id, writer);
            });
            if answered != 0 {
                writer.varint_field(VERSION_FIELD, answered);
            }
        });
        let finished = game
            .is_over()
            .then(|| (game.kind().id(), end_reason(&game.view(Viewer::Spectator))));
        match commit_game(store, bots, &record, game, request.key, now_ms, finished).await? {
            CommitOutcome::Committed { version } => {
                debug_assert_eq!(version, answered, "a commit stores the record's version");
                return Ok(Encoded(encoded));
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

/// Commits `game` over `record` (at `record`'s version, with `request`'s key) and, once it is
/// committed, does what follows every commit: schedules a bot turn, counts a finished game
/// (`finished`: its variant and end reason) and gives back its place among the replica's bot
/// games, and files the game's next due time when it has clocks or bot seats (`now_ms`: the
/// store's clock, read for such games only).
async fn commit_game(
    store: &dyn SessionStore,
    bots: &BotRunner,
    record: &GameRecord,
    game: Box<dyn LiveGame>,
    request: Option<SeatRequest>,
    now_ms: Option<u64>,
    finished: Option<(&'static str, pb::EndReason)>,
) -> Result<CommitOutcome, ApiError> {
    let bot_turn = bots::bot_to_act(game.as_ref());
    let due = now_ms
        .filter(|_| clocks::files_due(game.as_ref()))
        .map(|now_ms| clocks::due_at(game.as_ref(), now_ms, bots.settings().turn_backstop));
    let commit = Commit {
        id: record.id.clone(),
        expected_version: record.version(),
        record: successor(record, game),
        request,
    };
    let outcome = store.commit(commit).await?;
    if let CommitOutcome::Committed { version } = outcome {
        telemetry::record_version(version);
        if bot_turn {
            bots.schedule(&record.id, version);
        }
        if let Some((variant, reason)) = finished {
            monitoring::game_finished(variant, reason);
            // Whoever finished it (a player, a bot or a clock), it no longer needs a bot here.
            bots.hosted().release(&record.id);
        }
        if let Some(due) = due
            && let Err(error) = store.file_due(&record.id, due).await
        {
            // Committed all the same: the entry the game had fires, finds the new deadline and
            // files it (docs/CLOCKS.md, "Failures").
            tracing::warn!(%error, "a commit could not file the game's next deadline");
        }
    }
    Ok(outcome)
}

/// The store's clock, read only for a game that has clocks or bot seats.
async fn clock_time(
    store: &dyn SessionStore,
    game: &dyn LiveGame,
) -> Result<Option<u64>, ApiError> {
    if clocks::files_due(game) {
        Ok(Some(store.now_ms().await?))
    } else {
        Ok(None)
    }
}

/// Commits the timeout of the seat of `record`'s game whose time ran out by `now_ms` (or, under
/// `BOT_MOVE`, the move made for it). True when there was one to commit, whether this commit or
/// a racing one won (the caller reloads); false when no time ran out.
pub(crate) async fn settle_clock(
    store: &dyn SessionStore,
    bots: &BotRunner,
    record: &Arc<GameRecord>,
    now_ms: u64,
) -> Result<bool, ApiError> {
    let Some(expired) = clocks::expire(record.game.as_ref(), now_ms)? else {
        return Ok(false);
    };
    let variant = record.game.kind().id();
    let finished = expired
        .game
        .is_over()
        .then(|| (variant, end_reason(&expired.game.view(Viewer::Spectator))));
    let outcome = commit_game(
        store,
        bots,
        record,
        expired.game,
        None,
        Some(now_ms),
        finished,
    )
    .await?;
    match outcome {
        CommitOutcome::Committed { version } => {
            monitoring::clock_timeout(variant, expired.policy.label());
            tracing::info!(
                game_id = %record.id,
                seat = expired.seat.0,
                version,
                policy = expired.policy.label(),
                "a turn clock ran out"
            );
            Ok(true)
        }
        CommitOutcome::NotFound => Err(missing::missing_game(store, &record.id).await),
        CommitOutcome::Conflict { .. } | CommitOutcome::Duplicate { .. } => Ok(true),
    }
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
) -> Result<Option<Encoded>, ApiError> {
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

/// What an action refused on a record becomes (see [`refused`]).
enum Refused {
    /// Try again on the stored game, read afresh.
    Retry(Arc<GameRecord>),
    /// The answer of the same request, applied before.
    Answer(Encoded),
}

/// Handles `error`, the refusal of the action on `record` (a stale `expected_version`, or an
/// action the game refused). A copy not read afresh may be stale, so the action is tried again on
/// the stored game; on a fresh one, a retry of a request that was applied gets that request's
/// answer (the action may not fit the state any more), and anything else is `error`.
async fn refused(
    store: &dyn SessionStore,
    record: &Arc<GameRecord>,
    request: &Attempt<'_>,
    fresh: bool,
    error: ApiError,
) -> Result<Refused, ApiError> {
    if !fresh {
        return Ok(Refused::Retry(reload(store, &record.id).await?));
    }
    if let Some(answer) = remembered(store, record, request).await? {
        return Ok(Refused::Answer(answer));
    }
    if matches!(error, ApiError::StaleVersion { .. }) {
        monitoring::version_conflict();
    }
    Err(error)
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
) -> Result<Encoded, ApiError> {
    let seat = request.seat;
    for _ in 0..RELOAD_ATTEMPTS {
        if record.version() >= version {
            if !record.game.made_by(version, seat, request.action)? {
                return Err(ApiError::RequestIdReused);
            }
            let view = record.game.view_at(Viewer::Seat(seat), version)?;
            return Ok(Encoded::of(&pb::ActResponse {
                version,
                observation: Some(with_game_id(view, &record.id)),
            }));
        }
        record = reload(store, &record.id).await?;
    }
    // The store remembers a version its record never reached: ask the client to retry.
    Err(ApiError::Overloaded)
}

/// The game read again after its copy was found out of date or in doubt.
async fn reload(store: &dyn SessionStore, id: &str) -> Result<Arc<GameRecord>, ApiError> {
    existing(store, id, store.reload(id).await?).await
}
