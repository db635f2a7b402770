//! The acceptance test of the API: a client that knows only gRPC server reflection, the
//! standard health service and the names of the envelope fields plays a whole game.
//!
//! It learns every message type from the server's reflection service, builds
//! `prost_reflect::DynamicMessage`s by field name, sends them through a small tonic codec, and
//! plays Pigeon Chess by sending back the legal actions the server lists, verbatim. Along the way
//! it checks the error model of the API (docs/ARCHITECTURE.md §3) on the wire: unlisted actions,
//! stale versions, wrong tokens and repeated request ids.

use crate::common::Picker;
use crate::reflection::{
    self, GAME_SERVICE, enum_name, get, messages, reflected_pool, reflected_services,
};
use crate::server::{Server, run};
use futures::StreamExt;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, ReflectMessage, Value};
use tonic::transport::Channel;
use tonic::{Code, Status};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_types::StatusExt;

/// An upper bound on the actions of one game, far above the rules' turn cap.
const MAX_ACTIONS: usize = 2_000;

// ---------------------------------------------------------------------------------------------
// Reflection.

/// Lists the services, then learns every message type of `GameService` by reflection; returns
/// the service names and the pool of descriptors.
async fn discover(channel: Channel) -> (Vec<String>, DescriptorPool) {
    let services = reflected_services(channel.clone()).await;
    let pool = reflected_pool(channel).await;
    (services, pool)
}

// ---------------------------------------------------------------------------------------------
// Dynamic calls.

/// `deckmate.v1.GameService` called with dynamic messages.
#[derive(Clone)]
struct DynamicGameService {
    channel: Channel,
    pool: DescriptorPool,
}

impl DynamicGameService {
    fn new(channel: Channel, pool: &DescriptorPool) -> DynamicGameService {
        DynamicGameService {
            channel,
            pool: pool.clone(),
        }
    }

    /// An empty request message for `method`.
    fn request(&self, method: &str) -> DynamicMessage {
        reflection::request(&self.pool, method)
    }

    /// Calls the unary `method`, with `token` as bearer authorization when given.
    async fn call(
        &self,
        method: &str,
        message: DynamicMessage,
        token: Option<&str>,
    ) -> Result<DynamicMessage, Status> {
        assert_eq!(
            message.descriptor(),
            reflection::method(&self.pool, method).input(),
            "request type of {method}"
        );
        reflection::call(&self.channel, &self.pool, method, message, token).await
    }
}

// ---------------------------------------------------------------------------------------------
// Field access by name.

fn u64_field(message: &DynamicMessage, name: &str) -> u64 {
    get(message, name)
        .as_u64()
        .unwrap_or_else(|| panic!("{name} is not a uint64"))
}

fn u32_field(message: &DynamicMessage, name: &str) -> u32 {
    get(message, name)
        .as_u32()
        .unwrap_or_else(|| panic!("{name} is not a uint32"))
}

fn string_field(message: &DynamicMessage, name: &str) -> String {
    get(message, name)
        .as_str()
        .unwrap_or_else(|| panic!("{name} is not a string"))
        .to_string()
}

fn u32_list(message: &DynamicMessage, name: &str) -> Vec<u32> {
    get(message, name)
        .as_list()
        .unwrap_or_else(|| panic!("{name} is not a list"))
        .iter()
        .map(|value| value.as_u32().expect("a list of uint32"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The game as seen through the dynamic client.

/// A game created through the dynamic client.
struct DynamicGame {
    service: DynamicGameService,
    game_id: String,
    tokens: Vec<String>,
}

impl DynamicGame {
    fn observe_request(&self) -> DynamicMessage {
        let mut request = self.service.request("Observe");
        request.set_field_by_name("game_id", Value::String(self.game_id.clone()));
        request
    }

    async fn observe(&self, seat: usize) -> DynamicMessage {
        self.service
            .call("Observe", self.observe_request(), Some(&self.tokens[seat]))
            .await
            .unwrap_or_else(|status| panic!("seat {seat} observes: {status:?}"))
    }

    fn act_request(
        &self,
        action: &DynamicMessage,
        expected_version: Option<u64>,
        request_id: &str,
    ) -> DynamicMessage {
        let mut request = self.service.request("Act");
        request.set_field_by_name("game_id", Value::String(self.game_id.clone()));
        request.set_field_by_name("action", Value::Message(action.clone()));
        if let Some(version) = expected_version {
            request.set_field_by_name("expected_version", Value::U64(version));
        }
        request.set_field_by_name("request_id", Value::String(request_id.to_string()));
        request
    }

    async fn act(
        &self,
        token: &str,
        action: &DynamicMessage,
        expected_version: Option<u64>,
        request_id: &str,
    ) -> Result<DynamicMessage, Status> {
        self.service
            .call(
                "Act",
                self.act_request(action, expected_version, request_id),
                Some(token),
            )
            .await
    }

    /// The game's version as seat 0 sees it.
    async fn version(&self) -> u64 {
        u64_field(&self.observe(0).await, "version")
    }
}

/// Asserts that `result` failed with `codes` and one of `reasons` in its `ErrorInfo`.
fn assert_rejected(
    result: Result<DynamicMessage, Status>,
    codes: &[Code],
    reasons: &[&str],
    what: &str,
) {
    let status = match result {
        Ok(response) => panic!("{what} was accepted: {response:?}"),
        Err(status) => status,
    };
    assert!(
        codes.contains(&status.code()),
        "{what}: code {:?} not in {codes:?} ({})",
        status.code(),
        status.message()
    );
    let info = status
        .get_details_error_info()
        .unwrap_or_else(|| panic!("{what}: no ErrorInfo in the status details"));
    assert_eq!(info.domain, "deckmate", "{what}: ErrorInfo domain");
    assert!(
        reasons.contains(&info.reason.as_str()),
        "{what}: reason {} not in {reasons:?}",
        info.reason
    );
}

/// Which of the wire-level checks the game run has made.
#[derive(Default, Debug)]
struct Checks {
    wrong_token: bool,
    stale_version: bool,
    repeated_request_id: bool,
    other_seats_action: bool,
    action_from_an_earlier_phase: bool,
}

#[test]
fn a_reflection_only_client_plays_a_whole_game() {
    run(async {
        let server = Server::shared();
        let channel = server.channel().await;

        // Health, through the generated standard client.
        for service in ["", GAME_SERVICE] {
            let status = HealthClient::new(channel.clone())
                .check(HealthCheckRequest {
                    service: service.to_string(),
                })
                .await
                .unwrap_or_else(|status| panic!("health of {service:?}: {status:?}"))
                .into_inner()
                .status;
            assert_eq!(
                ServingStatus::try_from(status),
                Ok(ServingStatus::Serving),
                "health of {service:?}"
            );
        }

        // Everything else is learnt by reflection.
        let (services, pool) = discover(channel.clone()).await;
        assert!(
            services.iter().any(|name| name == GAME_SERVICE),
            "reflection lists {services:?}"
        );
        let service = DynamicGameService::new(channel.clone(), &pool);

        let variants = service
            .call("ListVariants", service.request("ListVariants"), None)
            .await
            .expect("ListVariants");
        let pigeon = messages(&variants, "variants")
            .into_iter()
            .find(|variant| string_field(variant, "id") == "pigeon_chess")
            .expect("pigeon_chess is hosted");
        assert!(u32_field(&pigeon, "min_seats") <= 2 && 2 <= u32_field(&pigeon, "max_seats"));
        let default_config = get(&pigeon, "default_config")
            .as_message()
            .expect("default_config is a message")
            .clone();

        let mut create = service.request("CreateGame");
        create.set_field_by_name("config", Value::Message(default_config));
        create.set_field_by_name("seats", Value::U32(2));
        create.set_field_by_name("seed", Value::U64(20_240_611));
        create.set_field_by_name("request_id", Value::String(deckmate::new_request_id()));
        let created = service
            .call("CreateGame", create, None)
            .await
            .expect("CreateGame");
        assert_eq!(u64_field(&created, "version"), 0);
        assert_eq!(string_field(&created, "variant"), "pigeon_chess");
        let seat_tokens = messages(&created, "seat_tokens");
        assert_eq!(seat_tokens.len(), 2);
        for (index, seat_token) in seat_tokens.iter().enumerate() {
            assert_eq!(
                u32_field(seat_token, "seat") as usize,
                index,
                "tokens in seat order"
            );
        }
        let game = DynamicGame {
            service: service.clone(),
            game_id: string_field(&created, "game_id"),
            tokens: seat_tokens
                .iter()
                .map(|seat_token| string_field(seat_token, "token"))
                .collect(),
        };
        assert_ne!(
            game.tokens[0], game.tokens[1],
            "every seat has its own token"
        );

        // A second game whose token must not work on the first.
        let mut other = service.request("CreateGame");
        other.set_field_by_name("config", get(&pigeon, "default_config"));
        other.set_field_by_name("seats", Value::U32(2));
        let other = service
            .call("CreateGame", other, None)
            .await
            .expect("second CreateGame");
        let foreign_token = string_field(&messages(&other, "seat_tokens")[0], "token");

        let mut picker = Picker::new(7);
        let mut checks = Checks::default();
        let mut first_setup_action: Option<DynamicMessage> = None;
        let mut version = 0;
        let mut actions = 0;
        let final_view = 'game: loop {
            for seat in 0..2 {
                let view = game.observe(seat).await;
                assert_eq!(
                    u64_field(&view, "version"),
                    version,
                    "no version is skipped"
                );
                if enum_name(&view, "status") == "GAME_STATUS_FINISHED" {
                    break 'game view;
                }
                assert_eq!(enum_name(&view, "status"), "GAME_STATUS_IN_PROGRESS");
                let legal = messages(&view, "legal_actions");
                if legal.is_empty() {
                    continue;
                }
                let action = legal[picker.index(legal.len())].clone();
                if first_setup_action.is_none() {
                    first_setup_action = Some(action.clone());
                }
                let other_seat = 1 - seat;

                if !checks.wrong_token {
                    let result = game
                        .act(&foreign_token, &action, Some(version), "wrong-token")
                        .await;
                    assert_rejected(
                        result,
                        &[Code::PermissionDenied, Code::Unauthenticated],
                        &["BAD_TOKEN"],
                        "a token of another game",
                    );
                    let result = game
                        .act("not-a-token", &action, Some(version), "garbage-token")
                        .await;
                    assert_rejected(
                        result,
                        &[Code::PermissionDenied, Code::Unauthenticated],
                        &["BAD_TOKEN"],
                        "a made-up token",
                    );
                    assert_eq!(game.version().await, version);
                    checks.wrong_token = true;
                }
                if version > 0 && !checks.stale_version {
                    let result = game
                        .act(&game.tokens[seat], &action, Some(version - 1), "stale")
                        .await;
                    assert_rejected(
                        result,
                        &[Code::Aborted],
                        &["STALE_VERSION"],
                        "a stale version",
                    );
                    assert_eq!(game.version().await, version);
                    checks.stale_version = true;
                }
                // During play only one seat may act: its actions are not the other seat's.
                if u32_list(&view, "to_act") == [seat as u32] {
                    if !checks.other_seats_action {
                        let result = game
                            .act(
                                &game.tokens[other_seat],
                                &action,
                                Some(version),
                                "other-seat",
                            )
                            .await;
                        assert_rejected(
                            result,
                            &[Code::FailedPrecondition],
                            &["NOT_YOUR_TURN", "ILLEGAL_ACTION"],
                            "the other seat's action",
                        );
                        assert_eq!(game.version().await, version);
                        checks.other_seats_action = true;
                    }
                    let early = first_setup_action.clone().expect("recorded at version 0");
                    let listed = legal
                        .iter()
                        .any(|candidate| candidate.encode_to_vec() == early.encode_to_vec());
                    if !checks.action_from_an_earlier_phase && !listed {
                        let result = game
                            .act(&game.tokens[seat], &early, Some(version), "early")
                            .await;
                        assert_rejected(
                            result,
                            &[Code::FailedPrecondition],
                            &["ILLEGAL_ACTION", "NOT_YOUR_TURN"],
                            "an action that is not listed",
                        );
                        assert_eq!(game.version().await, version);
                        checks.action_from_an_earlier_phase = true;
                    }
                }

                let request_id = deckmate::new_request_id();
                let response = game
                    .act(&game.tokens[seat], &action, Some(version), &request_id)
                    .await
                    .unwrap_or_else(|status| panic!("a listed action at v{version}: {status:?}"));
                assert_eq!(u64_field(&response, "version"), version + 1);
                let acted_view = get(&response, "observation")
                    .as_message()
                    .expect("the actor's new view")
                    .clone();
                assert_eq!(u64_field(&acted_view, "version"), version + 1);

                if version >= 2 && !checks.repeated_request_id {
                    let repeat = game
                        .act(&game.tokens[seat], &action, Some(version), &request_id)
                        .await
                        .expect("a repeated request id returns the first response");
                    assert_eq!(
                        repeat.encode_to_vec(),
                        response.encode_to_vec(),
                        "a repeated request id returns the same response"
                    );
                    assert_eq!(game.version().await, version + 1, "applied only once");
                    checks.repeated_request_id = true;
                }

                version += 1;
                actions += 1;
                assert!(actions < MAX_ACTIONS, "the game does not end");
            }
        };

        let outcome = get(&final_view, "outcome")
            .as_message()
            .expect("an outcome")
            .clone();
        assert!(
            final_view.has_field_by_name("outcome"),
            "a finished game has an outcome"
        );
        assert_ne!(enum_name(&outcome, "reason"), "END_REASON_UNSPECIFIED");
        assert!(messages(&final_view, "legal_actions").is_empty());
        let winners = u32_list(&outcome, "winners");
        let draw = get(&outcome, "draw").as_bool().expect("draw is a bool");
        assert_eq!(
            draw,
            winners.is_empty(),
            "either a draw or winners: {outcome:?}"
        );
        assert!(
            checks.wrong_token
                && checks.stale_version
                && checks.repeated_request_id
                && checks.other_seats_action
                && checks.action_from_an_earlier_phase,
            "not every check ran: {checks:?}"
        );

        // Acting after the end is refused.
        let any_action = first_setup_action.expect("the game had actions");
        let result = game
            .act(&game.tokens[0], &any_action, None, "after-end")
            .await;
        assert_rejected(
            result,
            &[Code::FailedPrecondition],
            &["GAME_OVER"],
            "an action after the end",
        );
    });
}

/// An empty message of the reflected type `name`.
fn new_message(pool: &DescriptorPool, name: &str) -> DynamicMessage {
    DynamicMessage::new(
        pool.get_message_by_name(name)
            .unwrap_or_else(|| panic!("reflection describes {name}")),
    )
}

/// The number of the reflected enum value `value` of enum `name`.
fn enum_number(pool: &DescriptorPool, name: &str, value: &str) -> Value {
    let number = pool
        .get_enum_by_name(name)
        .and_then(|descriptor| descriptor.get_value_by_name(value))
        .unwrap_or_else(|| panic!("reflection describes {name}.{value}"))
        .number();
    Value::EnumNumber(number)
}

/// What grpcurl does in docs/CLOCKS.md, "Playing with a clock (and a bot)": a game with a bot
/// seat and a Fischer clock, created and played to its end by a client that knows only
/// reflection; every view carries both seats' clocks, and seat 0's runs exactly when it is to
/// act.
#[test]
fn a_clocked_game_with_a_bot_plays_to_the_end() {
    run(async {
        let server = Server::shared();
        let channel = server.channel().await;
        let (_, pool) = discover(channel.clone()).await;
        let service = DynamicGameService::new(channel, &pool);

        let mut fischer = new_message(&pool, "deckmate.v1.Clock.Fischer");
        fischer.set_field_by_name("base_ms", Value::U32(300_000));
        fischer.set_field_by_name("increment_ms", Value::U32(2_000));
        let mut clock = new_message(&pool, "deckmate.v1.Clock");
        clock.set_field_by_name("fischer", Value::Message(fischer));
        clock.set_field_by_name(
            "on_timeout",
            enum_number(&pool, "deckmate.v1.TimeoutPolicy", "TIMEOUT_POLICY_FORFEIT"),
        );
        let mut bot = new_message(&pool, "deckmate.v1.SeatOptions");
        bot.set_field_by_name("seat", Value::U32(1));
        bot.set_field_by_name(
            "bot",
            enum_number(&pool, "deckmate.v1.BotLevel", "BOT_LEVEL_GREEDY"),
        );
        let mut config = new_message(&pool, "deckmate.v1.GameConfig");
        config.set_field_by_name(
            "pile_chess",
            Value::Message(new_message(&pool, "deckmate.v1.PileChessConfig")),
        );
        let mut create = service.request("CreateGame");
        create.set_field_by_name("config", Value::Message(config));
        create.set_field_by_name("seats", Value::U32(2));
        create.set_field_by_name("seat_options", Value::List(vec![Value::Message(bot)]));
        create.set_field_by_name("clock", Value::Message(clock));
        let created = service
            .call("CreateGame", create, None)
            .await
            .expect("CreateGame with a bot seat and a clock");
        let seat_tokens = messages(&created, "seat_tokens");
        assert_eq!(seat_tokens.len(), 1, "the bot seat has no token");
        assert_eq!(u32_field(&seat_tokens[0], "seat"), 0);
        let game = DynamicGame {
            service: service.clone(),
            game_id: string_field(&created, "game_id"),
            tokens: vec![string_field(&seat_tokens[0], "token")],
        };

        let clock_of = |view: &DynamicMessage, seat: usize| {
            let clocks = messages(view, "clocks");
            assert_eq!(clocks.len(), 2, "both seats' clocks");
            let clock = clocks[seat].clone();
            assert_eq!(u32_field(&clock, "seat") as usize, seat);
            let running = get(&clock, "running").as_bool().expect("a bool");
            (running, u32_field(&clock, "remaining_ms"))
        };
        let started = std::time::Instant::now();
        let mut moves = 0;
        let final_view = loop {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(120),
                "the game ends"
            );
            let view = game.observe(0).await;
            if enum_name(&view, "status") == "GAME_STATUS_FINISHED" {
                break view;
            }
            let legal = messages(&view, "legal_actions");
            let (running, left) = clock_of(&view, 0);
            if legal.is_empty() {
                // The bot is thinking.
                assert!(!running, "seat 0's clock stops while it may not act");
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                continue;
            }
            assert!(running, "seat 0's clock runs while it is to act");
            assert!(left > 0 && left <= 300_000 + 2_000 * moves);
            let version = u64_field(&view, "version");
            game.act(&game.tokens[0], &legal[0], Some(version), "")
                .await
                .unwrap_or_else(|status| panic!("seat 0 acts: {status:?}"));
            moves += 1;
            assert!(moves < MAX_ACTIONS as u32, "the game ends");
        };
        assert!(moves > 0);
        let outcome = get(&final_view, "outcome");
        assert!(
            outcome.as_message().is_some(),
            "a finished game has an outcome"
        );
        assert!(!clock_of(&final_view, 0).0 && !clock_of(&final_view, 1).0);
    });
}

#[test]
fn v1alpha_reflection_lists_the_service_too() {
    run(async {
        use tonic_reflection::pb::v1alpha::ServerReflectionRequest as AlphaReflectionRequest;
        use tonic_reflection::pb::v1alpha::server_reflection_client::ServerReflectionClient as AlphaClient;
        use tonic_reflection::pb::v1alpha::server_reflection_request::MessageRequest as AlphaRequest;
        use tonic_reflection::pb::v1alpha::server_reflection_response::MessageResponse as AlphaResponse;

        let server = Server::shared();
        let mut client = AlphaClient::new(server.channel().await);
        let request = AlphaReflectionRequest {
            host: String::new(),
            message_request: Some(AlphaRequest::ListServices(String::new())),
        };
        let response = client
            .server_reflection_info(futures::stream::iter([request]))
            .await
            .expect("v1alpha reflection answers")
            .into_inner()
            .next()
            .await
            .expect("one response")
            .expect("a successful response");
        match response.message_response {
            Some(AlphaResponse::ListServicesResponse(list)) => assert!(
                list.service
                    .iter()
                    .any(|service| service.name == GAME_SERVICE),
                "v1alpha lists {:?}",
                list.service
            ),
            other => panic!("expected a service list, got {other:?}"),
        }
    });
}
