//! §2 Setup: empty board, both decks shuffled (each an event), White first.

use super::super::{Action, Config, Event, EventView, RaindropChess};
use super::support::game;
use crate::game::Game;
use crate::rng::Seed;
use crate::seat::{Seat, Viewer};

#[test]
fn s2_both_decks_are_shuffled_and_white_flips_first() {
    let (state, events) =
        RaindropChess::new_game(&Config::default(), 2, Seed::from_u64(9)).expect("valid setup");
    assert_eq!(
        events,
        vec![
            Event::DeckShuffled {
                seat: Seat(0),
                order: state.decks[0].clone(),
            },
            Event::DeckShuffled {
                seat: Seat(1),
                order: state.decks[1].clone(),
            },
        ]
    );
    // While the game runs, nobody sees the order, not even the deck's owner.
    for event in &events {
        let view = RaindropChess::view_event(event, Viewer::Seat(Seat(0))).expect("public");
        assert!(matches!(
            view,
            EventView::DeckShuffled {
                cards: 16,
                order: None,
                ..
            }
        ));
        assert!(matches!(
            RaindropChess::reveal_event(event),
            EventView::DeckShuffled { order: Some(_), .. }
        ));
    }
    assert_eq!(
        RaindropChess::to_act(&state).iter().collect::<Vec<_>>(),
        vec![Seat(0)]
    );
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
    assert!(RaindropChess::legal_actions(&state, Seat(1)).is_empty());
}

#[test]
fn s2_the_shuffle_depends_on_the_seed() {
    let orders: Vec<_> = (0..8).map(|n| game(&Config::default(), n).decks).collect();
    assert!(orders.windows(2).any(|pair| pair[0] != pair[1]));
    assert_eq!(
        game(&Config::default(), 5).decks,
        game(&Config::default(), 5).decks
    );
    assert!(RaindropChess::new_game(&Config::default(), 3, Seed::from_u64(0)).is_err());
}
