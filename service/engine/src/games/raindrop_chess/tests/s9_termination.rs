//! §9 Termination: random games end, by rule or by the 1000-ply cap.

use super::super::{Config, JokerEffect, RaindropChess};
use super::support::game;
use crate::game::{EndReason, Game};
use crate::seat::Seat;

fn play_out(config: &Config, seed: u64) -> (u32, EndReason) {
    let mut state = game(config, seed);
    let mut pick = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    while state.outcome.is_none() {
        let seat: Seat = RaindropChess::to_act(&state)
            .iter()
            .next()
            .expect("a seat acts");
        let actions = RaindropChess::legal_actions(&state, seat);
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let action = actions[(pick >> 33) as usize % actions.len()];
        RaindropChess::apply(&mut state, seat, &action).expect("listed actions apply");
        assert!(state.plies <= config.max_plies);
    }
    (state.plies, state.outcome.expect("over").reason)
}

#[test]
fn s9_random_games_end_within_the_cap() {
    for seed in 0..20 {
        let (plies, _) = play_out(&Config::default(), seed);
        assert!(plies <= 1000);
    }
}

#[test]
fn s9_a_small_cap_ends_the_game_as_a_turn_cap_draw() {
    let config = Config {
        max_plies: 10,
        ..Config::default()
    };
    let (plies, reason) = play_out(&config, 3);
    assert_eq!(plies, 10);
    assert_eq!(reason, EndReason::TurnCap);
}

#[test]
fn s9_games_with_jokers_of_either_effect_end() {
    for effect in [JokerEffect::ExtraTurn, JokerEffect::RemovePiece] {
        let config = Config {
            jokers_per_deck: 2,
            joker_effect: effect,
            ..Config::default()
        };
        for seed in 0..10 {
            play_out(&config, seed);
        }
    }
}
