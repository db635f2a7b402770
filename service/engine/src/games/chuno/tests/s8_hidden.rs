//! §8 hidden information and randomness: hands owner-only, deck order hidden from everyone,
//! drawn cards shown only to the drawer, resampling invisible to the viewer, and every random
//! step an event.

use rand::SeedableRng;

use super::super::Colour::Red;
use super::super::{Chuno, Event, EventView};
use super::support::*;
use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Spectator,
];

#[test]
fn s8_hands_are_owner_only_and_hand_sizes_public() {
    let (state, _) = new_game(11);
    let spectator = Chuno::observe(&state, Viewer::Spectator);
    assert!(spectator.hand.is_empty());
    assert_eq!(spectator.hand_counts, vec![7, 7]);
    for seat in [Seat(0), Seat(1)] {
        let seen = Chuno::observe(&state, Viewer::Seat(seat));
        assert_eq!(seen.hand, state.hands[seat.index()]);
        assert!(
            seen.hand.windows(2).all(|pair| pair[0] <= pair[1]),
            "sorted"
        );
    }
}

#[test]
fn s8_deck_order_is_hidden_from_everyone() {
    let (state, _) = new_game(12);
    let mut reordered = state.clone();
    reordered.deck.reverse();
    for viewer in VIEWERS {
        assert_eq!(
            Chuno::observe(&state, viewer),
            Chuno::observe(&reordered, viewer)
        );
    }
}

#[test]
fn s8_drawn_cards_are_shown_to_the_drawer_only() {
    let mut state = table(0, [&["B1", "B0"], &["G0", "G1"]], "R2", Red, &["G2", "Y1"]);
    let events = act(&mut state, 0, "draw");
    let drawn = events
        .iter()
        .find(|event| matches!(event, Event::CardsDrawn { .. }))
        .expect("a draw event");
    for viewer in VIEWERS {
        let Some(EventView::CardsDrawn { count, cards, .. }) = Chuno::view_event(drawn, viewer)
        else {
            panic!("a draw is seen by everyone");
        };
        assert_eq!(count, 1);
        assert_eq!(
            cards.is_some(),
            viewer == Viewer::Seat(Seat(0)),
            "{viewer:?}"
        );
    }
    let EventView::CardsDrawn { cards, .. } = Chuno::reveal_event(drawn) else {
        panic!("a draw event");
    };
    assert_eq!(cards, Some(vec![card("Y1")]));
}

#[test]
fn s8_resampling_redraws_what_the_viewer_cannot_see_and_nothing_else() {
    let (state, _) = new_game(13);
    let mut rng = GameRng::seed_from_u64(1);
    for viewer in VIEWERS {
        let other = Chuno::resample(&state, viewer, &mut rng);
        assert_eq!(
            Chuno::observe(&other, viewer),
            Chuno::observe(&state, viewer)
        );
        assert_eq!(all_cards(&other), all_cards(&state));
        assert_ne!(
            other.deck, state.deck,
            "{viewer:?}: the deck order is hidden"
        );
        if let Viewer::Seat(seat) = viewer {
            assert_eq!(other.hands[seat.index()], state.hands[seat.index()]);
            let opponent = seat.opponent().index();
            assert_ne!(other.hands[opponent], state.hands[opponent]);
        }
    }
}

#[test]
fn s8_randomness_is_the_shuffles_each_reported_as_an_event() {
    let (_, events) = new_game(14);
    assert!(matches!(events[0], Event::DeckShuffled { .. }));
    let mut state = table(0, [&["B1", "B0"], &["G0", "G1"]], "R2", Red, &[]);
    state.discard = cards(&["Y1", "B2", "G0", "R2"]);
    let events = act(&mut state, 0, "draw");
    assert!(events.contains(&Event::Reshuffled { cards: 3 }));
}
