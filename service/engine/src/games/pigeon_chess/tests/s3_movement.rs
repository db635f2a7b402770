//! §3 movement table and attacking.

use super::super::{Action, Event, PigeonChess};
use super::support::*;
use crate::game::{Game, PlayError};
use crate::seat::Seat;

#[test]
fn s3_pawn_moves_one_forward_into_empty_only() {
    let state = position(0, &[up("b2", 0, P), up("a4", 1, K)]);
    assert_eq!(moves_from(&state, 0, "b2"), ["b3"], "never two spots");
    // A card straight ahead blocks, whatever it is; a Pawn does not attack straight.
    for blocker in [up("b3", 1, R), down("b3", 1, R), up("b3", 0, R)] {
        let state = position(0, &[up("b2", 0, P), blocker]);
        assert!(moves_from(&state, 0, "b2").is_empty());
    }
    // Seat 1 moves down the rows.
    let state = position(1, &[up("a3", 1, P), up("c1", 0, K)]);
    assert_eq!(moves_from(&state, 1, "a3"), ["a2"]);
}

#[test]
fn s3_pawn_attacks_one_spot_diagonally_forward_face_up_enemies_only() {
    let state = position(
        0,
        &[
            up("b2", 0, P),
            up("a3", 1, N),
            down("c3", 1, N),
            up("b3", 1, B),
            up("a1", 1, R),
            up("c1", 1, R),
        ],
    );
    // Not c3 (face down), not backwards (a1, c1), not straight (b3).
    assert_eq!(moves_from(&state, 0, "b2"), ["a3"]);
    let state = position(0, &[up("b2", 0, P), up("a3", 0, N), up("c3", 1, Q)]);
    assert_eq!(
        moves_from(&state, 0, "b2"),
        ["b3", "c3"],
        "never an own card"
    );
    // Diagonally forward for seat 1 is down the rows.
    let state = position(1, &[up("b3", 1, P), up("b2", 0, P), up("c2", 0, P)]);
    assert_eq!(moves_from(&state, 1, "b3"), ["c2"]);
}

#[test]
fn s3_knight_moves_in_an_l_and_is_the_only_piece_that_jumps() {
    let walled = [
        up("b2", 0, N),
        up("a2", 0, P),
        up("c2", 0, P),
        up("a3", 1, P),
        up("b3", 1, P),
        up("c3", 1, P),
        up("b1", 0, P),
    ];
    let state = position(0, &walled);
    assert_eq!(
        moves_from(&state, 0, "b2"),
        ["a4", "c4"],
        "jumps over row 3"
    );
    let state = position(0, &[up("a1", 0, N), up("a2", 0, P), up("b1", 0, P)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["b3", "c2"]);
    // Lands on a face-up enemy (attack), never on a face-down card or an own card.
    let state = position(0, &[up("a1", 0, N), up("b3", 1, R), down("c2", 1, R)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["b3"]);
    let state = position(0, &[up("a1", 0, N), up("b3", 0, R), up("c2", 1, R)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["c2"]);
}

#[test]
fn s3_bishop_moves_and_attacks_any_distance_diagonally() {
    let state = position(0, &[up("a1", 0, B)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["b2", "c3"]);
    let state = position(0, &[up("b2", 0, B)]);
    assert_eq!(moves_from(&state, 0, "b2"), ["a1", "a3", "c1", "c3"]);
    // Stops at the first card: attacks a face-up enemy, never passes it.
    let state = position(0, &[up("a1", 0, B), up("b2", 1, R), up("c3", 1, Q)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["b2"]);
    let state = position(0, &[up("a1", 0, B), down("b2", 1, R), up("c3", 1, Q)]);
    assert!(moves_from(&state, 0, "a1").is_empty());
}

#[test]
fn s3_rook_moves_and_attacks_any_distance_straight() {
    let state = position(0, &[up("a1", 0, R)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["a2", "a3", "a4", "b1", "c1"]);
    let state = position(0, &[up("a1", 0, R), up("a3", 1, N), down("b1", 1, N)]);
    assert_eq!(moves_from(&state, 0, "a1"), ["a2", "a3"]);
    let state = position(1, &[up("c4", 1, R), up("c2", 1, P), up("a4", 0, P)]);
    assert_eq!(moves_from(&state, 1, "c4"), ["a4", "b4", "c3"]);
}

#[test]
fn s3_queen_moves_straight_or_diagonally() {
    let state = position(0, &[up("b2", 0, Q)]);
    assert_eq!(
        moves_from(&state, 0, "b2"),
        ["a1", "a2", "a3", "b1", "b3", "b4", "c1", "c2", "c3"]
    );
    let state = position(0, &[up("b2", 0, Q), up("b3", 1, P), down("c3", 1, P)]);
    assert_eq!(
        moves_from(&state, 0, "b2"),
        ["a1", "a2", "a3", "b1", "b3", "c1", "c2"]
    );
}

#[test]
fn s3_king_steps_one_spot_in_any_direction() {
    let state = position(0, &[up("b2", 0, K)]);
    assert_eq!(
        moves_from(&state, 0, "b2"),
        ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    );
    let state = position(
        0,
        &[
            up("a1", 0, K),
            up("a2", 0, P),
            up("b2", 1, P),
            down("b1", 1, R),
        ],
    );
    assert_eq!(moves_from(&state, 0, "a1"), ["b2"]);
}

#[test]
fn s3_face_down_cards_cannot_move_be_attacked_or_be_passed() {
    let state = position(
        0,
        &[
            down("a1", 0, R),
            up("c1", 0, R),
            down("c3", 1, K),
            up("c4", 1, Q),
        ],
    );
    assert!(moves_from(&state, 0, "a1").is_empty(), "own face-down card");
    assert_eq!(moves_from(&state, 0, "c1"), ["b1", "c2"]);
}

#[test]
fn s3_an_attack_by_any_piece_but_a_pawn_scores_the_attacked_card() {
    let mut state = with_hands(
        position(0, &[up("a1", 0, R), up("a3", 1, N), up("c4", 1, P)]),
        [&[P], &[P]],
    );
    let events = act(&mut state, 0, mv("a1", "a3"));
    assert_eq!(
        events[0],
        Event::Moved {
            seat: Seat(0),
            from: sp("a1"),
            to: sp("a3"),
            piece: R,
            captured: Some(N),
            captured_scored: true,
            pawn_scored: false
        }
    );
    assert_eq!(state.card(sp("a3")).map(|card| card.piece), Some(R));
    assert!(state.card(sp("a1")).is_none());
    assert_eq!(state.point_piles[0], [N]);
    assert!(state.discard.is_empty());
}

#[test]
fn s3_a_pawn_attack_sends_the_card_to_the_group_discard_without_a_point() {
    let mut state = with_hands(
        position(0, &[up("b2", 0, P), up("c3", 1, Q), up("a4", 1, P)]),
        [&[P], &[P]],
    );
    let events = act(&mut state, 0, mv("b2", "c3"));
    assert!(matches!(
        events[0],
        Event::Moved {
            captured: Some(Q),
            captured_scored: false,
            pawn_scored: false,
            ..
        }
    ));
    assert_eq!(state.discard, [Q]);
    assert!(state.point_piles[0].is_empty());
    assert_eq!(state.card(sp("c3")).map(|card| card.owner), Some(Seat(0)));
}

#[test]
fn s3_a_pawn_reaching_the_opponents_back_row_scores_itself() {
    let mut state = with_hands(position(0, &[up("b3", 0, P), up("a4", 1, K)]), [&[P], &[P]]);
    let events = act(&mut state, 0, mv("b3", "b4"));
    assert!(matches!(
        events[0],
        Event::Moved {
            captured: None,
            pawn_scored: true,
            ..
        }
    ));
    assert!(state.card(sp("b4")).is_none() && state.card(sp("b3")).is_none());
    assert_eq!(state.point_piles[0], [P]);
    // Seat 1's pawns score on row 1.
    let mut state = with_hands(position(1, &[up("c2", 1, P), up("a1", 0, K)]), [&[P], &[P]]);
    act(&mut state, 1, mv("c2", "c1"));
    assert_eq!(state.point_piles[1], [P]);
}

#[test]
fn s3_a_king_can_be_attacked_like_any_card() {
    let mut state = with_hands(
        position(1, &[up("b4", 1, Q), up("b1", 0, K), up("c1", 0, P)]),
        [&[P], &[P]],
    );
    act(&mut state, 1, mv("b4", "b1"));
    assert_eq!(state.point_piles[1], [K]);
    assert!(state.king_attacked[0]);
    assert!(!state.king_alive(Seat(0)));
    assert!(state.king_alive(Seat(1)));
    assert!(
        state.outcome.is_none(),
        "no check or checkmate: play goes on"
    );
}

#[test]
fn s3_moves_outside_the_table_are_rejected_without_trace() {
    let mut state = with_hands(
        position(
            0,
            &[
                up("a1", 0, R),
                up("a2", 0, P),
                down("b1", 1, N),
                up("c4", 1, K),
                down("c1", 0, B),
            ],
        ),
        [&[P], &[P]],
    );
    let before = state.clone();
    for (from, to) in [
        ("a1", "a2"), // own card
        ("a1", "b1"), // face-down enemy
        ("a1", "c1"), // passes a face-down card
        ("a2", "a4"), // pawn two spots
        ("c1", "c2"), // face-down own card
        ("b1", "b2"), // the opponent's card
        ("b2", "b3"), // empty spot
        ("c4", "c3"), // the opponent's king
    ] {
        let action = Action::Move {
            from: sp(from),
            to: sp(to),
        };
        let result = PigeonChess::apply(&mut state, Seat(0), &action);
        assert!(matches!(result, Err(PlayError::Illegal(_))), "{action}");
        assert_eq!(state, before, "{action}");
    }
    assert_eq!(
        PigeonChess::apply(&mut state, Seat(1), &mv("c4", "c3")),
        Err(PlayError::NotYourTurn)
    );
    assert_eq!(state, before);
}
