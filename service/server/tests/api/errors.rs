//! The error model of the API (docs/ARCHITECTURE.md §3) through the SDK against a real server:
//! every error reason that can occur, each leaving the game exactly as it was, plus request-id
//! idempotency and the spectator policy.

use crate::common::{Picker, pigeon_chess};
use crate::server::{Server, run};
use crate::support::{phase, pigeon_action, play_random_until};
use deckmate::pb::pigeon_chess_action::Kind as PigeonKind;
use deckmate::{ActOptions, Client, CreateOptions, Error, Game, meta_action, pb};
use futures::StreamExt;
use tonic::Code;
use tonic::metadata::AsciiMetadataValue;
use tonic_types::StatusExt;

/// Everything a client can see of a game: every seat's view, the spectator's view, and the
/// spectator's history. A rejected request must leave all of it unchanged.
#[derive(Debug, PartialEq)]
struct Snapshot {
    seats: Vec<pb::ObserveResponse>,
    spectator: pb::ObserveResponse,
    history: pb::GetHistoryResponse,
}

async fn snapshot(client: &Client, game: &Game) -> Snapshot {
    let spectator = client.spectate(&game.id);
    Snapshot {
        seats: crate::common::observe_all(game).await,
        spectator: spectator.observe().await.expect("spectator view"),
        history: spectator.history().await.expect("spectator history"),
    }
}

/// A client and a fresh two-seat Pigeon Chess game with a fixed seed.
async fn start_game(seed: u64) -> (Client, Game) {
    let client = Server::shared().client().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(seed))
        .await
        .expect("create a game");
    assert_eq!(game.version, 0);
    assert_eq!(game.seats.len(), 2);
    (client, game)
}

/// Sends an `Act` with the raw generated client, so that the status code can be inspected;
/// `authorization` is the whole metadata value, if any.
async fn raw_act(
    client: &Client,
    game_id: &str,
    authorization: Option<&str>,
    action: Option<pb::Action>,
) -> tonic::Status {
    let mut request = tonic::Request::new(pb::ActRequest {
        game_id: game_id.to_string(),
        action,
        expected_version: None,
        request_id: deckmate::new_request_id(),
    });
    if let Some(value) = authorization {
        request.metadata_mut().insert(
            "authorization",
            AsciiMetadataValue::try_from(value).expect("ascii metadata"),
        );
    }
    client
        .raw()
        .act(request)
        .await
        .expect_err("the request must fail")
}

/// `text` with its middle character replaced by another letter or digit, keeping its shape.
fn tamper(text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let middle = chars.len() / 2;
    chars[middle] = if chars[middle] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

#[test]
fn malformed_create_requests_are_invalid() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;

        let empty = pb::GameConfig { game: None };
        let error = client
            .create_game(empty, 2, CreateOptions::default())
            .await
            .expect_err("a config without a game");
        assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");

        let error = client
            .create_game(pigeon_chess(), 7, CreateOptions::default())
            .await
            .expect_err("Pigeon Chess has two seats");
        assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");

        let status = client
            .raw()
            .create_game(pb::CreateGameRequest {
                config: Some(pigeon_chess()),
                seats: 2,
                seed: None,
                request_id: deckmate::new_request_id(),
                spectator_policy: 99,
                seat_options: Vec::new(),
                clock: None,
            })
            .await
            .expect_err("an unknown spectator policy");
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(reason(&status), "INVALID_REQUEST");
    });
}

#[test]
fn malformed_actions_are_invalid_and_change_nothing() {
    run(async {
        let (client, game) = start_game(1).await;
        let before = snapshot(&client, &game).await;
        let seat = &game.seats[0];

        let malformed = [
            ("an empty action", pb::Action { kind: None }),
            (
                "an empty Pigeon Chess action",
                pb::Action {
                    kind: Some(pb::action::Kind::PigeonChess(pb::PigeonChessAction {
                        kind: None,
                    })),
                },
            ),
            (
                "a move from an unknown spot",
                pigeon_action(PigeonKind::Move(pb::PigeonChessMove {
                    from: "z9".into(),
                    to: "a2".into(),
                })),
            ),
            (
                "a placement on an unknown spot",
                pigeon_action(PigeonKind::Place(pb::PigeonChessPlace {
                    piece: pb::PigeonChessPiece::Pawn.into(),
                    spot: "d7".into(),
                })),
            ),
            (
                "a meta action without a kind",
                pb::Action {
                    kind: Some(pb::action::Kind::Meta(pb::MetaAction { kind: 0 })),
                },
            ),
        ];
        for (what, action) in malformed {
            let error = seat
                .act_with(action, ActOptions::expecting(0))
                .await
                .expect_err(what);
            assert!(
                matches!(error, Error::InvalidRequest(_)),
                "{what}: {error:?}"
            );
        }

        let error = client
            .spectate("")
            .observe()
            .await
            .expect_err("an empty game id");
        assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");

        let token = format!("Bearer {}", seat.token());
        let status = raw_act(&client, &game.id, Some(&token), None).await;
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "an Act without an action"
        );
        assert_eq!(reason(&status), "INVALID_REQUEST");

        assert_eq!(snapshot(&client, &game).await, before);
    });
}

#[test]
fn an_unknown_game_is_not_found() {
    run(async {
        let (client, game) = start_game(2).await;
        // Shaped like a game id, but no game has it: the real id with its first digit changed.
        let first_digit = if game.id.starts_with('0') { "1" } else { "0" };
        let missing = format!("{first_digit}{}", &game.id[1..]);

        let error = client
            .spectate("not-a-game-id")
            .observe()
            .await
            .expect_err("an id of another shape");
        assert!(matches!(error, Error::GameNotFound(_)), "{error:?}");

        let spectator = client.spectate(missing.clone());
        let error = spectator.observe().await.expect_err("observe");
        assert!(matches!(error, Error::GameNotFound(_)), "{error:?}");
        let error = spectator.history().await.expect_err("history");
        assert!(matches!(error, Error::GameNotFound(_)), "{error:?}");
        let first = spectator.watch(0).next().await.expect("one item");
        assert!(matches!(first, Err(Error::GameNotFound(_))), "{first:?}");

        // A real token of another game does not make the game exist.
        let stray = client
            .seat(missing, 0, game.seats[0].token())
            .expect("a handle");
        let error = stray
            .act(meta_action(pb::MetaActionKind::Resign))
            .await
            .expect_err("act");
        assert!(matches!(error, Error::GameNotFound(_)), "{error:?}");
    });
}

#[test]
fn missing_and_wrong_tokens_are_refused() {
    run(async {
        let (client, game) = start_game(3).await;
        let before = snapshot(&client, &game).await;
        let action = game.seats[0].observe().await.expect("view").legal_actions[0].clone();

        let status = raw_act(&client, &game.id, None, Some(action.clone())).await;
        assert_eq!(status.code(), Code::Unauthenticated, "no token");
        assert_eq!(reason(&status), "BAD_TOKEN");

        let status = raw_act(&client, &game.id, Some("Basic abc"), Some(action.clone())).await;
        assert_eq!(status.code(), Code::Unauthenticated, "not a bearer token");
        assert_eq!(reason(&status), "BAD_TOKEN");

        let status = raw_act(
            &client,
            &game.id,
            Some("Bearer wrong"),
            Some(action.clone()),
        )
        .await;
        assert_eq!(status.code(), Code::Unauthenticated, "a malformed token");
        assert_eq!(reason(&status), "BAD_TOKEN");

        // A well-formed token that names no seat: the real one with one character changed.
        let tampered = tamper(game.seats[0].token());
        let status = raw_act(
            &client,
            &game.id,
            Some(&format!("Bearer {tampered}")),
            Some(action.clone()),
        )
        .await;
        assert_eq!(status.code(), Code::PermissionDenied, "a wrong token");
        assert_eq!(reason(&status), "BAD_TOKEN");

        // A seat token of another game.
        let other = client
            .create_game(pigeon_chess(), 2, CreateOptions::default())
            .await
            .expect("another game");
        let foreign = format!("Bearer {}", other.seats[0].token());
        let status = raw_act(&client, &game.id, Some(&foreign), Some(action.clone())).await;
        assert_eq!(
            status.code(),
            Code::PermissionDenied,
            "another game's token"
        );
        assert_eq!(reason(&status), "BAD_TOKEN");
        assert!(
            !status.message().contains(other.seats[0].token()),
            "the error echoes the token"
        );

        // Through the SDK the same failure is a typed error.
        let impostor = client.seat(&game.id, 0, "wrong").expect("a handle");
        let error = impostor.act(action).await.expect_err("wrong token");
        assert!(matches!(error, Error::BadToken(_)), "{error:?}");
        let error = impostor
            .observe()
            .await
            .expect_err("observe with a wrong token");
        assert!(matches!(error, Error::BadToken(_)), "{error:?}");

        assert_eq!(snapshot(&client, &game).await, before);
    });
}

#[test]
fn acting_out_of_turn_is_refused() {
    run(async {
        let (client, game) = start_game(4).await;

        // Setup: once seat 0 has chosen its front row it waits for seat 1.
        let view = game.seats[0].observe().await.expect("view");
        let choices = view.legal_actions.clone();
        assert!(choices.len() >= 2, "several front rows to choose from");
        game.seats[0]
            .act_with(choices[0].clone(), ActOptions::expecting(0))
            .await
            .expect("seat 0 chooses");
        let before = snapshot(&client, &game).await;
        assert!(before.seats[0].legal_actions.is_empty());
        assert_eq!(before.seats[0].to_act, vec![1]);
        let error = game.seats[0]
            .act_with(choices[1].clone(), ActOptions::expecting(1))
            .await
            .expect_err("seat 0 chooses again");
        assert!(matches!(error, Error::NotYourTurn(_)), "{error:?}");
        assert_eq!(snapshot(&client, &game).await, before);

        // Play: the seat that is not current may not move, even with a listed move.
        let mut picker = Picker::new(4);
        play_random_until(&game, &mut picker, |views| {
            phase(&views[0]) == pb::PigeonChessPhase::Play
        })
        .await;
        let views = crate::common::observe_all(&game).await;
        assert_eq!(phase(&views[0]), pb::PigeonChessPhase::Play, "play begins");
        let current = views[0].to_act.clone();
        assert_eq!(current.len(), 1, "one seat acts during play");
        let current = current[0] as usize;
        let waiting = 1 - current;
        assert!(views[waiting].legal_actions.is_empty());
        let before = snapshot(&client, &game).await;
        let error = game.seats[waiting]
            .act_with(
                views[current].legal_actions[0].clone(),
                ActOptions::expecting(views[0].version),
            )
            .await
            .expect_err("the waiting seat moves");
        assert!(matches!(error, Error::NotYourTurn(_)), "{error:?}");
        assert_eq!(snapshot(&client, &game).await, before);
    });
}

#[test]
fn illegal_actions_are_refused_without_trace() {
    run(async {
        let (client, game) = start_game(5).await;
        let before = snapshot(&client, &game).await;
        let seat = &game.seats[0];

        // Every deck holds one King, so no front row has three.
        let three_kings = pigeon_action(PigeonKind::PlaceFrontRow(pb::PigeonChessRow {
            pieces: vec![pb::PigeonChessPiece::King.into(); 3],
        }));
        // Moves belong to play, not to setup.
        let early_move = pigeon_action(PigeonKind::Move(pb::PigeonChessMove {
            from: "a2".into(),
            to: "a3".into(),
        }));
        // Back rows come after front rows.
        let hand = &crate::support::pigeon_view(&before.seats[0]).hand;
        let early_back_row = pigeon_action(PigeonKind::PlaceBackRow(pb::PigeonChessRow {
            pieces: hand[..3].to_vec(),
        }));
        for (what, action) in [
            ("three Kings", three_kings),
            ("a move during setup", early_move),
            ("a back row before the front row", early_back_row),
        ] {
            let listed = before.seats[0].legal_actions.contains(&action);
            assert!(!listed, "{what} is listed");
            let error = seat
                .act_with(action, ActOptions::expecting(0))
                .await
                .expect_err(what);
            assert!(
                matches!(error, Error::IllegalAction(_)),
                "{what}: {error:?}"
            );
        }
        assert_eq!(snapshot(&client, &game).await, before);
    });
}

#[test]
fn acting_after_the_end_is_game_over() {
    run(async {
        let (client, game) = start_game(6).await;
        let response = game.seats[0].resign().await.expect("seat 0 resigns");
        assert_eq!(response.version, 1);
        let view = response.observation.expect("the resigning seat's view");
        assert_eq!(view.status(), pb::GameStatus::Finished);
        let outcome = view.outcome.expect("an outcome");
        assert_eq!(outcome.winners, vec![1]);
        assert!(!outcome.draw);
        assert_eq!(outcome.reason(), pb::EndReason::Resignation);
        assert!(view.meta_actions.is_empty());

        let before = snapshot(&client, &game).await;
        assert!(
            !before.history.events.is_empty(),
            "the history holds the setup"
        );
        let error = game.seats[1].resign().await.expect_err("resign twice");
        assert!(matches!(error, Error::GameOver(_)), "{error:?}");
        let error = game.seats[0].offer_draw().await.expect_err("offer a draw");
        assert!(matches!(error, Error::GameOver(_)), "{error:?}");
        let row = pigeon_action(PigeonKind::PlaceFrontRow(pb::PigeonChessRow {
            pieces: vec![pb::PigeonChessPiece::Pawn.into(); 3],
        }));
        let error = game.seats[1].act(row).await.expect_err("a game action");
        assert!(matches!(error, Error::GameOver(_)), "{error:?}");
        assert_eq!(snapshot(&client, &game).await, before);
    });
}

#[test]
fn a_stale_expected_version_is_aborted() {
    run(async {
        let (client, game) = start_game(7).await;
        let mut picker = Picker::new(7);
        let played = play_random_until(&game, &mut picker, |views| views[0].version >= 3).await;
        assert_eq!(played.len(), 3);
        let before = snapshot(&client, &game).await;
        let (seat, view) = before
            .seats
            .iter()
            .enumerate()
            .find(|(_, view)| !view.legal_actions.is_empty())
            .expect("someone may act");
        let action = view.legal_actions[0].clone();
        for expected in [0, 2, 4, 100] {
            let error = game.seats[seat]
                .act_with(action.clone(), ActOptions::expecting(expected))
                .await
                .expect_err("a stale version");
            match error {
                Error::StaleVersion {
                    current_version, ..
                } => assert_eq!(current_version, Some(3), "expected {expected}"),
                other => panic!("expected {expected}: {other:?}"),
            }
        }
        assert_eq!(snapshot(&client, &game).await, before);
        // The right version still works.
        let response = game.seats[seat]
            .act_with(action, ActOptions::expecting(3))
            .await
            .expect("the current version");
        assert_eq!(response.version, 4);
    });
}

#[test]
fn a_repeated_act_request_id_is_applied_once_per_seat() {
    run(async {
        let (client, game) = start_game(8).await;
        let views = crate::common::observe_all(&game).await;
        let request_id = deckmate::new_request_id();
        let options = ActOptions::expecting(0).with_request_id(request_id.clone());

        let first = game.seats[0]
            .act_with(views[0].legal_actions[0].clone(), options.clone())
            .await
            .expect("first send");
        assert_eq!(first.version, 1);
        let after_first = snapshot(&client, &game).await;
        let again = game.seats[0]
            .act_with(views[0].legal_actions[0].clone(), options.clone())
            .await
            .expect("the repeat returns the first response");
        assert_eq!(again, first);
        // Without the version check, too.
        let again = game.seats[0]
            .act_with(
                views[0].legal_actions[0].clone(),
                ActOptions::default().with_request_id(request_id.clone()),
            )
            .await
            .expect("the repeat returns the first response");
        assert_eq!(again, first);
        assert_eq!(snapshot(&client, &game).await, after_first, "applied once");

        // The same id from the other seat is another request.
        let other = game.seats[1]
            .act_with(
                views[1].legal_actions[0].clone(),
                ActOptions::expecting(1).with_request_id(request_id),
            )
            .await
            .expect("seat 1's own request");
        assert_eq!(other.version, 2);
        assert_ne!(other, first);
        assert_eq!(game.seats[0].observe().await.expect("view").version, 2);
    });
}

#[test]
fn a_repeated_create_request_id_creates_one_game() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let request_id = deckmate::new_request_id();
        let options = CreateOptions::default()
            .with_seed(9)
            .with_request_id(request_id.clone());
        let first = client
            .create_game(pigeon_chess(), 2, options.clone())
            .await
            .expect("create");
        let second = client
            .create_game(pigeon_chess(), 2, options)
            .await
            .expect("create again");
        assert_eq!(second.id, first.id);
        assert_eq!(second.seed_commitment, first.seed_commitment);
        let tokens = |game: &Game| -> Vec<String> {
            game.seats
                .iter()
                .map(|seat| seat.token().to_string())
                .collect()
        };
        assert_eq!(tokens(&second), tokens(&first));

        // They are one game: an action through one is seen through the other.
        second.seats[0].resign().await.expect("resign");
        let view = first.seats[1].observe().await.expect("view");
        assert_eq!(view.version, 1);
        assert_eq!(view.status(), pb::GameStatus::Finished);

        let third = client
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(9))
            .await
            .expect("a fresh request id");
        assert_ne!(third.id, first.id);
        assert_ne!(tokens(&third), tokens(&first));
    });
}

#[test]
fn a_create_request_id_reused_for_another_request_is_refused() {
    run(async {
        let client = Server::shared().client().await;
        let request_id = deckmate::new_request_id();
        let options = |seed| {
            CreateOptions::default()
                .with_seed(seed)
                .with_request_id(request_id.clone())
        };
        let first = client
            .create_game(pigeon_chess(), 2, options(9))
            .await
            .expect("create");
        // Another seed, then another game, under the same id: neither gets the first game.
        let error = client
            .create_game(pigeon_chess(), 2, options(10))
            .await
            .expect_err("another seed under the same id");
        assert!(matches!(error, Error::RequestIdReused(_)), "{error:?}");
        assert!(
            !error.message().contains(&first.id),
            "the first game is not named: {error:?}"
        );
        let card_chess = pb::GameConfig {
            game: Some(pb::game_config::Game::CardChess(
                pb::CardChessConfig::default(),
            )),
        };
        let error = client
            .create_game(card_chess, 2, options(9))
            .await
            .expect_err("another game under the same id");
        assert!(matches!(error, Error::RequestIdReused(_)), "{error:?}");
        // The first request still gets its answer, and its game is untouched.
        let again = client
            .create_game(pigeon_chess(), 2, options(9))
            .await
            .expect("the same request again");
        assert_eq!(again.id, first.id);
        assert_eq!(again.version, 0);
        assert_eq!(
            first.seats[0].observe().await.expect("view").version,
            0,
            "nothing happened to the first game"
        );
    });
}

#[test]
fn an_act_request_id_reused_for_another_action_is_refused() {
    run(async {
        let (client, game) = start_game(11).await;
        let views = crate::common::observe_all(&game).await;
        let legal = &views[0].legal_actions;
        assert!(legal.len() >= 2, "seat 0 has a choice at the start");
        let request_id = deckmate::new_request_id();
        let options = ActOptions::default().with_request_id(request_id.clone());
        let first = game.seats[0]
            .act_with(legal[0].clone(), options.clone())
            .await
            .expect("first send");
        let after_first = snapshot(&client, &game).await;

        let error = game.seats[0]
            .act_with(legal[1].clone(), options.clone())
            .await
            .expect_err("another action under the same id");
        assert!(matches!(error, Error::RequestIdReused(_)), "{error:?}");
        let error = game.seats[0]
            .act_with(meta_action(pb::MetaActionKind::Resign), options.clone())
            .await
            .expect_err("a meta action under the same id");
        assert!(matches!(error, Error::RequestIdReused(_)), "{error:?}");
        assert_eq!(
            snapshot(&client, &game).await,
            after_first,
            "nothing changed"
        );

        // The first action under its id is still a retry, whatever version it expects.
        let again = game.seats[0]
            .act_with(
                legal[0].clone(),
                ActOptions::expecting(0).with_request_id(request_id),
            )
            .await
            .expect("the same action again");
        assert_eq!(again, first);
    });
}

#[test]
fn spectators_are_refused_when_the_policy_denies_them() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let denied = client
            .create_game(
                pigeon_chess(),
                2,
                CreateOptions::default().with_spectator_policy(pb::SpectatorPolicy::Denied),
            )
            .await
            .expect("create");
        let spectator = client.spectate(&denied.id);
        let error = spectator.observe().await.expect_err("observe");
        assert!(matches!(error, Error::BadToken(_)), "{error:?}");
        let error = spectator.history().await.expect_err("history");
        assert!(matches!(error, Error::BadToken(_)), "{error:?}");
        let first = spectator.watch(0).next().await.expect("one item");
        assert!(matches!(first, Err(Error::BadToken(_))), "{first:?}");
        // The seats still see the game.
        for seat in &denied.seats {
            let view = seat.observe().await.expect("a seat observes");
            assert_eq!(view.seat, Some(seat.seat()));
        }

        for policy in [
            pb::SpectatorPolicy::Unspecified,
            pb::SpectatorPolicy::Allowed,
        ] {
            let open = client
                .create_game(
                    pigeon_chess(),
                    2,
                    CreateOptions::default().with_spectator_policy(policy),
                )
                .await
                .expect("create");
            let view = client
                .spectate(&open.id)
                .observe()
                .await
                .expect("a spectator observes");
            assert_eq!(view.seat, None);
            assert!(view.legal_actions.is_empty());
            assert!(view.meta_actions.is_empty());
        }
    });
}
