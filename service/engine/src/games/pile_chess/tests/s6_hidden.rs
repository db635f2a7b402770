//! §6 hidden information: hands are owner-only, deck order is hidden from everyone, everything
//! else is public; randomness comes from the game's generator.

use rand::SeedableRng;

use super::super::{Event, EventView, PileChess, PileSource, PublicEvent};
use super::support::*;
use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};

fn viewers(seats: usize) -> Vec<Viewer> {
    (0..seats as u8)
        .map(|seat| Viewer::Seat(Seat(seat)))
        .chain([Viewer::Spectator])
        .collect()
}

#[test]
fn s6_a_hand_is_seen_only_by_its_owner_and_counted_for_everyone() {
    let state = game(&ffa(), 3, 21);
    for viewer in viewers(3) {
        let view = PileChess::observe(&state, viewer);
        match viewer {
            Viewer::Seat(seat) => {
                let mut own = view.hand.clone();
                own.sort();
                let mut held = Vec::new();
                for piece in crate::chess::Role::ALL {
                    for _ in 0..state.players[seat.index()].hand[piece.index()] {
                        held.push(piece);
                    }
                }
                assert_eq!(own, held);
                assert!(
                    view.hand.windows(2).all(|pair| pair[0] >= pair[1]),
                    "King first"
                );
            }
            Viewer::Spectator => assert!(view.hand.is_empty()),
        }
        assert!(view.players.iter().all(|player| player.hand_count == 4));
    }
}

#[test]
fn s6_deck_order_is_hidden_from_everyone_including_the_owner() {
    let state = game(&ffa(), 2, 22);
    let mut reordered = state.clone();
    reordered.players[0].deck.reverse();
    reordered.players[1].deck.rotate_left(3);
    assert_ne!(state, reordered);
    for viewer in viewers(2) {
        assert_eq!(
            PileChess::observe(&state, viewer),
            PileChess::observe(&reordered, viewer)
        );
    }
}

#[test]
fn s6_drawn_cards_are_shown_only_to_the_player_who_drew_them() {
    let event = Event::CardsDrawn {
        seat: Seat(1),
        pieces: vec![K, P, P],
    };
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            PileChess::view_event(&event, viewer),
            Some(EventView::CardsDrawn {
                seat: Seat(1),
                count: 3,
                pieces: None,
            })
        );
    }
    let full = EventView::CardsDrawn {
        seat: Seat(1),
        count: 3,
        pieces: Some(vec![K, P, P]),
    };
    assert_eq!(
        PileChess::view_event(&event, Viewer::Seat(Seat(1))),
        Some(full.clone())
    );
    assert_eq!(PileChess::reveal_event(&event), full);
    // Everything else, such as which hand card the server picked, is public.
    let picked = Event::Public(PublicEvent::PileOpened {
        seat: Seat(0),
        piece: Q,
        source: PileSource::RandomFromHand,
    });
    for viewer in viewers(3) {
        assert_eq!(
            PileChess::view_event(&picked, viewer),
            Some(EventView::Public(PublicEvent::PileOpened {
                seat: Seat(0),
                piece: Q,
                source: PileSource::RandomFromHand,
            }))
        );
    }
}

#[test]
fn s6_resampling_keeps_what_a_viewer_sees_and_redraws_what_it_does_not() {
    let mut rng = GameRng::seed_from_u64(6);
    let mut other_hands_changed = 0;
    for seed in 0..30 {
        let mut state = game(&ffa(), 3, seed);
        for _ in 0..(seed % 7) {
            if random_step(&mut state, &mut rng).is_none() {
                break;
            }
        }
        for viewer in viewers(3) {
            let other = PileChess::resample(&state, viewer, &mut rng);
            assert_eq!(
                PileChess::observe(&other, viewer),
                PileChess::observe(&state, viewer)
            );
            assert_eq!(PileChess::to_act(&other), PileChess::to_act(&state));
            assert_eq!(total_cards(&other), total_cards(&state));
            if let Viewer::Seat(seat) = viewer {
                assert_eq!(
                    PileChess::legal_actions(&other, seat),
                    PileChess::legal_actions(&state, seat)
                );
            }
            if (0..3).any(|index| other.players[index].hand != state.players[index].hand) {
                other_hands_changed += 1;
            }
        }
    }
    assert!(
        other_hands_changed > 0,
        "resampling never redrew a hidden hand"
    );
}

#[test]
fn s6_refusals_name_only_the_actors_own_cards() {
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, B)]], 0);
    set_hand(&mut state, 0, &[P]);
    let mut other = state.clone();
    set_hand(&mut state, 1, &[Q, Q]);
    set_hand(&mut other, 1, &[R]);
    for action in [play(Q, 1), play(R, 0), super::super::Action::Castle] {
        assert_eq!(
            refused(&state, 0, action.clone()),
            refused(&other, 0, action)
        );
    }
}
