//! Raindropchess through the API (docs/rules/raindrop_chess.md): whole games played over gRPC
//! from the listed legal actions only, by the typed SDK and by a client that knows nothing but
//! server reflection; deck order is never visible to anyone while the game runs, not even to
//! the deck's owner (§7), and the finished history shows it. Games end under the reason of
//! their ending (§6), and malformed options and actions name their field (§11, §12).

mod common;

use common::reflection::{call, get, messages, observe_seats, reflected_pool, request};
use common::{Picker, TestServer, observe_all, play_random_step};
use deckmate::{Client, CreateOptions, Game, pb};
use pb::raindrop_chess_action::Kind as RaindropAction;
use pb::raindrop_chess_event::Kind as RaindropEvent;
use prost_reflect::Value;

/// Raindropchess with every default, or with jokers of `effect`.
fn raindrop(jokers: Option<pb::RaindropChessJokerEffect>) -> pb::GameConfig {
    let mut config = pb::RaindropChessConfig::default();
    if let Some(effect) = jokers {
        config.jokers_per_deck = Some(2);
        config.joker_effect = Some(effect.into());
    }
    pb::GameConfig {
        game: Some(pb::game_config::Game::RaindropChess(config)),
    }
}

/// The Raindropchess part of a view.
fn raindrop_view(view: &pb::ObserveResponse) -> &pb::RaindropChessObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::RaindropChess(observation)) => observation,
        other => panic!("not a Raindropchess observation: {other:?}"),
    }
}

/// The Raindropchess events of a list of events.
fn raindrop_events(events: &[pb::Event]) -> impl Iterator<Item = &RaindropEvent> {
    events.iter().filter_map(|event| match &event.kind {
        Some(pb::event::Kind::RaindropChess(pb::RaindropChessEvent { kind: Some(kind) })) => {
            Some(kind)
        }
        _ => None,
    })
}

async fn create(client: &Client, config: pb::GameConfig, seed: u64) -> Game {
    let game = client
        .create_game(config, 2, CreateOptions::default().with_seed(seed))
        .await
        .expect("CreateGame");
    assert_eq!(game.variant, "raindrop_chess");
    game
}

/// §7: while the game runs, shuffles show only their size; returns how many were checked.
fn check_shuffles_hidden(events: &[pb::Event]) -> usize {
    let mut checked = 0;
    for event in raindrop_events(events) {
        if let RaindropEvent::DeckShuffled(shuffle) = event {
            assert_eq!(shuffle.cards, 16 + count_jokers(shuffle));
            assert!(
                shuffle.order.is_empty(),
                "a running game shows a deck order"
            );
            checked += 1;
        }
    }
    checked
}

fn count_jokers(shuffle: &pb::RaindropChessDeckShuffled) -> u32 {
    shuffle.cards.saturating_sub(16)
}

#[tokio::test]
async fn whole_games_are_played_from_the_legal_actions_and_deck_order_never_shows() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let mut hidden_shuffles = 0;
    let configs = [
        None,
        Some(pb::RaindropChessJokerEffect::ExtraTurn),
        Some(pb::RaindropChessJokerEffect::RemovePiece),
    ];
    for (seed, jokers) in [1u64, 2, 3].into_iter().zip(configs) {
        let game = create(&client, raindrop(jokers), seed).await;
        let spectator = client.spectate(&game.id);
        let mut picker = Picker::new(seed);
        let mut version = 0;
        loop {
            let mut views = observe_all(&game).await;
            views.push(spectator.observe().await.unwrap());
            let running = views[0].status() != pb::GameStatus::Finished;
            if running {
                // Every viewer, the deck owners included, sees the same observation: counts
                // and flipped cards, never the order.
                let first = raindrop_view(&views[0]).clone();
                for view in &views {
                    assert_eq!(raindrop_view(view), &first);
                }
                assert_eq!(first.sides.len(), 2);
            }
            if version % 50 == 0 && running {
                for seat in &game.seats {
                    let history = seat.history().await.unwrap();
                    hidden_shuffles += check_shuffles_hidden(&history.events);
                }
                hidden_shuffles +=
                    check_shuffles_hidden(&spectator.history().await.unwrap().events);
            }
            let Some(played) = play_random_step(&game, &mut picker).await else {
                break;
            };
            assert_eq!(played.response.version, version + 1);
            version += 1;
            assert!(version < 5_000, "seed {seed}: the game does not end");
        }
        let final_view = game.seats[0].observe().await.unwrap();
        assert_eq!(final_view.status(), pb::GameStatus::Finished);
        assert_eq!(
            raindrop_view(&final_view).stage(),
            pb::RaindropChessStage::Finished
        );
        assert!(final_view.outcome.is_some());
        // The finished history shows each deck's order.
        let history = spectator.history().await.unwrap();
        assert_eq!(history.actions.len() as u64, version);
        let orders: Vec<usize> = raindrop_events(&history.events)
            .filter_map(|event| match event {
                RaindropEvent::DeckShuffled(shuffle) => Some(shuffle.order.len()),
                _ => None,
            })
            .collect();
        assert_eq!(orders.len(), 2);
        assert!(orders.iter().all(|len| *len >= 16));
    }
    assert!(hidden_shuffles > 0);
}

// ---------------------------------------------------------------------------------------------
// A client that knows only server reflection and the envelope's field names.

#[tokio::test]
async fn a_reflection_only_client_plays_raindrop_chess_to_the_end() {
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let pool = reflected_pool(channel.clone()).await;

    let variants = call(
        &channel,
        &pool,
        "ListVariants",
        request(&pool, "ListVariants"),
        None,
    )
    .await
    .expect("ListVariants");
    let variant = messages(&variants, "variants")
        .into_iter()
        .find(|variant| get(variant, "id").as_str() == Some("raindrop_chess"))
        .expect("raindrop_chess is hosted");

    for seed in [5u64, 6] {
        let mut create = request(&pool, "CreateGame");
        create.set_field_by_name("config", get(&variant, "default_config"));
        create.set_field_by_name("seats", Value::U32(2));
        create.set_field_by_name("seed", Value::U64(seed));
        let created = call(&channel, &pool, "CreateGame", create, None)
            .await
            .expect("CreateGame");
        let game_id = get(&created, "game_id");
        let tokens: Vec<String> = messages(&created, "seat_tokens")
            .iter()
            .map(|token| get(token, "token").as_str().unwrap().to_string())
            .collect();

        let mut picker = Picker::new(seed);
        let mut version = 0u64;
        loop {
            let views =
                observe_seats(&channel, &pool, game_id.as_str().expect("game id"), &tokens).await;
            assert_eq!(get(&views[0], "version").as_u64(), Some(version));
            let status = get(&views[0], "status").as_enum_number();
            if status == Some(pb::GameStatus::Finished as i32) {
                assert!(
                    views
                        .iter()
                        .all(|view| messages(view, "legal_actions").is_empty())
                );
                break;
            }
            let able: Vec<usize> = (0..tokens.len())
                .filter(|seat| !messages(&views[*seat], "legal_actions").is_empty())
                .collect();
            assert_eq!(able.len(), 1, "one seat acts at a time");
            let seat = able[0];
            let legal = messages(&views[seat], "legal_actions");
            let action = legal[picker.index(legal.len())].clone();
            let mut act = request(&pool, "Act");
            act.set_field_by_name("game_id", game_id.clone());
            act.set_field_by_name("action", Value::Message(action));
            act.set_field_by_name("expected_version", Value::U64(version));
            let response = call(&channel, &pool, "Act", act, Some(&tokens[seat]))
                .await
                .unwrap_or_else(|status| panic!("a listed action was refused: {status:?}"));
            version += 1;
            assert_eq!(get(&response, "version").as_u64(), Some(version));
            assert!(version < 5_000, "the game does not end");
        }
        assert!(version > 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Endings and field errors.

/// The wire action written `text` in the game's notation (`flip`, `place e4`, `e2e3`).
fn action(text: &str) -> pb::Action {
    let kind = match text.split_once(' ') {
        None if text == "flip" => RaindropAction::Flip(pb::RaindropChessFlip {}),
        Some(("place", square)) => RaindropAction::Place(pb::RaindropChessPlace {
            square: square.into(),
        }),
        Some(("remove", square)) => RaindropAction::Remove(pb::RaindropChessRemove {
            square: square.into(),
        }),
        _ => RaindropAction::Move(pb::RaindropChessMove { uci: text.into() }),
    };
    pb::Action {
        kind: Some(pb::action::Kind::RaindropChess(pb::RaindropChessAction {
            kind: Some(kind),
        })),
    }
}

/// Plays `moves` (seat, notation) in a new game of `config` and `seed`; returns the final view
/// of seat 0.
async fn play_line(
    client: &Client,
    config: pb::RaindropChessConfig,
    seed: u64,
    moves: &[(usize, &str)],
) -> pb::ObserveResponse {
    let config = pb::GameConfig {
        game: Some(pb::game_config::Game::RaindropChess(config)),
    };
    let game = create(client, config, seed).await;
    for (seat, text) in moves {
        let view = game.seats[*seat].observe().await.unwrap();
        assert!(
            view.legal_actions.contains(&action(text)),
            "{text} is not listed for seat {seat}"
        );
        game.seats[*seat]
            .act(action(text))
            .await
            .unwrap_or_else(|error| panic!("{text} of seat {seat}: {error}"));
    }
    game.seats[0].observe().await.unwrap()
}

#[tokio::test]
async fn games_end_under_the_reason_of_their_ending() {
    let server = TestServer::start().await;
    let client = server.client().await;
    // §6.2: White's King walks to a8, Black's rook is placed on h8 with check, and White flips
    // a pawn, which may not stand on rank 8 to block: the failed flip loses as by checkmate
    // (the golden playthrough checkmate-by-a-failed-flip-in-check).
    let failed_flip = [
        (0, "flip"),
        (0, "place a7"),
        (1, "flip"),
        (1, "place c3"),
        (0, "a7a8"),
        (1, "flip"),
        (1, "place h8"),
        (0, "flip"),
    ];
    let view = play_line(&client, Default::default(), 39, &failed_flip).await;
    let outcome = view.outcome.expect("finished");
    assert_eq!(outcome.reason(), pb::EndReason::Checkmate);
    assert_eq!(outcome.winners, vec![1]);
    assert!(!outcome.draw);
    // §6.7 with a repetition limit of 2 (the golden playthrough repetition-limit-of-two).
    let repetition = [
        (0, "flip"),
        (0, "place d6"),
        (1, "flip"),
        (1, "place g3"),
        (0, "flip"),
        (0, "place f4"),
        (1, "flip"),
        (1, "place h5"),
        (0, "flip"),
        (0, "place f6"),
        (1, "h5h4"),
        (0, "d6f5"),
        (1, "h4h3"),
        (0, "f5d6"),
        (1, "h3h4"),
    ];
    let config = pb::RaindropChessConfig {
        repetitions: Some(2),
        ..Default::default()
    };
    let view = play_line(&client, config, 4, &repetition).await;
    let outcome = view.outcome.expect("finished");
    assert_eq!(outcome.reason(), pb::EndReason::Repetition);
    assert!(outcome.draw && outcome.winners.is_empty());
}

#[tokio::test]
async fn options_out_of_range_and_malformed_actions_name_their_field() {
    let server = TestServer::start().await;
    let mut rpc = pb::game_service_client::GameServiceClient::new(server.channel().await);
    let cases = [
        (
            pb::RaindropChessConfig {
                jokers_per_deck: Some(3),
                ..Default::default()
            },
            "jokers_per_deck",
        ),
        (
            pb::RaindropChessConfig {
                joker_effect: Some(0),
                ..Default::default()
            },
            "joker_effect",
        ),
        (
            pb::RaindropChessConfig {
                repetitions: Some(1),
                ..Default::default()
            },
            "repetitions",
        ),
        (
            pb::RaindropChessConfig {
                max_plies: Some(0),
                ..Default::default()
            },
            "max_plies",
        ),
    ];
    for (config, name) in cases {
        let request = pb::CreateGameRequest {
            config: Some(pb::GameConfig {
                game: Some(pb::game_config::Game::RaindropChess(config)),
            }),
            seats: 2,
            ..Default::default()
        };
        let status = rpc.create_game(request).await.expect_err("refused");
        common::assert_field_violation(&status, &format!("config.raindrop_chess.{name}"));
    }
    // A square that is no square, sent by the seat to act.
    let client = server.client().await;
    let game = create(&client, raindrop(None), 8).await;
    let token = game.seats[0].token().to_string();
    let mut request = tonic::Request::new(pb::ActRequest {
        game_id: game.id.clone(),
        action: Some(action("place z9")),
        ..Default::default()
    });
    request.metadata_mut().insert(
        deckmate_proto::AUTHORIZATION_HEADER,
        format!("Bearer {token}").parse().expect("ascii"),
    );
    let status = rpc.act(request).await.expect_err("refused");
    common::assert_field_violation(&status, "action.raindrop_chess.place.square");
}
