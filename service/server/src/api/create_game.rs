//! `CreateGame`: deal a new game and hand out one secret token per seat the caller plays.
//!
//! Bot seats (`seat_options`) get no token: their token hashes are those of random tokens that
//! are never shown, so no caller can act for them. A game with a bot to act at version 0 has
//! its first bot turn scheduled at once (`crate::bots`).
//!
//! A game with `clock` starts its clocks at the store's time and is filed in the due index under
//! its first deadline before it is answered (`crate::clocks`).
//!
//! With a non-empty `request_id`, the response is remembered (sealed, see `seal.rs`) for
//! [`CREATE_WINDOW`], filed under the caller and the id; a retry of the same request within it
//! returns the identical response and creates nothing, and the same id with a different request
//! is `REQUEST_ID_REUSED`.

use deckmate_engine::Seat;
use deckmate_engine::bots::BotLevel;
use deckmate_proto::v1 as pb;

use super::{GameApi, check_request_id, seal};
use crate::auth::{self, SeatToken};
use crate::bots::{self, BotSettings, levels};
use crate::catalog;
use crate::clocks::{self, ClockSpec};
use crate::error::ApiError;
use crate::store::{
    CREATE_WINDOW, CreateError, CreateOutcome, GameRecord, PutCreateOutcome, SessionStore,
    unix_millis,
};
use crate::{monitoring, telemetry};

/// Fresh ids to try when a new id is taken (128 random bits: never, in practice).
const ID_ATTEMPTS: usize = 4;

/// Serves one CreateGame for the caller `scope` names (its identity as
/// [`crate::protection::caller::Caller`] displays it); `keyed` tells whether it presented an
/// API key.
pub(super) async fn handle(
    api: &GameApi,
    scope: String,
    keyed: bool,
    request: pb::CreateGameRequest,
) -> Result<pb::CreateGameResponse, ApiError> {
    check_request_id(&request.request_id)?;
    let config = request
        .config
        .as_ref()
        .ok_or_else(|| ApiError::invalid_field("config", "is required"))?;
    let spectators_allowed = spectators_allowed(request.spectator_policy)?;
    let clock = request
        .clock
        .as_ref()
        .map(ClockSpec::from_proto)
        .transpose()?;
    if clock.is_some() && !api.settings.records_hold_clocks {
        return Err(ApiError::OptionUnavailable(
            "turn clocks are unavailable while this server writes a record format that older \
             replicas read (--write-record-format below 4): those replicas could not run them"
                .to_string(),
        ));
    }

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
    let mut game = catalog::new_game(config, request.seats, seed)?;
    let bot_seats = bot_seats(&request.seat_options, game.seats())?;
    let admission = if bot_seats.is_empty() {
        None
    } else {
        check_bots_allowed(api.bots.settings(), keyed, &bot_seats, game.seats())?;
        Some(api.bots.hosted().admit(api.store.as_ref()).await?)
    };
    game.set_bot_seats(bot_seats);
    let now_ms = if clock.is_some() || clocks::files_due(game.as_ref()) {
        Some(api.store.now_ms().await?)
    } else {
        None
    };
    if let (Some(spec), Some(now_ms)) = (clock, now_ms) {
        clocks::start_clock(game.as_mut(), spec, now_ms);
    }
    let due = now_ms.and_then(|now_ms| {
        clocks::due_at(game.as_ref(), now_ms, api.bots.settings().turn_backstop)
    });
    let bot_turn = bots::bot_to_act(game.as_ref());
    telemetry::record_kind(game.kind());
    // A bot seat's token is made like any other and then forgotten: nobody can present it.
    let tokens = (0..game.seats())
        .map(|_| SeatToken::generate())
        .collect::<Result<Vec<_>, _>>()?;
    let is_bot = {
        let bots = game.bot_seats();
        move |seat: u32| bots.iter().any(|(bot, _)| u32::from(bot.0) == seat)
    };
    let seat_tokens = tokens
        .iter()
        .zip(0u32..)
        .filter(|(_, seat)| !is_bot(*seat))
        .map(|(token, seat)| pb::SeatToken {
            seat,
            token: token.expose().to_string(),
        })
        .collect();
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
    let game_id = store_with_fresh_id(api.store.as_ref(), record).await?;
    if let Some(due) = due
        && let Err(error) = api.store.file_due(&game_id, Some(due)).await
    {
        // Unfiled, its clock would only run out when someone acts: leave no such game behind.
        discard(api.store.as_ref(), &game_id).await;
        return Err(error.into());
    }
    let response = pb::CreateGameResponse {
        game_id,
        seat_tokens,
        version,
        seed_commitment: seed_commitment.to_vec(),
        variant,
    };
    telemetry::record_game_id(&response.game_id);
    telemetry::record_version(version);

    // Runs once the game is known to stay: counts it as hosted and starts its bots.
    let started = |game_id: &str| {
        if let Some(admission) = admission {
            admission.hosted(game_id);
        }
        if bot_turn {
            api.bots.schedule(game_id, version);
        }
    };
    let (Some(id), Some(key)) = (create_id, create_key) else {
        monitoring::game_created(kind);
        started(&response.game_id);
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
            started(&response.game_id);
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
        Err(_) => Err(ApiError::invalid_field(
            "spectator_policy",
            format!("unknown value {policy}"),
        )),
    }
}

/// The bot seats `options` ask for in a game of `seats` seats, in seat order: each names a seat
/// of the game, once, and a level.
fn bot_seats(options: &[pb::SeatOptions], seats: usize) -> Result<Vec<(Seat, BotLevel)>, ApiError> {
    let mut bots: Vec<(Seat, BotLevel)> = Vec::with_capacity(options.len());
    for (index, option) in options.iter().enumerate() {
        let field = |name: &str| format!("seat_options[{index}].{name}");
        let seat = usize::try_from(option.seat)
            .ok()
            .filter(|&seat| seat < seats)
            .and_then(|seat| u8::try_from(seat).ok())
            .map(Seat)
            .ok_or_else(|| {
                ApiError::invalid_field(
                    field("seat"),
                    format!("the game has {seats} seats, numbered from 0"),
                )
            })?;
        if bots.iter().any(|(bot, _)| *bot == seat) {
            return Err(ApiError::invalid_field(
                field("seat"),
                format!("seat {} is listed twice", option.seat),
            ));
        }
        let level = levels::from_proto(option.bot).ok_or_else(|| {
            ApiError::invalid_field(
                field("bot"),
                "choose a bot level (random, greedy or search)",
            )
        })?;
        bots.push((seat, level));
    }
    bots.sort_by_key(|&(seat, _)| seat);
    Ok(bots)
}

/// Whether this server may create a game with `bots` for this caller: the store must write a
/// record format that holds bot seats, and a game of bots only needs `--allow-bot-only-games`
/// or an API key.
fn check_bots_allowed(
    settings: &BotSettings,
    keyed: bool,
    bots: &[(Seat, BotLevel)],
    seats: usize,
) -> Result<(), ApiError> {
    if !settings.records_hold_bots {
        return Err(ApiError::OptionUnavailable(
            "bot seats are unavailable while this server writes a record format that older \
             replicas read (--write-record-format below 3): those replicas could not run the bots"
                .to_string(),
        ));
    }
    if bots.len() == seats && !settings.allow_bot_only_games && !keyed {
        return Err(ApiError::OptionRefused(
            "games whose every seat is a bot are disabled on this server \
             (--allow-bot-only-games, or call with an API key)"
                .to_string(),
        ));
    }
    Ok(())
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

    fn option(seat: u32, bot: pb::BotLevel) -> pb::SeatOptions {
        pb::SeatOptions {
            seat,
            bot: bot.into(),
        }
    }

    #[test]
    fn bot_seats_are_checked_field_by_field() {
        let bots = bot_seats(
            &[
                option(1, pb::BotLevel::Search),
                option(0, pb::BotLevel::Random),
            ],
            3,
        )
        .unwrap();
        assert_eq!(
            bots,
            vec![(Seat(0), BotLevel::Random), (Seat(1), BotLevel::Search)]
        );
        let field = |options: &[pb::SeatOptions]| match bot_seats(options, 2) {
            Err(ApiError::InvalidField { field, .. }) => field,
            other => panic!("not a field error: {other:?}"),
        };
        let greedy = pb::BotLevel::Greedy;
        assert_eq!(
            field(&[option(0, greedy), option(2, greedy)]),
            "seat_options[1].seat"
        );
        assert_eq!(
            field(&[option(1, greedy), option(1, greedy)]),
            "seat_options[1].seat"
        );
        assert_eq!(
            field(&[option(0, pb::BotLevel::Unspecified)]),
            "seat_options[0].bot"
        );
        let unknown = pb::SeatOptions { seat: 0, bot: 9 };
        assert_eq!(field(&[unknown]), "seat_options[0].bot");
    }

    #[test]
    fn bot_only_games_and_old_formats_are_refused() {
        let settings = BotSettings {
            allow_bot_only_games: false,
            ..BotSettings::default()
        };
        let one = [(Seat(0), BotLevel::Random)];
        let both = [(Seat(0), BotLevel::Random), (Seat(1), BotLevel::Greedy)];
        assert_eq!(check_bots_allowed(&settings, false, &one, 2), Ok(()));
        let refused = check_bots_allowed(&settings, false, &both, 2).unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);
        assert!(refused.to_string().contains("--allow-bot-only-games"));
        assert_eq!(check_bots_allowed(&settings, true, &both, 2), Ok(()));
        let allowed = BotSettings {
            allow_bot_only_games: true,
            ..settings
        };
        assert_eq!(check_bots_allowed(&allowed, false, &both, 2), Ok(()));
        let old = BotSettings {
            records_hold_bots: false,
            ..allowed
        };
        let unavailable = check_bots_allowed(&old, true, &one, 2).unwrap_err();
        assert_eq!(unavailable.code(), tonic::Code::FailedPrecondition);
        assert!(unavailable.to_string().contains("--write-record-format"));
    }

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
        let unknown = spectators_allowed(99).unwrap_err();
        assert_eq!(unknown.reason(), "INVALID_REQUEST");
        assert_eq!(
            unknown,
            ApiError::invalid_field("spectator_policy", "unknown value 99")
        );
        assert_eq!(unknown.to_string(), "spectator_policy: unknown value 99");
    }
}
