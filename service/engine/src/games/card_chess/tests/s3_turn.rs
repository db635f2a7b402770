//! §3 turn: play in (A), exchange (B), move (C), the end-of-turn refill and reshuffle, and the
//! check rule. Includes the seed's example move "black castle 1 to black kingdom 1".

use super::super::{Action, CardChess, Event, Phase};
use super::support::*;
use crate::game::{Game, PlayError};
use crate::seat::{Seat, SeatSet, Viewer};

fn play_in(card: &str, spot: &str) -> Action {
    Action::PlayIn {
        card: c(card),
        spot: sp(spot),
    }
}

fn rejected(state: &super::super::State, seat: u8, action: Action) -> String {
    let mut copy = state.clone();
    match CardChess::apply(&mut copy, Seat(seat), &action) {
        Err(PlayError::Illegal(message)) => {
            assert_eq!(&copy, state, "a rejected {action} changed the state");
            message
        }
        other => panic!("{action} should be illegal, got {other:?}"),
    }
}

#[test]
fn s3a_play_in_puts_an_own_coloured_hand_card_on_a_free_castle_spot() {
    let mut state = position(0, &[]);
    set_hand(&mut state, 0, &["7H", "3S", "KD", "7H", "2C"]);
    let play_ins: Vec<Action> = CardChess::legal_actions(&state, Seat(0))
        .into_iter()
        .filter(|action| matches!(action, Action::PlayIn { .. }))
        .collect();
    // Two distinct red cards (the two 7H are one choice) on the five castle spots.
    assert_eq!(play_ins.len(), 10);
    assert!(play_ins.contains(&play_in("KD", "red castle 5")));
    assert!(!play_ins.iter().any(|action| matches!(action,
        Action::PlayIn { card, .. } if *card == c("3S") || *card == c("2C"))));

    let events = act(&mut state, 0, play_in("7H", "red castle 3"));
    assert_eq!(
        events[0],
        Event::PlayedIn {
            seat: Seat(0),
            card: c("7H"),
            spot: sp("red castle 3")
        }
    );
    let here = state.spot(sp("red castle 3"));
    assert_eq!(here.piece, Some(c("7H")));
    assert!(
        !here.base_known,
        "the base card stays face down under the piece"
    );
    assert_eq!(state.hands[0].len(), 5, "refilled to five");
    assert_eq!(
        state.hands[0]
            .iter()
            .filter(|card| **card == c("7H"))
            .count(),
        1
    );
    assert_eq!(state.pieces_in_play(Seat(0)), 1);
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(1)));
}

#[test]
fn s3a_play_in_needs_own_colour_a_held_card_a_free_own_castle_spot_and_fewer_than_five_in_play() {
    let mut state = position(0, &[("red castle 1", "2H"), ("red castle 2", "JS")]);
    set_check(&mut state, "red castle 2");
    set_hand(&mut state, 0, &["7H", "3S", "KD", "9D", "2C"]);
    assert!(rejected(&state, 0, play_in("3S", "red castle 3")).contains("red"));
    assert!(rejected(&state, 0, play_in("AH", "red castle 3")).contains("do not hold"));
    assert!(rejected(&state, 0, play_in("7H", "red kingdom 3")).contains("castle"));
    assert!(rejected(&state, 0, play_in("7H", "black castle 3")).contains("castle"));
    assert!(rejected(&state, 0, play_in("7H", "red castle 1")).contains("not free"));
    assert!(rejected(&state, 0, play_in("7H", "red castle 2")).contains("not free"));

    // Five pieces in play: no play-in. A piece in check does not count.
    let mut full = position(
        0,
        &[
            ("red kingdom 1", "2H"),
            ("red kingdom 2", "3H"),
            ("red kingdom 3", "4H"),
            ("red kingdom 4", "5H"),
            ("black castle 5", "6H"),
        ],
    );
    set_check(&mut full, "black castle 5");
    set_hand(&mut full, 0, &["7H", "8H", "9H", "10H", "JH"]);
    assert_eq!(full.pieces_in_play(Seat(0)), 4);
    assert!(
        CardChess::legal_actions(&full, Seat(0))
            .iter()
            .any(|action| matches!(action, Action::PlayIn { .. }))
    );
    full.board[sp("middle 1").index()].piece = Some(c("KH"));
    assert_eq!(full.pieces_in_play(Seat(0)), 5);
    assert!(
        !CardChess::legal_actions(&full, Seat(0))
            .iter()
            .any(|action| matches!(action, Action::PlayIn { .. }))
    );
    assert!(rejected(&full, 0, play_in("7H", "red castle 1")).contains("5 pieces"));
}

#[test]
fn s3b_exchange_shows_and_discards_the_hand_and_draws_five_but_never_twice_in_a_row() {
    let mut state = position(0, &[("middle 1", "KH"), ("middle 5", "KS")]);
    set_hand(&mut state, 0, &["7H", "3S", "KD", "9D", "2C"]);
    let top: Vec<_> = state.draw_pile.iter().rev().take(5).copied().collect();
    let events = act(&mut state, 0, Action::Exchange);
    assert_eq!(
        events[0],
        Event::Exchanged {
            seat: Seat(0),
            cards: cards(&["2C", "3S", "7H", "9D", "KD"]),
        }
    );
    assert_eq!(state.discard, cards(&["2C", "3S", "7H", "9D", "KD"]));
    assert_eq!(
        events[1],
        Event::CardsDrawn {
            seat: Seat(0),
            cards: top.clone()
        }
    );
    let mut expected = top;
    expected.sort_unstable();
    assert_eq!(state.hands[0], expected);
    let view = CardChess::observe(&state, Viewer::Seat(Seat(1)));
    assert!(view.players[0].exchanged_last_turn);

    act(&mut state, 1, mv("middle 5", "middle 4"));
    assert!(!CardChess::legal_actions(&state, Seat(0)).contains(&Action::Exchange));
    assert!(rejected(&state, 0, Action::Exchange).contains("twice in a row"));
    // Another kind of action in between allows it again.
    act(&mut state, 0, mv("middle 1", "middle 2"));
    act(&mut state, 1, mv("middle 4", "middle 5"));
    assert!(CardChess::legal_actions(&state, Seat(0)).contains(&Action::Exchange));
}

#[test]
fn s3c_a_piece_moves_to_a_spot_without_a_piece_and_the_base_there_stays_face_down() {
    let mut state = position(0, &[("middle 3", "KH")]);
    let events = act(&mut state, 0, mv("middle 3", "black kingdom 3"));
    assert_eq!(
        events[0],
        Event::Moved {
            seat: Seat(0),
            from: sp("middle 3"),
            to: sp("black kingdom 3"),
            piece: c("KH"),
            jump: false
        }
    );
    assert_eq!(state.piece(sp("middle 3")), None);
    assert_eq!(state.piece(sp("black kingdom 3")), Some(c("KH")));
    assert!(!state.spot(sp("black kingdom 3")).base_known);
    assert!(
        rejected(
            &position(0, &[("middle 3", "KS")]),
            0,
            mv("middle 3", "middle 4")
        )
        .contains("no piece of yours")
    );
}

#[test]
fn s3_seed_example_black_castle_1_to_black_kingdom_1() {
    let mut state = position(1, &[("black castle 1", "7S")]);
    assert_eq!(
        moves_from(&state, 1, "black castle 1"),
        names(&["black kingdom 1"])
    );
    act(&mut state, 1, mv("black castle 1", "black kingdom 1"));
    assert_eq!(state.piece(sp("black kingdom 1")), Some(c("7S")));
}

#[test]
fn s3_end_of_turn_refills_to_five_reshuffling_the_discard_pile_when_the_draw_pile_runs_out() {
    let mut state = position(0, &[]);
    set_hand(&mut state, 0, &["7H", "3S", "KD", "9D", "2C"]);
    state.draw_pile = cards(&["2S", "3S"]);
    state.discard = cards(&["4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]);
    let events = act(&mut state, 0, Action::Exchange);
    assert_eq!(
        events[1],
        Event::CardsDrawn {
            seat: Seat(0),
            cards: cards(&["3S", "2S"])
        }
    );
    assert_eq!(events[2], Event::DiscardReshuffled { cards: 15 });
    assert!(matches!(&events[3], Event::CardsDrawn { seat: Seat(0), cards } if cards.len() == 3));
    assert_eq!(state.hands[0].len(), 5);
    assert_eq!(state.draw_pile.len(), 12);
    assert!(state.discard.is_empty());

    // With both piles empty a player draws what it can: nothing.
    let mut dry = position(0, &[]);
    set_hand(&mut dry, 0, &["7H", "8H"]);
    dry.draw_pile.clear();
    let events = act(&mut dry, 0, play_in("7H", "red castle 1"));
    assert_eq!(dry.hands[0], cards(&["8H"]));
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, Event::CardsDrawn { .. }))
    );
}

#[test]
fn s3_check_a_piece_reaching_the_enemy_castle_is_in_check_for_good() {
    let mut state = position(
        0,
        &[
            ("black kingdom 3", "5H"),
            ("black castle 2", "KS"),
            ("black kingdom 4", "KH"),
        ],
    );
    let events = act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    assert_eq!(
        events[1],
        Event::Checked {
            seat: Seat(0),
            spot: sp("black castle 3"),
            piece: c("5H")
        }
    );
    assert!(state.spot(sp("black castle 3")).in_check);
    assert_eq!(state.checks(Seat(0)), 1);
    // It no longer counts towards the five pieces in play.
    assert_eq!(state.pieces_in_play(Seat(0)), 1);
    // It cannot be attacked: the King next to it may not take it.
    assert!(!moves_from(&state, 1, "black castle 2").contains(&"black castle 3".to_string()));
    // The opponent cannot play in on the spot.
    set_hand(&mut state, 1, &["2S", "3S", "4S", "5S", "6S"]);
    assert!(
        !CardChess::legal_actions(&state, Seat(1)).contains(&Action::PlayIn {
            card: c("2S"),
            spot: sp("black castle 3")
        })
    );
    act(&mut state, 1, mv("black castle 2", "black kingdom 2"));
    // It can never move, and nothing else may enter the spot.
    assert!(moves_from(&state, 0, "black castle 3").is_empty());
    assert!(!moves_from(&state, 0, "black kingdom 4").contains(&"black castle 3".to_string()));
    assert!(rejected(&state, 0, mv("black castle 3", "black kingdom 3")).contains("in check"));
    let view = CardChess::observe(&state, Viewer::Spectator);
    assert!(view.board[sp("black castle 3").index()].in_check);
    assert_eq!(view.players[0].checks, 1);
    assert_eq!(view.phase, Phase::Play);
}

#[test]
fn s3_check_is_only_for_the_movers_colour_in_the_opponents_castle() {
    // A Black piece moving around its own castle is never in check.
    let mut state = position(1, &[("black kingdom 1", "KS")]);
    act(&mut state, 1, mv("black kingdom 1", "black castle 1"));
    assert!(!state.spot(sp("black castle 1")).in_check);
    // A Black piece entering Red's castle is.
    let mut state = position(1, &[("red kingdom 1", "KS")]);
    act(&mut state, 1, mv("red kingdom 1", "red castle 1"));
    assert!(state.spot(sp("red castle 1")).in_check);
    assert_eq!(state.checks(Seat(1)), 1);
}
