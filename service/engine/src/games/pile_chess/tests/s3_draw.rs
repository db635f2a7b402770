//! §3 step 4: drawing three cards, the shortfall reshuffle and its counter.

use super::super::{Event, PileChess, PublicEvent};
use super::support::*;
use crate::game::{EndReason, Game};
use crate::seat::{Seat, SeatSet};

#[test]
fn s3_step4_a_deck_of_three_or_more_gives_three_cards() {
    let mut state = table(&ffa(), 3, &[], 0);
    set_hand(&mut state, 1, &[Q]);
    let events = pass_all(&mut state, &[0, 1, 2]);
    let drawn: Vec<(Seat, usize)> = events
        .iter()
        .filter_map(|event| match event {
            Event::CardsDrawn { seat, pieces } => Some((*seat, pieces.len())),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, vec![(Seat(0), 3), (Seat(1), 3), (Seat(2), 3)]);
    assert_eq!(state.players[1].hand_count(), 4);
    // 8 - 3 drawn - 1 opening the new pile.
    assert_eq!(state.players[1].deck.len(), 4);
}

#[test]
fn s3_step4_the_seeds_shortfall_example_five_in_hand_one_in_deck_seven_to_reuse() {
    // Bob (seat 0) has 5 cards in hand, 1 in his deck and 7 in his reuse pile.
    let mut state = table(&ffa(), 2, &[], 0);
    set_hand(&mut state, 0, &[P, P, N, B, R]);
    set_deck(&mut state, 0, &[Q]);
    state.players[0].reuse = vec![P, P, P, P, N, B, R];
    let events = pass_all(&mut state, &[0, 1]);
    // He draws the one card (6 in hand), shuffles hand and reuse pile into a 13-card deck and
    // draws back to 6: the missing draws are lost.
    assert!(public(&events).contains(&PublicEvent::Shortfall {
        seat: Seat(0),
        drawn: 1,
        hand_size: 6,
        reshuffles: 1,
        ends_game: false,
    }));
    let draws: Vec<usize> = events
        .iter()
        .filter_map(|event| match event {
            Event::CardsDrawn {
                seat: Seat(0),
                pieces,
            } => Some(pieces.len()),
            _ => None,
        })
        .collect();
    assert_eq!(draws, vec![1, 6]);
    let bob = &state.players[0];
    assert_eq!(bob.hand_count(), 6);
    assert!(bob.reuse.is_empty());
    assert_eq!(bob.reshuffles, 1);
    // 13 - 6 = 7 cards left in the deck, one of which now opens Bob's pile.
    assert_eq!(bob.deck.len() + state.pile(Seat(0)).unwrap().cards.len(), 7);
    // Every one of Bob's 13 cards is still his.
    let mut counts = bob.hand;
    for piece in &bob.deck {
        counts[piece.index()] += 1;
    }
    for card in &state.pile(Seat(0)).unwrap().cards {
        counts[card.piece.index()] += 1;
    }
    assert_eq!(counts, hand(&[P, P, P, P, P, P, N, N, B, B, R, R, Q]));
}

#[test]
fn s3_step4_the_reshuffle_happens_even_with_an_empty_reuse_pile() {
    let mut state = table(&ffa(), 2, &[], 0);
    set_hand(&mut state, 0, &[R, B]);
    set_deck(&mut state, 0, &[N, P]);
    let events = pass_all(&mut state, &[0, 1]);
    let shortfall = public(&events).into_iter().position(|event| {
        event
            == PublicEvent::Shortfall {
                seat: Seat(0),
                drawn: 2,
                hand_size: 4,
                reshuffles: 1,
                ends_game: false,
            }
    });
    let shuffled = public(&events)
        .into_iter()
        .position(|event| event == PublicEvent::DeckShuffled { seat: Seat(0) });
    assert!(shortfall.is_some() && shuffled > shortfall, "{events:?}");
    // The 4 cards went into the deck and all came back: the new round opens from the hand.
    assert_eq!(state.players[0].deck.len(), 0);
    assert_eq!(state.players[0].hand_count(), 3);
}

#[test]
fn s3_step4_a_third_shortfall_ends_the_game_as_a_stalemate_for_everyone() {
    let mut state = table(&ffa(), 3, &[], 0);
    state.players[1].reshuffles = 2;
    set_deck(&mut state, 1, &[P, P]);
    state.captured[2] = vec![c(0, Q)];
    state.captured[0] = vec![c(1, R)];
    let events = pass_all(&mut state, &[0, 1, 2]);
    assert!(public(&events).contains(&PublicEvent::Shortfall {
        seat: Seat(1),
        drawn: 2,
        hand_size: 2,
        reshuffles: 2,
        ends_game: true,
    }));
    let outcome = PileChess::outcome(&state).expect("the game is over");
    assert_eq!(outcome.reason, EndReason::OutOfCards);
    assert_eq!(outcome.scores, vec![5, 0, 9]);
    assert_eq!(outcome.winners, SeatSet::only(Seat(2)));
    // Seat 2 never drew: the game ended at once.
    assert_eq!(state.players[2].hand_count(), 0);
}
