//! §10 Editions: games dealt under edition 1 keep that release's rules to their end; edition 2
//! reports each ending under its own reason.

use std::collections::BTreeSet;

use super::super::{Config, JokerEffect, RaindropChess};
use super::support::game_in;
use crate::edition::Edition;
use crate::game::{EndReason, Game};

/// The end reasons of random playouts under `edition`, with and without jokers.
fn reasons(edition: Edition) -> BTreeSet<String> {
    let configs = [
        Config::default(),
        Config {
            jokers_per_deck: 2,
            joker_effect: JokerEffect::RemovePiece,
            ..Config::default()
        },
    ];
    let mut found = BTreeSet::new();
    for config in &configs {
        for seed in 0..30u64 {
            let mut state = game_in(config, seed, edition);
            let mut pick = seed.wrapping_mul(0x2545_F491_4F6C_DD1D).wrapping_add(3);
            while state.outcome.is_none() {
                let seat = state.current;
                let actions = RaindropChess::legal_actions(&state, seat);
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let action = actions[(pick >> 33) as usize % actions.len()];
                RaindropChess::apply(&mut state, seat, &action).expect("listed actions apply");
            }
            let outcome = state.outcome.expect("over");
            found.insert(format!("{:?}", outcome.reason));
        }
    }
    found
}

#[test]
fn s10_first_edition_games_keep_the_first_release_end_reasons() {
    let first = reasons(Edition::FIRST);
    let allowed: BTreeSet<String> = [
        EndReason::NoLegalAction,
        EndReason::NoProgress,
        EndReason::TurnCap,
    ]
    .iter()
    .map(|reason| format!("{reason:?}"))
    .collect();
    assert!(first.is_subset(&allowed), "{first:?}");
    assert!(first.contains("NoLegalAction"), "{first:?}");
}

#[test]
fn s10_second_edition_games_name_each_ending() {
    let second = reasons(Edition::SECOND);
    assert!(!second.contains("NoLegalAction"), "{second:?}");
    assert!(second.contains("Checkmate"), "{second:?}");
    assert!(second.contains("InsufficientMaterial"), "{second:?}");
    assert!(second.contains("Stalemate"), "{second:?}");
}
