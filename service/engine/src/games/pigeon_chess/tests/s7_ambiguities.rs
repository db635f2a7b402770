//! §7 ambiguities and their resolutions.

use rand::SeedableRng;

use super::super::{Action, Config, Event, Phase, PigeonChess};
use super::support::*;
use crate::game::{Game, SetupError};
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;

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
        Err(SetupError::InvalidConfig(_))
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
    act(
        &mut state,
        0,
        Action::Move {
            from: sp("a1"),
            to: sp("a2"),
        },
    );
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
    act(
        &mut state,
        0,
        Action::Move {
            from: sp("b2"),
            to: sp("b3"),
        },
    );
    // Seat 1's turn: the King is turned up; it steps forward to a3.
    act(
        &mut state,
        1,
        Action::Move {
            from: sp("a4"),
            to: sp("a3"),
        },
    );
    assert!(state.king_alive(Seat(1)), "on the board");
    act(
        &mut state,
        0,
        Action::Move {
            from: sp("a2"),
            to: sp("a3"),
        },
    );
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
    let events = act(
        &mut state,
        0,
        Action::Move {
            from: sp("b3"),
            to: sp("a4"),
        },
    );
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
