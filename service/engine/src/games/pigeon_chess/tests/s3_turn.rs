//! §3 turn flow: start-of-turn flip, optional end, placing and passing.

use super::super::{Action, Event, EventView, Phase, PigeonChess};
use super::support::*;
use crate::game::{EndReason, Game, PlayError};
use crate::seat::{Seat, SeatSet, Viewer};

#[test]
fn s3_3_place_puts_a_hand_card_face_down_on_an_empty_own_back_row_spot() {
    let state = with_hands(
        position(0, &[up("b1", 0, R), up("a2", 0, P), up("b3", 1, P)]),
        [&[Q, P, P], &[N]],
    );
    let places: Vec<String> = PigeonChess::legal_actions(&state, Seat(0))
        .into_iter()
        .filter(|action| matches!(action, Action::Place { .. }))
        .map(|action| action.to_string())
        .collect();
    assert_eq!(
        places,
        ["place Q@a1", "place Q@c1", "place P@a1", "place P@c1"]
    );

    let mut state = state;
    let before = state.clone();
    for (piece, spot) in [
        (Q, "b1"),
        (Q, "a2"),
        (Q, "a4"),
        (Q, "c3"),
        (K, "a1"),
        (N, "a1"),
    ] {
        let action = Action::Place {
            piece,
            spot: sp(spot),
        };
        let result = PigeonChess::apply(&mut state, Seat(0), &action);
        assert!(matches!(result, Err(PlayError::Illegal(_))), "{action}");
        assert_eq!(state, before);
    }

    let events = act(
        &mut state,
        0,
        Action::Place {
            piece: Q,
            spot: sp("c1"),
        },
    );
    assert_eq!(
        events[0],
        Event::Placed {
            seat: Seat(0),
            spot: sp("c1"),
            piece: Q
        }
    );
    let card = state.card(sp("c1")).unwrap();
    assert!(card.face_down && card.owner == Seat(0) && card.piece == Q);
    assert_eq!(hand_cards_of(&state, 0), [P, P]);
    // Placing is the whole turn.
    assert_eq!(PigeonChess::to_act(&state), SeatSet::only(Seat(1)));
    let theirs = PigeonChess::observe(&state, Viewer::Seat(Seat(1)));
    assert_eq!(theirs.board[sp("c1").index()].piece, None);
    assert!(theirs.board[sp("c1").index()].face_down);
    assert_eq!(
        PigeonChess::view_event(&events[0], Viewer::Seat(Seat(1))),
        Some(EventView::Placed {
            seat: Seat(0),
            spot: sp("c1"),
            piece: None
        })
    );
}

fn hand_cards_of(state: &super::super::State, seat: usize) -> Vec<crate::chess::Role> {
    super::super::state::hand_cards(&state.hands[seat])
}

#[test]
fn s3_1_a_placed_card_is_turned_up_at_the_start_of_its_owners_next_turn() {
    let mut state = with_hands(
        position(0, &[up("a2", 0, R), up("c3", 1, R), down("c4", 1, B)]),
        [&[Q], &[N]],
    );
    act(
        &mut state,
        0,
        Action::Place {
            piece: Q,
            spot: sp("b1"),
        },
    );
    // Seat 1's own face-down card was turned up as its turn began; seat 0's stays down.
    assert!(!state.card(sp("c4")).unwrap().face_down);
    assert!(state.card(sp("b1")).unwrap().face_down);
    let events = act(&mut state, 1, mv("c3", "b3"));
    assert_eq!(
        events[1..],
        [
            started(0, 3),
            Event::Flipped {
                seat: Seat(0),
                spot: sp("b1"),
                piece: Q
            }
        ]
    );
    assert!(!state.card(sp("b1")).unwrap().face_down);
    // Turning up is free: the Queen may move this very turn.
    assert!(!moves_from(&state, 0, "b1").is_empty());
    let spectator = PigeonChess::observe(&state, Viewer::Spectator);
    assert_eq!(spectator.board[sp("b1").index()].piece, Some(Q));
}

#[test]
fn s3_2_ending_the_game_needs_exactly_one_card_on_the_board_and_an_empty_hand() {
    let lone = position(0, &[up("b2", 0, K), up("b4", 1, R), up("a4", 1, N)]);
    assert!(PigeonChess::legal_actions(&lone, Seat(0)).contains(&Action::EndGame));
    assert!(!PigeonChess::legal_actions(&lone, Seat(1)).contains(&Action::EndGame));

    let holding = with_hands(lone.clone(), [&[P], &[]]);
    assert!(!PigeonChess::legal_actions(&holding, Seat(0)).contains(&Action::EndGame));
    let two_cards = position(0, &[up("b2", 0, K), up("c1", 0, P), up("b4", 1, R)]);
    assert!(!PigeonChess::legal_actions(&two_cards, Seat(0)).contains(&Action::EndGame));
    for state in [holding, two_cards] {
        let mut state = state;
        let before = state.clone();
        assert!(matches!(
            PigeonChess::apply(&mut state, Seat(0), &Action::EndGame),
            Err(PlayError::Illegal(_))
        ));
        assert_eq!(state, before);
    }

    let mut state = lone;
    act(&mut state, 0, Action::EndGame);
    let outcome = PigeonChess::outcome(&state).expect("over");
    assert_eq!(outcome.reason, EndReason::PlayerEnded);
    assert_eq!(state.phase, Phase::Finished);
}

#[test]
fn s3_4_a_seat_without_a_legal_action_passes_automatically() {
    let mut state = with_hands(
        position(
            0,
            &[
                up("a2", 0, P),
                up("c2", 0, P),
                up("a3", 1, P),
                up("c3", 1, P),
            ],
        ),
        [&[Q, Q], &[]],
    );
    let events = act(
        &mut state,
        0,
        Action::Place {
            piece: Q,
            spot: sp("a1"),
        },
    );
    assert_eq!(
        events[1..],
        [
            started(1, 2),
            Event::Passed { seat: Seat(1) },
            started(0, 3),
            Event::Flipped {
                seat: Seat(0),
                spot: sp("a1"),
                piece: Q
            }
        ]
    );
    assert_eq!(state.turns_taken, 2, "a pass counts as a turn");
    assert_eq!(state.turns_without_progress, 1);
    assert_eq!(PigeonChess::to_act(&state), SeatSet::only(Seat(0)));
    assert!(state.outcome.is_none());
}

#[test]
fn s3_turns_alternate_and_only_the_seat_to_move_may_act() {
    let mut state = with_hands(position(0, &[up("b2", 0, K), up("b3", 1, K)]), [&[P], &[P]]);
    assert!(PigeonChess::legal_actions(&state, Seat(1)).is_empty());
    act(&mut state, 0, mv("b2", "a2"));
    assert_eq!(state.current, Some(Seat(1)));
    assert_eq!(
        PigeonChess::apply(&mut state, Seat(0), &mv("a2", "a1")),
        Err(PlayError::NotYourTurn)
    );
}

#[test]
fn s3_turn_numbers_count_setup_steps_as_0_1_2_and_grow_with_every_play_turn() {
    use crate::rng::{GameRng, Seed};
    use rand::{Rng, SeedableRng};
    for seed in 0..40 {
        let (mut state, _) =
            PigeonChess::new_game(&Default::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        // The play turn in progress, from the last TurnStarted event.
        let mut play_turn = None;
        while PigeonChess::outcome(&state).is_none() {
            let before = PigeonChess::turn_number(&state);
            let expected = match state.phase {
                Phase::FrontRow => 0,
                Phase::BackRow => 1,
                Phase::FirstPlayer => 2,
                Phase::Play => 2 + play_turn.expect("play began with a TurnStarted event"),
                Phase::Finished => unreachable!("the loop stops at the end"),
            };
            assert_eq!(before, expected, "seed {seed}");
            let seats: Vec<Seat> = PigeonChess::to_act(&state).iter().collect();
            let seat = seats[rng.random_range(0..seats.len())];
            let legal = PigeonChess::legal_actions(&state, seat);
            let action = legal[rng.random_range(0..legal.len())];
            let phase = state.phase;
            let events = act(&mut state, seat.0, action);
            let started: Vec<u32> = events
                .iter()
                .filter_map(|event| match event {
                    Event::TurnStarted { turn, .. } => Some(*turn),
                    _ => None,
                })
                .collect();
            if let Some(last) = started.last() {
                play_turn = Some(*last);
            }
            let after = PigeonChess::turn_number(&state);
            if PigeonChess::outcome(&state).is_some() {
                assert!(after >= before, "seed {seed}: the number went back");
            } else if started.is_empty() && phase == state.phase {
                // A simultaneous setup choice of one seat: the step goes on, and so does the turn.
                assert_eq!(after, before, "seed {seed}: {action} began no turn");
            } else {
                // Every new turn gets a greater number, passes included.
                assert!(after > before, "seed {seed}: {action} began a turn");
            }
        }
    }
}

#[test]
fn s3_turn_numbers_never_wrap_at_the_largest_turn_cap() {
    let mut state = position(0, &[up("b2", 0, K), up("b4", 1, K)]);
    state.config.max_turns = u32::MAX;
    state.turns_taken = u32::MAX - 2;
    assert_eq!(PigeonChess::turn_number(&state), u32::MAX);
    state.turns_taken = u32::MAX - 1;
    assert_eq!(PigeonChess::turn_number(&state), u32::MAX);
    state.phase = Phase::Finished;
    state.turns_taken = u32::MAX;
    assert_eq!(PigeonChess::turn_number(&state), u32::MAX);
}

#[test]
fn s3_2_a_chosen_pass_begins_the_next_turn_number() {
    // Seat 1's last card is stuck: it passes, and the turn number moves on to seat 0's turn.
    let mut state = position(1, &[up("b1", 0, K), up("c3", 0, R), up("b2", 1, P)]);
    let before = PigeonChess::turn_number(&state);
    act(&mut state, 1, Action::Pass);
    assert_eq!(PigeonChess::turn_number(&state), before + 1);
    assert_eq!(state.current, Some(Seat(0)));
}
