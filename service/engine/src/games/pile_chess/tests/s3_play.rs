//! §3 step 2: plays and passes, the turn order, the round-ending rule and the next round's
//! first player.

use super::super::{Action, PileChess, PublicEvent, Step};
use super::support::*;
use crate::game::{Game, PlayError};
use crate::seat::{Seat, SeatSet};

#[test]
fn s3_step2_a_hand_card_may_go_on_the_own_pile_or_an_opponents() {
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 0);
    set_hand(&mut state, 0, &[R, P]);
    set_hand(&mut state, 1, &[Q]);
    let legal = PileChess::legal_actions(&state, Seat(0));
    assert_eq!(
        legal,
        vec![play(R, 0), play(R, 1), play(P, 0), play(P, 1), Action::Pass]
    );
    let events = act(&mut state, 0, play(R, 1));
    assert_eq!(
        public(&events),
        vec![PublicEvent::Played {
            seat: Seat(0),
            piece: R,
            pile: Seat(1),
        }]
    );
    assert_eq!(state.pile(Seat(1)).unwrap().cards, vec![c(1, B), c(0, R)]);
    act(&mut state, 1, play(Q, 1));
    assert_eq!(
        state.pile(Seat(1)).unwrap().cards,
        vec![c(1, B), c(0, R), c(1, Q)]
    );
}

#[test]
fn s3_step2_passing_is_always_legal_and_turns_alternate() {
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 0);
    assert_eq!(
        PileChess::legal_actions(&state, Seat(0)),
        vec![Action::Pass]
    );
    assert!(PileChess::legal_actions(&state, Seat(1)).is_empty());
    assert_eq!(
        PileChess::apply(&mut state.clone(), Seat(1), &Action::Pass),
        Err(PlayError::NotYourTurn)
    );
    act(&mut state, 0, Action::Pass);
    assert_eq!(PileChess::to_act(&state), SeatSet::only(Seat(1)));
}

#[test]
fn s3_step2_cards_not_held_and_missing_piles_are_refused_without_a_trace() {
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[]], 0);
    set_hand(&mut state, 0, &[R]);
    assert!(refused(&state, 0, play(Q, 0)).contains("you hold no Q"));
    assert!(refused(&state, 0, play(R, 1)).contains("no pile"));
    assert!(refused(&state, 0, play(R, Seat(7).0)).contains("no pile"));
    assert!(refused(&state, 0, Action::DeclinePromotion).contains("promotion"));
    assert!(refused(&state, 0, Action::Castle).contains("King"));
}

/// Plays the actions in order (`None` is a pass, `Some(pile)` plays the seat's Pawn on it),
/// starting with seat 0 of a two-player game, and returns after which action the round ended.
fn round_length(actions: &[Option<u8>]) -> Option<usize> {
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 0);
    set_hand(&mut state, 0, &[P, P, P]);
    set_hand(&mut state, 1, &[P, P, P]);
    for (index, action) in actions.iter().enumerate() {
        let seat = state.current.expect("someone is to act").0;
        let action = match action {
            None => Action::Pass,
            Some(pile) => play(P, *pile),
        };
        if round_ended(&act(&mut state, seat, action)) {
            return Some(index + 1);
        }
    }
    None
}

#[test]
fn s3_round_end_for_two_players_comes_with_the_first_pass_once_both_acted() {
    // The rule file's examples: Play, Pass / Pass, Pass / Pass, Play, Pass.
    assert_eq!(round_length(&[Some(1), None]), Some(2));
    assert_eq!(round_length(&[None, None]), Some(2));
    assert_eq!(round_length(&[None, Some(0), None]), Some(3));
    // A play is never the end, and neither is a first pass before the other has acted.
    assert_eq!(round_length(&[None, Some(0)]), None);
    assert_eq!(round_length(&[None]), None);
    assert_eq!(
        round_length(&[Some(1), Some(0), Some(1), Some(0), None]),
        Some(5)
    );
}

#[test]
fn s3_the_last_player_to_play_opens_the_next_round() {
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, B)], &[c(2, R)]], 0);
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 0, Action::Pass);
    act(&mut state, 1, play(P, 2));
    act(&mut state, 2, Action::Pass);
    let events = act(&mut state, 0, Action::Pass);
    assert!(round_ended(&events));
    assert!(public(&events).contains(&PublicEvent::RoundStarted {
        round: 2,
        first_player: Seat(1),
    }));
    assert_eq!(state.current, Some(Seat(1)));
    assert_eq!(
        PileChess::observe(&state, crate::seat::Viewer::Spectator).step,
        Step::Play
    );
}

#[test]
fn s3_turns_go_round_in_seat_order_from_the_first_player() {
    let mut state = table(
        &ffa(),
        4,
        &[&[c(0, N)], &[c(1, B)], &[c(2, R)], &[c(3, Q)]],
        2,
    );
    let mut order = Vec::new();
    for _ in 0..4 {
        let seat = state.current.unwrap();
        order.push(seat.0);
        set_hand(&mut state, seat.0, &[P]);
        act(&mut state, seat.0, play(P, seat.0));
    }
    assert_eq!(order, vec![2, 3, 0, 1]);
}
