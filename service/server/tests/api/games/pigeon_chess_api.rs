//! Pigeon Chess through the API (docs/rules/pigeon_chess.md): the chosen pass of §7.10 sent over
//! gRPC by the typed SDK and by a client that knows only server reflection, the `Passed` event it
//! produces as every viewer sees it, and out-of-range options (§10) and unreadable actions (§9)
//! refused as field violations.
//!
//! The games use the smallest deck the rules allow (§7.1) so that a seat with one stuck card
//! and no hand, the only position where a pass is listed, comes early: seed 208 under the
//! shared random player reaches it after 20 actions.

use crate::common::{Picker, observe_all};
use crate::reflection::{call, get, reflected_pool, request};
use crate::server::{Server, run};
use crate::support::{assert_action_refused, assert_config_refused};
use crate::support::{pigeon_action, pigeon_view, play_random_until};
use deckmate::pb::pigeon_chess_action::Kind as PigeonKind;
use deckmate::pb::pigeon_chess_event::Kind as PigeonEvent;
use deckmate::{ActOptions, Client, CreateOptions, Game, pb};
use prost_reflect::{DynamicMessage, ReflectMessage, Value};

/// The seed (and random player) whose game reaches a listed pass quickly.
const PASS_SEED: u64 = 208;

/// Eight cards per deck: 4 Pawns, a Knight, a Bishop, a Rook and the King.
fn small_deck() -> pb::PigeonChessConfig {
    pb::PigeonChessConfig {
        pawns: Some(4),
        knights: Some(1),
        bishops: Some(1),
        rooks: Some(1),
        queens: Some(0),
        kings: Some(1),
        ..Default::default()
    }
}

fn config(message: pb::PigeonChessConfig) -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(message)),
    }
}

/// The Pigeon Chess events of a list of events.
fn pigeon_events(events: &[pb::Event]) -> Vec<&PigeonEvent> {
    events
        .iter()
        .filter_map(|event| match &event.kind {
            Some(pb::event::Kind::PigeonChess(pb::PigeonChessEvent { kind: Some(kind) })) => {
                Some(kind)
            }
            _ => None,
        })
        .collect()
}

/// A game played by the shared random player until a seat is offered the pass; returns the game,
/// that seat and the version it saw.
async fn game_at_a_pass(client: &Client) -> (Game, usize, u64) {
    let game = client
        .create_game(
            config(small_deck()),
            2,
            CreateOptions::default().with_seed(PASS_SEED),
        )
        .await
        .expect("create a pigeon_chess game");
    let pass = pigeon_action(PigeonKind::Pass(pb::PigeonChessPass {}));
    let mut picker = Picker::new(PASS_SEED);
    let played = play_random_until(&game, &mut picker, |views| {
        views.iter().any(|view| view.legal_actions.contains(&pass))
    })
    .await;
    let views = observe_all(&game).await;
    let seat = views
        .iter()
        .position(|view| view.legal_actions.contains(&pass))
        .unwrap_or_else(|| panic!("no pass was listed in {} actions", played.len()));
    (game, seat, views[seat].version)
}

#[test]
fn a_seat_whose_only_choice_is_to_end_the_game_passes_through_grpc() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let (game, seat, version) = game_at_a_pass(&client).await;
        let views = observe_all(&game).await;
        let view = &views[seat];
        // §7.10: listed beside ending the game, and only then; the other seat is waiting.
        assert_eq!(
            view.legal_actions,
            [
                pigeon_action(PigeonKind::EndGame(pb::PigeonChessEndGame {})),
                pigeon_action(PigeonKind::Pass(pb::PigeonChessPass {})),
            ]
        );
        assert_eq!(view.to_act, [seat as u32]);
        assert!(views[1 - seat].legal_actions.is_empty());
        let observation = pigeon_view(view);
        assert_eq!(observation.phase(), pb::PigeonChessPhase::Play);
        assert_eq!(observation.hand.len(), 0);
        let own_cards = observation
            .board
            .iter()
            .filter(|spot| spot.owner == Some(seat as u32))
            .count();
        assert_eq!(own_cards, 1, "one card on the board");
        let turns_before = observation.turn;
        let quiet_before = observation.turns_without_progress;

        let response = game.seats[seat]
            .act_with(
                pigeon_action(PigeonKind::Pass(pb::PigeonChessPass {})),
                ActOptions::expecting(version),
            )
            .await
            .expect("the listed pass is accepted");
        assert_eq!(response.version, version + 1);
        let after = response.observation.expect("the passer's new view");
        let passed = pb::PigeonChessPassed {
            seat: seat as u32,
            by_choice: true,
        };
        assert_eq!(
            pigeon_events(&after.recent_events).first(),
            Some(&&PigeonEvent::Passed(passed)),
            "the pass comes first among the events of its version"
        );
        // The pass is public: the opponent and a spectator read the same event.
        let spectator = client.spectate(&game.id);
        for other in [
            game.seats[1 - seat].observe().await.expect("opponent view"),
            spectator.observe().await.expect("spectator view"),
        ] {
            assert_eq!(other.version, version + 1);
            assert!(
                pigeon_events(&other.recent_events).contains(&&PigeonEvent::Passed(passed)),
                "{:?}",
                other.recent_events
            );
        }
        let observation = pigeon_view(&after);
        assert!(observation.turn > turns_before, "the pass is a turn");
        if after.status() == pb::GameStatus::Finished {
            // The opponent had nothing to do either: two passes in a row (§5(b)).
            let outcome = after.outcome.as_ref().expect("an outcome");
            assert_eq!(outcome.reason(), pb::EndReason::NoLegalAction);
        } else {
            // A turn without progress (§5(e)), and the opponent's turn now.
            assert!(observation.turns_without_progress > quiet_before);
            assert_eq!(observation.current_player, Some(1 - seat as u32));
            assert!(after.legal_actions.is_empty());
            assert_eq!(after.to_act, [1 - seat as u32]);
        }

        // The game still plays to its end from the listed actions, and the finished history shows
        // the pass as the action it was.
        let mut picker = Picker::new(PASS_SEED ^ 1);
        let rest = play_random_until(&game, &mut picker, |_| false).await;
        assert!(rest.len() < 500, "the game ends");
        let history = spectator.history().await.expect("history");
        let sent = history
            .actions
            .get(version as usize)
            .expect("the pass is in the history");
        assert_eq!((sent.version, sent.seat), (version + 1, seat as u32));
        assert_eq!(
            sent.action,
            Some(pigeon_action(PigeonKind::Pass(pb::PigeonChessPass {})))
        );
    });
}

#[test]
fn a_reflection_only_client_sends_the_pass_by_field_names() {
    run(async {
        let server = Server::shared();
        let channel = server.channel().await;
        let pool = reflected_pool(channel.clone()).await;

        // The schema a reflection client discovers: `pass` is field 7 of the action's oneof, an empty
        // message, and the Passed event says whether it was chosen.
        let action = pool
            .get_message_by_name("deckmate.v1.PigeonChessAction")
            .expect("the action message is reflected");
        let field = action.get_field_by_name("pass").expect("a pass field");
        assert_eq!(field.number(), 7);
        assert_eq!(
            field
                .containing_oneof()
                .map(|oneof| oneof.name().to_string()),
            Some("kind".to_string())
        );
        let pass_message = field.kind().as_message().expect("a message").clone();
        assert_eq!(pass_message.full_name(), "deckmate.v1.PigeonChessPass");
        assert_eq!(pass_message.fields().count(), 0);
        let passed = pool
            .get_message_by_name("deckmate.v1.PigeonChessPassed")
            .expect("the event message is reflected");
        assert_eq!(
            passed.get_field_by_name("by_choice").map(|f| f.number()),
            Some(2)
        );

        // {"pigeonChess":{"pass":{}}}, built from names only.
        let client = server.client().await;
        let (game, seat, version) = game_at_a_pass(&client).await;
        let mut pigeon = DynamicMessage::new(action);
        pigeon.set_field_by_name("pass", Value::Message(DynamicMessage::new(pass_message)));
        let mut envelope = request(&pool, "Act");
        let mut wire_action = DynamicMessage::new(
            envelope
                .descriptor()
                .get_field_by_name("action")
                .and_then(|field| field.kind().as_message().cloned())
                .expect("Act takes an action"),
        );
        wire_action.set_field_by_name("pigeon_chess", Value::Message(pigeon));
        envelope.set_field_by_name("game_id", Value::String(game.id.clone()));
        envelope.set_field_by_name("action", Value::Message(wire_action));
        envelope.set_field_by_name("expected_version", Value::U64(version));
        let response = call(
            &channel,
            &pool,
            "Act",
            envelope,
            Some(game.seats[seat].token()),
        )
        .await
        .unwrap_or_else(|status| panic!("the pass was refused: {status:?}"));
        assert_eq!(get(&response, "version").as_u64(), Some(version + 1));
        let view = game.seats[seat].observe().await.expect("view");
        assert!(
            pigeon_events(&view.recent_events).contains(&&PigeonEvent::Passed(
                pb::PigeonChessPassed {
                    seat: seat as u32,
                    by_choice: true,
                }
            ))
        );
    });
}

#[test]
fn unreadable_options_and_actions_are_field_violations() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;

        let variant = super::variant(&client, "pigeon_chess").await;
        assert_eq!((variant.min_seats, variant.max_seats), (2, 2));
        assert_eq!(
            variant.default_config,
            Some(config(pb::PigeonChessConfig {
                pawns: Some(8),
                knights: Some(2),
                bishops: Some(2),
                rooks: Some(2),
                queens: Some(1),
                kings: Some(1),
                no_progress_turns: Some(20),
                max_turns: Some(300),
            }))
        );

        let cases = [
            (
                pb::PigeonChessConfig {
                    kings: Some(2),
                    ..Default::default()
                },
                "config.pigeon_chess.kings",
            ),
            (
                pb::PigeonChessConfig {
                    rooks: Some(65),
                    ..Default::default()
                },
                "config.pigeon_chess.rooks",
            ),
            (
                pb::PigeonChessConfig {
                    max_turns: Some(0),
                    ..Default::default()
                },
                "config.pigeon_chess.max_turns",
            ),
            (
                pb::PigeonChessConfig {
                    pawns: Some(1),
                    ..small_deck()
                },
                "config.pigeon_chess",
            ),
        ];
        for (message, field) in cases {
            assert_config_refused(&client, config(message), field).await;
        }
        // The smallest deck and the shortest game are accepted.
        let game = client
            .create_game(
                config(pb::PigeonChessConfig {
                    max_turns: Some(1),
                    no_progress_turns: Some(0),
                    ..small_deck()
                }),
                2,
                CreateOptions::default().with_seed(3),
            )
            .await
            .expect("the edges of the ranges are allowed");
        let view = game.seats[0].observe().await.expect("view");
        let effective = pigeon_view(&view).config.expect("the effective config");
        assert_eq!(effective.max_turns, Some(1));
        assert_eq!(effective.no_progress_turns, Some(0));
        assert_eq!(effective.queens, Some(0));

        // An action the server cannot read names its field too, and changes nothing.
        let unreadable = [
            (
                PigeonKind::Move(pb::PigeonChessMove {
                    from: "b2".into(),
                    to: "d9".into(),
                }),
                "action.pigeon_chess.move.to",
            ),
            (
                PigeonKind::PlaceFrontRow(pb::PigeonChessRow {
                    pieces: vec![pb::PigeonChessPiece::Pawn.into(); 2],
                }),
                "action.pigeon_chess.place_front_row.pieces",
            ),
        ];
        for (kind, field) in unreadable {
            assert_action_refused(&client, &game, 0, pigeon_action(kind), field).await;
        }
        assert_eq!(game.seats[0].observe().await.expect("view").version, 0);
    });
}
