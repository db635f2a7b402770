//! Handler tests, in process over the memory store and real games.

use std::sync::Arc;
use std::time::Duration;

use deckmate_engine::Seed;
use deckmate_proto::v1 as pb;
use futures::StreamExt;
use pb::game_service_server::GameService;
use sha2::{Digest, Sha256};
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

use super::{ApiSettings, GameApi};
use crate::shutdown::Shutdown;
use crate::store::MemoryStore;

struct Fixture {
    api: GameApi,
    store: MemoryStore,
    shutdown: Shutdown,
}

fn fixture_with(allow_client_seed: bool, max_watchers: usize) -> Fixture {
    let store = MemoryStore::new(Duration::from_secs(3600), 100);
    let shutdown = Shutdown::new();
    let settings = ApiSettings {
        allow_client_seed,
        max_watchers,
        max_message_bytes: 1024,
        store_kind: pb::StoreKind::Memory,
        records_hold_clocks: true,
    };
    let api = GameApi::new(Arc::new(store.clone()), settings, shutdown.clone());
    Fixture {
        api,
        store,
        shutdown,
    }
}

fn fixture() -> Fixture {
    fixture_with(true, 10)
}

fn pigeon_config() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(Default::default())),
    }
}

fn create_request() -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        config: Some(pigeon_config()),
        seed: Some(11),
        ..Default::default()
    }
}

/// `message` with `token` as bearer authorization, when given.
pub(crate) fn with_token<T>(message: T, token: Option<&str>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(token) = token {
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    request
}

/// The reason of `status`'s `ErrorInfo` (empty without one).
pub(crate) fn reason(status: &Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

impl Fixture {
    async fn create(&self, request: pb::CreateGameRequest) -> pb::CreateGameResponse {
        self.api
            .create_game(Request::new(request))
            .await
            .unwrap()
            .into_inner()
    }

    async fn observe(
        &self,
        game_id: &str,
        token: Option<&str>,
    ) -> Result<pb::ObserveResponse, Status> {
        let request = pb::ObserveRequest {
            game_id: game_id.to_string(),
        };
        Ok(self
            .api
            .observe(with_token(request, token))
            .await?
            .into_inner())
    }

    async fn act(
        &self,
        game_id: &str,
        token: Option<&str>,
        action: pb::Action,
        expected_version: Option<u64>,
        request_id: &str,
    ) -> Result<pb::ActResponse, Status> {
        let request = pb::ActRequest {
            game_id: game_id.to_string(),
            action: Some(action),
            expected_version,
            request_id: request_id.to_string(),
        };
        Ok(self.api.act(with_token(request, token)).await?.into_inner())
    }

    /// The first legal game action of the seat holding `token`.
    async fn first_legal(&self, game_id: &str, token: &str) -> pb::Action {
        let view = self.observe(game_id, Some(token)).await.unwrap();
        view.legal_actions
            .first()
            .cloned()
            .expect("the seat has a legal action")
    }

    /// Plays one legal action of whichever seat may act, returning the new version.
    async fn play_one(&self, game: &pb::CreateGameResponse) -> u64 {
        for seat in &game.seat_tokens {
            let view = self
                .observe(&game.game_id, Some(&seat.token))
                .await
                .unwrap();
            if let Some(action) = view.legal_actions.first() {
                let response = self
                    .act(&game.game_id, Some(&seat.token), action.clone(), None, "")
                    .await
                    .unwrap();
                return response.version;
            }
        }
        panic!("no seat may act");
    }
}

fn resign() -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::Meta(pb::MetaAction {
            kind: pb::MetaActionKind::Resign as i32,
        })),
    }
}

#[tokio::test]
async fn create_game_hands_out_tokens_and_a_seed_commitment() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    assert!(crate::auth::is_game_id(&game.game_id));
    assert_eq!(game.variant, "pigeon_chess");
    assert_eq!(game.version, 0);
    assert_eq!(game.seat_tokens.len(), 2);
    assert_eq!(
        game.seat_tokens.iter().map(|t| t.seat).collect::<Vec<_>>(),
        vec![0, 1]
    );
    assert_ne!(game.seat_tokens[0].token, game.seat_tokens[1].token);
    let expected: [u8; 32] = Sha256::digest(Seed::from_u64(11).0).into();
    assert_eq!(game.seed_commitment, expected.to_vec());
    assert_eq!(fx.store.live_games(), 1);
}

#[tokio::test]
async fn create_game_validates_its_request() {
    let fx = fixture_with(false, 10);
    let refused = fx
        .api
        .create_game(Request::new(create_request()))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(
        refused.message(),
        "client seeds are disabled on this server (--allow-client-seed)"
    );
    let no_config = pb::CreateGameRequest::default();
    let bad_policy = pb::CreateGameRequest {
        seed: None,
        spectator_policy: 9,
        ..create_request()
    };
    let bad_seats = pb::CreateGameRequest {
        seed: None,
        seats: 7,
        ..create_request()
    };
    for invalid in [no_config, bad_policy, bad_seats] {
        let status = fx
            .api
            .create_game(Request::new(invalid.clone()))
            .await
            .unwrap_err();
        assert_eq!(reason(&status), "INVALID_REQUEST", "{invalid:?}");
    }
    assert_eq!(fx.store.live_games(), 0);
    // Without a client seed, the server draws one: two games differ in their commitment.
    let request = pb::CreateGameRequest {
        seed: None,
        ..create_request()
    };
    let a = fx.create(request.clone()).await;
    let b = fx.create(request).await;
    assert_ne!(a.seed_commitment, b.seed_commitment);
}

/// The one field violation of `status` and its message, which must still read
/// `field: description`.
fn field_violation(status: &Status) -> (String, String) {
    assert_eq!(
        (status.code(), reason(status).as_str()),
        (Code::InvalidArgument, "INVALID_REQUEST"),
        "{status:?}"
    );
    let violations = status
        .get_details_bad_request()
        .expect("a BadRequest")
        .field_violations;
    assert_eq!(violations.len(), 1, "{violations:?}");
    let violation = &violations[0];
    assert_eq!(
        status.message(),
        format!("{}: {}", violation.field, violation.description)
    );
    (violation.field.clone(), status.message().to_string())
}

#[tokio::test]
async fn create_game_names_the_field_at_fault() {
    use prost::Message;

    let fx = fixture();
    // A game this server does not know arrives as an unknown field, which decoding drops.
    let unknown_game = pb::GameConfig::decode(&[0xfa, 0x06, 0x00][..]).unwrap();
    assert_eq!(unknown_game.game, None);
    let cases = [
        (
            pb::CreateGameRequest {
                config: None,
                ..create_request()
            },
            "config",
            "config: is required",
        ),
        (
            pb::CreateGameRequest {
                config: Some(pb::GameConfig { game: None }),
                ..create_request()
            },
            "config",
            "config: no game is set",
        ),
        (
            pb::CreateGameRequest {
                config: Some(unknown_game),
                ..create_request()
            },
            "config",
            "config: no game is set",
        ),
        (
            pb::CreateGameRequest {
                spectator_policy: 99,
                ..create_request()
            },
            "spectator_policy",
            "spectator_policy: unknown value 99",
        ),
    ];
    for (request, field, message) in cases {
        let status = fx
            .api
            .create_game(Request::new(request.clone()))
            .await
            .unwrap_err();
        assert_eq!(
            field_violation(&status),
            (field.to_string(), message.to_string()),
            "{request:?}"
        );
    }
    assert_eq!(fx.store.live_games(), 0);
}

#[tokio::test]
async fn act_names_the_field_of_a_malformed_action() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    let token = &game.seat_tokens[0].token;
    let meta = |kind: i32| pb::Action {
        kind: Some(pb::action::Kind::Meta(pb::MetaAction { kind })),
    };
    let chuno = pb::Action {
        kind: Some(pb::action::Kind::Chuno(pb::ChunoAction {
            kind: Some(pb::chuno_action::Kind::Draw(pb::ChunoDraw {})),
            ..Default::default()
        })),
    };
    let cases = [
        (
            meta(77),
            "action.meta.kind",
            "action.meta.kind: unknown meta action 77",
        ),
        (meta(0), "action.meta.kind", "action.meta.kind: must be set"),
        (
            pb::Action { kind: None },
            "action",
            "action: no action is set",
        ),
        (chuno, "action", "action: not a pigeon_chess action"),
    ];
    for (action, field, message) in cases {
        let status = fx
            .act(&game.game_id, Some(token), action.clone(), None, "")
            .await
            .unwrap_err();
        assert_eq!(
            field_violation(&status),
            (field.to_string(), message.to_string()),
            "{action:?}"
        );
    }
    let no_action = pb::ActRequest {
        game_id: game.game_id.clone(),
        ..Default::default()
    };
    let status = fx
        .api
        .act(with_token(no_action, Some(token)))
        .await
        .unwrap_err();
    assert_eq!(
        field_violation(&status),
        ("action".to_string(), "action: is required".to_string())
    );
    assert_eq!(fx.observe(&game.game_id, None).await.unwrap().version, 0);
}

#[tokio::test]
async fn create_game_retries_return_the_first_response() {
    let fx = fixture();
    let request = pb::CreateGameRequest {
        request_id: "create-1".to_string(),
        seed: None,
        ..create_request()
    };
    let first = fx.create(request.clone()).await;
    let retry = fx.create(request.clone()).await;
    assert_eq!(first, retry);
    assert_eq!(fx.store.live_games(), 1);
    let other = fx
        .create(pb::CreateGameRequest {
            request_id: "create-2".to_string(),
            ..request
        })
        .await;
    assert_ne!(other.game_id, first.game_id);
    assert_eq!(fx.store.live_games(), 2);
}

#[tokio::test]
async fn act_checks_the_token() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    let token = &game.seat_tokens[0].token;
    let action = fx.first_legal(&game.game_id, token).await;

    let missing = fx
        .act(&game.game_id, None, action.clone(), None, "")
        .await
        .unwrap_err();
    assert_eq!(
        (missing.code(), reason(&missing).as_str()),
        (Code::Unauthenticated, "BAD_TOKEN")
    );

    let stranger = crate::auth::SeatToken::generate().unwrap();
    let wrong = fx
        .act(
            &game.game_id,
            Some(stranger.expose()),
            action.clone(),
            None,
            "",
        )
        .await
        .unwrap_err();
    assert_eq!(
        (wrong.code(), reason(&wrong).as_str()),
        (Code::PermissionDenied, "BAD_TOKEN")
    );

    let malformed = fx
        .act(&game.game_id, Some("not-a-token"), action.clone(), None, "")
        .await
        .unwrap_err();
    assert_eq!(malformed.code(), Code::Unauthenticated);

    let unknown = fx
        .act(&"0".repeat(32), Some(token), action.clone(), None, "")
        .await
        .unwrap_err();
    assert_eq!(
        (unknown.code(), reason(&unknown).as_str()),
        (Code::NotFound, "GAME_NOT_FOUND")
    );
    let empty = fx.act("", Some(token), action, None, "").await.unwrap_err();
    assert_eq!(reason(&empty), "INVALID_REQUEST");
    assert_eq!(fx.observe(&game.game_id, None).await.unwrap().version, 0);
}

#[tokio::test]
async fn act_applies_once_per_request_id_and_respects_expected_version() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    let token = &game.seat_tokens[0].token;
    let action = fx.first_legal(&game.game_id, token).await;

    let stale = fx
        .act(&game.game_id, Some(token), action.clone(), Some(5), "")
        .await
        .unwrap_err();
    assert_eq!(
        (stale.code(), reason(&stale).as_str()),
        (Code::Aborted, "STALE_VERSION")
    );
    let info = stale.get_details_error_info().unwrap();
    assert_eq!(
        info.metadata.get("current_version").map(String::as_str),
        Some("0")
    );

    let send_move_1 = || {
        fx.act(
            &game.game_id,
            Some(token),
            action.clone(),
            Some(0),
            "move-1",
        )
    };
    let first = send_move_1().await.unwrap();
    assert_eq!(first.version, 1);
    let observation = first.observation.as_ref().unwrap();
    assert_eq!(observation.game_id, game.game_id);
    assert_eq!(observation.seat, Some(0));

    // The retry (even with its now stale expected version) gets the same answer.
    let retry = send_move_1().await.unwrap();
    assert_eq!(retry, first);
    assert_eq!(fx.observe(&game.game_id, None).await.unwrap().version, 1);

    // The other seat's request ids are its own (setup choices are simultaneous,
    // docs/rules/pigeon_chess.md §2).
    let other = &game.seat_tokens[1].token;
    let action = fx.first_legal(&game.game_id, other).await;
    let response = fx
        .act(&game.game_id, Some(other), action, None, "move-1")
        .await
        .unwrap();
    assert_eq!(response.version, 2);
    assert_eq!(response.observation.unwrap().seat, Some(1));
}

#[tokio::test]
async fn act_reports_rule_errors() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    let token = &game.seat_tokens[0].token;
    fx.act(&game.game_id, Some(token), resign(), None, "")
        .await
        .unwrap();
    let action = resign();
    let over = fx
        .act(&game.game_id, Some(token), action, None, "")
        .await
        .unwrap_err();
    assert_eq!(over.code(), Code::FailedPrecondition);
}

#[tokio::test]
async fn observe_as_seat_or_spectator() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    let seat_view = fx
        .observe(&game.game_id, Some(&game.seat_tokens[1].token))
        .await
        .unwrap();
    assert_eq!(seat_view.seat, Some(1));
    assert_eq!(seat_view.game_id, game.game_id);
    let spectator = fx.observe(&game.game_id, None).await.unwrap();
    assert_eq!(spectator.seat, None);
    assert!(spectator.legal_actions.is_empty());

    let private = fx
        .create(pb::CreateGameRequest {
            spectator_policy: pb::SpectatorPolicy::Denied as i32,
            ..create_request()
        })
        .await;
    let denied = fx.observe(&private.game_id, None).await.unwrap_err();
    assert_eq!(
        (denied.code(), reason(&denied).as_str()),
        (Code::Unauthenticated, "BAD_TOKEN")
    );
    assert!(
        fx.observe(&private.game_id, Some(&private.seat_tokens[0].token))
            .await
            .is_ok()
    );
    let missing = fx.observe(&"a".repeat(32), None).await.unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
}

async fn watch(
    fx: &Fixture,
    game_id: &str,
    from_version: u64,
) -> Result<super::WatchStream, Status> {
    let request = pb::WatchRequest {
        game_id: game_id.to_string(),
        from_version,
    };
    Ok(fx.api.watch(Request::new(request)).await?.into_inner())
}

#[tokio::test]
async fn watch_replays_then_follows_every_version_once() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    fx.play_one(&game).await;
    fx.play_one(&game).await;

    let mut stream = watch(&fx, &game.game_id, 0).await.unwrap();
    for expected in [1, 2] {
        let view = stream.next().await.unwrap().unwrap();
        assert_eq!(
            (view.version, view.game_id.as_str()),
            (expected, game.game_id.as_str())
        );
    }
    fx.play_one(&game).await;
    fx.play_one(&game).await;
    for expected in [3, 4] {
        assert_eq!(stream.next().await.unwrap().unwrap().version, expected);
    }
    assert_eq!(fx.api.open_watchers(), 1);

    // A finished game: the stream sends the last version and ends.
    fx.act(
        &game.game_id,
        Some(&game.seat_tokens[0].token),
        resign(),
        None,
        "",
    )
    .await
    .unwrap();
    let last = stream.next().await.unwrap().unwrap();
    assert_eq!(
        (last.version, last.status),
        (5, pb::GameStatus::Finished as i32)
    );
    assert!(stream.next().await.is_none());
    drop(stream);
    assert_eq!(fx.api.open_watchers(), 0);

    // Resuming a finished game from its last version ends at once.
    let mut resumed = watch(&fx, &game.game_id, 5).await.unwrap();
    assert!(resumed.next().await.is_none());
    let mut resumed = watch(&fx, &game.game_id, 3).await.unwrap();
    assert_eq!(resumed.next().await.unwrap().unwrap().version, 4);
}

#[tokio::test]
async fn watch_rejects_the_future_and_respects_the_limit() {
    let fx = fixture_with(true, 1);
    let game = fx.create(create_request()).await;
    let ahead = watch(&fx, &game.game_id, 1).await.err().unwrap();
    assert_eq!(
        (ahead.code(), reason(&ahead).as_str()),
        (Code::InvalidArgument, "INVALID_REQUEST")
    );
    let violations = ahead
        .get_details_bad_request()
        .expect("a BadRequest")
        .field_violations;
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].field, "from_version");
    let missing = watch(&fx, &"b".repeat(32), 0).await.err().unwrap();
    assert_eq!(missing.code(), Code::NotFound);

    let _open = watch(&fx, &game.game_id, 0).await.unwrap();
    let limited = watch(&fx, &game.game_id, 0).await.err().unwrap();
    assert_eq!(
        (limited.code(), reason(&limited).as_str()),
        (Code::ResourceExhausted, "LIMIT_REACHED")
    );
}

#[tokio::test]
async fn watch_ends_with_unavailable_on_shutdown() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    fx.play_one(&game).await;
    let mut stream = watch(&fx, &game.game_id, 0).await.unwrap();
    assert_eq!(stream.next().await.unwrap().unwrap().version, 1);
    fx.shutdown.trigger();
    let status = stream.next().await.unwrap().unwrap_err();
    assert_eq!(status.code(), Code::Unavailable);
    assert_eq!(
        tonic_types::StatusExt::get_details_error_info(&status)
            .expect("error info")
            .reason,
        "SHUTTING_DOWN"
    );
    assert!(tonic_types::StatusExt::get_details_retry_info(&status).is_some());
    assert!(stream.next().await.is_none());
    // New watchers are turned away the same way.
    let mut late = watch(&fx, &game.game_id, 0).await.unwrap();
    assert_eq!(
        late.next().await.unwrap().unwrap_err().code(),
        Code::Unavailable
    );
}

#[tokio::test]
async fn watch_ends_when_the_game_disappears() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    let mut stream = watch(&fx, &game.game_id, 0).await.unwrap();
    crate::store::SessionStore::remove(&fx.store, &game.game_id)
        .await
        .unwrap();
    let status = stream.next().await.unwrap().unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    assert!(stream.next().await.is_none());
}

#[tokio::test]
async fn history_reveals_the_seed_only_after_the_end() {
    let fx = fixture();
    let game = fx.create(create_request()).await;
    fx.play_one(&game).await;
    let request = || pb::GetHistoryRequest {
        game_id: game.game_id.clone(),
        ..Default::default()
    };
    let running = fx
        .api
        .get_history(Request::new(request()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(running.game_id, game.game_id);
    assert_eq!(running.variant, "pigeon_chess");
    assert_eq!((running.seats, running.version), (2, 1));
    assert_eq!(running.status, pb::GameStatus::InProgress as i32);
    assert!(running.seed.is_empty() && running.actions.is_empty());
    assert_eq!(running.seed_commitment, game.seed_commitment);
    assert!(running.config.is_some());

    fx.act(
        &game.game_id,
        Some(&game.seat_tokens[1].token),
        resign(),
        None,
        "",
    )
    .await
    .unwrap();
    let finished = fx
        .api
        .get_history(Request::new(request()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(finished.status, pb::GameStatus::Finished as i32);
    assert_eq!(finished.actions.len(), 2);
    let commitment: [u8; 32] = Sha256::digest(&finished.seed).into();
    assert_eq!(commitment.to_vec(), game.seed_commitment);
    assert_eq!(finished.seed, Seed::from_u64(11).0.to_vec());
}

#[tokio::test]
async fn list_variants_names_pigeon_chess() {
    let fx = fixture();
    let response = fx
        .api
        .list_variants(Request::new(pb::ListVariantsRequest {}))
        .await
        .unwrap()
        .into_inner();
    let pigeon = response
        .variants
        .iter()
        .find(|variant| variant.id == "pigeon_chess")
        .expect("pigeon_chess is listed");
    assert_eq!((pigeon.min_seats, pigeon.max_seats), (2, 2));
}

#[tokio::test]
async fn server_info_describes_the_release_features_and_limits() {
    for allow_client_seed in [false, true] {
        let fx = fixture_with(allow_client_seed, 10);
        let info = fx
            .api
            .get_server_info(Request::new(pb::GetServerInfoRequest {}))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(info.server_version, env!("CARGO_PKG_VERSION"));
        assert_eq!(info.api_revision, deckmate_proto::API_REVISION);
        let features = info.features.expect("features");
        assert_eq!(features.client_seeds, allow_client_seed);
        assert_eq!(features.store(), pb::StoreKind::Memory);
        assert!(!features.api_keys);
        assert!(
            features.bots && features.clocks,
            "the memory store holds both"
        );
        let limits = info.limits.expect("limits");
        assert_eq!(limits.max_message_bytes, 1024);
        assert_eq!(limits.max_request_id_bytes, 128);
        // The fixture's handlers have no per-caller limits.
        assert_eq!(limits.create_rate, None);
        assert_eq!(limits.max_games_per_client, u32::MAX);
        assert_eq!(limits.max_watchers_per_game, u32::MAX);
        assert_eq!(limits.max_watchers_per_client, u32::MAX);
    }
}

#[tokio::test]
async fn server_info_reports_the_per_caller_limits_in_force() {
    use crate::protection::rate::Rate;
    use crate::protection::{Protection, ProtectionSettings};

    let settings = ProtectionSettings {
        create_rate: Rate::parse("90/min").unwrap(),
        create_burst: 7,
        max_games_per_client: 12,
        max_watchers_per_game: 5,
        max_watchers_per_client: 40,
        ..ProtectionSettings::unlimited()
    };
    let api = fixture()
        .api
        .with_protection(Arc::new(Protection::new(settings, None)));
    let info = api
        .get_server_info(Request::new(pb::GetServerInfoRequest {}))
        .await
        .unwrap()
        .into_inner();
    let limits = info.limits.expect("limits");
    let rate = limits.create_rate.expect("a create rate");
    assert_eq!((rate.count, rate.burst), (90, 7));
    assert_eq!(
        rate.period,
        Some(prost_types::Duration {
            seconds: 60,
            nanos: 0
        })
    );
    assert_eq!(
        (
            limits.max_games_per_client,
            limits.max_watchers_per_game,
            limits.max_watchers_per_client
        ),
        (12, 5, 40)
    );
}

/// A bot turn left behind by a lost replica (here: one that shut down right after creating the
/// game) resumes when another replica serves an Observe of the game.
#[tokio::test]
async fn a_bot_turn_left_behind_resumes_on_the_next_observe() {
    let lost = fixture();
    lost.shutdown.trigger();
    let created = lost
        .create(pb::CreateGameRequest {
            seat_options: vec![pb::SeatOptions {
                seat: 1,
                bot: pb::BotLevel::Random.into(),
            }],
            ..create_request()
        })
        .await;
    assert_eq!(created.seat_tokens.len(), 1);
    // Nothing moves the bot while nobody asks: its turn died with the replica.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let other = GameApi::new(
        Arc::new(lost.store.clone()),
        ApiSettings::from_config(&crate::config::Config::default()),
        Shutdown::new(),
    );
    let observe = |api: &GameApi| {
        let request = Request::new(pb::ObserveRequest {
            game_id: created.game_id.clone(),
        });
        let api = api.clone();
        async move { api.observe(request).await.unwrap().into_inner() }
    };
    assert_eq!(observe(&lost.api).await.version, 0);
    assert_eq!(observe(&other).await.version, 0);
    let mut moved = false;
    for _ in 0..200 {
        if observe(&other).await.version > 0 {
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        moved,
        "the bot never moved after the other replica's Observe"
    );
}

/// What `log_error` writes for `error`, as JSON log lines.
fn logged(error: &crate::error::ApiError) -> String {
    use tracing_subscriber::layer::SubscriberExt;

    let lines = Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
    let writer = {
        let lines = lines.clone();
        move || LogSink(lines.clone())
    };
    let subscriber = tracing_subscriber::registry().with(crate::telemetry::log_layer(
        crate::config::LogFormat::Json,
        false,
        writer,
    ));
    tracing::subscriber::with_default(subscriber, || super::log_error(error));
    String::from_utf8(lines.lock().unwrap().clone()).unwrap()
}

/// A log writer into shared bytes.
struct LogSink(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn failed_calls_are_logged_by_reason_without_the_callers_message() {
    // An illegal action's message names cards of the caller's hand: for the caller only.
    let line = logged(&crate::error::ApiError::IllegalAction(
        "you hold no R0".to_string(),
    ));
    assert!(line.contains(r#""reason":"ILLEGAL_ACTION""#), "{line}");
    assert!(!line.contains("R0"), "{line}");
    // One `message` key per JSON line: log collectors refuse duplicate keys.
    assert_eq!(line.matches(r#""message":"#).count(), 1, "{line}");
    let line = logged(&crate::error::ApiError::invalid_field(
        "seats",
        "this game is for 2 seats, not 3",
    ));
    assert!(line.contains(r#""field":"seats""#), "{line}");
    assert!(!line.contains("not 3"), "{line}");
}
