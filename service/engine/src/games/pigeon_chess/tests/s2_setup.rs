//! §2 setup: deal, the secret rows, the first-player choice and the final reveal.

use std::collections::BTreeSet;

use super::super::state::hand_cards;
use super::super::{Action, Config, Event, EventView, Phase, PigeonChess, RowSide, State};
use super::support::*;
use crate::chess::Role;
use crate::game::{Game, PlayError};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet, Viewer};

/// A game rigged so that after both rows each seat holds `left[seat]`, with seat `back_first`'s
/// back row applied first. Front rows are three Pawns; back rows Rook, Bishop, Bishop.
fn at_first_player(left: [[Role; 2]; 2], back_first: u8) -> State {
    let hand0 = [P, P, P, left[0][0], left[0][1]];
    let hand1 = [P, P, P, left[1][0], left[1][1]];
    let deck = [N, Q, B, B, R];
    let mut state = rigged_setup([&hand0, &hand1], [&deck, &deck]);
    act(&mut state, 0, Action::PlaceFrontRow([P, P, P]));
    act(&mut state, 1, Action::PlaceFrontRow([P, P, P]));
    let other = 1 - back_first;
    act(&mut state, back_first, Action::PlaceBackRow([R, B, B]));
    act(&mut state, other, Action::PlaceBackRow([B, R, B]));
    assert_eq!(state.phase, Phase::FirstPlayer);
    state
}

/// Both seats pick; returns the `FirstPlayerChosen` event's fields.
fn pick(state: &mut State, picks: [Role; 2]) -> ([Vec<Role>; 2], Seat, bool) {
    act(state, 0, Action::RevealForFirst(picks[0]));
    let events = act(state, 1, Action::RevealForFirst(picks[1]));
    events
        .into_iter()
        .find_map(|event| match event {
            Event::FirstPlayerChosen {
                reveals,
                first_player,
                decided_by_arrival,
            } => Some((reveals, first_player, decided_by_arrival)),
            _ => None,
        })
        .expect("the first player is chosen once both picked")
}

#[test]
fn s2_1_each_deck_is_shuffled_and_five_are_drawn() {
    let (state, events) = PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(5)).unwrap();
    assert_eq!(
        events[..2],
        [
            Event::DeckShuffled { seat: Seat(0) },
            Event::DeckShuffled { seat: Seat(1) }
        ]
    );
    for (seat, event) in events[2..].iter().enumerate() {
        match event {
            Event::CardsDrawn {
                seat: drawer,
                pieces,
            } => {
                assert_eq!(*drawer, Seat(seat as u8));
                assert_eq!(pieces.len(), 5);
                let mut drawn = pieces.clone();
                drawn.sort_by(|a, b| b.cmp(a));
                assert_eq!(drawn, hand_cards(&state.hands[seat]));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(events.len(), 4);
    assert_eq!([state.decks[0].len(), state.decks[1].len()], [11, 11]);
    assert_eq!(state.phase, Phase::FrontRow);
    assert_eq!(PigeonChess::to_act(&state), SeatSet::first(2));
}

#[test]
fn s2_1_shuffles_come_from_the_seed() {
    let deal = |seed| PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
    assert_eq!(deal(11), deal(11));
    let decks: BTreeSet<Vec<Role>> = (0..20).map(|seed| deal(seed).0.decks[0].clone()).collect();
    assert!(
        decks.len() > 10,
        "different seeds give different deck orders"
    );
}

#[test]
fn s2_2_legal_row_choices_are_the_distinct_ordered_triples_of_the_hand() {
    let state = rigged_setup([&[P, P, P, N, K], &[P, N, B, R, Q]], [&[P; 5], &[P; 5]]);
    for seat in 0..2 {
        let cards = hand_cards(&state.hands[seat]);
        let mut expected = BTreeSet::new();
        for a in 0..5 {
            for b in 0..5 {
                for c in 0..5 {
                    if a != b && b != c && a != c {
                        expected.insert([cards[a], cards[b], cards[c]]);
                    }
                }
            }
        }
        let legal: Vec<[Role; 3]> = PigeonChess::legal_actions(&state, Seat(seat as u8))
            .into_iter()
            .map(|action| match action {
                Action::PlaceFrontRow(row) => row,
                other => panic!("unexpected {other}"),
            })
            .collect();
        let distinct: BTreeSet<[Role; 3]> = legal.iter().copied().collect();
        assert_eq!(distinct.len(), legal.len(), "no duplicates");
        assert_eq!(distinct, expected);
    }
    // P P P N K: PPP, two Pawns with N or K in any of 3 places, and P N K in any order.
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(0)).len(),
        1 + 2 * 3 + 6
    );
    assert_eq!(PigeonChess::legal_actions(&state, Seat(1)).len(), 60);
}

#[test]
fn s2_2_front_rows_are_secret_until_both_commit_then_revealed() {
    let mut state = rigged_setup(
        [&[P, P, N, B, K], &[P, R, R, Q, N]],
        [&[B, B, B], &[N, N, P]],
    );
    let events = act(&mut state, 0, Action::PlaceFrontRow([K, P, N]));
    assert_eq!(
        events,
        [Event::RowCommitted {
            seat: Seat(0),
            side: RowSide::Front,
            pieces: [K, P, N]
        }]
    );
    assert_eq!(PigeonChess::to_act(&state), SeatSet::only(Seat(1)));
    assert!(PigeonChess::legal_actions(&state, Seat(0)).is_empty());
    assert_eq!(
        PigeonChess::apply(&mut state, Seat(0), &Action::PlaceFrontRow([P, B, B])),
        Err(PlayError::NotYourTurn)
    );
    let mine = PigeonChess::observe(&state, Viewer::Seat(Seat(0)));
    let theirs = PigeonChess::observe(&state, Viewer::Seat(Seat(1)));
    for (column, name) in ["a2", "b2", "c2"].iter().enumerate() {
        let index = sp(name).index();
        assert!(mine.board[index].face_down && theirs.board[index].face_down);
        assert_eq!(mine.board[index].piece, Some([K, P, N][column]));
        assert_eq!(theirs.board[index].piece, None);
        assert_eq!(theirs.board[index].owner, Some(Seat(0)));
    }
    assert!(theirs.players[0].committed && !theirs.players[1].committed);
    assert_eq!(state.hand_count(Seat(0)), 2);

    let events = act(&mut state, 1, Action::PlaceFrontRow([R, Q, R]));
    assert_eq!(
        events[1],
        Event::RowsRevealed {
            side: RowSide::Front,
            rows: [[K, P, N], [R, Q, R]]
        }
    );
    // §2.3: each draws back up to five.
    assert_eq!(
        events[2..],
        [
            Event::CardsDrawn {
                seat: Seat(0),
                pieces: vec![B, B, B]
            },
            Event::CardsDrawn {
                seat: Seat(1),
                pieces: vec![P, N, N]
            }
        ]
    );
    let view = PigeonChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.board[sp("b3").index()].piece, Some(Q));
    assert!(!view.board[sp("a2").index()].face_down);
    assert_eq!(state.phase, Phase::BackRow);
    assert_eq!(PigeonChess::to_act(&state), SeatSet::first(2));
    assert_eq!(hand_cards(&state.hands[0]), [B, B, B, B, P]);
}

#[test]
fn s2_2_a_row_of_cards_not_held_is_rejected_without_trace() {
    let mut state = rigged_setup([&[P, P, N, B, K], &[P; 5]], [&[P; 5], &[P; 5]]);
    let before = state.clone();
    for row in [[Q, P, P], [P, P, P], [K, K, P]] {
        let result = PigeonChess::apply(&mut state, Seat(0), &Action::PlaceFrontRow(row));
        assert!(matches!(result, Err(PlayError::Illegal(_))), "{row:?}");
        assert_eq!(state, before);
    }
    for wrong_step in [
        Action::PlaceBackRow([P, P, N]),
        Action::RevealForFirst(K),
        mv("a2", "a3"),
        Action::Place {
            piece: K,
            spot: sp("a1"),
        },
        Action::EndGame,
    ] {
        let result = PigeonChess::apply(&mut state, Seat(0), &wrong_step);
        assert!(matches!(result, Err(PlayError::Illegal(_))), "{wrong_step}");
        assert_eq!(state, before);
    }
}

#[test]
fn s2_3_back_rows_stay_face_down_and_each_seat_keeps_two_cards() {
    let state = at_first_player([[K, N], [Q, P]], 0);
    for name in ["a1", "b1", "c1", "a4", "b4", "c4"] {
        let card = state.card(sp(name)).expect("back row filled");
        assert!(card.face_down, "{name} stays hidden");
    }
    let spectator = PigeonChess::observe(&state, Viewer::Spectator);
    assert_eq!(spectator.board[sp("a4").index()].piece, None);
    assert_eq!(state.hand_count(Seat(0)), 2);
    assert_eq!(state.hand_count(Seat(1)), 2);
    assert_eq!(state.back_row_first, Some(Seat(0)));
    // Legal picks: each distinct hand card.
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(0)),
        [Action::RevealForFirst(K), Action::RevealForFirst(N)]
    );
}

#[test]
fn s2_4_the_higher_card_goes_first() {
    let mut state = at_first_player([[K, P], [Q, R]], 1);
    let (reveals, first, by_arrival) = pick(&mut state, [K, Q]);
    assert_eq!(reveals, [vec![K], vec![Q]]);
    assert_eq!(first, Seat(0));
    assert!(!by_arrival);

    let mut state = at_first_player([[K, P], [Q, R]], 0);
    let (_, first, _) = pick(&mut state, [P, R]);
    assert_eq!(first, Seat(1));
    assert_eq!(state.first_player, Some(Seat(1)));
    assert_eq!(state.current, Some(Seat(1)));
}

#[test]
fn s2_4_a_tie_reveals_and_compares_the_other_cards() {
    let mut state = at_first_player([[N, P], [N, B]], 0);
    let (reveals, first, by_arrival) = pick(&mut state, [N, N]);
    assert_eq!(reveals, [vec![N, P], vec![N, B]]);
    assert_eq!(first, Seat(1));
    assert!(!by_arrival);
    let view = PigeonChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.players[0].first_player_reveals, [N, P]);
    assert_eq!(view.players[1].first_player_reveals, [N, B]);
}

#[test]
fn s2_4_a_second_tie_goes_to_the_back_row_that_arrived_first() {
    for back_first in [0, 1] {
        let mut state = at_first_player([[R, P], [P, R]], back_first);
        let (reveals, first, by_arrival) = pick(&mut state, [R, R]);
        assert_eq!(reveals, [vec![R, P], vec![R, P]]);
        assert_eq!(first, Seat(back_first));
        assert!(by_arrival);
    }
    // Two identical cards: the "other card" is the same piece again.
    let mut state = at_first_player([[B, B], [B, B]], 1);
    let (reveals, first, by_arrival) = pick(&mut state, [B, B]);
    assert_eq!(reveals, [vec![B, B], vec![B, B]]);
    assert_eq!((first, by_arrival), (Seat(1), true));
}

#[test]
fn s2_4_the_pick_is_secret_until_both_have_picked() {
    let mut state = at_first_player([[K, P], [Q, R]], 0);
    let events = act(&mut state, 1, Action::RevealForFirst(Q));
    assert_eq!(
        PigeonChess::view_event(&events[0], Viewer::Seat(Seat(0))),
        Some(EventView::FirstPlayerPicked {
            seat: Seat(1),
            piece: None
        })
    );
    assert_eq!(
        PigeonChess::view_event(&events[0], Viewer::Seat(Seat(1))),
        Some(EventView::FirstPlayerPicked {
            seat: Seat(1),
            piece: Some(Q)
        })
    );
    let view = PigeonChess::observe(&state, Viewer::Seat(Seat(0)));
    assert!(view.players[1].committed);
    assert!(view.players[1].first_player_reveals.is_empty());
    assert_eq!(view.first_player, None);
    assert_eq!(PigeonChess::to_act(&state), SeatSet::only(Seat(0)));
    // The pick must be a held card.
    let before = state.clone();
    assert!(matches!(
        PigeonChess::apply(&mut state, Seat(0), &Action::RevealForFirst(Q)),
        Err(PlayError::Illegal(_))
    ));
    assert_eq!(state, before);
}

#[test]
fn s2_5_back_rows_are_revealed_and_every_deck_is_drawn() {
    let mut state = at_first_player([[K, P], [Q, R]], 0);
    act(&mut state, 0, Action::RevealForFirst(K));
    let events = act(&mut state, 1, Action::RevealForFirst(Q));
    let revealed = events
        .iter()
        .position(|event| {
            *event
                == Event::RowsRevealed {
                    side: RowSide::Back,
                    rows: [[R, B, B], [B, R, B]],
                }
        })
        .expect("back rows revealed");
    // Each deck held N, Q (the bottom two cards) after the draws so far.
    assert_eq!(
        events[revealed + 1..revealed + 3],
        [
            Event::CardsDrawn {
                seat: Seat(0),
                pieces: vec![Q, N]
            },
            Event::CardsDrawn {
                seat: Seat(1),
                pieces: vec![Q, N]
            }
        ]
    );
    assert!(state.decks.iter().all(Vec::is_empty));
    // Revealed cards stay in hand.
    assert_eq!(hand_cards(&state.hands[0]), [K, Q, N, P]);
    assert_eq!(hand_cards(&state.hands[1]), [Q, Q, R, N]);
}

#[test]
fn s2_6_the_board_is_full_and_the_first_player_begins() {
    let mut state = at_first_player([[P, N], [K, N]], 0);
    act(&mut state, 0, Action::RevealForFirst(N));
    let events = act(&mut state, 1, Action::RevealForFirst(K));
    assert!(
        state
            .board
            .iter()
            .all(|card| card.is_some_and(|c| !c.face_down))
    );
    assert_eq!(state.phase, Phase::Play);
    assert_eq!(events.last(), Some(&started(1, 1)));
    assert_eq!(PigeonChess::to_act(&state), SeatSet::only(Seat(1)));
    assert!(!PigeonChess::legal_actions(&state, Seat(1)).is_empty());
    assert!(PigeonChess::legal_actions(&state, Seat(0)).is_empty());
}

#[test]
fn s2_a_full_default_setup_reaches_play_with_ten_cards_in_each_hand() {
    let (mut state, _) = PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(77)).unwrap();
    while state.phase != Phase::Play {
        for seat in PigeonChess::to_act(&state).iter() {
            let first = PigeonChess::legal_actions(&state, seat)[0];
            act(&mut state, seat.0, first);
        }
    }
    assert_eq!(state.hand_count(Seat(0)), 10);
    assert_eq!(state.hand_count(Seat(1)), 10);
    assert_eq!(state.board.iter().flatten().count(), 12);
}
