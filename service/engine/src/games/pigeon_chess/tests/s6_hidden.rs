//! §6 hidden information: observations, event views, resampling and error messages.

use rand::SeedableRng;

use super::super::state::hand_cards;
use super::super::{Action, Config, Event, EventView, Phase, PigeonChess, RowSide, State};
use super::support::*;
use crate::chess::Role;
use crate::game::{Game, PlayError};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, Viewer};

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Spectator,
];

/// Every card of `owner`'s deck, wherever it is, as counts per piece.
fn owned_counts(state: &State, owner: usize) -> [usize; 6] {
    let mut counts = [0; 6];
    for piece in &state.decks[owner] {
        counts[piece.index()] += 1;
    }
    for piece in hand_cards(&state.hands[owner]) {
        counts[piece.index()] += 1;
    }
    for card in state.board.iter().flatten() {
        if card.owner.index() == owner {
            counts[card.piece.index()] += 1;
        }
    }
    counts
}

#[test]
fn s6_hands_are_owner_only_and_spectators_see_no_hand() {
    let (state, _) = PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(21)).unwrap();
    let mine = PigeonChess::observe(&state, Viewer::Seat(Seat(0)));
    assert_eq!(mine.hand, hand_cards(&state.hands[0]));
    assert!(
        mine.hand.windows(2).all(|pair| pair[0] >= pair[1]),
        "highest first"
    );
    assert_eq!(mine.players[1].hand_count, 5);
    assert_eq!(mine.players[1].deck_count, 11);
    let spectator = PigeonChess::observe(&state, Viewer::Spectator);
    assert!(spectator.hand.is_empty());
}

#[test]
fn s6_deck_order_is_hidden_from_everyone() {
    let (state, _) = PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(22)).unwrap();
    let mut reordered = state.clone();
    reordered.decks[0].reverse();
    reordered.decks[1].rotate_left(3);
    for viewer in VIEWERS {
        assert_eq!(
            PigeonChess::observe(&state, viewer),
            PigeonChess::observe(&reordered, viewer)
        );
    }
}

#[test]
fn s6_face_down_cards_are_hidden_from_the_opponent_only() {
    let state = position(0, &[down("a1", 0, K), up("b1", 0, P), down("c4", 1, Q)]);
    for (viewer, a1, c4) in [
        (Viewer::Seat(Seat(0)), Some(K), None),
        (Viewer::Seat(Seat(1)), None, Some(Q)),
        (Viewer::Spectator, None, None),
    ] {
        let view = PigeonChess::observe(&state, viewer);
        assert_eq!(view.board[sp("a1").index()].piece, a1);
        assert_eq!(view.board[sp("c4").index()].piece, c4);
        assert_eq!(view.board[sp("b1").index()].piece, Some(P));
        assert!(view.board[sp("a1").index()].face_down);
        assert_eq!(view.board[sp("c4").index()].owner, Some(Seat(1)));
        assert_eq!(view.board[sp("b2").index()].owner, None);
    }
}

#[test]
fn s6_event_views_show_secrets_only_to_their_owner() {
    let secret = [
        Event::CardsDrawn {
            seat: Seat(1),
            pieces: vec![K, P],
        },
        Event::RowCommitted {
            seat: Seat(1),
            side: RowSide::Back,
            pieces: [Q, P, N],
        },
        Event::FirstPlayerPicked {
            seat: Seat(1),
            piece: K,
        },
        Event::Placed {
            seat: Seat(1),
            spot: sp("b4"),
            piece: R,
        },
    ];
    let hidden = [
        EventView::CardsDrawn {
            seat: Seat(1),
            count: 2,
            pieces: None,
        },
        EventView::RowCommitted {
            seat: Seat(1),
            side: RowSide::Back,
            pieces: None,
        },
        EventView::FirstPlayerPicked {
            seat: Seat(1),
            piece: None,
        },
        EventView::Placed {
            seat: Seat(1),
            spot: sp("b4"),
            piece: None,
        },
    ];
    for (event, hidden) in secret.iter().zip(hidden) {
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
            assert_eq!(PigeonChess::view_event(event, viewer), Some(hidden.clone()));
        }
        let full = PigeonChess::reveal_event(event);
        assert_ne!(full, hidden);
        assert_eq!(
            PigeonChess::view_event(event, Viewer::Seat(Seat(1))),
            Some(full)
        );
    }
    let public = [
        Event::DeckShuffled { seat: Seat(0) },
        Event::RowsRevealed {
            side: RowSide::Front,
            rows: [[P, P, N], [K, Q, R]],
        },
        Event::FirstPlayerChosen {
            reveals: [vec![N, P], vec![N, B]],
            first_player: Seat(1),
            decided_by_arrival: false,
        },
        started(0, 4),
        Event::Flipped {
            seat: Seat(0),
            spot: sp("a1"),
            piece: Q,
        },
        Event::Moved {
            seat: Seat(0),
            from: sp("a1"),
            to: sp("a3"),
            piece: R,
            captured: Some(N),
            captured_scored: true,
            pawn_scored: false,
        },
        Event::Passed { seat: Seat(1) },
    ];
    for event in &public {
        for viewer in VIEWERS {
            assert_eq!(
                PigeonChess::view_event(event, viewer),
                Some(PigeonChess::reveal_event(event))
            );
        }
    }
}

#[test]
fn s6_resample_keeps_every_observation_and_the_viewers_own_legal_actions() {
    let mut resample_rng = GameRng::seed_from_u64(99);
    let mut opponent_hand_changed = false;
    let mut hidden_row_changed = false;
    for seed in 0..40 {
        let (mut state, _) =
            PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut play_rng = GameRng::seed_from_u64(seed);
        loop {
            for viewer in VIEWERS {
                let other = PigeonChess::resample(&state, viewer, &mut resample_rng);
                assert_eq!(
                    PigeonChess::observe(&other, viewer),
                    PigeonChess::observe(&state, viewer),
                    "seed {seed}"
                );
                for seat in [Seat(0), Seat(1)] {
                    assert_eq!(
                        owned_counts(&other, seat.index()),
                        owned_counts(&state, seat.index())
                    );
                    if let Some(pick) = other.first_picks[seat.index()] {
                        assert!(other.hands[seat.index()][pick.index()] > 0);
                    }
                }
                if let Viewer::Seat(seat) = viewer {
                    assert_eq!(
                        PigeonChess::legal_actions(&other, seat),
                        PigeonChess::legal_actions(&state, seat)
                    );
                    let opponent = seat.opponent().index();
                    opponent_hand_changed |= other.hands[opponent] != state.hands[opponent];
                    hidden_row_changed |=
                        state.phase == Phase::BackRow && other.board != state.board;
                }
            }
            if random_step(&mut state, &mut play_rng).is_none() {
                break;
            }
        }
    }
    assert!(
        opponent_hand_changed,
        "resampling redraws the opponent's hand"
    );
    assert!(hidden_row_changed, "resampling redraws committed rows");
}

#[test]
fn s6_error_messages_do_not_depend_on_hidden_cards() {
    let messages = |hidden: Role| {
        let mut state = with_hands(
            position(0, &[up("a1", 0, R), down("a3", 1, hidden), up("c4", 1, K)]),
            [&[P], &[]],
        );
        [("a1", "a3"), ("a1", "a4"), ("a3", "a2")]
            .map(|(from, to)| {
                PigeonChess::apply(
                    &mut state,
                    Seat(0),
                    &Action::Move {
                        from: sp(from),
                        to: sp(to),
                    },
                )
            })
            .map(|result| match result {
                Err(PlayError::Illegal(message)) => message,
                other => panic!("expected a rejection, got {other:?}"),
            })
    };
    assert_eq!(messages(K), messages(P));
    for message in messages(Q) {
        assert!(!message.contains('Q'), "{message}");
    }
}
