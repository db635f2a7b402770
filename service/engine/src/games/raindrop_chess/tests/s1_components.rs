//! §1 Components: 16-card decks, optional jokers, the promotion pool.

use super::super::{Card, Config, RaindropChess};
use super::support::game;
use crate::chess::Role;
use crate::game::Game;
use crate::seat::{Seat, Viewer};

#[test]
fn s1_each_deck_holds_the_sixteen_pieces_of_an_army() {
    let state = game(&Config::default(), 3);
    for deck in &state.decks {
        let mut cards = deck.clone();
        cards.sort();
        let mut expected = vec![Card::Pawn; 8];
        expected.extend([Card::Knight, Card::Knight, Card::Bishop, Card::Bishop]);
        expected.extend([Card::Rook, Card::Rook, Card::Queen, Card::King]);
        assert_eq!(cards, expected);
    }
}

#[test]
fn s1_jokers_are_shuffled_in_only_when_configured() {
    for jokers in 0..=2u8 {
        let config = Config {
            jokers_per_deck: jokers,
            ..Config::default()
        };
        let state = game(&config, 1);
        for deck in &state.decks {
            assert_eq!(deck.len(), 16 + usize::from(jokers));
            let found = deck.iter().filter(|card| **card == Card::Joker).count();
            assert_eq!(found, usize::from(jokers));
        }
    }
    let config = Config {
        jokers_per_deck: 3,
        ..Config::default()
    };
    assert!(RaindropChess::new_game(&config, 2, crate::rng::Seed::from_u64(0)).is_err());
}

#[test]
fn s1_pieces_start_off_the_board_and_pools_are_full() {
    let state = game(&Config::default(), 0);
    let observation = RaindropChess::observe(&state, Viewer::Seat(Seat(0)));
    assert!(observation.board.iter().all(Option::is_none));
    for side in &observation.sides {
        assert_eq!(
            side.promotion_pool,
            vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        );
        assert_eq!(side.deck_count, 16);
        assert!(!side.king_placed);
    }
}
