//! §7 Hidden information and randomness: deck order is hidden from everyone, the owner
//! included; everything else is public.

use super::super::{Action, Card, Config, RaindropChess};
use super::support::{game, play};
use crate::game::Game;
use crate::rng::Seed;
use crate::seat::{Seat, Viewer};

#[test]
fn s7_every_viewer_sees_the_same_and_deck_order_never_shows() {
    let mut state = game(&Config::default(), 4);
    play(&mut state, Seat(0), Action::Flip);
    let views: Vec<_> = [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ]
    .into_iter()
    .map(|viewer| RaindropChess::observe(&state, viewer))
    .collect();
    assert!(views.windows(2).all(|pair| pair[0] == pair[1]));
    // A state with another deck order looks the same to the deck's owner too.
    let mut other = state.clone();
    other.decks[0].reverse();
    other.decks[1].rotate_left(3);
    assert_ne!(other.decks, state.decks);
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
    assert_eq!(view.stage, super::super::Stage::Place(card));
}

#[test]
fn s7_resampling_redraws_only_the_hidden_order() {
    let mut state = game(&Config::default(), 6);
    state.decks[0].insert(0, Card::King);
    state.decks[0].pop();
    state.returned[0] = 1;
    let mut rng = Seed::from_u64(77).rng();
    let mut changed = false;
    for _ in 0..10 {
        let other = RaindropChess::resample(&state, Viewer::Seat(Seat(0)), &mut rng);
        assert_eq!(
            other.decks[0][0],
            Card::King,
            "the returned card stays at the bottom"
        );
        assert_eq!(
            RaindropChess::observe(&other, Viewer::Spectator),
            RaindropChess::observe(&state, Viewer::Spectator)
        );
        changed |= other.decks != state.decks;
    }
    assert!(changed);
}
