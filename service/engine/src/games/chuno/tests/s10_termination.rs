//! §10 termination: the no-progress limit, the turn cap, and random games that end.

use rand::SeedableRng;

use super::super::Chuno;
use super::super::Colour::Red;
use super::support::*;
use crate::game::{EndReason, Game, Outcome};
use crate::rng::GameRng;
use crate::seat::Seat;

#[test]
fn s10_random_games_end_and_keep_every_card() {
    let mut lengths = Vec::new();
    for seed in 0..40 {
        let (mut state, _) = new_game(seed);
        let total = all_cards(&state);
        assert_eq!(total.len(), 96);
        let mut rng = GameRng::seed_from_u64(seed);
        let mut plies = 0;
        while random_step(&mut state, &mut rng).is_some() {
            plies += 1;
            assert_eq!(
                all_cards(&state),
                total,
                "seed {seed}: cards appeared or vanished"
            );
            assert!(plies < 20_000, "seed {seed} does not end");
        }
        let outcome = Chuno::outcome(&state).expect("over");
        // §9.14: no chess ending but the deadlock's stalemate applies, and under the latest
        // edition the deadlock is no longer reported as NoLegalAction.
        assert!(matches!(
            outcome.reason,
            EndReason::KingCaptured
                | EndReason::OutOfCards
                | EndReason::NoProgress
                | EndReason::TurnCap
                | EndReason::Stalemate
        ));
        lengths.push(plies);
    }
    eprintln!("plies per game: {lengths:?}");
}

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2"];

#[test]
fn s10_150_chess_moves_without_capture_or_pawn_move_draw() {
    let mut state = table(0, [&["R2", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    state.quiet_moves = 148;
    act(&mut state, 0, "play R2");
    act(&mut state, 0, "g1f3");
    assert_eq!(state.quiet_moves, 149);
    assert_eq!(Chuno::outcome(&state), None);
    act(&mut state, 0, "f3g1");
    assert_eq!(
        Chuno::outcome(&state),
        Some(Outcome::draw(EndReason::NoProgress))
    );
}

#[test]
fn s10_a_pawn_move_or_capture_restarts_the_count_and_zero_turns_the_limit_off() {
    let mut state = table(0, [&["R2", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    state.quiet_moves = 149;
    act(&mut state, 0, "play R2");
    act(&mut state, 0, "e2e4");
    assert_eq!(state.quiet_moves, 0);

    let mut state = table(0, [&["R2", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    state.config.no_progress_moves = 0;
    state.quiet_moves = 10_000;
    act(&mut state, 0, "play R2");
    act(&mut state, 0, "g1f3");
    assert_eq!(Chuno::outcome(&state), None);
}

#[test]
fn s10_the_game_is_drawn_after_500_turns_and_skipped_turns_do_not_count() {
    let mut state = table(0, [&["RS", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    state.turns_taken = 497;
    // The Skip ends turn 498; seat 1's lost turn is not a turn.
    act(&mut state, 0, "play RS");
    assert_eq!((state.turns_taken, state.current), (498, Seat(0)));
    act(&mut state, 0, "draw");
    assert_eq!((state.turns_taken, state.current), (499, Seat(1)));
    assert_eq!(Chuno::outcome(&state), None);
    act(&mut state, 1, "draw");
    assert_eq!(
        Chuno::outcome(&state),
        Some(Outcome::draw(EndReason::TurnCap))
    );
    assert_eq!(state.config.max_turns, 500);
}
