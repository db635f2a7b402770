//! §4 movement: every row of the grid table, the castle grids, the 10's double step and the
//! Ace's jumps, for both colours ("forward" is towards the opponent's castle).

use super::super::{Action, CardChess, Event};
use super::support::*;
use crate::game::Game;
use crate::seat::Seat;

#[test]
fn s4_pawns_2_to_9_step_forward_to_an_empty_spot_and_capture_diagonally_forward() {
    let alone = position(0, &[("middle 3", "5H")]);
    assert_eq!(
        moves_from(&alone, 0, "middle 3"),
        names(&["black kingdom 3"])
    );

    let crowded = position(
        0,
        &[
            ("middle 3", "5H"),
            ("black kingdom 2", "4S"),
            ("black kingdom 3", "2S"),
            ("black kingdom 4", "6S"),
            ("red kingdom 3", "2S"),
            ("middle 2", "2S"),
        ],
    );
    // Forward is M only (blocked by the 2S); the 6S is stronger; nothing backwards or sideways.
    assert_eq!(
        moves_from(&crowded, 0, "middle 3"),
        names(&["black kingdom 2"])
    );

    // Black's forward is towards the red castle.
    let black = position(1, &[("middle 3", "9S"), ("red kingdom 4", "9H")]);
    assert_eq!(
        moves_from(&black, 1, "middle 3"),
        names(&["red kingdom 3", "red kingdom 4"])
    );
    // A 9 in its own castle has no double step.
    let nine = position(0, &[("red castle 2", "9H")]);
    assert_eq!(
        moves_from(&nine, 0, "red castle 2"),
        names(&["red kingdom 2"])
    );
}

#[test]
fn s4_a_ten_doubles_out_of_its_own_castle_only_over_an_empty_spot() {
    let ten = position(0, &[("red castle 2", "10H")]);
    assert_eq!(
        moves_from(&ten, 0, "red castle 2"),
        names(&["red kingdom 2", "middle 2"])
    );
    let blocked = position(0, &[("red castle 2", "10H"), ("red kingdom 2", "2S")]);
    assert!(moves_from(&blocked, 0, "red castle 2").is_empty());
    let far_blocked = position(0, &[("red castle 2", "10H"), ("middle 2", "2S")]);
    assert_eq!(
        moves_from(&far_blocked, 0, "red castle 2"),
        names(&["red kingdom 2"])
    );
    let outside = position(0, &[("red kingdom 2", "10H")]);
    assert_eq!(
        moves_from(&outside, 0, "red kingdom 2"),
        names(&["middle 2"])
    );
    let black = position(1, &[("black castle 4", "10S"), ("black kingdom 3", "9H")]);
    assert_eq!(
        moves_from(&black, 1, "black castle 4"),
        names(&["black kingdom 3", "black kingdom 4", "middle 4"])
    );
    let mut doubled = black.clone();
    act(&mut doubled, 1, mv("black castle 4", "middle 4"));
    assert_eq!(doubled.piece(sp("middle 4")), Some(c("10S")));
}

#[test]
fn s4_jacks_move_diagonally_and_from_the_castle_forward_only_with_a_straight_capture() {
    let open = position(0, &[("middle 3", "JH"), ("red kingdom 2", "2S")]);
    assert_eq!(
        moves_from(&open, 0, "middle 3"),
        names(&[
            "red kingdom 2",
            "red kingdom 4",
            "black kingdom 2",
            "black kingdom 4"
        ])
    );
    let castle = position(0, &[("red castle 3", "JH")]);
    assert_eq!(
        moves_from(&castle, 0, "red castle 3"),
        names(&["red kingdom 2", "red kingdom 4"])
    );
    let target = position(0, &[("red castle 3", "JH"), ("red kingdom 3", "QS")]);
    assert_eq!(
        moves_from(&target, 0, "red castle 3"),
        names(&["red kingdom 2", "red kingdom 3", "red kingdom 4"])
    );
    let black = position(1, &[("black castle 1", "JS"), ("black kingdom 1", "KH")]);
    assert_eq!(
        moves_from(&black, 1, "black castle 1"),
        names(&["black kingdom 1", "black kingdom 2"])
    );
}

#[test]
fn s4_queens_move_straight_and_from_the_castle_forward_sideways_or_capture_diagonally() {
    let open = position(0, &[("middle 3", "QH")]);
    assert_eq!(
        moves_from(&open, 0, "middle 3"),
        names(&["middle 2", "middle 4", "red kingdom 3", "black kingdom 3"])
    );
    let castle = position(0, &[("red castle 3", "QH")]);
    assert_eq!(
        moves_from(&castle, 0, "red castle 3"),
        names(&["red castle 2", "red castle 4", "red kingdom 3"])
    );
    // Diagonal forward is capture only; sideways is move only.
    let targets = position(
        0,
        &[
            ("red castle 3", "QH"),
            ("red kingdom 2", "2S"),
            ("red kingdom 3", "3S"),
            ("red castle 4", "4S"),
        ],
    );
    assert_eq!(
        moves_from(&targets, 0, "red castle 3"),
        names(&["red castle 2", "red kingdom 2", "red kingdom 3"])
    );
    let black = position(1, &[("black castle 3", "QS")]);
    assert_eq!(
        moves_from(&black, 1, "black castle 3"),
        names(&["black castle 2", "black castle 4", "black kingdom 3"])
    );
}

#[test]
fn s4_kings_step_to_all_eight_neighbours() {
    let centre = position(1, &[("middle 3", "KS")]);
    assert_eq!(
        moves_from(&centre, 1, "middle 3"),
        names(&[
            "red kingdom 2",
            "red kingdom 3",
            "red kingdom 4",
            "middle 2",
            "middle 4",
            "black kingdom 2",
            "black kingdom 3",
            "black kingdom 4"
        ])
    );
    let corner = position(0, &[("red castle 1", "KH"), ("red kingdom 2", "KD")]);
    assert_eq!(
        moves_from(&corner, 0, "red castle 1"),
        names(&["red castle 2", "red kingdom 1"])
    );
}

#[test]
fn s4_aces_step_like_kings_and_jump_two_spots_over_any_piece_to_an_open_spot() {
    let alone = position(0, &[("middle 3", "AH")]);
    assert_eq!(moves_from(&alone, 0, "middle 3").len(), 8);
    let mut jumps = position(
        0,
        &[
            ("middle 3", "AH"),
            ("middle 4", "2S"),
            ("black kingdom 3", "2H"),
            ("red kingdom 2", "KS"),
            ("red castle 1", "3S"),
            ("black kingdom 4", "5S"),
            ("black castle 5", "6H"),
        ],
    );
    set_check(&mut jumps, "black castle 5");
    let listed = moves_from(&jumps, 0, "middle 3");
    // Over the 2S to middle 5; over the own 2H to black castle 3.
    assert!(listed.contains(&"middle 5".to_string()));
    assert!(listed.contains(&"black castle 3".to_string()));
    // Not onto a piece: over the KS towards red castle 1, over the 5S to black castle 5.
    assert!(!listed.contains(&"red castle 1".to_string()));
    assert!(!listed.contains(&"black castle 5".to_string()));
    // No jump without a piece in between.
    assert!(!listed.contains(&"middle 1".to_string()));
    assert!(!listed.contains(&"red castle 3".to_string()));

    let mut state = jumps;
    let events = act(&mut state, 0, mv("middle 3", "middle 5"));
    assert_eq!(
        events[0],
        Event::Moved {
            seat: Seat(0),
            from: sp("middle 3"),
            to: sp("middle 5"),
            piece: c("AH"),
            jump: true
        }
    );
    // The jumped piece stays where it is.
    assert_eq!(state.piece(sp("middle 4")), Some(c("2S")));
}

#[test]
fn s4_the_castle_grid_replaces_the_general_grid_in_the_own_castle() {
    // One rank out of the castle a Jack has its general grid, backwards included ...
    let general = position(1, &[("black kingdom 3", "JS")]);
    assert_eq!(
        moves_from(&general, 1, "black kingdom 3"),
        names(&["black castle 2", "black castle 4", "middle 2", "middle 4"])
    );
    // ... while in the castle only the castle grid applies (the straight capture is extra).
    let castle = position(1, &[("black castle 3", "JS"), ("black kingdom 3", "2H")]);
    assert_eq!(
        moves_from(&castle, 1, "black castle 3"),
        names(&["black kingdom 2", "black kingdom 3", "black kingdom 4"])
    );
    assert!(
        !CardChess::legal_actions(&castle, Seat(1))
            .iter()
            .any(|action| matches!(action, Action::Move { to, .. } if *to == sp("black castle 2")))
    );
}
