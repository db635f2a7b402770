//! §3 step 3: resolving the piles, the King-loss rule and Promotion.

use super::super::{Action, CapturedCard, Pending, PileChess, PublicEvent, SideTotal, Step};
use super::support::*;
use crate::game::{EndReason, Game};
use crate::seat::{Seat, SeatSet, Viewer};

fn total(side: u8, total: u32) -> SideTotal {
    SideTotal { side, total }
}

fn captured(side: u8, card: super::super::Card) -> CapturedCard {
    CapturedCard { side, card }
}

#[test]
fn s3_step3_the_single_highest_total_keeps_its_cards_and_captures_the_rest() {
    let mut state = table(&ffa(), 2, &[&[c(0, R), c(1, N), c(1, P)], &[c(1, B)]], 1);
    let events = pass_all(&mut state, &[1, 0]);
    assert_eq!(
        resolution(&events, 0),
        PublicEvent::PileResolved {
            pile: Seat(0),
            totals: vec![total(0, 5), total(1, 4)],
            winner: Some(0),
            returned: vec![c(0, R)],
            captured: vec![captured(0, c(1, N)), captured(0, c(1, P))],
        }
    );
    // §3 step 3.5: a pile with one involved player is won by that player.
    assert_eq!(
        resolution(&events, 1),
        PublicEvent::PileResolved {
            pile: Seat(1),
            totals: vec![total(1, 3)],
            winner: Some(1),
            returned: vec![c(1, B)],
            captured: vec![],
        }
    );
    assert_eq!(state.players[0].reuse, vec![R]);
    assert_eq!(state.players[1].reuse, vec![B]);
    assert_eq!(state.captured[0], vec![c(1, N), c(1, P)]);
    assert!(state.captured[1].is_empty());
}

#[test]
fn s3_step3_a_tie_between_two_players_makes_each_capture_the_others_cards() {
    let mut state = table(&ffa(), 2, &[&[c(0, N), c(1, P), c(1, P), c(1, P)], &[]], 0);
    let events = pass_all(&mut state, &[0, 1]);
    let PublicEvent::PileResolved {
        totals,
        winner,
        returned,
        captured: shared,
        ..
    } = resolution(&events, 0)
    else {
        unreachable!("resolution returns resolutions")
    };
    assert_eq!(totals, vec![total(0, 3), total(1, 3)]);
    assert_eq!(winner, None);
    assert!(returned.is_empty());
    assert_eq!(
        shared,
        vec![
            captured(1, c(0, N)),
            captured(0, c(1, P)),
            captured(0, c(1, P)),
            captured(0, c(1, P)),
        ]
    );
    assert_eq!(state.captured[0], vec![c(1, P); 3]);
    assert_eq!(state.captured[1], vec![c(0, N)]);
}

#[test]
fn s3_king_loss_loses_the_game_whatever_was_captured() {
    let mut state = table(&ffa(), 2, &[&[c(0, K)], &[c(1, P)]], 1);
    // Seat 0 has captured far more than seat 1.
    state.captured[0] = vec![c(1, Q), c(1, R), c(1, R)];
    set_hand(&mut state, 1, &[R]);
    act(&mut state, 1, play(R, 0));
    let events = act(&mut state, 0, Action::Pass);
    assert!(public(&events).contains(&PublicEvent::SeatOut {
        seat: Seat(0),
        reason: super::super::OutReason::KingCaptured,
    }));
    let outcome = PileChess::outcome(&state).expect("the game is over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(1)));
    assert_eq!(outcome.reason, EndReason::KingCaptured);
    assert!(PileChess::to_act(&state).is_empty());
    assert_eq!(
        PileChess::observe(&state, Viewer::Spectator).step,
        Step::Finished
    );
}

#[test]
fn s3_both_kings_captured_at_once_are_decided_by_captured_totals() {
    for (extra, winner) in [(Some(c(0, P)), Some(Seat(1))), (None, None)] {
        let mut state = table(&ffa(), 2, &[&[c(0, K)], &[c(1, K)]], 1);
        state.captured[1].extend(extra);
        set_hand(&mut state, 1, &[R]);
        set_hand(&mut state, 0, &[R]);
        act(&mut state, 1, play(R, 0));
        act(&mut state, 0, play(R, 1));
        act(&mut state, 1, Action::Pass);
        let outcome = PileChess::outcome(&state).expect("the game is over");
        assert_eq!(outcome.reason, EndReason::KingCaptured);
        match winner {
            Some(seat) => {
                assert_eq!(outcome.winners, SeatSet::only(seat));
                assert_eq!(outcome.scores, vec![4, 5]);
            }
            None => {
                assert!(outcome.is_draw(), "equal totals draw: {outcome:?}");
                assert_eq!(outcome.scores, vec![4, 4]);
            }
        }
    }
}

/// Seat 0 wins its own pile with Pawns only (its Pawn start and a played Pawn) while seat 1's
/// captured pile holds seat 0's Queen and Knight.
fn promotion_chance() -> super::super::State {
    let mut state = table(&ffa(), 2, &[&[c(0, P)], &[c(1, N)]], 0);
    state.captured[1] = vec![c(0, Q), c(0, N)];
    set_hand(&mut state, 0, &[P]);
    act(&mut state, 0, play(P, 0));
    act(&mut state, 1, Action::Pass);
    state
}

#[test]
fn s3_promotion_follows_a_pile_won_with_pawns_only() {
    let mut state = promotion_chance();
    assert_eq!(
        state.pending,
        vec![Pending::Promotion {
            seat: Seat(0),
            pile: Seat(0),
        }]
    );
    assert_eq!(PileChess::to_act(&state), SeatSet::only(Seat(0)));
    assert_eq!(
        PileChess::legal_actions(&state, Seat(0)),
        vec![
            Action::Promote {
                captured_pile: 1,
                piece: Q,
            },
            Action::Promote {
                captured_pile: 1,
                piece: N,
            },
            Action::DeclinePromotion,
        ]
    );
    let round = state.round;
    let events = act(
        &mut state,
        0,
        Action::Promote {
            captured_pile: 1,
            piece: Q,
        },
    );
    assert!(public(&events).contains(&PublicEvent::Promoted {
        seat: Seat(0),
        pile: Seat(0),
        captured_pile: 1,
        piece: Q,
    }));
    // One Pawn is out of the game, the Queen is back in the reuse pile (not the hand).
    assert_eq!(state.removed, vec![c(0, P)]);
    assert_eq!(state.players[0].reuse, vec![P, Q]);
    assert_eq!(state.captured[1], vec![c(0, N)]);
    // Then the round goes on: draws and the next round.
    assert_eq!(state.round, round + 1);
}

#[test]
fn s3_promotion_may_be_declined() {
    let mut state = promotion_chance();
    let events = act(&mut state, 0, Action::DeclinePromotion);
    assert!(public(&events).contains(&PublicEvent::PromotionDeclined {
        seat: Seat(0),
        pile: Seat(0),
    }));
    assert!(state.removed.is_empty());
    assert_eq!(state.captured[1], vec![c(0, Q), c(0, N)]);
    assert_eq!(state.players[0].reuse, vec![P, P]);
}

#[test]
fn s3_promotion_needs_every_winning_card_to_be_a_pawn_starting_piece_included() {
    // The own starting Knight counts: no promotion.
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &[c(1, N)]], 0);
    state.captured[1] = vec![c(0, Q)];
    set_hand(&mut state, 0, &[P]);
    act(&mut state, 0, play(P, 0));
    act(&mut state, 1, Action::Pass);
    assert!(state.pending.is_empty());
    assert_eq!(state.step(), Step::Play);

    // Another player's starting piece does not: Pawns beating a Bishop qualify.
    let pawns = [c(1, B), c(0, P), c(0, P), c(0, P), c(0, P)];
    let mut state = table(&ffa(), 2, &[&[c(0, N)], &pawns], 0);
    state.captured[1] = vec![c(0, Q)];
    pass_all(&mut state, &[0, 1]);
    assert_eq!(
        state.pending,
        vec![Pending::Promotion {
            seat: Seat(0),
            pile: Seat(1),
        }]
    );
}

#[test]
fn s3_promotion_may_take_back_a_card_captured_in_the_same_resolution() {
    // Seat 0 loses its Knight on pile 0 and wins pile 1 with Pawns only.
    let pawns = [c(1, P), c(0, P), c(0, P)];
    let mut state = table(&ffa(), 2, &[&[c(0, N), c(1, R)], &pawns], 0);
    pass_all(&mut state, &[0, 1]);
    assert_eq!(state.captured[1], vec![c(0, N)]);
    assert_eq!(
        PileChess::legal_actions(&state, Seat(0)),
        vec![
            Action::Promote {
                captured_pile: 1,
                piece: N,
            },
            Action::DeclinePromotion,
        ]
    );
    act(
        &mut state,
        0,
        Action::Promote {
            captured_pile: 1,
            piece: N,
        },
    );
    assert!(state.captured[1].is_empty());
    assert!(state.players[0].reuse.contains(&N));
}

#[test]
fn s3_promotion_is_skipped_with_nothing_to_take_back() {
    let mut state = table(&ffa(), 2, &[&[c(0, P)], &[c(1, N)]], 0);
    act(&mut state, 0, Action::Pass);
    let events = act(&mut state, 1, Action::Pass);
    assert!(round_ended(&events));
    assert!(state.pending.is_empty());
    assert_eq!(state.round, 2);
}
