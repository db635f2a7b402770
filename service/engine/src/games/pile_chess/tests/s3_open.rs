//! §3 step 1: opening the piles — the deck top, a random hand card, or no pile.

use super::super::{Action, PileChess, PileSource, PublicEvent};
use super::support::*;
use crate::game::Game;
use crate::seat::Seat;

#[test]
fn s3_step1_the_top_card_of_the_deck_opens_the_pile() {
    let mut state = table(&ffa(), 2, &[], 0);
    // Draws take the top three (the end of the vector), the next card opens the pile.
    set_deck(&mut state, 0, &[N, Q, P, P, P]);
    set_deck(&mut state, 1, &[R, B, P, P, P]);
    let events = pass_all(&mut state, &[0, 1]);
    assert!(public(&events).contains(&PublicEvent::PileOpened {
        seat: Seat(0),
        piece: Q,
        source: PileSource::DeckTop,
    }));
    assert_eq!(state.pile(Seat(0)).unwrap().cards, vec![c(0, Q)]);
    assert_eq!(state.pile(Seat(1)).unwrap().cards, vec![c(1, B)]);
    assert_eq!(state.players[0].deck, vec![N]);
    assert_eq!(state.players[0].hand, hand(&[P, P, P]));
}

#[test]
fn s3_step1_an_empty_deck_opens_the_pile_with_a_random_hand_card() {
    let mut picked = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut state = table(&ffa(), 2, &[], 0);
        state.rng = crate::rng::Seed::from_u64(seed).rng();
        // Seat 0 has no deck and no reuse pile: the shortfall reshuffles its hand into a deck
        // and draws it all back, so the next round finds its deck empty.
        set_deck(&mut state, 0, &[]);
        set_hand(&mut state, 0, &[Q, N, N]);
        let events = pass_all(&mut state, &[0, 1]);
        let opened: Vec<PublicEvent> = public(&events)
            .into_iter()
            .filter(|event| matches!(event, PublicEvent::PileOpened { seat: Seat(0), .. }))
            .collect();
        let [PublicEvent::PileOpened { piece, source, .. }] = opened.as_slice() else {
            panic!("one opening for seat 0: {opened:?}");
        };
        assert_eq!(*source, PileSource::RandomFromHand);
        assert!([Q, N].contains(piece));
        assert_eq!(state.players[0].hand_count(), 2, "the card left the hand");
        assert_eq!(
            state.pile(Seat(0)).unwrap().source,
            PileSource::RandomFromHand
        );
        picked.insert(*piece);
    }
    assert_eq!(picked.len(), 2, "the pick is random: both pieces come up");
}

#[test]
fn s3_step1_without_deck_and_hand_a_player_has_no_pile() {
    let mut state = table(&ffa(), 2, &[], 0);
    set_deck(&mut state, 0, &[]);
    let events = pass_all(&mut state, &[0, 1]);
    assert!(public(&events).contains(&PublicEvent::NoPile { seat: Seat(0) }));
    assert!(state.pile(Seat(0)).is_none());
    assert!(state.pile(Seat(1)).is_some());
    // With an empty hand the player can only pass; no card can be played on a missing pile.
    assert_eq!(
        PileChess::legal_actions(&state, Seat(0)),
        vec![Action::Pass]
    );
    state.current = Some(Seat(1));
    set_hand(&mut state, 1, &[R]);
    let refusal = refused(&state, 1, play(R, 0));
    assert!(refusal.contains("no pile"), "{refusal}");
}
