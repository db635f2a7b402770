//! §2 setup: the shuffle, seven cards each, the starting card, White first.

use super::super::observation::Stage;
use super::super::{Card, Chuno, Event, Kind};
use super::support::*;
use crate::chess::Position;
use crate::game::Game;
use crate::seat::{Seat, SeatSet};

#[test]
fn s2_seven_cards_each_a_coloured_starter_and_white_moves_first() {
    for seed in 0..20 {
        let (state, events) = new_game(seed);
        assert_eq!(state.hands[0].len(), 7);
        assert_eq!(state.hands[1].len(), 7);
        assert_eq!(state.discard.len(), 1);
        assert_eq!(state.deck.len(), 96 - 15);
        let top = state.top();
        assert!(!top.is_wild(), "seed {seed}: the starter {top} is wild");
        assert_eq!(Some(state.active_colour), top.colour);
        assert_eq!(state.position, Position::startpos());
        assert_eq!(state.current, Seat(0));
        assert_eq!(state.stage, Stage::Start);
        assert_eq!(Chuno::to_act(&state), SeatSet::only(Seat(0)));
        assert!(matches!(events[0], Event::DeckShuffled { cards: 96 }));
        assert!(
            events
                .iter()
                .any(|event| matches!(event, Event::StarterTurned { card } if *card == top))
        );
        assert!(matches!(
            events.last(),
            Some(Event::TurnStarted {
                seat: Seat(0),
                turn: 1
            })
        ));
    }
}

#[test]
fn s2_the_shuffle_depends_on_the_seed_only() {
    assert_eq!(new_game(7).0, new_game(7).0);
    assert_ne!(new_game(7).0.deck, new_game(8).0.deck);
}

#[test]
fn s2_a_wild_starter_goes_back_into_the_deck_and_another_is_turned_up() {
    let seed = (0..500)
        .find(|seed| {
            new_game(*seed)
                .1
                .iter()
                .any(|event| matches!(event, Event::StarterReburied { .. }))
        })
        .expect("some seed turns up a wild first");
    let (state, events) = new_game(seed);
    let reburied: Vec<Card> = events
        .iter()
        .filter_map(|event| match event {
            Event::StarterReburied { card } => Some(*card),
            _ => None,
        })
        .collect();
    assert!(reburied.iter().all(|card| card.is_wild()));
    assert!(!state.top().is_wild());
    assert_eq!(state.deck.len(), 81, "the wild went back into the deck");
    assert!(state.deck.contains(&reburied[0]));
}

#[test]
fn s2_an_action_starter_has_no_effect() {
    let mut seen = 0;
    for seed in 0..300 {
        let (state, _) = new_game(seed);
        if !matches!(state.top().kind, Kind::Skip | Kind::DrawTwo | Kind::Reverse) {
            continue;
        }
        seen += 1;
        assert_eq!(state.skips, [0, 0]);
        assert_eq!([state.hands[0].len(), state.hands[1].len()], [7, 7]);
        assert_eq!((state.current, state.stage), (Seat(0), Stage::Start));
        assert_eq!(state.cards_this_turn, 0);
    }
    assert!(seen > 0, "no seed turned up an action card");
}
