//! §4 Check and legality: attacks from every piece, no action leaves the own King in check,
//! blocking by a flip, checkmate and stalemate as the rule file defines them.

use super::super::observation::Stage;
use super::super::{Action, Card, Config, Event, JokerEffect, RaindropChess, State};
use super::support::{deck_with_top, game_in, play, position_state, position_state_in, sq};
use crate::chess::{Color, Piece};
use crate::edition::Edition;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::won;
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
fn s4_a_flip_in_check_that_cannot_block_loses_at_once_as_checkmate() {
    // A pawn may not stand on rank 1: it cannot block. The loss is reported as checkmate
    // (§8.5); edition 1 reported it as no legal action (§10.2).
    for (edition, reason) in [
        (Edition::SECOND, EndReason::Checkmate),
        (Edition::FIRST, EndReason::NoLegalAction),
    ] {
        let mut state = position_state_in(
            edition,
            &BLOCKABLE,
            [deck_with_top(Card::Pawn), vec![]],
            Seat(0),
        );
        let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
        assert!(events.contains(&Event::FlipFailed { seat: Seat(0) }));
        assert_eq!(
            state.outcome,
            Some(Outcome::win(Seat(1), reason)),
            "{edition}"
        );
    }
}

#[test]
fn s4_the_same_check_with_an_empty_deck_is_reported_as_checkmate() {
    for (edition, reason) in [
        (Edition::SECOND, EndReason::Checkmate),
        (Edition::FIRST, EndReason::NoLegalAction),
    ] {
        let state = position_state_in(edition, &BLOCKABLE, [vec![], vec![Card::Pawn]], Seat(0));
        assert_eq!(
            state.outcome,
            Some(Outcome::win(Seat(1), reason)),
            "{edition}"
        );
        assert!(RaindropChess::to_act(&state).is_empty());
    }
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
            Some(Outcome::win(Seat(1), EndReason::Checkmate)),
            "{pieces:?}"
        );
    }
}

#[test]
fn s4_stalemate_is_a_draw_reported_as_stalemate() {
    for (edition, reason) in [
        (Edition::SECOND, EndReason::Stalemate),
        (Edition::FIRST, EndReason::NoLegalAction),
    ] {
        let state = position_state_in(
            edition,
            &["Ka1", "qb3", "kh8"],
            [vec![], vec![Card::Pawn]],
            Seat(0),
        );
        assert_eq!(state.outcome, Some(Outcome::draw(reason)), "{edition}");
    }
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
    assert_eq!(backed.outcome, won(1, EndReason::Checkmate));
}

/// The three checks no placement can block, White (seat 0) to move with its King in check.
/// A knight check from f2 (the knight on e2 guards g1); an adjacent queen on g1 guarded by that
/// knight; two rooks checking a1 at once. White has no chess move in any of them.
const UNBLOCKABLE: [&[&str]; 3] = [
    &["Kh1", "Pg2", "Ph2", "nf2", "ne2", "ka8"],
    &["Kh1", "Pg2", "Ph2", "qg1", "ne2", "ka8"],
    &["Ka1", "Pb2", "ra8", "rh1", "kh8"],
];

/// A state of `pieces` under `edition` with `jokers` per deck of `effect`, White to move with
/// `deck` (top last) after flipping `jokers_flipped` of its jokers; Black's deck is empty.
fn with_jokers(
    edition: Edition,
    pieces: &[&str],
    (jokers, jokers_flipped): (u8, usize),
    effect: JokerEffect,
    deck: Vec<Card>,
) -> State {
    let config = Config {
        jokers_per_deck: jokers,
        joker_effect: effect,
        ..Config::default()
    };
    let mut state = game_in(&config, 0, edition);
    for text in pieces {
        let mut chars = text.chars();
        let piece = Piece::from_fen_char(chars.next().expect("a letter")).expect("a piece");
        state
            .position
            .place(piece, sq(chars.as_str()))
            .expect("empty");
    }
    state.decks = [deck, vec![]];
    state.flipped = [vec![Card::Joker; jokers_flipped], vec![]];
    state.history.clear();
    super::super::end::begin_turn(&mut state, Seat(0));
    state
}

#[test]
fn s4_with_a_joker_left_in_the_deck_a_flip_is_legal_in_any_check() {
    // §4, §8.10: a joker might end any check (a removal, or an extra turn that passes the duty
    // on), and whether the next card is one is hidden. So the flip is offered in every check
    // while a joker is still in the deck, whatever card is on top.
    for effect in [JokerEffect::ExtraTurn, JokerEffect::RemovePiece] {
        for pieces in UNBLOCKABLE {
            for deck in [
                vec![Card::Joker, Card::Knight, Card::Pawn],
                vec![Card::Pawn, Card::Knight, Card::Joker],
            ] {
                let state = with_jokers(Edition::SECOND, pieces, (1, 0), effect, deck.clone());
                assert_eq!(state.outcome, None, "{pieces:?} {effect:?}: not mate");
                assert_eq!(
                    RaindropChess::legal_actions(&state, Seat(0)),
                    vec![Action::Flip],
                    "{pieces:?} {effect:?} {deck:?}"
                );
            }
        }
    }
}

#[test]
fn s4_an_unblockable_check_with_every_joker_flipped_is_checkmate() {
    // The only joker was flipped earlier: no card left can end the check.
    for effect in [JokerEffect::ExtraTurn, JokerEffect::RemovePiece] {
        for pieces in UNBLOCKABLE {
            let state = with_jokers(
                Edition::SECOND,
                pieces,
                (1, 1),
                effect,
                vec![Card::Pawn, Card::Knight],
            );
            assert_eq!(
                state.outcome,
                Some(Outcome::win(Seat(1), EndReason::Checkmate)),
                "{pieces:?}"
            );
        }
    }
}

#[test]
fn s4_a_card_flipped_in_an_unblockable_check_loses_unless_a_joker_ends_it() {
    let knight = UNBLOCKABLE[0];
    // A piece card cannot block a knight: the flipper loses, as by checkmate.
    let mut state = with_jokers(
        Edition::SECOND,
        knight,
        (1, 0),
        JokerEffect::RemovePiece,
        vec![Card::Joker, Card::Rook],
    );
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::FlipFailed { seat: Seat(0) }));
    assert_eq!(state.outcome, won(1, EndReason::Checkmate));
    // A REMOVE_PIECE joker takes the checking knight off, and only that.
    let mut state = with_jokers(
        Edition::SECOND,
        knight,
        (1, 0),
        JokerEffect::RemovePiece,
        vec![Card::Rook, Card::Joker],
    );
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Remove(sq("f2"))]
    );
    play(&mut state, Seat(0), Action::Remove(sq("f2")));
    assert!(!state.position.in_check(Color::White));
    assert_eq!(state.outcome, None);
    // An EXTRA_TURN joker passes the duty on: the extra turn starts in the same check, and with
    // no joker left and no chess move it is checkmate.
    let mut state = with_jokers(
        Edition::SECOND,
        knight,
        (1, 0),
        JokerEffect::ExtraTurn,
        vec![Card::Rook, Card::Joker],
    );
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::ExtraTurn { seat: Seat(0) }));
    assert_eq!(state.outcome, won(1, EndReason::Checkmate));
    // With a second joker left the extra turn may flip again.
    let mut state = with_jokers(
        Edition::SECOND,
        knight,
        (2, 0),
        JokerEffect::ExtraTurn,
        vec![Card::Joker, Card::Rook, Card::Joker],
    );
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(state.outcome, None);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
}

#[test]
fn s4_first_edition_offers_the_flip_in_check_only_when_a_placement_could_block() {
    // §10.1: edition 1 ignored the jokers left: the unblockable checks are mate at once.
    for effect in [JokerEffect::ExtraTurn, JokerEffect::RemovePiece] {
        for pieces in UNBLOCKABLE {
            let state = with_jokers(
                Edition::FIRST,
                pieces,
                (1, 0),
                effect,
                vec![Card::Pawn, Card::Joker],
            );
            assert_eq!(
                state.outcome,
                Some(Outcome::win(Seat(1), EndReason::NoLegalAction)),
                "{pieces:?}"
            );
        }
    }
    // With a chess move left, the move is offered and the flip is not.
    let pieces = ["Kh1", "Ph2", "nf2", "ka8"];
    let state = with_jokers(
        Edition::FIRST,
        &pieces,
        (1, 0),
        JokerEffect::RemovePiece,
        vec![Card::Pawn, Card::Joker],
    );
    let actions = RaindropChess::legal_actions(&state, Seat(0));
    assert!(!actions.is_empty());
    assert!(!actions.contains(&Action::Flip));
    let latest = with_jokers(
        Edition::SECOND,
        &pieces,
        (1, 0),
        JokerEffect::RemovePiece,
        vec![Card::Pawn, Card::Joker],
    );
    let mut expected = vec![Action::Flip];
    expected.extend(actions);
    assert_eq!(RaindropChess::legal_actions(&latest, Seat(0)), expected);
}
