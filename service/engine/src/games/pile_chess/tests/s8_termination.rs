//! §8 termination: random playouts always end within the caps, for every seat count and for
//! teams, and no card is ever created or lost.

use rand::SeedableRng;

use super::super::{Config, PileChess, State};
use super::support::*;
use crate::game::{EndReason, Game};
use crate::rng::GameRng;
use crate::seat::Seat;

/// Plays a random game to its end, checking invariants at every step; returns the final state
/// and the number of actions.
fn playout(config: &Config, seats: usize, seed: u64) -> (State, usize) {
    let mut state = game(config, seats, seed);
    let mut rng = GameRng::seed_from_u64(seed ^ 0x5eed);
    let mut steps = 0;
    loop {
        assert_eq!(
            total_cards(&state),
            cards_of(seats),
            "no card is created or lost"
        );
        assert!(state.round <= config.max_rounds);
        for seat in (0..seats as u8).map(Seat) {
            assert_eq!(
                PileChess::to_act(&state).contains(seat),
                !PileChess::legal_actions(&state, seat).is_empty()
            );
        }
        assert_eq!(
            PileChess::to_act(&state).is_empty(),
            PileChess::outcome(&state).is_some()
        );
        if random_step(&mut state, &mut rng).is_none() {
            break;
        }
        steps += 1;
        assert!(steps < 20_000, "the game must end");
    }
    (state, steps)
}

#[test]
fn s8_random_playouts_end_for_every_seat_count_and_for_teams() {
    let mut reasons = std::collections::BTreeMap::new();
    for (config, seats) in [
        (Config::default(), 2),
        (Config::default(), 3),
        (Config::default(), 4),
        (Config::two_vs_two(), 4),
    ] {
        for seed in 0..150 {
            let (state, _) = playout(&config, seats, seed);
            let outcome = PileChess::outcome(&state).expect("over");
            *reasons
                .entry((
                    seats,
                    config.is_team_game(),
                    format!("{:?}", outcome.reason),
                ))
                .or_insert(0) += 1;
        }
    }
    // Both ways a game ends by its rules happen in random play.
    for seats in 2..=4 {
        assert!(
            reasons.contains_key(&(seats, false, "KingCaptured".to_string())),
            "{reasons:?}"
        );
        assert!(
            reasons.contains_key(&(seats, false, "OutOfCards".to_string())),
            "{reasons:?}"
        );
    }
}

#[test]
fn s8_the_round_cap_ends_the_game_with_stalemate_scoring() {
    let config = Config {
        max_rounds: 2,
        ..Config::default()
    };
    let mut capped = 0;
    for seed in 0..40 {
        let (state, _) = playout(&config, 3, seed);
        let outcome = PileChess::outcome(&state).expect("over");
        assert!(state.round <= 2);
        if outcome.reason == EndReason::TurnCap {
            capped += 1;
            assert_eq!(state.round, 2);
            assert_eq!(outcome.scores.len(), 3);
        }
    }
    assert!(capped > 0, "no game reached the round cap");
}
