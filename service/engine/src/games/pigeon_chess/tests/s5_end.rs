//! §5 end of game, (a) to (f).

use super::super::{Action, Config, Event, Phase, PigeonChess, State};
use super::support::*;
use crate::game::{EndReason, Game, PlayError};
use crate::seat::{Seat, SeatSet};

fn assert_over(state: &State, reason: EndReason) {
    let outcome = PigeonChess::outcome(state).expect("the game is over");
    assert_eq!(outcome.reason, reason);
    assert_eq!(state.phase, Phase::Finished);
    assert_eq!(PigeonChess::to_act(state), SeatSet::EMPTY);
    for seat in [Seat(0), Seat(1)] {
        assert!(PigeonChess::legal_actions(state, seat).is_empty());
    }
    let mut after = state.clone();
    assert_eq!(
        PigeonChess::apply(&mut after, Seat(0), &Action::EndGame),
        Err(PlayError::GameOver)
    );
    assert_eq!(&after, state);
}

#[test]
fn s5a_a_player_with_one_card_and_no_hand_may_end_the_game() {
    let mut state = with_hands(
        position(1, &[up("a1", 0, P), up("b1", 0, P), up("c4", 1, B)]),
        [&[R], &[]],
    );
    assert!(PigeonChess::legal_actions(&state, Seat(1)).contains(&Action::EndGame));
    let events = act(&mut state, 1, Action::EndGame);
    assert!(events.is_empty());
    assert_over(&state, EndReason::PlayerEnded);
    assert_eq!(PigeonChess::outcome(&state).unwrap().scores, [3, 3]);
}

#[test]
fn s5b_the_game_ends_when_neither_player_has_a_legal_action() {
    // Seat 0 moves its last mobile card into a dead end; then neither side can act.
    let mut state = position(
        0,
        &[
            up("a2", 0, P),
            up("c1", 0, P),
            up("a3", 1, P),
            up("c3", 1, P),
        ],
    );
    // Seat 0: a2 blocked by a3; c1 may step to c2, which then is blocked by c3.
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(0)),
        [mv("c1", "c2")]
    );
    let events = act(&mut state, 0, mv("c1", "c2"));
    assert_eq!(
        events[1..],
        [
            started(1, 2),
            Event::Passed { seat: Seat(1) },
            started(0, 3),
        ]
    );
    assert_over(&state, EndReason::NoLegalAction);
    assert_eq!(state.turns_taken, 2);
}

#[test]
fn s5b_a_single_pass_does_not_end_the_game() {
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
        [&[N], &[]],
    );
    act(
        &mut state,
        0,
        Action::Place {
            piece: N,
            spot: sp("b1"),
        },
    );
    assert!(state.outcome.is_none());
    assert_eq!(state.current, Some(Seat(0)));
    assert!(state.last_turn_passed);
    // Seat 0 now acts; the pass streak is broken.
    act(&mut state, 0, mv("b1", "c3"));
    assert!(!state.last_turn_passed);
    assert!(state.outcome.is_none());
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(1)),
        [Action::EndGame, Action::Pass],
        "seat 1's last card is stuck, but it may end the game or pass (§7.10)"
    );
    assert_eq!(
        PigeonChess::legal_actions(&first_edition(state), Seat(1)),
        [Action::EndGame],
        "edition 1: ending the game is the only choice"
    );
}

/// Seat 0's two Pawns on a1 and a2 are stuck behind seat 1's last card, a Pawn on a3, which is
/// stuck in front of them: nobody has a move, and seat 1 has no hand.
fn locked_pawns(current: u8) -> State {
    position(current, &[up("a1", 0, P), up("a2", 0, P), up("a3", 1, P)])
}

#[test]
fn s5b_an_automatic_pass_after_a_chosen_pass_ends_the_game() {
    let mut state = locked_pawns(1);
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(1)),
        [Action::EndGame, Action::Pass]
    );
    let events = act(&mut state, 1, Action::Pass);
    assert_eq!(
        events,
        [Event::PassedByChoice { seat: Seat(1) }, started(0, 2),]
    );
    // Seat 0 has nothing to do right after a pass: neither seat can act (§5(b)).
    assert_over(&state, EndReason::NoLegalAction);
    assert_eq!(state.turns_taken, 1);
    let outcome = PigeonChess::outcome(&state).unwrap();
    assert_eq!(outcome.scores, [3, 3]);
    assert!(outcome.is_draw());
}

#[test]
fn s5b_a_chosen_pass_after_an_automatic_pass_ends_the_game() {
    // Seat 1's last card steps into the lock; seat 0 passes automatically, and seat 1 passes too.
    let mut state = position(1, &[up("a1", 0, P), up("a2", 0, P), up("a4", 1, P)]);
    let events = act(&mut state, 1, mv("a4", "a3"));
    assert_eq!(
        events[1..],
        [
            started(0, 2),
            Event::Passed { seat: Seat(0) },
            started(1, 3),
        ]
    );
    assert!(state.last_turn_passed);
    let mut first = first_edition(state.clone());
    assert_eq!(
        PigeonChess::legal_actions(&state, Seat(1)),
        [Action::EndGame, Action::Pass]
    );
    let events = act(&mut state, 1, Action::Pass);
    assert_eq!(events, [Event::PassedByChoice { seat: Seat(1) }]);
    assert_over(&state, EndReason::NoLegalAction);
    assert_eq!(state.turns_taken, 3, "the chosen pass is a turn");

    // Edition 1: the same seat may only end the game, which scores the same but says why.
    assert_eq!(
        PigeonChess::legal_actions(&first, Seat(1)),
        [Action::EndGame]
    );
    act(&mut first, 1, Action::EndGame);
    assert_over(&first, EndReason::PlayerEnded);
}

#[test]
fn s5e_a_chosen_pass_is_a_turn_without_progress() {
    // Seat 1's Pawn on b2 is stuck behind seat 0's King; seat 0's Rook shuffles on the c file.
    let mut state = position(1, &[up("b1", 0, K), up("c3", 0, R), up("b2", 1, P)]);
    state.config.no_progress_turns = 4;
    state.turns_without_progress = 0;
    act(&mut state, 1, Action::Pass);
    assert_eq!(state.turns_without_progress, 1);
    assert!(state.last_turn_passed);
    act(&mut state, 0, mv("c3", "c4"));
    assert_eq!(state.turns_without_progress, 2);
    assert!(!state.last_turn_passed, "a move breaks the pass streak");
    act(&mut state, 1, Action::Pass);
    assert_eq!(state.turns_without_progress, 3);
    assert!(
        state.outcome.is_none(),
        "passes apart from each other go on"
    );
    act(&mut state, 0, mv("c4", "c3"));
    assert_over(&state, EndReason::NoProgress);
    assert_eq!(state.turns_taken, 4);
}

#[test]
fn s5f_a_chosen_pass_counts_towards_the_turn_cap() {
    let mut state = position(1, &[up("b1", 0, K), up("c3", 0, R), up("b2", 1, P)]);
    state.config.max_turns = 1;
    act(&mut state, 1, Action::Pass);
    assert_over(&state, EndReason::TurnCap);
}

#[test]
fn s5c_both_one_card_no_hand_ends() {
    let mut state = position(0, &[up("a1", 0, R), up("a3", 1, N), up("c4", 1, B)]);
    act(&mut state, 0, mv("a1", "a3"));
    assert_over(&state, EndReason::OutOfCards);
    assert_eq!(PigeonChess::outcome(&state).unwrap().scores, [4, 3]);
    assert_eq!(
        PigeonChess::outcome(&state).unwrap().winners,
        SeatSet::only(Seat(0))
    );
}

#[test]
fn s5c_one_card_each_but_a_hand_card_left_does_not_end() {
    let mut state = with_hands(
        position(0, &[up("a1", 0, R), up("a3", 1, N), up("c4", 1, B)]),
        [&[], &[P]],
    );
    act(&mut state, 0, mv("a1", "a3"));
    assert!(state.outcome.is_none());
}

#[test]
fn s5d_a_player_with_no_cards_left_ends_the_game() {
    let mut state = with_hands(
        position(0, &[up("a1", 0, R), up("b1", 0, R), up("a3", 1, N)]),
        [&[P], &[]],
    );
    act(&mut state, 0, mv("a1", "a3"));
    assert_over(&state, EndReason::OutOfCards);
    assert_eq!(PigeonChess::outcome(&state).unwrap().scores, [4, 3]);
}

#[test]
fn s5d_a_pawn_scoring_its_last_card_also_ends_the_game() {
    let mut state = position(1, &[up("b2", 1, P), up("a1", 0, R), up("c2", 0, R)]);
    act(&mut state, 1, mv("b2", "b1"));
    assert_over(&state, EndReason::OutOfCards);
    assert_eq!(PigeonChess::outcome(&state).unwrap().scores, [3, 4]);
}

/// Two Kings shuffling back and forth: no progress ever.
fn shuffling_kings(config: Config) -> State {
    let mut state = with_hands(position(0, &[up("a1", 0, K), up("c4", 1, K)]), [&[], &[]]);
    state.board[sp("b1").index()] = Some(up("b1", 0, R).1);
    state.board[sp("b4").index()] = Some(up("b4", 1, R).1);
    state.config = config;
    state
}

fn shuffle_once(state: &mut State) {
    let seat = state.current.unwrap();
    let (a, b) = if seat == Seat(0) {
        ("a1", "a2")
    } else {
        ("c4", "c3")
    };
    let (from, to) = if state.card(sp(a)).is_some() {
        (a, b)
    } else {
        (b, a)
    };
    act(
        state,
        seat.0,
        Action::Move {
            from: sp(from),
            to: sp(to),
        },
    );
}

#[test]
fn s5e_twenty_turns_without_progress_end_the_game() {
    let mut state = shuffling_kings(Config::default());
    for turn in 1..20 {
        shuffle_once(&mut state);
        assert_eq!(state.turns_without_progress, turn);
        assert!(state.outcome.is_none(), "turn {turn}");
    }
    shuffle_once(&mut state);
    assert_over(&state, EndReason::NoProgress);
    assert_eq!(state.turns_taken, 20);
}

#[test]
fn s5e_attacks_pawn_moves_and_placements_are_progress() {
    let mut state = with_hands(
        position(
            0,
            &[
                up("a2", 0, P),
                up("c1", 0, R),
                up("c4", 1, K),
                up("a4", 1, R),
            ],
        ),
        [&[N], &[]],
    );
    state.turns_without_progress = 7;
    act(&mut state, 0, mv("a2", "a3"));
    assert_eq!(state.turns_without_progress, 0, "pawn move");
    act(&mut state, 1, mv("c4", "b4"));
    assert_eq!(state.turns_without_progress, 1, "king move");
    act(
        &mut state,
        0,
        Action::Place {
            piece: N,
            spot: sp("a1"),
        },
    );
    assert_eq!(state.turns_without_progress, 0, "placement");
    act(&mut state, 1, mv("a4", "a3"));
    assert_eq!(state.turns_without_progress, 0, "attack");
}

#[test]
fn s5e_a_limit_of_zero_turns_the_rule_off() {
    let mut state = shuffling_kings(Config {
        no_progress_turns: 0,
        max_turns: 1000,
        ..Config::default()
    });
    for _ in 0..100 {
        shuffle_once(&mut state);
    }
    assert!(state.outcome.is_none());
    assert_eq!(state.turns_without_progress, 100);
}

#[test]
fn s5f_the_turn_cap_ends_the_game() {
    let mut state = shuffling_kings(Config {
        no_progress_turns: 0,
        max_turns: 300,
        ..Config::default()
    });
    for _ in 0..299 {
        shuffle_once(&mut state);
    }
    assert!(state.outcome.is_none());
    shuffle_once(&mut state);
    assert_over(&state, EndReason::TurnCap);
    assert_eq!(state.turns_taken, 300);
    assert_eq!(PigeonChess::outcome(&state).unwrap().scores, [3, 3]);
}
