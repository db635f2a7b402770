//! §5 capture: who may capture whom (with the §8.2 Ace option), and how a capture resolves:
//! discard, flip, the optional replacement from hand, then the check rule.

use super::super::{AceCapture, Action, CardChess, Event, Phase};
use super::support::*;
use crate::game::{Game, PlayError};
use crate::seat::{Seat, SeatSet, Viewer};

/// Sorted captures of the piece on `middle 3` among eight surrounding enemy pieces (an Ace's
/// jumps over them are left out).
fn captures_of(
    seat: u8,
    attacker: &str,
    victims: [&str; 8],
    ace_capture: AceCapture,
) -> Vec<String> {
    let around = [
        "red kingdom 2",
        "red kingdom 3",
        "red kingdom 4",
        "middle 2",
        "middle 4",
        "black kingdom 2",
        "black kingdom 3",
        "black kingdom 4",
    ];
    let mut pieces = vec![("middle 3", attacker)];
    pieces.extend(around.iter().copied().zip(victims));
    let mut state = position(seat, &pieces);
    state.config.ace_capture = ace_capture;
    let around = names(&around);
    moves_from(&state, seat, "middle 3")
        .into_iter()
        .filter(|spot| around.contains(spot))
        .collect()
}

#[test]
fn s5_a_pawn_captures_only_a_pawn_of_equal_or_lower_number() {
    let state = position(
        0,
        &[
            ("middle 3", "5H"),
            ("black kingdom 2", "5S"),
            ("black kingdom 4", "6S"),
        ],
    );
    assert_eq!(
        moves_from(&state, 0, "middle 3"),
        names(&["black kingdom 2", "black kingdom 3"])
    );
    for victim in ["JS", "QS", "KS", "AS"] {
        let state = position(0, &[("middle 3", "10H"), ("black kingdom 2", victim)]);
        assert_eq!(
            moves_from(&state, 0, "middle 3"),
            names(&["black kingdom 3"]),
            "a 10 may not take {victim}"
        );
    }
    let ten = position(
        1,
        &[
            ("middle 3", "10S"),
            ("red kingdom 2", "10D"),
            ("red kingdom 4", "2H"),
        ],
    );
    assert_eq!(
        moves_from(&ten, 1, "middle 3"),
        names(&["red kingdom 2", "red kingdom 3", "red kingdom 4"])
    );
}

#[test]
fn s5_face_cards_capture_face_cards_and_pawns_and_only_aces_capture_aces() {
    let victims = ["JS", "QS", "KS", "AS", "10S", "2S", "QC", "AC"];
    for king in ["JH", "QH", "KH"] {
        let listed = captures_of(0, king, victims, AceCapture::OnlyAces);
        assert!(
            !listed.contains(&"middle 2".to_string()),
            "{king} takes no Ace"
        );
        assert!(
            !listed.contains(&"black kingdom 4".to_string()),
            "{king} takes no Ace"
        );
    }
    // The King reaches all eight: everything but the two Aces.
    assert_eq!(
        captures_of(0, "KH", victims, AceCapture::OnlyAces),
        names(&[
            "red kingdom 2",
            "red kingdom 3",
            "red kingdom 4",
            "middle 4",
            "black kingdom 2",
            "black kingdom 3"
        ])
    );
    // The Ace captures anything around it.
    assert_eq!(captures_of(0, "AH", victims, AceCapture::OnlyAces).len(), 8);
}

#[test]
fn s5_with_the_ace_as_a_face_card_face_cards_capture_aces_and_pawns_still_do_not() {
    let victims = ["AS", "AS", "AS", "AS", "AS", "AS", "AS", "AS"];
    assert!(captures_of(0, "KH", victims, AceCapture::OnlyAces).is_empty());
    assert_eq!(
        captures_of(0, "KH", victims, AceCapture::AsFaceCard).len(),
        8
    );
    assert_eq!(
        captures_of(1, "QS", ["AH"; 8], AceCapture::AsFaceCard).len(),
        4
    );
    assert!(captures_of(0, "10H", victims, AceCapture::AsFaceCard).is_empty());
    assert_eq!(
        captures_of(
            0,
            "AH",
            ["KS", "2S", "AS", "JS", "QS", "10S", "AC", "3C"],
            AceCapture::AsFaceCard
        )
        .len(),
        8
    );
}

#[test]
fn s5_a_piece_in_check_is_never_captured() {
    let mut state = position(
        0,
        &[
            ("red kingdom 2", "AH"),
            ("red castle 2", "2S"),
            ("red castle 1", "KH"),
        ],
    );
    set_check(&mut state, "red castle 2");
    assert!(!moves_from(&state, 0, "red kingdom 2").contains(&"red castle 2".to_string()));
    assert!(!moves_from(&state, 0, "red castle 1").contains(&"red castle 2".to_string()));
}

#[test]
fn s5_a_capture_discards_the_victim_and_flips_the_spot() {
    let mut state = position(0, &[("middle 3", "KH"), ("black kingdom 3", "QS")]);
    set_base(&mut state, "black kingdom 3", "9H");
    let events = act(&mut state, 0, mv("middle 3", "black kingdom 3"));
    assert_eq!(
        events[0],
        Event::Captured {
            seat: Seat(0),
            from: sp("middle 3"),
            to: sp("black kingdom 3"),
            piece: c("KH"),
            captured: c("QS"),
            revealed: c("9H"),
        }
    );
    assert_eq!(state.discard, cards(&["QS"]));
    let spot = state.spot(sp("black kingdom 3"));
    assert_eq!(spot.base, c("KH"), "the capturing card went face down");
    assert!(spot.base_known, "and everyone knows it");
    assert_eq!(
        spot.piece,
        Some(c("9H")),
        "the old base card is the new piece"
    );
    assert_eq!(state.piece(sp("middle 3")), None);
    // Red revealed a red card: no choice, the turn is over.
    assert_eq!(state.phase, Phase::Play);
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(1)));
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let view = CardChess::observe(&state, viewer);
        let spot = view.board[sp("black kingdom 3").index()];
        assert_eq!(spot.base, Some(c("KH")));
        assert_eq!((spot.piece, spot.owner), (Some(c("9H")), Some(Seat(0))));
    }
}

#[test]
fn s5_a_revealed_opponent_card_may_be_replaced_by_any_opponent_card_from_hand() {
    let mut state = position(0, &[("middle 3", "KH"), ("black kingdom 3", "QS")]);
    set_base(&mut state, "black kingdom 3", "KS");
    set_hand(&mut state, 0, &["2S", "2S", "9C", "7H", "8D"]);
    act(&mut state, 0, mv("middle 3", "black kingdom 3"));
    assert_eq!(state.phase, Phase::Replacement);
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(0)));
    assert_eq!(
        CardChess::legal_actions(&state, Seat(0)),
        vec![
            Action::KeepRevealed,
            Action::Replace { card: c("2S") },
            Action::Replace { card: c("9C") },
        ]
    );
    let view = CardChess::observe(&state, Viewer::Seat(Seat(1)));
    assert_eq!(view.replacement_spot, Some(sp("black kingdom 3")));
    assert_eq!(
        view.board[sp("black kingdom 3").index()].owner,
        Some(Seat(1))
    );
    // Nothing else may happen meanwhile.
    let mut copy = state.clone();
    assert!(matches!(
        CardChess::apply(&mut copy, Seat(0), &Action::Exchange),
        Err(PlayError::Illegal(_))
    ));
    assert!(matches!(
        CardChess::apply(&mut copy, Seat(0), &Action::Replace { card: c("7H") }),
        Err(PlayError::Illegal(_))
    ));
    assert!(matches!(
        CardChess::apply(&mut copy, Seat(0), &Action::Replace { card: c("3S") }),
        Err(PlayError::Illegal(_))
    ));
    assert_eq!(copy, state);

    let events = act(&mut state, 0, Action::Replace { card: c("2S") });
    assert_eq!(
        events[0],
        Event::Replaced {
            seat: Seat(0),
            spot: sp("black kingdom 3"),
            card: c("2S"),
            discarded: c("KS"),
        }
    );
    assert_eq!(state.piece(sp("black kingdom 3")), Some(c("2S")));
    assert_eq!(state.discard, cards(&["QS", "KS"]));
    assert_eq!(state.hands[0].len(), 5, "refilled at the end of the turn");
    assert_eq!(state.phase, Phase::Play);
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(1)));
    assert_eq!(state.pieces_in_play(Seat(1)), 1, "the 2S is Black's piece");
}

#[test]
fn s5_the_replacement_is_optional_and_offered_even_with_no_card_to_replace_with() {
    let mut state = position(1, &[("middle 3", "KS"), ("red kingdom 3", "QH")]);
    set_base(&mut state, "red kingdom 3", "AH");
    set_hand(&mut state, 1, &["2S", "3S", "4S", "5S", "6C"]);
    act(&mut state, 1, mv("middle 3", "red kingdom 3"));
    assert_eq!(
        CardChess::legal_actions(&state, Seat(1)),
        vec![Action::KeepRevealed]
    );
    let events = act(&mut state, 1, Action::KeepRevealed);
    assert_eq!(
        events[0],
        Event::RevealedKept {
            seat: Seat(1),
            spot: sp("red kingdom 3")
        }
    );
    assert_eq!(state.piece(sp("red kingdom 3")), Some(c("AH")));
    assert_eq!(state.piece_owner(sp("red kingdom 3")), Some(Seat(0)));
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(0)));
    let mut copy = state.clone();
    assert!(matches!(
        CardChess::apply(&mut copy, Seat(0), &Action::KeepRevealed),
        Err(PlayError::Illegal(_))
    ));
}

#[test]
fn s5_the_check_rule_follows_the_flip_and_the_replacement() {
    // The revealed card is the capturer's: it stands in the enemy castle and is in check.
    let mut state = position(0, &[("black kingdom 3", "KH"), ("black castle 3", "QS")]);
    set_base(&mut state, "black castle 3", "9D");
    let events = act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    assert!(events.contains(&Event::Checked {
        seat: Seat(0),
        spot: sp("black castle 3"),
        piece: c("9D")
    }));
    assert!(state.spot(sp("black castle 3")).in_check);

    // The revealed card is the opponent's and is replaced: no check.
    let mut state = position(0, &[("black kingdom 3", "KH"), ("black castle 3", "QS")]);
    set_base(&mut state, "black castle 3", "KC");
    set_hand(&mut state, 0, &["2S", "3H", "4H", "5H", "6H"]);
    act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    let events = act(&mut state, 0, Action::Replace { card: c("2S") });
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, Event::Checked { .. }))
    );
    assert!(!state.spot(sp("black castle 3")).in_check);
    assert_eq!(state.piece_owner(sp("black castle 3")), Some(Seat(1)));
}
