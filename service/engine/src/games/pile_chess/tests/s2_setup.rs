//! §2 setup: every deck shuffled, four cards each, White (seat 0) first, counters at 0.

use super::super::{Config, Event, PileChess, PileSource, PublicEvent, Step};
use super::support::*;
use crate::game::{Game, SetupError};
use crate::rng::Seed;
use crate::seat::{Seat, Viewer};

#[test]
fn s2_every_deck_is_shuffled_then_everyone_draws_four_and_opens_round_one() {
    for seats in 2..=4 {
        let (state, events) = PileChess::new_game(&ffa(), seats, Seed::from_u64(11)).unwrap();
        let shuffled: Vec<Seat> = events
            .iter()
            .filter_map(|event| match event {
                Event::Public(PublicEvent::DeckShuffled { seat }) => Some(*seat),
                _ => None,
            })
            .collect();
        assert_eq!(shuffled, (0..seats as u8).map(Seat).collect::<Vec<_>>());
        let drawn: Vec<(Seat, usize)> = events
            .iter()
            .filter_map(|event| match event {
                Event::CardsDrawn { seat, pieces } => Some((*seat, pieces.len())),
                _ => None,
            })
            .collect();
        assert_eq!(
            drawn,
            (0..seats as u8)
                .map(|seat| (Seat(seat), 4))
                .collect::<Vec<_>>()
        );
        assert!(public(&events).contains(&PublicEvent::RoundStarted {
            round: 1,
            first_player: Seat(0),
        }));
        for seat in 0..seats {
            let player = &state.players[seat];
            assert_eq!(player.hand_count(), 4);
            assert_eq!(player.deck.len(), 11, "16 - 4 drawn - 1 opening the pile");
            assert_eq!(player.reshuffles, 0);
            assert_eq!(
                state.piles[seat].as_ref().unwrap().source,
                PileSource::DeckTop
            );
        }
    }
}

#[test]
fn s2_white_seat_zero_is_the_first_player_of_round_one() {
    let state = game(&ffa(), 3, 5);
    let view = PileChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.round, 1);
    assert_eq!(view.step, Step::Play);
    assert_eq!(view.first_player, Seat(0));
    assert_eq!(view.current_player, Some(Seat(0)));
    assert_eq!(view.to_act, vec![Seat(0)]);
    assert!(view.players.iter().all(|player| player.reshuffles == 0));
}

#[test]
fn s2_each_seed_shuffles_its_own_way_and_replays_identically() {
    let deal = |seed| {
        let state = game(&ffa(), 2, seed);
        (state.players[0].deck.clone(), state.players[1].deck.clone())
    };
    assert_eq!(deal(1), deal(1));
    assert_ne!(deal(1), deal(2));
    // The two players' decks are shuffled independently.
    let (first, second) = deal(3);
    assert_ne!(first, second);
}

#[test]
fn s2_seat_counts_outside_two_to_four_are_refused() {
    for seats in [0, 1, 5, 8] {
        assert!(matches!(
            PileChess::new_game(&Config::default(), seats, Seed::from_u64(0)),
            Err(SetupError::SeatCount { min: 2, max: 4, .. })
        ));
    }
}
