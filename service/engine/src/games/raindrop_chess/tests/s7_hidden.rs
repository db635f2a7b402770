//! §7 Hidden information and randomness: deck order is hidden from everyone, the owner
//! included; everything else is public. Nothing a viewer is shown (observation, legal actions,
//! errors) may change when the hidden order is redrawn consistently with what play has pinned.

use super::super::placement::block_possible;
use super::super::state::colour_of;
use super::super::turn::jokers_left;
use super::super::{
    Action, Card, Config, Event, JokerEffect, Observation, RaindropChess, Stage, State,
};
use super::support::{game, play, position_state};
use crate::game::{Game, Outcome, PlayError};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet, Viewer};

/// The three viewers of a game.
const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Spectator,
];

/// Checks that `other` keeps every fact the history of `state` pinned: the same state but for
/// the order of each deck's hidden part (above its public returned cards) and the generator.
fn assert_keeps_pinned_facts(state: &State, other: &State) {
    let mut expected = state.clone();
    let mut actual = other.clone();
    for index in 0..2 {
        let known = expected.returned[index];
        expected.decks[index][known..].sort();
        actual.decks[index][known..].sort();
    }
    actual.rng = expected.rng.clone();
    assert_eq!(actual, expected, "the resample changed a pinned fact");
}

/// States nobody can tell apart from `state`: for each deck and each card of its hidden part,
/// the state with that card on top (swapped with the top card). Returned cards stay put.
fn top_card_variants(state: &State) -> Vec<State> {
    let mut variants = Vec::new();
    for index in 0..2 {
        let deck = &state.decks[index];
        let Some(top) = deck.len().checked_sub(1) else {
            continue;
        };
        let mut tried = Vec::new();
        for position in state.returned[index]..top {
            let card = deck[position];
            if card == deck[top] || tried.contains(&card) {
                continue;
            }
            tried.push(card);
            let mut other = state.clone();
            other.decks[index].swap(position, top);
            variants.push(other);
        }
    }
    variants
}

/// What the seat to act is shown: its legal actions, who acts, the outcome, every viewer's
/// observation, and the error a flip gets when it is not listed.
#[derive(Debug, PartialEq)]
struct Seen {
    legal: Vec<Action>,
    to_act: SeatSet,
    outcome: Option<Outcome>,
    observations: [Observation; 3],
    flip_error: Option<PlayError>,
}

/// What the seat to act is shown of `state`.
fn seen_by_actor(state: &State) -> Seen {
    let seat = state.current;
    let legal = RaindropChess::legal_actions(state, seat);
    let flip_error = if legal.contains(&Action::Flip) {
        None
    } else {
        RaindropChess::apply(&mut state.clone(), seat, &Action::Flip).err()
    };
    Seen {
        legal,
        to_act: RaindropChess::to_act(state),
        outcome: RaindropChess::outcome(state),
        observations: VIEWERS.map(|viewer| RaindropChess::observe(state, viewer)),
        flip_error,
    }
}

#[test]
fn s7_legal_actions_never_depend_on_the_hidden_deck_order() {
    let configs = [
        Config::default(),
        Config {
            jokers_per_deck: 2,
            ..Config::default()
        },
        Config {
            jokers_per_deck: 2,
            joker_effect: JokerEffect::RemovePiece,
            ..Config::default()
        },
        Config {
            jokers_per_deck: 1,
            joker_effect: JokerEffect::RemovePiece,
            bishop_card_fixes_square_colour: true,
            ..Config::default()
        },
    ];
    let mut rng = Seed::from_u64(7).rng();
    let (mut positions, mut variants, mut checks, mut joker_checks) = (0, 0, 0, 0);
    for (index, config) in configs.iter().enumerate() {
        for seed in 0..25u64 {
            let mut state = game(config, seed * 4 + index as u64);
            let mut pick = seed.wrapping_add(11).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            // Once both decks are down to their last hidden card nothing is hidden any more.
            while state.outcome.is_none()
                && (0..2).any(|i| state.decks[i].len() > state.returned[i] + 1)
            {
                let seat = state.current;
                let seen = seen_by_actor(&state);
                for other in top_card_variants(&state) {
                    assert_eq!(seen_by_actor(&other), seen, "seed {seed} config {index}");
                    variants += 1;
                }
                for viewer in VIEWERS {
                    let other = RaindropChess::resample(&state, viewer, &mut rng);
                    assert_keeps_pinned_facts(&state, &other);
                    assert_eq!(seen_by_actor(&other), seen, "seed {seed} config {index}");
                }
                let colour = colour_of(seat);
                if state.stage == Stage::Turn && state.position.in_check(colour) {
                    checks += 1;
                    if jokers_left(&state, seat) > 0 && !block_possible(&state.position, colour) {
                        // §8.10: the flip is offered in a check only a joker could end.
                        assert!(RaindropChess::legal_actions(&state, seat).contains(&Action::Flip));
                        joker_checks += 1;
                    }
                }
                positions += 1;
                let actions = RaindropChess::legal_actions(&state, seat);
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let action = actions[(pick >> 33) as usize % actions.len()];
                play(&mut state, seat, action);
            }
        }
    }
    assert!(positions > 10_000, "only {positions} positions");
    assert!(variants > 50_000, "only {variants} reordered decks");
    assert!(checks > 500, "only {checks} checks");
    assert!(
        joker_checks > 50,
        "only {joker_checks} checks that only a joker could end"
    );
}

#[test]
fn s7_every_viewer_sees_the_same_and_deck_order_never_shows() {
    let mut state = game(&Config::default(), 4);
    play(&mut state, Seat(0), Action::Flip);
    let views = VIEWERS.map(|viewer| RaindropChess::observe(&state, viewer));
    assert!(views.windows(2).all(|pair| pair[0] == pair[1]));
    // A state with another deck order looks the same to the deck's owner too.
    let mut rng = Seed::from_u64(5).rng();
    let other = RaindropChess::resample(&state, Viewer::Seat(Seat(0)), &mut rng);
    assert_ne!(other.decks, state.decks);
    assert_keeps_pinned_facts(&state, &other);
    assert_eq!(
        RaindropChess::observe(&other, Viewer::Seat(Seat(0))),
        views[0]
    );
    assert_eq!(
        RaindropChess::legal_actions(&other, Seat(0)),
        RaindropChess::legal_actions(&state, Seat(0))
    );
}

#[test]
fn s7_flipped_cards_counts_and_pools_are_public() {
    let mut state = game(&Config::default(), 2);
    play(&mut state, Seat(0), Action::Flip);
    let card = state.flipped[0][0];
    let view = RaindropChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.sides[0].flipped, vec![card]);
    assert_eq!(view.sides[0].deck_count, 15);
    assert_eq!(view.sides[1].deck_count, 16);
    assert_eq!(view.sides[0].promotion_pool.len(), 4);
    assert_eq!(view.stage, Stage::Place(card));
}

#[test]
fn s7_resampling_keeps_returned_cards_at_the_bottom_and_redraws_the_rest() {
    // Every empty square is attacked by Black's queens: White's flipped King goes back to the
    // bottom of the deck in play, where everyone has seen it go.
    let mut state = position_state(
        &["qa8", "qb8", "qc8", "qd8", "qe8", "qf8", "qg8", "qh8"],
        [
            vec![Card::Pawn, Card::Rook, Card::Knight, Card::Pawn, Card::King],
            vec![Card::Pawn, Card::Bishop],
        ],
        Seat(0),
    );
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::CardReturned {
        seat: Seat(0),
        card: Card::King
    }));
    assert_eq!(state.returned[0], 1);
    let mut rng = Seed::from_u64(77).rng();
    let mut orders = std::collections::BTreeSet::new();
    for viewer in VIEWERS.into_iter().cycle().take(30) {
        let other = RaindropChess::resample(&state, viewer, &mut rng);
        assert_eq!(
            other.decks[0][0],
            Card::King,
            "the returned card stays at the bottom"
        );
        assert_keeps_pinned_facts(&state, &other);
        assert_eq!(
            RaindropChess::observe(&other, Viewer::Spectator),
            RaindropChess::observe(&state, Viewer::Spectator)
        );
        orders.insert(other.decks.clone());
    }
    assert!(orders.len() > 1, "the hidden order is redrawn");
}
