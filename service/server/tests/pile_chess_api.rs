//! Pile Chess through the API (docs/rules/pile_chess.md): full random games with 2, 3 and 4
//! players free for all and in teams (2 against 2, 1 against 2, 1 against 1 against 2), played
//! through gRPC by choosing only among the listed legal actions; the hidden information (hands,
//! drawn cards, deck order, the seed) never reaches another seat or a spectator; a bad team list
//! is refused with a field violation naming the list or the team at fault (§7.12); and a client
//! that knows nothing but server reflection and the envelope's field names plays 2-, 3- and
//! 4-player games to the end by sending back listed actions verbatim.

mod common;

use std::collections::BTreeSet;

use common::reflection::{self, enum_name, get, messages, reflected_pool};
use common::{Picker, TestServer, observe_all, play_random_step};
use deckmate::{Client, CreateOptions, Game, pb};
use pb::pile_chess_event::Kind as PileEvent;
use prost_reflect::{DescriptorPool, DynamicMessage, Value};
use sha2::{Digest, Sha256};
use tonic::transport::Channel;

/// More actions than any game takes: the round cap bounds a game far below this.
const MAX_ACTIONS: usize = 5_000;

/// Pile Chess with every default and `teams` (none: free for all).
fn pile_chess(teams: &[&[u32]]) -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PileChess(pb::PileChessConfig {
            teams: teams
                .iter()
                .map(|seats| pb::PileChessTeam {
                    seats: seats.to_vec(),
                })
                .collect(),
            ..Default::default()
        })),
    }
}

/// Free for all.
const FREE_FOR_ALL: &[&[u32]] = &[];
/// Seats 0 and 2 against seats 1 and 3.
const TWO_AGAINST_TWO: &[&[u32]] = &[&[0, 2], &[1, 3]];

/// Every setup: (seats, teams).
const SETUPS: [(u32, &[&[u32]]); 6] = [
    (2, FREE_FOR_ALL),
    (3, FREE_FOR_ALL),
    (4, FREE_FOR_ALL),
    (4, TWO_AGAINST_TWO),
    (3, &[&[0], &[1, 2]]),
    (4, &[&[0], &[1], &[2, 3]]),
];

/// The Pile Chess part of an observation.
fn pile_view(view: &pb::ObserveResponse) -> &pb::PileChessObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::PileChess(observation)) => observation,
        other => panic!("not a Pile Chess observation: {other:?}"),
    }
}

/// The Pile Chess events among `events`.
fn pile_events(events: &[pb::Event]) -> impl Iterator<Item = (&pb::Event, &PileEvent)> {
    events.iter().filter_map(|event| match &event.kind {
        Some(pb::event::Kind::PileChess(pile)) => pile.kind.as_ref().map(|kind| (event, kind)),
        _ => None,
    })
}

/// What the secrecy checks met; a run that met nothing proved nothing.
#[derive(Debug, Default)]
struct Coverage {
    hidden_draws: usize,
    own_draws: usize,
    hands_checked: usize,
    running_histories: usize,
}

/// `events` as `viewer` (a seat, or `None` for a spectator) received them: no other seat's
/// drawn cards.
fn check_events(events: &[pb::Event], viewer: Option<u32>, coverage: &mut Coverage) {
    for (_, kind) in pile_events(events) {
        if let PileEvent::CardsDrawn(drawn) = kind {
            assert!(drawn.count > 0, "an empty draw was reported");
            if viewer == Some(drawn.seat) {
                assert_eq!(
                    drawn.pieces.len(),
                    drawn.count as usize,
                    "own draws are shown"
                );
                coverage.own_draws += 1;
            } else {
                assert!(
                    drawn.pieces.is_empty(),
                    "{viewer:?} saw the cards seat {} drew",
                    drawn.seat
                );
                coverage.hidden_draws += 1;
            }
        }
    }
}

/// Checks every viewer's view of the current version: a seat sees its own hand only, a
/// spectator no hand, and apart from the hand every viewer sees the very same observation.
/// While the game runs, nobody sees another seat's drawn cards (once it is over, the events of
/// the last version are shown in full, like the history).
fn check_views(
    views: &[pb::ObserveResponse],
    spectator: &pb::ObserveResponse,
    coverage: &mut Coverage,
) {
    let running = spectator.status() == pb::GameStatus::InProgress;
    let mut public = pile_view(spectator).clone();
    assert!(public.hand.is_empty(), "a spectator sees a hand");
    if running {
        check_events(&spectator.recent_events, None, coverage);
    }
    for (seat, view) in views.iter().enumerate() {
        let mut observation = pile_view(view).clone();
        let hand_count = observation.players[seat].hand_count as usize;
        assert_eq!(
            observation.hand.len(),
            hand_count,
            "seat {seat} sees its whole hand"
        );
        observation.hand.clear();
        public.hand.clear();
        assert_eq!(
            observation, public,
            "seat {seat} sees more than the public view"
        );
        if running {
            check_events(&view.recent_events, Some(seat as u32), coverage);
        }
        coverage.hands_checked += 1;
    }
}

/// Plays one random game of `seats` seats to its end through gRPC, checking at every version
/// that actions add exactly one version and that nothing secret leaks; returns the game and
/// its final views.
async fn play_checked(
    client: &Client,
    seats: u32,
    teams: &[&[u32]],
    seed: u64,
    coverage: &mut Coverage,
) -> (Game, Vec<pb::ObserveResponse>) {
    let game = client
        .create_game(
            pile_chess(teams),
            seats,
            CreateOptions::default().with_seed(seed),
        )
        .await
        .expect("CreateGame");
    assert_eq!(game.variant, "pile_chess");
    assert_eq!(game.seats.len(), seats as usize);
    let spectator = client.spectate(game.id.clone());
    let mut picker = Picker::new(seed);
    let mut actions = 0;
    loop {
        let views = observe_all(&game).await;
        let spectator_view = spectator.observe().await.expect("spectators may observe");
        assert_eq!(spectator_view.version, actions as u64);
        check_views(&views, &spectator_view, coverage);
        if actions % 17 == 5 && spectator_view.status() == pb::GameStatus::InProgress {
            let history = game.seats[0].history().await.expect("history");
            assert!(history.seed.is_empty() && history.actions.is_empty());
            check_events(&history.events, Some(0), coverage);
            coverage.running_histories += 1;
        }
        match play_random_step(&game, &mut picker).await {
            Some(played) => {
                assert_eq!(played.response.version, actions as u64 + 1);
                actions += 1;
                assert!(actions < MAX_ACTIONS, "the game does not end");
            }
            None => break,
        }
    }
    let views = observe_all(&game).await;
    (game, views)
}

#[tokio::test]
async fn random_games_of_every_setup_play_to_the_end_through_grpc() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let variants = client.list_variants().await.expect("ListVariants");
    let variant = variants
        .iter()
        .find(|variant| variant.id == "pile_chess")
        .expect("pile_chess is hosted");
    assert_eq!((variant.min_seats, variant.max_seats), (2, 4));
    let mut coverage = Coverage::default();
    for (seats, teams) in SETUPS {
        for seed in 0..3 {
            let (_, views) = play_checked(&client, seats, teams, seed, &mut coverage).await;
            let outcome = views[0]
                .outcome
                .clone()
                .expect("a finished game has an outcome");
            assert_eq!(views[0].status(), pb::GameStatus::Finished);
            assert_ne!(outcome.reason(), pb::EndReason::Unspecified);
            assert_eq!(outcome.draw, outcome.winners.is_empty());
            if !outcome.draw {
                // A side wins together (less any player of it who resigned, none here).
                let side = teams
                    .iter()
                    .find(|team| team.contains(&outcome.winners[0]))
                    .map_or_else(|| vec![outcome.winners[0]], |team| team.to_vec());
                let mut side = side;
                side.sort_unstable();
                assert_eq!(outcome.winners, side, "{outcome:?}");
            }
            let observation = pile_view(&views[0]);
            assert_eq!(observation.step(), pb::PileChessStep::Finished);
            assert!(views.iter().all(|view| view.legal_actions.is_empty()));
        }
    }
    assert!(coverage.hands_checked > 0 && coverage.hidden_draws > 0);
}

#[tokio::test]
async fn no_hand_or_drawn_card_reaches_another_seat_or_a_spectator() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let mut coverage = Coverage::default();
    for (seats, teams) in SETUPS {
        let (game, _) =
            play_checked(&client, seats, teams, 100 + u64::from(seats), &mut coverage).await;
        // Once over, the history reveals every draw and the seed, which matches its commitment.
        let history = client
            .spectate(game.id.clone())
            .history()
            .await
            .expect("history");
        assert_eq!(history.seed.len(), 32);
        assert_eq!(
            Sha256::digest(&history.seed).as_slice(),
            game.seed_commitment.as_slice()
        );
        assert!(!history.actions.is_empty());
        let mut draws = 0;
        for (_, kind) in pile_events(&history.events) {
            if let PileEvent::CardsDrawn(drawn) = kind {
                assert_eq!(drawn.pieces.len(), drawn.count as usize);
                draws += 1;
            }
        }
        assert!(draws >= seats as usize, "every seat drew at the start");
    }
    assert!(coverage.hidden_draws > 0, "{coverage:?}");
    assert!(coverage.own_draws > 0, "{coverage:?}");
    assert!(coverage.running_histories > 0, "{coverage:?}");
}

#[tokio::test]
async fn config_errors_and_foreign_actions_are_invalid_requests() {
    let server = TestServer::start().await;
    let client = server.client().await;
    // Teams must split exactly the game's seats: these name seat 3 of a three-seat game.
    let error = client
        .create_game(pile_chess(TWO_AGAINST_TWO), 3, CreateOptions::default())
        .await
        .expect_err("four seats' teams with three seats");
    assert_eq!(error.reason(), Some("INVALID_REQUEST"), "{error:?}");
    assert!(error.to_string().contains("teams[1]: seat 3"), "{error}");
    let error = client
        .create_game(pile_chess(FREE_FOR_ALL), 5, CreateOptions::default())
        .await
        .expect_err("five seats");
    assert_eq!(error.reason(), Some("INVALID_REQUEST"), "{error:?}");
    // A Pigeon Chess action sent to a Pile Chess game.
    let game = client
        .create_game(
            pile_chess(FREE_FOR_ALL),
            2,
            CreateOptions::default().with_seed(1),
        )
        .await
        .expect("CreateGame");
    let foreign = pb::Action {
        kind: Some(pb::action::Kind::PigeonChess(
            pb::PigeonChessAction::default(),
        )),
    };
    let error = game.seats[0]
        .act(foreign)
        .await
        .expect_err("a foreign action");
    assert_eq!(error.reason(), Some("INVALID_REQUEST"), "{error:?}");
    // An unlisted but well-formed action is illegal, and names no hidden card.
    let view = game.seats[0].observe().await.expect("observe");
    let held: BTreeSet<i32> = pile_view(&view).hand.iter().copied().collect();
    let missing = (1..=6)
        .find(|piece| !held.contains(piece))
        .expect("a piece not held");
    let play = pb::Action {
        kind: Some(pb::action::Kind::PileChess(pb::PileChessAction {
            kind: Some(pb::pile_chess_action::Kind::Play(pb::PileChessPlay {
                piece: missing,
                pile: 1,
            })),
        })),
    };
    let error = game.seats[0].act(play).await.expect_err("a card not held");
    assert_eq!(error.reason(), Some("ILLEGAL_ACTION"), "{error:?}");
    assert_eq!(game.seats[0].observe().await.expect("observe").version, 0);
}

/// Creates a game of `seats` seats with `teams` through the raw generated client, so that the
/// status of a refusal can be read whole.
async fn create_raw(
    client: &Client,
    teams: &[&[u32]],
    seats: u32,
) -> Result<pb::CreateGameResponse, tonic::Status> {
    client
        .raw()
        .create_game(pb::CreateGameRequest {
            config: Some(pile_chess(teams)),
            seats,
            seed: Some(7),
            request_id: deckmate::new_request_id(),
            spectator_policy: pb::SpectatorPolicy::Allowed.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn bad_team_lists_are_refused_with_a_field_violation_on_the_list_or_the_team() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let cases: [(u32, &[&[u32]], &str, &str); 9] = [
        (
            4,
            &[&[0, 1, 2, 3]],
            "config.pile_chess.teams",
            "at least two teams",
        ),
        (
            3,
            &[&[0], &[]],
            "config.pile_chess.teams[1]",
            "at least one seat",
        ),
        (
            4,
            &[&[0, 9], &[1, 2, 3]],
            "config.pile_chess.teams[0]",
            "seat 9",
        ),
        (
            4,
            &[&[0, 1], &[1, 2, 3]],
            "config.pile_chess.teams[1]",
            "listed twice",
        ),
        (
            3,
            &[&[0, 2], &[2, 1]],
            "config.pile_chess.teams[1]",
            "listed twice",
        ),
        (
            3,
            &[&[0], &[2]],
            "config.pile_chess.teams",
            "seat 1 is in no team",
        ),
        (
            4,
            &[&[1], &[2], &[3]],
            "config.pile_chess.teams",
            "seat 0 is in no team",
        ),
        // Lists that are splits of other seat counts than the game's.
        (
            3,
            &[&[0, 2], &[1, 3]],
            "config.pile_chess.teams[1]",
            "seat 3 is not a seat of this game",
        ),
        (
            4,
            &[&[0], &[1, 2]],
            "config.pile_chess.teams",
            "seat 3 is in no team",
        ),
    ];
    for (seats, teams, field, needle) in cases {
        let status = create_raw(&client, teams, seats)
            .await
            .expect_err("a bad team list");
        let violation = common::field_violation(&status);
        assert_eq!(
            violation.field, field,
            "{teams:?}: {}",
            violation.description
        );
        assert!(
            violation.description.contains(needle),
            "{teams:?}: {:?} should say {needle:?}",
            violation.description
        );
    }
    // Every split of the seats into two or more teams is a game, teams of one included.
    for (seats, teams) in [
        (2, &[&[1u32][..], &[0]][..]),
        (3, &[&[0], &[1, 2]]),
        (3, &[&[0], &[1], &[2]]),
        (4, &[&[3], &[0, 1, 2]]),
        (4, &[&[0], &[1], &[2, 3]]),
    ] {
        let created = create_raw(&client, teams, seats)
            .await
            .unwrap_or_else(|status| panic!("{teams:?}: {status:?}"));
        assert_eq!(created.seat_tokens.len(), seats as usize);
    }
}

// ---------------------------------------------------------------------------------------------
// A client that knows only reflection and the envelope's field names.

/// `GameService` called with dynamic messages; a call that fails fails the test.
struct Dynamic {
    channel: Channel,
    pool: DescriptorPool,
}

impl Dynamic {
    /// An empty request of `method`.
    fn request(&self, method: &str) -> DynamicMessage {
        reflection::request(&self.pool, method)
    }

    async fn call(
        &self,
        method: &str,
        message: DynamicMessage,
        token: Option<&str>,
    ) -> DynamicMessage {
        reflection::call(&self.channel, &self.pool, method, message, token)
            .await
            .unwrap_or_else(|status| panic!("{method}: {status:?}"))
    }
}

fn text(message: &DynamicMessage, name: &str) -> String {
    get(message, name).as_str().expect("a string").to_string()
}

#[tokio::test]
async fn a_reflection_only_client_plays_two_three_and_four_player_games_to_the_end() {
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let pool = reflected_pool(channel.clone()).await;
    let service = Dynamic { channel, pool };
    let variants = service
        .call("ListVariants", service.request("ListVariants"), None)
        .await;
    let variant = messages(&variants, "variants")
        .into_iter()
        .find(|variant| text(variant, "id") == "pile_chess")
        .expect("pile_chess is listed");
    let default_config = get(&variant, "default_config");
    let mut picker = Picker::new(2_024);
    for seats in 2..=4u32 {
        let mut create = service.request("CreateGame");
        create.set_field_by_name("config", default_config.clone());
        create.set_field_by_name("seats", Value::U32(seats));
        create.set_field_by_name("seed", Value::U64(u64::from(seats) * 31));
        let created = service.call("CreateGame", create, None).await;
        let game_id = text(&created, "game_id");
        let tokens: Vec<String> = messages(&created, "seat_tokens")
            .iter()
            .map(|seat_token| text(seat_token, "token"))
            .collect();
        assert_eq!(tokens.len(), seats as usize);
        let mut version = 0;
        let outcome = 'game: loop {
            let mut acted = false;
            for token in &tokens {
                let mut observe = service.request("Observe");
                observe.set_field_by_name("game_id", Value::String(game_id.clone()));
                let view = service.call("Observe", observe, Some(token)).await;
                assert_eq!(get(&view, "version").as_u64(), Some(version));
                if enum_name(&view, "status") == "GAME_STATUS_FINISHED" {
                    break 'game get(&view, "outcome")
                        .as_message()
                        .expect("an outcome")
                        .clone();
                }
                let legal = messages(&view, "legal_actions");
                if legal.is_empty() {
                    continue;
                }
                let action = legal[picker.index(legal.len())].clone();
                let mut act = service.request("Act");
                act.set_field_by_name("game_id", Value::String(game_id.clone()));
                act.set_field_by_name("action", Value::Message(action));
                act.set_field_by_name("expected_version", Value::U64(version));
                let response = service.call("Act", act, Some(token)).await;
                assert_eq!(get(&response, "version").as_u64(), Some(version + 1));
                version += 1;
                acted = true;
                break;
            }
            assert!(acted, "a running game has a seat to act");
            assert!((version as usize) < MAX_ACTIONS, "the game does not end");
        };
        assert_ne!(enum_name(&outcome, "reason"), "END_REASON_UNSPECIFIED");
        assert!(version > 0, "{seats} seats: the game had actions");
    }
}
