//! CHUNO through the API (docs/rules/chuno.md): whole games played over gRPC from the listed
//! legal actions only, by the typed SDK and by a client that knows nothing but server
//! reflection; a CHUNO call sent out of turn is accepted (§6), and a missed one costs two cards;
//! other seats and spectators never see a hand or the deck order (§8); a deadlock ends as a
//! stalemate (§9.14); options out of range are refused naming their field (§13).

use std::collections::BTreeSet;

use super::{play_by_reflection, play_recorded};
use crate::common::{Picker, observe_all};
use crate::server::{Server, run};
use crate::support::assert_config_refused;
use deckmate::{ActOptions, Client, CreateOptions, Game, pb};
use pb::chuno_event::Kind as ChunoEvent;

/// CHUNO with every default.
fn chuno() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::Chuno(pb::ChunoConfig::default())),
    }
}

/// The CHUNO part of a view.
fn chuno_view(view: &pb::ObserveResponse) -> &pb::ChunoObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::Chuno(observation)) => observation,
        other => panic!("not a CHUNO observation: {other:?}"),
    }
}

/// The CHUNO events of a list of events.
fn chuno_events(events: &[pb::Event]) -> impl Iterator<Item = &ChunoEvent> {
    events.iter().filter_map(|event| match &event.kind {
        Some(pb::event::Kind::Chuno(pb::ChunoEvent { kind: Some(kind) })) => Some(kind),
        _ => None,
    })
}

/// A CHUNO game action.
fn chuno_action(kind: pb::chuno_action::Kind) -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::Chuno(pb::ChunoAction {
            kind: Some(kind),
            notation: String::new(),
        })),
    }
}

/// The notation of a listed CHUNO action.
fn notation(action: &pb::Action) -> &str {
    match &action.kind {
        Some(pb::action::Kind::Chuno(action)) => &action.notation,
        other => panic!("not a CHUNO action: {other:?}"),
    }
}

async fn create(client: &Client, seed: u64) -> Game {
    let game = client
        .create_game(chuno(), 2, CreateOptions::default().with_seed(seed))
        .await
        .expect("CreateGame");
    assert_eq!(game.variant, "chuno");
    game
}

/// How many secrets the no-leak checks met; a run that met none proved nothing.
#[derive(Debug, Default)]
struct Coverage {
    hidden_hands: usize,
    hidden_draws: usize,
}

/// §8: a running game's view for `viewer` (`None`: a spectator) shows no other hand and no
/// cards drawn by others.
fn check_view(view: &pb::ObserveResponse, viewer: Option<u32>, coverage: &mut Coverage) {
    assert_eq!(view.seat, viewer);
    if view.status() == pb::GameStatus::Finished {
        return;
    }
    let observation = chuno_view(view);
    match viewer {
        None => {
            assert!(observation.hand.is_empty(), "a spectator sees a hand");
            assert!(view.legal_actions.is_empty(), "a spectator has actions");
            coverage.hidden_hands += 2;
        }
        Some(seat) => {
            assert_eq!(
                observation.hand.len() as u32,
                observation.hand_counts[seat as usize],
                "the hand shown is the viewer's own"
            );
            coverage.hidden_hands += 1;
        }
    }
    check_events(&view.recent_events, viewer, coverage);
}

/// Cards drawn by another seat are never shown while the game runs.
fn check_events(events: &[pb::Event], viewer: Option<u32>, coverage: &mut Coverage) {
    for event in chuno_events(events) {
        if let ChunoEvent::CardsDrawn(drawn) = event {
            if viewer != Some(drawn.seat) {
                coverage.hidden_draws += 1;
                assert!(
                    drawn.cards.is_empty(),
                    "{viewer:?} sees the cards seat {} drew",
                    drawn.seat
                );
            } else {
                assert_eq!(drawn.cards.len() as u32, drawn.count);
            }
        }
    }
}

#[test]
fn whole_games_are_played_from_the_legal_actions_and_nothing_leaks() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut coverage = Coverage::default();
        let mut reasons = BTreeSet::new();
        for seed in [1u64, 2, 3] {
            let recorded = play_recorded(&client, chuno(), 2, seed, 25).await;
            assert_eq!(recorded.game.variant, "chuno");
            for views in &recorded.views {
                for (view, viewer) in views.iter().zip(recorded.viewers()) {
                    check_view(view, viewer, &mut coverage);
                }
            }
            for histories in &recorded.histories {
                for (history, viewer) in histories.iter().zip(recorded.viewers()) {
                    check_events(&history.events, viewer, &mut coverage);
                }
            }
            let final_view = &recorded.last()[0];
            assert_eq!(chuno_view(final_view).stage(), pb::ChunoStage::Finished);
            let outcome = final_view.outcome.as_ref().expect("an outcome");
            reasons.insert(outcome.reason().as_str_name().to_string());

            // The finished history reveals every draw (and the committed seed, which
            // play_recorded checks).
            for event in chuno_events(&recorded.history.events) {
                if let ChunoEvent::CardsDrawn(drawn) = event {
                    assert_eq!(drawn.cards.len() as u32, drawn.count);
                }
            }
        }
        assert!(
            coverage.hidden_hands > 0 && coverage.hidden_draws > 0,
            "{coverage:?}"
        );
        eprintln!("endings: {reasons:?}");
    });
}

/// Plays random actions of the current player only (never the CHUNO call) until some seat's
/// call is pending outside its turn; returns that seat.
async fn play_until_a_call_is_pending_out_of_turn(game: &Game, picker: &mut Picker) -> usize {
    for _ in 0..3_000 {
        let views = observe_all(game).await;
        assert_eq!(
            views[0].status(),
            pb::GameStatus::InProgress,
            "the game ended before a call was due"
        );
        let observation = chuno_view(&views[0]);
        let current = observation.current_player as usize;
        if let Some(pending) = observation
            .chuno_pending
            .filter(|pending| *pending as usize != current)
        {
            return pending as usize;
        }
        let choices: Vec<&pb::Action> = views[current]
            .legal_actions
            .iter()
            .filter(|action| notation(action) != "chuno")
            .collect();
        let action = choices[picker.index(choices.len())].clone();
        game.seats[current]
            .act_with(action, ActOptions::expecting(views[0].version))
            .await
            .expect("a listed action");
    }
    panic!("no CHUNO call became due out of turn");
}

#[test]
fn a_chuno_call_sent_out_of_turn_is_accepted_and_a_missed_one_costs_two_cards() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;

        // The call, out of turn.
        let game = create(&client, 11).await;
        let mut picker = Picker::new(11);
        let obliged = play_until_a_call_is_pending_out_of_turn(&game, &mut picker).await;
        let before = game.seats[obliged].observe().await.unwrap();
        let listed: Vec<&str> = before.legal_actions.iter().map(notation).collect();
        assert_eq!(listed, ["chuno"], "outside its turn the seat may only call");
        assert!(before.to_act.contains(&(obliged as u32)));
        let call = chuno_action(pb::chuno_action::Kind::CallChuno(pb::ChunoCallChuno {}));
        let response = game.seats[obliged]
            .act_with(call, ActOptions::expecting(before.version))
            .await
            .expect("the out-of-turn call is accepted");
        assert_eq!(response.version, before.version + 1);
        let after = response.observation.expect("the caller's view");
        assert_eq!(chuno_view(&after).chuno_pending, None);
        assert!(chuno_events(&after.recent_events).any(|event| matches!(
            event,
            ChunoEvent::ChunoCalled(called) if called.seat == obliged as u32
        )));
        assert!(
            after.legal_actions.is_empty(),
            "nothing more to do out of turn"
        );

        // The same game state without the call: the opponent's action comes first.
        let game = create(&client, 11).await;
        let mut picker = Picker::new(11);
        let obliged = play_until_a_call_is_pending_out_of_turn(&game, &mut picker).await;
        let before = game.seats[obliged].observe().await.unwrap();
        let cards_before = chuno_view(&before).hand_counts[obliged];
        let current = chuno_view(&before).current_player as usize;
        let opponent_view = game.seats[current].observe().await.unwrap();
        let action = opponent_view.legal_actions[0].clone();
        let response = game.seats[current]
            .act_with(action, ActOptions::expecting(before.version))
            .await
            .expect("the opponent plays on");
        let view = response.observation.unwrap();
        assert!(chuno_events(&view.recent_events).any(|event| matches!(
            event,
            ChunoEvent::ChunoMissed(missed) if missed.seat == obliged as u32
        )));
        assert!(chuno_view(&view).hand_counts[obliged] >= cards_before + 2);
    });
}

/// An 18-card deck (the golden playthrough "deadlock stalemate" uses it with seed 39).
fn small_deck() -> pb::ChunoConfig {
    pb::ChunoConfig {
        zeros: Some(2),
        ones: Some(5),
        twos: Some(5),
        skips: Some(1),
        reverses: Some(1),
        draw_twos: Some(1),
        wilds: Some(2),
        wild_draw_fours: Some(1),
        ..Default::default()
    }
}

/// A CHUNO action sent as notation alone, its `kind` unset.
fn by_notation(text: &str) -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::Chuno(pb::ChunoAction {
            kind: None,
            notation: text.to_string(),
        })),
    }
}

#[test]
fn a_deadlock_ends_as_a_stalemate_and_actions_may_be_sent_as_notation() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let config = pb::GameConfig {
            game: Some(pb::game_config::Game::Chuno(small_deck())),
        };
        let game = client
            .create_game(config, 2, CreateOptions::default().with_seed(39))
            .await
            .expect("CreateGame");
        // White plays a Wild and a move, both draw, and White's Wild Draw Four takes the last card
        // there is: White's turn comes back with an empty deck, the top card alone on the pile and
        // nothing playable (§7).
        let plan = [
            (0, "play W G"),
            (0, "b2b3"),
            (1, "draw"),
            (0, "draw"),
            (1, "draw"),
            (0, "play W+4 G"),
        ];
        for (seat, text) in plan {
            game.seats[seat]
                .act(by_notation(text))
                .await
                .unwrap_or_else(|error| panic!("{text} of seat {seat}: {error}"));
        }
        let view = game.seats[0].observe().await.unwrap();
        assert_eq!(view.status(), pb::GameStatus::Finished);
        let outcome = view.outcome.clone().expect("an outcome");
        assert_eq!(outcome.reason(), pb::EndReason::Stalemate);
        assert!(outcome.draw && outcome.winners.is_empty());
        let observation = chuno_view(&view);
        assert_eq!(observation.stage(), pb::ChunoStage::Finished);
        assert_eq!(
            (observation.deck_count, observation.discard.len()),
            (0, 1),
            "nothing left to draw"
        );
        assert_eq!(observation.current_player, 0);
        assert!(view.legal_actions.is_empty() && view.meta_actions.is_empty());
    });
}

#[test]
fn options_out_of_range_are_refused_with_a_violation_naming_the_field() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let cases = [
            (
                pb::ChunoConfig {
                    colours: Some(5),
                    ..Default::default()
                },
                "config.chuno.colours",
            ),
            (
                pb::ChunoConfig {
                    wilds: Some(201),
                    ..Default::default()
                },
                "config.chuno.wilds",
            ),
            (
                pb::ChunoConfig {
                    max_turns: Some(0),
                    ..Default::default()
                },
                "config.chuno.max_turns",
            ),
            (
                // 14 coloured cards: two hands and no starting card.
                pb::ChunoConfig {
                    zeros: Some(0),
                    ones: Some(14),
                    twos: Some(0),
                    skips: Some(0),
                    reverses: Some(0),
                    draw_twos: Some(0),
                    ..Default::default()
                },
                "config.chuno",
            ),
        ];
        for (config, field) in cases {
            let config = pb::GameConfig {
                game: Some(pb::game_config::Game::Chuno(config)),
            };
            assert_config_refused(&client, config, field).await;
        }
        // The bounds themselves are accepted.
        let edge = pb::ChunoConfig {
            colours: Some(1),
            wilds: Some(200),
            max_turns: Some(1),
            no_progress_moves: Some(0),
            ..Default::default()
        };
        client
            .create_game(
                pb::GameConfig {
                    game: Some(pb::game_config::Game::Chuno(edge)),
                },
                2,
                CreateOptions::default(),
            )
            .await
            .expect("options at their bounds");
    });
}

/// A client that knows only server reflection and the envelope's field names plays to the end;
/// a CHUNO call due out of turn (§6) is the only time two seats have actions listed, and the
/// client then sends the call.
#[test]
fn a_reflection_only_client_plays_chuno_to_the_end() {
    run(async {
        let mut calls = 0;
        for seed in [5u64, 6] {
            let game = play_by_reflection("chuno", 2, seed).await;
            eprintln!(
                "seed {seed}: {} actions, {} CHUNO calls out of turn",
                game.version, game.shared_turns
            );
            calls += game.shared_turns;
        }
        assert!(calls > 0, "no CHUNO call was sent out of turn");
    });
}
