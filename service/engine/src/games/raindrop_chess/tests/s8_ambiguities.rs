//! §8 Ambiguities: the recommended resolutions and their config flags.

use super::super::{Action, Card, ChessMove, Config, RaindropChess};
use super::support::{deck_with_top, game, play, position_state, sq};
use crate::chess::{Role, RoleSet};
use crate::game::Game;
use crate::seat::Seat;

#[test]
fn s8_1_decks_match_the_sixteen_pieces() {
    assert_eq!(Config::default().build_deck().len(), 16);
}

#[test]
fn s8_3_captured_promotion_pieces_return_only_with_the_option() {
    for returns in [false, true] {
        let mut state = position_state(&["Kh1", "Pa7", "kh6", "rb2"], [vec![], vec![]], Seat(0));
        state.config.captured_promotion_returns = returns;
        play(
            &mut state,
            Seat(0),
            Action::Move(ChessMove {
                from: sq("a7"),
                to: sq("a8"),
                promotion: Some(Role::Queen),
            }),
        );
        assert!(!state.pools[0].contains(Role::Queen));
        // Black's rook goes up the b-file and takes the queen along rank 8.
        play(
            &mut state,
            Seat(1),
            Action::Move(ChessMove {
                from: sq("b2"),
                to: sq("b8"),
                promotion: None,
            }),
        );
        play(
            &mut state,
            Seat(0),
            Action::Move(ChessMove {
                from: sq("h1"),
                to: sq("g2"),
                promotion: None,
            }),
        );
        play(
            &mut state,
            Seat(1),
            Action::Move(ChessMove {
                from: sq("b8"),
                to: sq("a8"),
                promotion: None,
            }),
        );
        assert_eq!(
            state.pools[0].contains(Role::Queen),
            returns,
            "option {returns}"
        );
        let expected = if returns {
            RoleSet::STANDARD_PROMOTIONS
        } else {
            RoleSet::STANDARD_PROMOTIONS.without(Role::Queen)
        };
        assert_eq!(state.pools[0], expected);
    }
}

#[test]
fn s8_4_bishop_cards_fix_the_square_colour_only_with_the_option() {
    let config = Config {
        bishop_card_fixes_square_colour: true,
        ..Config::default()
    };
    let deck = game(&config, 0).decks[0].clone();
    assert!(deck.contains(&Card::LightBishop) && deck.contains(&Card::DarkBishop));
    assert!(!deck.contains(&Card::Bishop));
    for (card, light) in [(Card::LightBishop, true), (Card::DarkBishop, false)] {
        let mut state = position_state(&[], [deck_with_top(card), vec![]], Seat(0));
        play(&mut state, Seat(0), Action::Flip);
        let squares = RaindropChess::legal_actions(&state, Seat(0));
        assert_eq!(squares.len(), 32);
        for action in squares {
            let Action::Place(square) = action else {
                panic!("placements only")
            };
            assert_eq!((square.file() + square.rank()) % 2 == 1, light);
        }
    }
}

#[test]
fn s8_6_a_piece_with_no_square_goes_to_the_bottom() {
    // See also §3: a King flipped when every empty square is attacked.
    let mut state = position_state(
        &["qa8", "qb8", "qc8", "qd8", "qe8", "qf8", "qg8", "qh8"],
        [vec![Card::Pawn, Card::King], vec![Card::Pawn]],
        Seat(0),
    );
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(state.decks[0], vec![Card::King, Card::Pawn]);
    assert_eq!(state.returned[0], 1);
}

#[test]
fn s8_8_a_side_without_its_king_gives_check() {
    let state = position_state(&["Ke1", "Pa3", "qe8"], [vec![], vec![Card::King]], Seat(0));
    assert!(state.position.in_check(crate::chess::Color::White));
}
