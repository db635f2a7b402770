//! §7 ambiguities and their resolutions.

use rand::SeedableRng;

use super::super::{Action, Config, Event, EventView, Phase, PigeonChess};
use super::support::*;
use crate::game::{Game, PlayError, SetupError};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, Viewer};

#[test]
fn s7_1_an_eight_card_deck_is_the_smallest_that_plays() {
    let eight = Config {
        deck: [4, 1, 1, 1, 0, 1],
        ..Config::default()
    };
    let (mut state, _) = PigeonChess::new_game(&eight, 2, Seed::from_u64(4)).unwrap();
    let mut rng = GameRng::seed_from_u64(4);
    while state.phase != Phase::Play && state.outcome.is_none() {
        random_step(&mut state, &mut rng);
    }
    assert!(state.decks.iter().all(Vec::is_empty));
    assert_eq!(state.hand_count(Seat(0)), 2);
    while random_step(&mut state, &mut rng).is_some() {}
    assert!(state.outcome.is_some());

    let seven = Config {
        deck: [4, 1, 1, 0, 0, 1],
        ..Config::default()
    };
    assert!(matches!(
        PigeonChess::new_game(&seven, 2, Seed::from_u64(4)),
        Err(SetupError::InvalidConfig { .. })
    ));
}

#[test]
fn s7_3_without_a_recorded_arrival_seat_0_goes_first_on_a_double_tie() {
    let mut state = rigged_setup([&[P, P, P, R, N], &[P, P, P, R, N]], [&[B; 3], &[B; 3]]);
    for seat in 0..2 {
        act(&mut state, seat, Action::PlaceFrontRow([P, P, P]));
    }
    act(&mut state, 1, Action::PlaceBackRow([B, B, B]));
    act(&mut state, 0, Action::PlaceBackRow([B, B, B]));
    assert_eq!(state.back_row_first, Some(Seat(1)));
    state.back_row_first = None;
    act(&mut state, 1, Action::RevealForFirst(N));
    act(&mut state, 0, Action::RevealForFirst(N));
    assert_eq!(state.first_player, Some(Seat(0)));
}

#[test]
fn s7_4_a_player_without_a_legal_action_passes_while_the_other_plays_on() {
    // Seat 1's two Pawns are stuck in front of seat 0's back row; seat 0's King roams.
    let mut state = position(
        0,
        &[
            up("a1", 0, P),
            up("c1", 0, P),
            up("b4", 0, K),
            up("a2", 1, P),
            up("c2", 1, P),
        ],
    );
    assert!(PigeonChess::legal_actions(&state, Seat(1)).is_empty());
    for (turn, (from, to)) in [("b4", "a4"), ("a4", "b4"), ("b4", "c4")]
        .iter()
        .enumerate()
    {
        let events = act(
            &mut state,
            0,
            Action::Move {
                from: sp(from),
                to: sp(to),
            },
        );
        assert_eq!(
            events[1..],
            [
                Event::TurnStarted {
                    seat: Seat(1),
                    turn: 2 * turn as u32 + 2
                },
                Event::Passed { seat: Seat(1) },
                Event::TurnStarted {
                    seat: Seat(0),
                    turn: 2 * turn as u32 + 3
                },
            ]
        );
        assert!(state.outcome.is_none());
        assert_eq!(state.current, Some(Seat(0)));
    }
    assert_eq!(state.turns_taken, 6);
}

#[test]
fn s7_5_a_king_is_alive_until_attacked_wherever_it_is() {
    let mut state = with_hands(
        position(0, &[up("a1", 0, R), up("b2", 0, P), up("c4", 1, P)]),
        [&[], &[K, P]],
    );
    assert!(state.king_alive(Seat(1)), "in hand");
    act(&mut state, 0, mv("a1", "a2"));
    act(
        &mut state,
        1,
        Action::Place {
            piece: K,
            spot: sp("a4"),
        },
    );
    assert!(state.king_alive(Seat(1)), "face down");
    // Seat 0's Rook cannot attack the face-down King.
    assert!(!moves_from(&state, 0, "a2").contains(&"a4".to_string()));
    act(&mut state, 0, mv("b2", "b3"));
    // Seat 1's turn: the King is turned up; it steps forward to a3.
    act(&mut state, 1, mv("a4", "a3"));
    assert!(state.king_alive(Seat(1)), "on the board");
    act(&mut state, 0, mv("a2", "a3"));
    assert!(!state.king_alive(Seat(1)), "attacked");
    assert_eq!(state.point_piles[0], [K]);
}

#[test]
fn s7_6_face_down_cards_block_and_are_turned_up_automatically() {
    let mut state = with_hands(
        position(1, &[up("a1", 0, Q), up("c3", 1, R), up("b4", 1, K)]),
        [&[P], &[B]],
    );
    let events = act(
        &mut state,
        1,
        Action::Place {
            piece: B,
            spot: sp("c4"),
        },
    );
    assert!(matches!(events[0], Event::Placed { .. }));
    assert!(state.card(sp("c4")).unwrap().face_down);
    act(
        &mut state,
        0,
        Action::Place {
            piece: P,
            spot: sp("c1"),
        },
    );
    let card = state.card(sp("c4")).unwrap();
    assert!(!card.face_down, "turned up at the start of seat 1's turn");
    // Seat 0's Pawn on c1 is still face down and blocks the Rook's path down the c file.
    assert!(state.card(sp("c1")).unwrap().face_down);
    assert_eq!(moves_from(&state, 1, "c3"), ["a3", "b3", "c2"]);
}

#[test]
fn s7_7_a_pawn_attacking_into_the_back_row_discards_the_card_then_scores() {
    let mut state = with_hands(
        position(0, &[up("b3", 0, P), up("a4", 1, Q), up("c4", 1, K)]),
        [&[P], &[P]],
    );
    let events = act(&mut state, 0, mv("b3", "a4"));
    assert_eq!(
        events[0],
        Event::Moved {
            seat: Seat(0),
            from: sp("b3"),
            to: sp("a4"),
            piece: P,
            captured: Some(Q),
            captured_scored: false,
            pawn_scored: true
        }
    );
    assert_eq!(state.discard, [Q]);
    assert_eq!(state.point_piles[0], [P]);
    assert!(state.card(sp("a4")).is_none());
}

#[test]
fn s7_8_placement_is_only_in_the_own_back_row() {
    let state = with_hands(position(1, &[up("b2", 0, K), up("b3", 1, K)]), [&[], &[R]]);
    let places: Vec<String> = PigeonChess::legal_actions(&state, Seat(1))
        .into_iter()
        .filter(|action| matches!(action, Action::Place { .. }))
        .map(|action| action.to_string())
        .collect();
    assert_eq!(places, ["place R@a4", "place R@b4", "place R@c4"]);
}

/// Seat 1's last card, a Pawn on b2, is stuck behind seat 0's King on b1, and seat 1 holds no
/// hand: ending the game is its only choice unless it may pass.
fn stuck_last_card() -> super::super::State {
    position(1, &[up("b1", 0, K), up("c3", 0, R), up("b2", 1, P)])
}

#[test]
fn s7_10_a_seat_whose_only_choice_is_to_end_the_game_may_pass_instead() {
    let mut state = stuck_last_card();
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(1)),
        [Action::EndGame, Action::Pass]
    );
    let events = act(&mut state, 1, Action::Pass);
    assert_eq!(
        events,
        [Event::PassedByChoice { seat: Seat(1) }, started(0, 2),]
    );
    assert!(state.outcome.is_none(), "the game goes on");
    assert_eq!(state.current, Some(Seat(0)));
    assert_eq!(state.turns_taken, 1);
    assert_eq!(state.turns_without_progress, 1);
    assert!(state.last_turn_passed);
    // The pass is public and reads the same for everyone.
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            PigeonChess::view_event(&events[0], viewer),
            Some(EventView::PassedByChoice { seat: Seat(1) })
        );
    }
    assert_eq!(Action::Pass.to_string(), "pass");

    // Once the King steps aside the Pawn can move again, and the pass is no longer listed.
    act(&mut state, 0, mv("b1", "a1"));
    let legal = PigeonChess::legal_actions(&state, Seat(1));
    assert!(legal.contains(&Action::EndGame));
    assert!(!legal.contains(&Action::Pass), "{legal:?}");
}

#[test]
fn s7_10_first_edition_games_keep_end_game_as_the_only_choice() {
    let mut state = first_edition(stuck_last_card());
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(1)),
        [Action::EndGame]
    );
    let before = state.clone();
    match PigeonChess::apply(&mut state, Seat(1), &Action::Pass) {
        Err(PlayError::Illegal(message)) => {
            assert!(
                message.contains("rules this game was created under"),
                "{message}"
            )
        }
        other => panic!("a pass was not refused: {other:?}"),
    }
    assert_eq!(state, before);
}

#[test]
fn s7_10_pass_is_refused_while_the_seat_has_anything_else_to_do() {
    let cases = [
        // The last card can move.
        position(1, &[up("a1", 0, K), up("c3", 0, R), up("b2", 1, P)]),
        // A second card that can move: the seat may not end the game either.
        position(
            1,
            &[
                up("b1", 0, K),
                up("c3", 0, R),
                up("b2", 1, P),
                up("a4", 1, R),
            ],
        ),
        // A card in hand to place.
        with_hands(stuck_last_card(), [&[], &[Q]]),
    ];
    for mut state in cases {
        assert!(
            !PigeonChess::legal_actions(&state, Seat(1)).contains(&Action::Pass),
            "{:?}",
            PigeonChess::legal_actions(&state, Seat(1))
        );
        let before = state.clone();
        match PigeonChess::apply(&mut state, Seat(1), &Action::Pass) {
            Err(PlayError::Illegal(message)) => {
                assert!(message.contains("one other choice"), "{message}")
            }
            other => panic!("a pass was not refused: {other:?}"),
        }
        assert_eq!(state, before);
    }
    // Nor is it a setup action, nor the opponent's to take.
    let mut setup = rigged_setup([&[P, P, P, R, N], &[P, P, P, R, N]], [&[B; 3], &[B; 3]]);
    assert!(matches!(
        PigeonChess::apply(&mut setup, Seat(0), &Action::Pass),
        Err(PlayError::Illegal(_))
    ));
    let mut state = stuck_last_card();
    assert_eq!(
        PigeonChess::apply(&mut state, Seat(0), &Action::Pass),
        Err(PlayError::NotYourTurn)
    );
}
