//! §1 components: the decks, the zones, the piece values and the absence of card abilities.

use super::super::{Config, DECK, PileChess, PublicEvent};
use super::support::*;
use crate::chess::Role;
use crate::game::Game;
use crate::seat::{Seat, Viewer};

#[test]
fn s1_every_player_owns_a_sixteen_card_deck_of_the_stated_pieces() {
    for seats in 2..=4 {
        let state = game(&ffa(), seats, 3);
        for seat in 0..seats {
            let player = &state.players[seat];
            let mut counts = player.hand;
            for piece in &player.deck {
                counts[piece.index()] += 1;
            }
            let pile = state.piles[seat]
                .as_ref()
                .expect("every player opens a pile");
            for card in &pile.cards {
                assert_eq!(
                    card.owner,
                    Seat(seat as u8),
                    "a pile opens with its owner's card"
                );
                counts[card.piece.index()] += 1;
            }
            // 8 Pawns, 2 Knights, 2 Bishops, 2 Rooks, 1 Queen, 1 King.
            assert_eq!(counts, DECK);
            assert_eq!(DECK, [8, 2, 2, 2, 1, 1]);
        }
    }
}

#[test]
fn s1_the_default_values_are_p1_n3_b3_r5_q9_k4() {
    let config = Config::default();
    let values: Vec<u32> = Role::ALL.iter().map(|piece| config.value(*piece)).collect();
    assert_eq!(values, vec![1, 3, 3, 5, 9, 4]);
    // The King can be beaten, and by a Rook in particular (§1's reasons for K=4).
    assert!(config.value(Role::Rook) > config.value(Role::King));
    assert!(config.value(Role::King) > 0);
}

#[test]
fn s1_a_card_keeps_its_owner_on_any_pile() {
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, B)], &[c(2, R)]], 0);
    set_hand(&mut state, 0, &[Q, P]);
    act(&mut state, 0, play(Q, 2));
    assert_eq!(state.pile(Seat(2)).unwrap().cards, vec![c(2, R), c(0, Q)]);
    assert_eq!(state.players[0].hand, hand(&[P]));
    // Resolution gives each card back to its own owner's reuse pile when its side wins.
    act(&mut state, 1, super::super::Action::Pass);
    let events = act(&mut state, 2, super::super::Action::Pass);
    assert!(round_ended(&events));
    assert_eq!(state.players[0].reuse, vec![N, Q]);
    assert_eq!(state.captured[0], vec![c(2, R)]);
}

#[test]
fn s1_piles_are_decided_by_the_configured_values_alone() {
    // The cards carry no abilities: with Pawns worth 10, one Pawn beats a Queen.
    let config = Config {
        values: [10, 3, 3, 5, 9, 4],
        ..Config::default()
    };
    let mut state = table(&config, 2, &[&[c(0, P)], &[]], 1);
    set_hand(&mut state, 1, &[Q]);
    act(&mut state, 1, play(Q, 0));
    let events = act(&mut state, 0, super::super::Action::Pass);
    match resolution(&events, 0) {
        PublicEvent::PileResolved {
            winner,
            returned,
            captured,
            ..
        } => {
            assert_eq!(winner, Some(0));
            assert_eq!(returned, vec![c(0, P)]);
            assert_eq!(captured.len(), 1);
            assert_eq!(captured[0].card, c(1, Q));
        }
        other => panic!("{other:?}"),
    }
    // With the defaults the same pile goes the other way.
    let mut state = table(&ffa(), 2, &[&[c(0, P)], &[]], 1);
    set_hand(&mut state, 1, &[Q]);
    act(&mut state, 1, play(Q, 0));
    let events = act(&mut state, 0, super::super::Action::Pass);
    assert!(matches!(
        resolution(&events, 0),
        PublicEvent::PileResolved {
            winner: Some(1),
            ..
        }
    ));
}

#[test]
fn s1_zones_are_shown_with_their_visibility() {
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, P)]], 0);
    set_hand(&mut state, 0, &[R, P]);
    set_hand(&mut state, 1, &[B]);
    state.players[0].reuse = vec![P, Q];
    state.captured[1] = vec![c(0, B)];
    state.removed = vec![c(1, P)];
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let view = PileChess::observe(&state, viewer);
        assert_eq!(view.players[0].deck_count, 8);
        assert_eq!(view.players[0].hand_count, 2);
        assert_eq!(view.players[1].hand_count, 1);
        assert_eq!(view.players[0].reuse_pile, vec![P, Q]);
        assert_eq!(view.captured_piles[1].cards, vec![c(0, B)]);
        assert_eq!(view.captured_piles[1].value, 3);
        assert_eq!(view.removed, vec![c(1, P)]);
        assert_eq!(view.piles.len(), 2);
        assert_eq!(view.piles[1].cards, vec![c(1, P)]);
    }
    assert_eq!(
        PileChess::observe(&state, Viewer::Seat(Seat(0))).hand,
        vec![R, P]
    );
    assert_eq!(
        PileChess::observe(&state, Viewer::Seat(Seat(1))).hand,
        vec![B]
    );
    assert!(
        PileChess::observe(&state, Viewer::Spectator)
            .hand
            .is_empty()
    );
}
