//! §8 termination: random playouts always end within the caps, and the contract properties hold
//! at every step.

use rand::SeedableRng;

use super::super::{Action, Config, PigeonChess, State};
use super::support::*;
use crate::game::Game;
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;

/// Plays a random game to its end, checking invariants at every step; returns the final state
/// and the action log.
fn playout(config: &Config, seed: u64) -> (State, Vec<(Seat, Action)>) {
    let (mut state, _) = PigeonChess::new_game(config, 2, Seed::from_u64(seed)).unwrap();
    let mut rng = GameRng::seed_from_u64(seed ^ 0x5eed);
    let mut log = Vec::new();
    let cards = 2 * config.deck_size();
    let mut steps = 0;
    loop {
        assert_eq!(total_cards(&state), cards, "no card is created or lost");
        assert!(state.turns_taken <= config.max_turns);
        for seat in [Seat(0), Seat(1)] {
            assert_eq!(
                PigeonChess::to_act(&state).contains(seat),
                !PigeonChess::legal_actions(&state, seat).is_empty()
            );
        }
        assert_eq!(
            PigeonChess::to_act(&state).is_empty(),
            PigeonChess::outcome(&state).is_some()
        );
        match random_step(&mut state, &mut rng) {
            Some(step) => log.push(step),
            None => break,
        }
        steps += 1;
        assert!(steps < 10 * config.max_turns as usize, "the game must end");
    }
    (state, log)
}

#[test]
fn s8_random_playouts_always_end_within_the_caps() {
    let config = Config::default();
    for seed in 0..300 {
        let (state, _) = playout(&config, seed);
        let outcome = PigeonChess::outcome(&state).expect("over");
        assert!(state.turns_taken <= config.max_turns);
        assert_eq!(outcome.scores.len(), 2);
        for seat in [Seat(0), Seat(1)] {
            assert_eq!(outcome.scores[seat.index()], state.score(seat) as i32);
        }
    }
}

#[test]
fn s8_without_the_no_progress_limit_the_turn_cap_still_ends_every_game() {
    let config = Config {
        no_progress_turns: 0,
        max_turns: 120,
        ..Config::default()
    };
    for seed in 0..100 {
        let (state, _) = playout(&config, seed);
        assert!(state.outcome.is_some());
        assert!(state.turns_taken <= 120);
    }
}

#[test]
fn s8_replaying_the_action_log_reproduces_the_game_and_state_round_trips() {
    for seed in 0..20 {
        let (state, log) = playout(&Config::default(), seed);
        let (mut replay, _) =
            PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
        for (seat, action) in &log {
            act(&mut replay, seat.0, *action);
        }
        assert_eq!(replay, state);
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<State>(&json).unwrap(), state);
        let bytes = postcard::to_stdvec(&state).unwrap();
        assert_eq!(postcard::from_bytes::<State>(&bytes).unwrap(), state);
    }
}
