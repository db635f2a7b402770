//! §9 termination: the no-progress draw and the hard cap (engine additions), and every game
//! ends.

use rand::SeedableRng;

use super::super::{Action, CardChess, Config, State};
use super::support::*;
use crate::game::{EndReason, Game, Outcome};
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;

/// Two Kings shuffling back and forth: `turns` turns without progress.
fn shuffle_kings(state: &mut State, turns: u32) {
    for _ in 0..turns {
        let seat = (state.current.0, state.turns_taken % 4);
        let (from, to) = match seat {
            (0, 0) => ("middle 1", "middle 2"),
            (1, 1) => ("middle 5", "middle 4"),
            (0, 2) => ("middle 2", "middle 1"),
            (1, 3) => ("middle 4", "middle 5"),
            other => panic!("unexpected turn {other:?}"),
        };
        act(state, seat.0, mv(from, to));
    }
}

#[test]
fn s9_a_hundred_turns_without_capture_play_in_or_check_draw_the_game() {
    let mut state = position(0, &[("middle 1", "KH"), ("middle 5", "KS")]);
    shuffle_kings(&mut state, 99);
    assert_eq!(state.turns_without_progress, 99);
    assert_eq!(CardChess::outcome(&state), None);
    shuffle_kings(&mut state, 1);
    assert_eq!(
        CardChess::outcome(&state),
        Some(Outcome::draw(EndReason::NoProgress))
    );
}

#[test]
fn s9_captures_play_ins_and_checks_are_progress_and_exchanges_are_not() {
    let mut state = position(0, &[("middle 1", "KH"), ("middle 5", "KS")]);
    shuffle_kings(&mut state, 4);
    act(&mut state, 0, Action::Exchange);
    assert_eq!(state.turns_without_progress, 5);
    set_hand(&mut state, 1, &["2S", "3S", "4S", "5S", "6S"]);
    act(
        &mut state,
        1,
        Action::PlayIn {
            card: c("2S"),
            spot: sp("black castle 1"),
        },
    );
    assert_eq!(state.turns_without_progress, 0, "a play-in");
    act(&mut state, 0, mv("middle 1", "black kingdom 1"));
    assert_eq!(state.turns_without_progress, 1);
    act(&mut state, 1, mv("middle 5", "middle 4"));
    assert_eq!(state.turns_without_progress, 2);
    // The King takes the 2S and reveals a black card, which it keeps.
    act(&mut state, 0, mv("black kingdom 1", "black castle 1"));
    act(&mut state, 0, Action::KeepRevealed);
    assert_eq!(state.turns_without_progress, 0, "a capture");
    let mut check = position(0, &[("black kingdom 2", "KH")]);
    check.turns_without_progress = 50;
    act(&mut check, 0, mv("black kingdom 2", "black castle 2"));
    assert_eq!(check.turns_without_progress, 0, "a new check");
}

#[test]
fn s9_the_hard_cap_draws_the_game_and_the_no_progress_limit_can_be_switched_off() {
    let mut state = position(0, &[("middle 1", "KH"), ("middle 5", "KS")]);
    state.config = Config {
        no_progress_turns: 0,
        max_turns: 150,
        ..Config::default()
    };
    shuffle_kings(&mut state, 149);
    assert_eq!(
        CardChess::outcome(&state),
        None,
        "no no-progress draw at 100"
    );
    shuffle_kings(&mut state, 1);
    assert_eq!(
        CardChess::outcome(&state),
        Some(Outcome::draw(EndReason::TurnCap))
    );
    assert_eq!(Config::default().max_turns, 1000);
    assert_eq!(Config::default().no_progress_turns, 100);
}

#[test]
fn s9_random_games_end_within_the_cap() {
    for (seed, config) in (0..60).map(|seed| {
        let config = if seed % 2 == 0 {
            Config::default()
        } else {
            Config {
                no_progress_turns: 0,
                max_turns: 40,
                ..Config::default()
            }
        };
        (seed, config)
    }) {
        let (mut state, _) = CardChess::new_game(&config, 2, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        let mut plies = 0u32;
        while random_step(&mut state, &mut rng).is_some() {
            plies += 1;
            assert!(plies <= 2 * config.max_turns, "seed {seed} does not end");
        }
        assert!(state.turns_taken <= config.max_turns);
        assert!(CardChess::outcome(&state).is_some());
        assert!(CardChess::legal_actions(&state, Seat(0)).is_empty());
    }
}
