//! Raindropchess through the API (rules/raindrop_chess.md): whole games played over gRPC from
//! the listed legal actions only, by the typed SDK and by a client that knows nothing but server
//! reflection; deck order is never visible to anyone while the game runs, not even to the deck's
//! owner (§7), and the finished history shows it.

mod common;

use common::reflection::{call, get, messages, observe_seats, reflected_pool, request};
use common::{Picker, TestServer, observe_all, play_random_step};
use deckmate::{Client, CreateOptions, Game, pb};
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
