//! §1 components and layout.

use super::super::state::{forward, row_spots};
use super::super::{Config, PigeonChess, RowSide};
use super::support::*;
use crate::chess::Role;
use crate::game::{Game, SetupError};
use crate::rng::Seed;
use crate::seat::Seat;

#[test]
fn s1_default_deck_is_a_sixteen_card_chess_army() {
    let config = Config::default();
    assert_eq!(config.deck_size(), 16);
    assert_eq!(
        [P, N, B, R, Q, K].map(|piece| config.count(piece)),
        [8, 2, 2, 2, 1, 1]
    );
    let (state, _) = PigeonChess::new_game(&config, 2, Seed::from_u64(3)).unwrap();
    for seat in 0..2 {
        let mut counts = state.hands[seat];
        for piece in &state.decks[seat] {
            counts[piece.index()] += 1;
        }
        assert_eq!(counts, config.deck, "seat {seat} owns exactly its deck");
    }
}

#[test]
fn s1_rows_belong_to_seats_as_in_the_layout_table() {
    let names = |seat: u8, side| row_spots(Seat(seat), side).map(|spot| spot.to_string());
    assert_eq!(names(0, RowSide::Back), ["a1", "b1", "c1"]);
    assert_eq!(names(0, RowSide::Front), ["a2", "b2", "c2"]);
    assert_eq!(names(1, RowSide::Front), ["a3", "b3", "c3"]);
    assert_eq!(names(1, RowSide::Back), ["a4", "b4", "c4"]);
}

#[test]
fn s1_forward_is_towards_the_opponents_back_row() {
    assert_eq!(forward(Seat(0)), 1);
    assert_eq!(forward(Seat(1)), -1);
    // A seat-1 pawn on b3 moves to b2, a seat-0 pawn on b2 to b3.
    let state = position(1, &[up("b3", 1, P), up("a1", 0, K)]);
    assert_eq!(moves_from(&state, 1, "b3"), ["b2"]);
    let state = position(0, &[up("b2", 0, P), up("a4", 1, K)]);
    assert_eq!(moves_from(&state, 0, "b2"), ["b3"]);
}

#[test]
fn s1_the_game_is_for_exactly_two_seats() {
    for seats in [0, 1, 3] {
        assert_eq!(
            PigeonChess::new_game(&Config::default(), seats, Seed::from_u64(0)).err(),
            Some(SetupError::SeatCount {
                min: 2,
                max: 2,
                requested: seats
            })
        );
    }
    assert_eq!(PigeonChess::SEATS, 2..=2);
}

#[test]
fn s1_config_is_validated_at_new_game() {
    let small = Config {
        deck: [5, 1, 0, 0, 0, 1],
        ..Config::default()
    };
    assert!(matches!(
        PigeonChess::new_game(&small, 2, Seed::from_u64(0)),
        Err(SetupError::InvalidConfig { .. })
    ));
    let two_kings = Config {
        deck: [8, 2, 2, 2, 1, 2],
        ..Config::default()
    };
    assert!(PigeonChess::new_game(&two_kings, 2, Seed::from_u64(0)).is_err());
    let no_turns = Config {
        max_turns: 0,
        ..Config::default()
    };
    assert!(PigeonChess::new_game(&no_turns, 2, Seed::from_u64(0)).is_err());
}

#[test]
fn s1_point_piles_and_group_discard_start_empty() {
    let (state, _) = PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(9)).unwrap();
    assert!(state.point_piles.iter().all(Vec::is_empty));
    assert!(state.discard.is_empty());
    assert!(state.board.iter().all(Option::is_none));
    assert_eq!(Role::ALL.len(), 6);
}
