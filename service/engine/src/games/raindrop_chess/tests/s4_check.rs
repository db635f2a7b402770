//! §4 Check and legality: attacks from every piece, no action leaves the own King in check,
//! blocking by a flip, checkmate and stalemate as the rule file defines them.

use super::super::observation::Stage;
use super::super::{Action, Card, Event, JokerEffect, RaindropChess};
use super::support::{deck_with_top, play, position_state, sq};
use crate::game::{EndReason, Game, Outcome};
use crate::seat::Seat;

#[test]
fn s4_a_side_without_its_king_still_gives_check() {
    let state = position_state(&["Ke1", "Pa3", "re8"], [vec![], vec![]], Seat(0));
    assert!(state.position.in_check(crate::chess::Color::White));
    // Every chess move must leave the e-file (or capture); the pawn may not move.
    for action in RaindropChess::legal_actions(&state, Seat(0)) {
        let Action::Move(mv) = action else {
            panic!("no flip with an empty deck")
        };
        assert_eq!(mv.from, sq("e1"));
        assert_ne!(mv.to.file(), 4);
    }
}

#[test]
fn s4_pinned_pieces_may_not_expose_the_king() {
    let state = position_state(&["Ke1", "Re2", "re8", "ka8"], [vec![], vec![]], Seat(0));
    let rook_targets: Vec<_> = RaindropChess::legal_actions(&state, Seat(0))
        .into_iter()
        .filter_map(|action| match action {
            Action::Move(mv) if mv.from == sq("e2") => Some(mv.to),
            _ => None,
        })
        .collect();
    assert_eq!(rook_targets.len(), 6);
    assert!(rook_targets.iter().all(|square| square.file() == 4));
}

/// White K a1 with pawns a2, b2, checked by a rook on h1 along an empty first rank.
const BLOCKABLE: [&str; 5] = ["Ka1", "Pa2", "Pb2", "rh1", "kh8"];

#[test]
fn s4_checkmate_that_a_drop_could_block_is_not_mate() {
    let state = position_state(&BLOCKABLE, [deck_with_top(Card::Rook), vec![]], Seat(0));
    assert_eq!(state.outcome, None);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
}

#[test]
fn s4_a_flip_in_check_must_be_placed_as_a_blocker() {
    let mut state = position_state(&BLOCKABLE, [deck_with_top(Card::Knight), vec![]], Seat(0));
    play(&mut state, Seat(0), Action::Flip);
    let expected: Vec<Action> = ["b1", "c1", "d1", "e1", "f1", "g1"]
        .iter()
        .map(|name| Action::Place(sq(name)))
        .collect();
    assert_eq!(RaindropChess::legal_actions(&state, Seat(0)), expected);
    assert!(RaindropChess::apply(&mut state.clone(), Seat(0), &Action::Place(sq("e4"))).is_err());
    play(&mut state, Seat(0), Action::Place(sq("d1")));
    assert!(!state.position.in_check(crate::chess::Color::White));
}

#[test]
fn s4_a_flip_in_check_that_cannot_block_loses_at_once() {
    // A pawn may not stand on rank 1: it cannot block.
    let mut state = position_state(&BLOCKABLE, [deck_with_top(Card::Pawn), vec![]], Seat(0));
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::FlipFailed { seat: Seat(0) }));
    assert_eq!(
        state.outcome,
        Some(Outcome::win(Seat(1), EndReason::NoLegalAction))
    );
}

#[test]
fn s4_the_same_check_with_an_empty_deck_is_mate() {
    let state = position_state(&BLOCKABLE, [vec![], vec![Card::Pawn]], Seat(0));
    assert_eq!(
        state.outcome,
        Some(Outcome::win(Seat(1), EndReason::NoLegalAction))
    );
    assert!(RaindropChess::to_act(&state).is_empty());
}

#[test]
fn s4_knight_adjacent_and_double_checks_cannot_be_blocked() {
    let full = || deck_with_top(Card::Queen);
    // Knight check from f2; the knight on e2 guards g1.
    let knight = ["Kh1", "Pg2", "Ph2", "nf2", "ne2", "ka8"];
    // Adjacent queen on g1, guarded by the knight on e2.
    let adjacent = ["Kh1", "Pg2", "Ph2", "qg1", "ne2", "ka8"];
    // Two rooks check a1 at once, with empty squares between.
    let double = ["Ka1", "Pb2", "ra8", "rh1", "kh8"];
    for pieces in [&knight[..], &adjacent[..], &double[..]] {
        let state = position_state(pieces, [full(), vec![]], Seat(0));
        assert_eq!(
            state.outcome,
            Some(Outcome::win(Seat(1), EndReason::NoLegalAction)),
            "{pieces:?}"
        );
    }
}

#[test]
fn s4_stalemate_is_a_draw() {
    let state = position_state(&["Ka1", "qb3", "kh8"], [vec![], vec![Card::Pawn]], Seat(0));
    assert_eq!(state.outcome, Some(Outcome::draw(EndReason::NoLegalAction)));
}

#[test]
fn s4_not_in_check_any_flip_and_placement_is_legal() {
    let mut state = position_state(
        &["Ka1", "qb3", "kh8"],
        [deck_with_top(Card::Pawn), vec![]],
        Seat(0),
    );
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(RaindropChess::legal_actions(&state, Seat(0)).len(), 40 - 1);
}

#[test]
fn s4_an_extra_turn_joker_passes_the_duty_to_end_the_check() {
    let mut state = position_state(
        &BLOCKABLE,
        [vec![Card::Pawn, Card::Rook, Card::Joker], vec![]],
        Seat(0),
    );
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(state.current, Seat(0));
    assert_eq!(state.stage, Stage::Turn);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(state.stage, Stage::Place(Card::Rook));
}

#[test]
fn s4_a_remove_piece_joker_in_check_must_remove_the_checker_or_lose() {
    let mut state = position_state(&BLOCKABLE, [deck_with_top(Card::Joker), vec![]], Seat(0));
    state.config.joker_effect = JokerEffect::RemovePiece;
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Remove(sq("h1"))]
    );
    play(&mut state, Seat(0), Action::Remove(sq("h1")));
    assert!(!state.position.in_check(crate::chess::Color::White));
    // The rook on h1 backs up the checker on g1: no removal ends the check, so the flip loses.
    let mut backed = position_state(
        &["Ka1", "Pa2", "Pb2", "rg1", "rh1", "kh8"],
        [deck_with_top(Card::Joker), vec![]],
        Seat(0),
    );
    backed.config.joker_effect = JokerEffect::RemovePiece;
    let events = RaindropChess::apply(&mut backed, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::FlipFailed { seat: Seat(0) }));
    assert_eq!(
        backed.outcome,
        Some(Outcome::win(Seat(1), EndReason::NoLegalAction))
    );
}
