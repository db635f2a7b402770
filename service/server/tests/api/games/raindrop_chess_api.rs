//! Raindropchess through the API (docs/rules/raindrop_chess.md): whole games played over gRPC
//! from the listed legal actions only, by the typed SDK and by a client that knows nothing but
//! server reflection; deck order is never visible to anyone while the game runs, not even to
//! the deck's owner (§7), and the finished history shows it. Games end under the reason of
//! their ending (§6), and malformed options and actions name their field (§11, §12).

use super::{play_by_reflection, play_recorded};
use crate::server::{Server, run};
use crate::support::{assert_action_refused, assert_config_refused};
use deckmate::{Client, CreateOptions, Game, pb};
use pb::raindrop_chess_action::Kind as RaindropAction;
use pb::raindrop_chess_event::Kind as RaindropEvent;

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

#[test]
fn whole_games_are_played_from_the_legal_actions_and_deck_order_never_shows() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut hidden_shuffles = 0;
        let configs = [
            None,
            Some(pb::RaindropChessJokerEffect::ExtraTurn),
            Some(pb::RaindropChessJokerEffect::RemovePiece),
        ];
        for (seed, jokers) in [1u64, 2, 3].into_iter().zip(configs) {
            let recorded = play_recorded(&client, raindrop(jokers), 2, seed, 50).await;
            assert_eq!(recorded.game.variant, "raindrop_chess");
            for views in &recorded.views {
                if views[0].status() == pb::GameStatus::Finished {
                    continue;
                }
                // Every viewer, the deck owners included, sees the same observation: counts and
                // flipped cards, never the order.
                let first = raindrop_view(&views[0]);
                for view in views {
                    assert_eq!(raindrop_view(view), first);
                }
                assert_eq!(first.sides.len(), 2);
            }
            for history in recorded.histories.iter().flatten() {
                hidden_shuffles += check_shuffles_hidden(&history.events);
            }
            let final_view = &recorded.last()[0];
            assert_eq!(
                raindrop_view(final_view).stage(),
                pb::RaindropChessStage::Finished
            );
            // The finished history shows each deck's order.
            let orders: Vec<usize> = raindrop_events(&recorded.history.events)
                .filter_map(|event| match event {
                    RaindropEvent::DeckShuffled(shuffle) => Some(shuffle.order.len()),
                    _ => None,
                })
                .collect();
            assert_eq!(orders.len(), 2);
            assert!(orders.iter().all(|len| *len >= 16));
        }
        assert!(hidden_shuffles > 0);
    });
}

/// A client that knows only server reflection and the envelope's field names plays to the end,
/// one seat acting at a time.
#[test]
fn a_reflection_only_client_plays_raindrop_chess_to_the_end() {
    run(async {
        for seed in [5u64, 6] {
            let game = play_by_reflection("raindrop_chess", 2, seed).await;
            assert_eq!(game.shared_turns, 0, "one seat acts at a time");
        }
    });
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

#[test]
fn games_end_under_the_reason_of_their_ending() {
    run(async {
        let server = Server::shared();
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
    });
}

#[test]
fn options_out_of_range_and_malformed_actions_name_their_field() {
    run(async {
        let client = Server::shared().client().await;
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
            let config = pb::GameConfig {
                game: Some(pb::game_config::Game::RaindropChess(config)),
            };
            let field = format!("config.raindrop_chess.{name}");
            assert_config_refused(&client, config, &field).await;
        }
        // A square that is no square, sent by the seat to act.
        let game = create(&client, raindrop(None), 8).await;
        let field = "action.raindrop_chess.place.square";
        assert_action_refused(&client, &game, 0, action("place z9"), field).await;
    });
}
