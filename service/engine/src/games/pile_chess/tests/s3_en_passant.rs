//! §3 step 2 En passant (with §7.6): moving own Pawns between piles after Pawn-only plays.

use super::super::{Action, Config, PileChess, PublicEvent};
use super::support::*;
use crate::game::Game;
use crate::seat::Seat;

fn en_passant(from: u8, to: u8, pawns: u8) -> Action {
    Action::EnPassant {
        from: Seat(from),
        to: Seat(to),
        pawns,
    }
}

/// Seat 0 and seat 1 have each played Pawns; seat 0 is to act again.
fn after_pawn_plays(config: &Config) -> super::super::State {
    let mut state = table(config, 2, &[&[c(0, N)], &[c(1, B)]], 0);
    set_hand(&mut state, 0, &[P, P, R]);
    set_hand(&mut state, 1, &[P, P]);
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(P, 0));
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(P, 1));
    state
}

#[test]
fn s3_en_passant_moves_own_pawns_from_one_pile_to_another() {
    let mut state = after_pawn_plays(&Config::default());
    let legal = PileChess::legal_actions(&state, Seat(0));
    // Seat 0 has two Pawns on pile 1 and none on pile 0.
    assert!(legal.contains(&en_passant(1, 0, 1)));
    assert!(legal.contains(&en_passant(1, 0, 2)));
    assert!(!legal.contains(&en_passant(0, 1, 1)));
    assert!(!legal.contains(&en_passant(1, 0, 3)));
    let events = act(&mut state, 0, en_passant(1, 0, 2));
    assert_eq!(
        public(&events),
        vec![PublicEvent::EnPassant {
            seat: Seat(0),
            from: Seat(1),
            to: Seat(0),
            pawns: 2,
        }]
    );
    assert_eq!(state.pile(Seat(1)).unwrap().cards, vec![c(1, B), c(1, P)]);
    assert_eq!(
        state.pile(Seat(0)).unwrap().cards,
        vec![c(0, N), c(1, P), c(0, P), c(0, P)]
    );
    // It replaces playing a card, and counts as a play.
    assert_eq!(state.players[0].hand, hand(&[R]));
    assert_eq!(state.last_player, Some(Seat(0)));
}

#[test]
fn s3_en_passant_needs_pawn_only_plays_from_both_sides() {
    // Seat 0 has played nothing yet.
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 1);
    set_hand(&mut state, 0, &[P]);
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 1, play(P, 0));
    assert!(refused(&state, 0, en_passant(0, 1, 1)).contains("played Pawns only"));

    // Seat 0 played a Rook.
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 0);
    set_hand(&mut state, 0, &[R, P]);
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 0, play(R, 1));
    act(&mut state, 1, play(P, 0));
    assert!(refused(&state, 0, en_passant(0, 1, 1)).contains("played Pawns only"));

    // The opponent has played a non-Pawn.
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 0);
    set_hand(&mut state, 0, &[P, P]);
    set_hand(&mut state, 1, &[Q]);
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(Q, 1));
    assert!(refused(&state, 0, en_passant(1, 0, 1)).contains("opponent"));

    // Of two opponents one played a Rook and the other nothing.
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, B)], &[c(2, B)]], 0);
    set_hand(&mut state, 0, &[P, P]);
    set_hand(&mut state, 1, &[R]);
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(R, 2));
    act(&mut state, 2, Action::Pass);
    assert!(refused(&state, 0, en_passant(1, 0, 1)).contains("opponent"));
    assert!(
        !PileChess::legal_actions(&state, Seat(0))
            .iter()
            .any(|action| matches!(action, Action::EnPassant { .. }))
    );
}

#[test]
fn s3_en_passant_is_refused_for_a_pile_without_enough_own_pawns() {
    let state = after_pawn_plays(&Config::default());
    assert!(refused(&state, 0, en_passant(1, 0, 3)).contains("move 1 to 2"));
    assert!(refused(&state, 0, en_passant(0, 1, 1)).contains("move 1 to 0"));
    assert!(refused(&state, 0, en_passant(1, 1, 1)).contains("another pile"));
    assert!(refused(&state, 0, en_passant(1, 3, 1)).contains("no pile"));
}
