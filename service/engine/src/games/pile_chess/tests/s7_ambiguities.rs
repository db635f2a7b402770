//! §7 ambiguities and their resolutions, one test (at least) per item.

use super::super::{Action, Config, PileChess, PublicEvent};
use super::support::*;
use crate::game::{EndReason, Game};
use crate::seat::Seat;

#[test]
fn s7_1_piece_values_default_to_p1_n3_b3_r5_q9_k4_and_are_configurable() {
    assert_eq!(Config::default().values, [1, 3, 3, 5, 9, 4]);
    // With the King worth 10 a King pile holds against a Rook.
    let config = Config {
        values: [1, 3, 3, 5, 9, 10],
        ..Config::default()
    };
    let mut state = table(&config, 2, &[&[c(0, K), c(1, R)], &[]], 0);
    pass_all(&mut state, &[0, 1]);
    assert_eq!(state.captured[0], vec![c(1, R)]);
    assert!(PileChess::outcome(&state).is_none());
}

#[test]
fn s7_2_a_tie_is_shared_highest_first_never_to_the_own_side_and_a_tied_king_is_captured() {
    // Two players: each takes the other's cards, so the tied King is captured.
    let mut state = table(
        &ffa(),
        2,
        &[&[c(0, K), c(1, P), c(1, P), c(1, P), c(1, P)]],
        0,
    );
    pass_all(&mut state, &[0, 1]);
    assert_eq!(state.captured[1], vec![c(0, K)]);
    assert_eq!(PileChess::outcome(&state).unwrap().winners.len(), 1);

    // Three involved players, two tied on top and one lower: everyone involved shares, starting
    // with the pile owner's side; a Rook is never dealt to its own side.
    let mut state = table(&ffa(), 3, &[&[c(0, R), c(1, R), c(2, P)]], 0);
    pass_all(&mut state, &[0, 1, 2]);
    assert_eq!(state.captured[1], vec![c(0, R)]);
    assert_eq!(state.captured[2], vec![c(1, R)]);
    assert_eq!(state.captured[0], vec![c(2, P)]);
}

#[test]
fn s7_3_cards_carry_no_abilities_so_only_values_decide() {
    // Only the totals count, whatever the pieces: a lone Queen (9) ties three Bishops (3 each).
    let mut state = table(&ffa(), 2, &[&[c(0, Q), c(1, B), c(1, B), c(1, B)]], 0);
    let events = pass_all(&mut state, &[0, 1]);
    assert!(matches!(
        resolution(&events, 0),
        PublicEvent::PileResolved { winner: None, .. }
    ));
}

#[test]
fn s7_4_the_round_ends_once_all_but_the_last_player_to_play_have_passed_since() {
    let mut state = table(
        &ffa(),
        4,
        &[&[c(0, N)], &[c(1, N)], &[c(2, N)], &[c(3, N)]],
        0,
    );
    set_hand(&mut state, 2, &[P]);
    for (seat, action) in [(0, Action::Pass), (1, Action::Pass), (2, play(P, 2))] {
        assert!(!round_ended(&act(&mut state, seat, action)));
    }
    assert!(!round_ended(&act(&mut state, 3, Action::Pass)));
    assert!(!round_ended(&act(&mut state, 0, Action::Pass)));
    assert!(round_ended(&act(&mut state, 1, Action::Pass)));
}

#[test]
fn s7_5_when_nobody_played_the_first_player_stays() {
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, N)], &[c(2, N)]], 2);
    let events = pass_all(&mut state, &[2, 0, 1]);
    assert!(public(&events).contains(&PublicEvent::RoundStarted {
        round: 2,
        first_player: Seat(2),
    }));
}

#[test]
fn s7_6_en_passant_is_capped_per_round_counts_as_a_pawn_play_and_castling_breaks_it() {
    let en_passant = |from: u8, to: u8| Action::EnPassant {
        from: Seat(from),
        to: Seat(to),
        pawns: 1,
    };
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, N)]], 0);
    set_hand(&mut state, 0, &[P, P]);
    set_hand(&mut state, 1, &[P, P]);
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(P, 0));
    act(&mut state, 0, en_passant(1, 0));
    assert!(
        state.players[0].pawns_only,
        "a pawn move keeps the Pawns-only status"
    );
    // Seat 1 may answer with its own move: seat 0 still counts as Pawns-only.
    act(&mut state, 1, en_passant(0, 1));
    assert!(refused(&state, 0, en_passant(0, 1)).contains("no en passant move left"));
    // With two moves per round configured, the second one is allowed.
    let config = Config {
        en_passant_per_round: 2,
        ..Config::default()
    };
    let mut state = table(&config, 2, &[&[c(0, N)], &[c(1, N)]], 0);
    set_hand(&mut state, 0, &[P]);
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(P, 0));
    act(&mut state, 0, en_passant(1, 0));
    act(&mut state, 1, en_passant(0, 1));
    act(&mut state, 0, en_passant(0, 1));

    // Castling breaks the Pawns-only status.
    let mut state = table(&ffa(), 2, &[&[c(0, K)], &[c(1, N)]], 0);
    set_hand(&mut state, 0, &[R, P]);
    set_hand(&mut state, 1, &[P, P]);
    act(&mut state, 0, Action::Castle);
    act(&mut state, 1, play(P, 0));
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(P, 1));
    assert!(!state.players[0].pawns_only);
    assert!(refused(&state, 0, en_passant(1, 0)).contains("played Pawns only"));
}

#[test]
fn s7_7_the_promotion_pawn_leaves_the_game_and_the_card_returns_to_the_reuse_pile() {
    let mut state = table(&ffa(), 2, &[&[c(0, P), c(0, P)], &[c(1, N)]], 0);
    state.captured[1] = vec![c(0, R)];
    pass_all(&mut state, &[0, 1]);
    // The King is never offered: its capture ends the player's game before any promotion, and
    // even a King placed there by hand is not listed.
    state.captured[1].push(c(0, K));
    let legal = PileChess::legal_actions(&state, Seat(0));
    assert_eq!(
        legal,
        vec![
            Action::Promote {
                captured_pile: 1,
                piece: R,
            },
            Action::DeclinePromotion,
        ]
    );
    assert!(
        refused(
            &state,
            0,
            Action::Promote {
                captured_pile: 1,
                piece: K,
            }
        )
        .contains("no K of yours")
    );
    let hand_before = state.players[0].hand;
    act(
        &mut state,
        0,
        Action::Promote {
            captured_pile: 1,
            piece: R,
        },
    );
    assert_eq!(state.removed, vec![c(0, P)]);
    assert_eq!(state.players[0].reuse, vec![P, R]);
    // The hand only grew by the regular draw of three.
    assert_eq!(
        state.players[0].hand_count(),
        super::super::state::hand_size(&hand_before) + 3
    );
}

#[test]
fn s7_8_the_starting_piece_is_not_a_play() {
    // A Pawn that opened the pile does not count for en passant…
    let mut state = table(&ffa(), 2, &[&[c(0, P)], &[c(1, N)]], 1);
    set_hand(&mut state, 1, &[P]);
    act(&mut state, 1, play(P, 0));
    assert_eq!(state.players[0].plays, 0);
    assert!(
        refused(
            &state,
            0,
            Action::EnPassant {
                from: Seat(0),
                to: Seat(1),
                pawns: 1,
            }
        )
        .contains("played Pawns only")
    );
    // …and does not decide who opens the next round.
    let mut state = table(&ffa(), 2, &[&[c(0, P)], &[c(1, N)]], 1);
    let events = pass_all(&mut state, &[1, 0]);
    assert!(public(&events).contains(&PublicEvent::RoundStarted {
        round: 2,
        first_player: Seat(1),
    }));
}

#[test]
fn s7_9_a_player_without_deck_and_hand_has_no_pile_but_still_takes_turns() {
    let mut state = table(&ffa(), 2, &[], 0);
    set_deck(&mut state, 1, &[]);
    let events = pass_all(&mut state, &[0, 1]);
    assert!(public(&events).contains(&PublicEvent::NoPile { seat: Seat(1) }));
    act(&mut state, 0, Action::Pass);
    assert_eq!(
        PileChess::legal_actions(&state, Seat(1)),
        vec![Action::Pass]
    );
}

#[test]
fn s7_10_both_kings_lost_at_once_are_decided_by_captured_totals() {
    let mut state = table(&ffa(), 2, &[&[c(0, K), c(1, R)], &[c(1, K), c(0, R)]], 0);
    state.captured[0] = vec![c(1, P)];
    pass_all(&mut state, &[0, 1]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.reason, EndReason::KingCaptured);
    assert_eq!(outcome.scores, vec![5, 4]);
    assert_eq!(outcome.winners.iter().collect::<Vec<_>>(), vec![Seat(0)]);
}

#[test]
fn s7_11_the_random_hand_card_at_pile_opening_is_not_a_shortfall() {
    let mut state = table(&ffa(), 2, &[], 0);
    set_deck(&mut state, 0, &[]);
    set_hand(&mut state, 0, &[N, B]);
    pass_all(&mut state, &[0, 1]);
    // The draw step had a shortfall (counter 1); opening from the hand adds nothing.
    assert_eq!(state.players[0].reshuffles, 1);
    assert_eq!(
        state.pile(Seat(0)).unwrap().source,
        super::super::PileSource::RandomFromHand
    );
    pass_all(&mut state, &[0, 1]);
    assert_eq!(state.players[0].reshuffles, 2);
}
