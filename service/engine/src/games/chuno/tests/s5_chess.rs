//! §5 chess inside CHUNO: no check, castling without the check limits, en passant on the very
//! next chess move only, promotion choice, and promoted pieces using the remaining moves.

use super::super::Colour::Red;
use super::super::{Chuno, Config, Event};
use super::support::*;
use crate::game::Game;
use crate::seat::Seat;

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2"];

/// Seat `current` to play with the board of `fen` and a hand of red cards.
fn board(current: u8, fen: &str) -> super::super::State {
    let hands: [&[&str]; 2] = [&["R1", "R2", "B0"], &["R1", "R2", "B0"]];
    with_fen(table(current, hands, "R0", Red, DECK), fen)
}

#[test]
fn s5_check_is_not_enforced() {
    // The White King may step onto squares the black rook attacks, or stay in check.
    let mut state = board(0, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    act(&mut state, 0, "play R1");
    assert!(lists(&state, 0, "e1d1"));
    assert!(lists(&state, 0, "e1e2"));
    act(&mut state, 0, "e1e2");
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s5_castling_ignores_attacked_squares_unless_strict() {
    // The rook on f8 attacks f1, the square the King crosses.
    let fen = "5r1k/8/8/8/8/8/8/4K2R w K - 0 1";
    let mut state = board(0, fen);
    act(&mut state, 0, "play R1");
    assert!(lists(&state, 0, "e1g1"));
    let events = act(&mut state, 0, "e1g1");
    assert!(
        events
            .iter()
            .any(|event| matches!(event, Event::Moved(record) if record.castle))
    );
    assert_eq!(
        state.position.fen().split(' ').next(),
        Some("5r1k/8/8/8/8/8/8/5RK1")
    );

    let mut strict = board(0, fen);
    strict.config = Config {
        strict_castling: true,
        ..Config::default()
    };
    act(&mut strict, 0, "play R1");
    assert!(!lists(&strict, 0, "e1g1"));
}

#[test]
fn s5_castling_needs_unmoved_king_and_rook_and_empty_squares_between() {
    let mut state = board(0, "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1");
    act(&mut state, 0, "play R2");
    assert!(!lists(&state, 0, "e1g1"), "g1 is occupied");
    assert!(lists(&state, 0, "e1c1"));
    // The rook leaves and comes back within the turn: the right is gone.
    act(&mut state, 0, "a1a2");
    act(&mut state, 0, "a2a1");
    state.hands = [hand(&["R1", "R2", "B0"]), hand(&["R1", "R2", "B0"])];
    act(&mut state, 1, "play R1");
    act(&mut state, 1, "e8e7");
    act(&mut state, 0, "play R2");
    assert!(!lists(&state, 0, "e1c1"));
}

#[test]
fn s5_en_passant_is_available_on_the_very_next_chess_move_only() {
    // Black double-steps d7d5 beside the White pawn on e5 and ends its turn.
    let setup = || {
        let mut state = board(1, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
        act(&mut state, 1, "play R1");
        act(&mut state, 1, "d7d5");
        state
    };
    let mut state = setup();
    act(&mut state, 0, "play R2");
    assert!(lists(&state, 0, "e5d6"));
    let events = act(&mut state, 0, "e5d6");
    assert!(
        events
            .iter()
            .any(|event| matches!(event, Event::Moved(record) if record.en_passant))
    );
    assert!(state.position.piece_at("d5".parse().unwrap()).is_none());

    // Another move first, and the chance is gone, even within the same turn.
    let mut state = setup();
    act(&mut state, 0, "play R2");
    act(&mut state, 0, "e1f1");
    assert!(!lists(&state, 0, "e5d6"));
}

#[test]
fn s5_a_double_step_gives_its_own_player_no_en_passant() {
    // White double-steps e2e4 next to a black pawn on d4, with a move left.
    let mut state = board(0, "4k3/8/8/8/3p4/8/4PP2/4K3 w - - 0 1");
    act(&mut state, 0, "play R2");
    act(&mut state, 0, "e2e4");
    let white_moves = Chuno::legal_actions(&state, Seat(0));
    assert!(
        white_moves
            .iter()
            .all(|action| !action.to_string().ends_with("e3")),
        "the pawn on f2 may not capture onto e3: {white_moves:?}"
    );
    // Ending the turn now leaves the chance to Black's very next move.
    let mut ended = state.clone();
    act(&mut ended, 0, "end");
    act(&mut ended, 1, "play R1");
    assert!(lists(&ended, 1, "d4e3"));
    // A second White move closes it.
    act(&mut state, 0, "e1d1");
    act(&mut state, 1, "play R1");
    assert!(!lists(&state, 1, "d4e3"));
}

#[test]
fn s5_promotion_offers_queen_rook_bishop_knight_and_the_new_piece_moves_on() {
    let mut state = board(0, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    act(&mut state, 0, "play R2");
    for role in ["q", "r", "b", "n"] {
        assert!(lists(&state, 0, &format!("e7e8{role}")), "{role}");
    }
    assert!(!lists(&state, 0, "e7e8"), "a pawn must promote");
    act(&mut state, 0, "e7e8n");
    assert_eq!(state.moves_left, 1);
    assert!(
        lists(&state, 0, "e8d6"),
        "the new knight uses the remaining move"
    );
    act(&mut state, 0, "e8c7");
    assert_eq!(state.current, Seat(1));
}
