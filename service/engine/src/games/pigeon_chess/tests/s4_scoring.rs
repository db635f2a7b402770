//! §4 scoring.

use super::super::{Action, Config, PigeonChess};
use super::support::*;
use crate::game::{EndReason, Game};
use crate::seat::{Seat, SeatSet, Viewer};

#[test]
fn s4_score_is_the_point_pile_plus_three_for_a_living_king() {
    let mut state = position(0, &[up("a1", 0, K), up("c4", 1, R)]);
    state.point_piles = [vec![P, N], vec![R, R, B, Q]];
    state.king_attacked = [false, true];
    assert_eq!(state.score(Seat(0)), 2 + 3);
    assert_eq!(state.score(Seat(1)), 4);
    let view = PigeonChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.players[0].score, 5);
    assert!(view.players[0].king_alive && !view.players[1].king_alive);
    assert_eq!(view.players[1].point_pile, [R, R, B, Q]);
}

#[test]
fn s4_a_king_in_hand_or_face_down_still_counts_as_alive() {
    let state = with_hands(
        position(0, &[up("a2", 0, P), down("b4", 1, K)]),
        [&[K], &[]],
    );
    assert!(state.king_alive(Seat(0)) && state.king_alive(Seat(1)));
    assert_eq!(state.score(Seat(0)), 3);
    assert_eq!(state.score(Seat(1)), 3);
}

#[test]
fn s4_without_a_king_in_the_deck_there_is_no_bonus() {
    let mut state = position(0, &[up("a2", 0, P), up("b3", 1, P)]);
    state.config = Config {
        deck: [10, 2, 2, 2, 1, 0],
        ..Config::default()
    };
    assert!(!state.king_alive(Seat(0)));
    assert_eq!(state.score(Seat(0)), 0);
}

#[test]
fn s4_higher_score_wins_and_equal_scores_draw() {
    // Seat 0 attacks seat 1's King with its Rook and then ends the game: 1 + 3 against 0.
    let mut state = with_hands(
        position(
            0,
            &[
                up("a1", 0, R),
                up("a3", 1, K),
                up("c4", 1, P),
                up("c3", 1, P),
            ],
        ),
        [&[], &[P]],
    );
    act(&mut state, 0, mv("a1", "a3"));
    act(
        &mut state,
        1,
        Action::Place {
            piece: P,
            spot: sp("a4"),
        },
    );
    act(&mut state, 0, Action::EndGame);
    let outcome = PigeonChess::outcome(&state).unwrap();
    assert_eq!(outcome.scores, [4, 0]);
    assert_eq!(outcome.winners, SeatSet::only(Seat(0)));
    assert_eq!(outcome.reason, EndReason::PlayerEnded);

    let mut state = position(0, &[up("b2", 0, K), up("b4", 1, K), up("a4", 1, P)]);
    state.point_piles = [vec![P], vec![P]];
    act(&mut state, 0, Action::EndGame);
    let outcome = PigeonChess::outcome(&state).unwrap();
    assert_eq!(outcome.scores, [4, 4]);
    assert!(outcome.is_draw());
}
