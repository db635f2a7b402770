//! §3 step 2 Castle: the Rook takes the King's place on the own pile.

use super::super::state::Pile;
use super::super::{Action, PileChess, PileSource, PublicEvent};
use super::support::*;
use crate::game::Game;
use crate::seat::Seat;

/// Seat 0 opened its pile with its King from the deck top and holds a Rook.
fn king_pile() -> super::super::State {
    let mut state = table(&ffa(), 2, &[&[c(0, K)], &[c(1, N)]], 0);
    set_hand(&mut state, 0, &[R, P]);
    state
}

#[test]
fn s3_castling_puts_the_rook_in_the_kings_place_and_the_king_in_hand() {
    let mut state = king_pile();
    assert!(PileChess::legal_actions(&state, Seat(0)).contains(&Action::Castle));
    let events = act(&mut state, 0, Action::Castle);
    assert_eq!(
        public(&events),
        vec![PublicEvent::Castled { seat: Seat(0) }]
    );
    assert_eq!(state.pile(Seat(0)).unwrap().cards, vec![c(0, R)]);
    assert_eq!(state.players[0].hand, hand(&[K, P]));
    assert!(state.players[0].castled);
    // It is a play: it was the seat's action and it makes the seat the last player.
    assert_eq!(state.last_player, Some(Seat(0)));
    assert_eq!(state.current, Some(Seat(1)));
}

#[test]
fn s3_castling_happens_at_most_once_per_game() {
    let mut state = king_pile();
    state.players[0].castled = true;
    assert!(!PileChess::legal_actions(&state, Seat(0)).contains(&Action::Castle));
    assert!(refused(&state, 0, Action::Castle).contains("castled already"));
}

#[test]
fn s3_castling_must_be_the_first_action_of_the_round() {
    let mut state = king_pile();
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 0, Action::Pass);
    act(&mut state, 1, play(P, 1));
    assert!(!PileChess::legal_actions(&state, Seat(0)).contains(&Action::Castle));
    assert!(refused(&state, 0, Action::Castle).contains("first action"));
}

#[test]
fn s3_castling_needs_the_king_revealed_from_the_deck_top() {
    let mut state = king_pile();
    state.piles[0] = Some(Pile {
        cards: vec![c(0, K)],
        source: PileSource::RandomFromHand,
    });
    assert!(refused(&state, 0, Action::Castle).contains("top of your deck"));
    let mut state = king_pile();
    state.piles[0] = Some(Pile {
        cards: vec![c(0, Q)],
        source: PileSource::DeckTop,
    });
    assert!(refused(&state, 0, Action::Castle).contains("top of your deck"));
}

#[test]
fn s3_castling_is_refused_once_a_card_was_played_on_the_kings_pile() {
    let mut state = table(&ffa(), 2, &[&[c(0, K)], &[c(1, N)]], 1);
    set_hand(&mut state, 0, &[R]);
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 1, play(P, 0));
    assert!(refused(&state, 0, Action::Castle).contains("played on your pile"));
}

#[test]
fn s3_castling_needs_a_rook_in_hand() {
    let mut state = king_pile();
    set_hand(&mut state, 0, &[Q, B]);
    assert!(!PileChess::legal_actions(&state, Seat(0)).contains(&Action::Castle));
    assert!(refused(&state, 0, Action::Castle).contains("no Rook"));
}
