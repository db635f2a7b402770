//! §7 ambiguities and their resolutions, one test (at least) per item.

use rand::{Rng, SeedableRng};

use super::super::{Action, Config, PileChess, PublicEvent};
use super::support::*;
use crate::game::{EndReason, Game, SetupError};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, Viewer};
use crate::table::{MetaAction, Table, TableAction};

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
}

/// The captured piles after the round of `state` ends with everyone passing from seat 0.
fn shared_out(mut state: super::super::State) -> Vec<Vec<super::super::Card>> {
    let seats: Vec<u8> = (0..state.seat_count() as u8).collect();
    pass_all(&mut state, &seats);
    state.captured
}

#[test]
fn s7_2_a_three_way_tie_gives_each_tied_side_an_even_share() {
    // The first worked example of §7.2: Q0 (9) against R1 N1 P1 (9) against B2 B2 N2 (9), on
    // the pile of seat 1. Each side captures exactly 9.
    let pile = [
        c(1, R),
        c(0, Q),
        c(2, B),
        c(1, N),
        c(2, B),
        c(2, N),
        c(1, P),
    ];
    let captured = shared_out(table(&ffa(), 3, &[&[], &pile, &[]], 0));
    assert_eq!(captured[0], vec![c(2, B), c(2, B), c(2, N)]);
    assert_eq!(captured[1], vec![c(0, Q)]);
    assert_eq!(captured[2], vec![c(1, R), c(1, N), c(1, P)]);
}

#[test]
fn s7_2_a_four_way_tie_gives_each_side_an_even_share() {
    // The second worked example of §7.2: four sides worth 5 each on the pile of seat 2.
    let pile = [
        c(2, R),
        c(1, R),
        c(0, N),
        c(3, B),
        c(0, P),
        c(3, P),
        c(0, P),
        c(3, P),
    ];
    let captured = shared_out(table(&ffa(), 4, &[&[], &[], &pile, &[]], 0));
    assert_eq!(captured[0], vec![c(3, B), c(3, P), c(3, P)]);
    assert_eq!(captured[1], vec![c(0, N), c(0, P), c(0, P)]);
    assert_eq!(captured[2], vec![c(1, R)]);
    assert_eq!(captured[3], vec![c(2, R)]);
}

#[test]
fn s7_2_only_the_tied_sides_share_a_pile_and_a_lower_side_gets_nothing() {
    // The third worked example of §7.2: three sides tie at 5 on the pile of seat 3, whose own
    // Pawn (1) is captured too and dealt among the three.
    let pile = [
        c(3, P),
        c(0, R),
        c(1, N),
        c(2, B),
        c(1, P),
        c(2, P),
        c(1, P),
        c(2, P),
    ];
    let captured = shared_out(table(&ffa(), 4, &[&[], &[], &[], &pile], 0));
    assert_eq!(captured[0], vec![c(2, B), c(3, P), c(2, P), c(2, P)]);
    assert_eq!(captured[1], vec![c(0, R)]);
    assert_eq!(captured[2], vec![c(1, N), c(1, P), c(1, P)]);
    assert!(captured[3].is_empty());

    // Two tied Rooks and a lower Pawn: the Rooks change sides, the Pawn goes to the tied side
    // after seat 2 (seat 0), and seat 2 gets nothing.
    let captured = shared_out(table(&ffa(), 3, &[&[c(0, R), c(1, R), c(2, P)]], 0));
    assert_eq!(captured[0], vec![c(1, R), c(2, P)]);
    assert_eq!(captured[1], vec![c(0, R)]);
    assert!(captured[2].is_empty());
}

#[test]
fn s7_2_a_tie_between_teams_is_shared_per_team() {
    // Seats 2 and 3 play together against seat 0 and against seat 1: three sides tie at 4.
    let config = Config {
        teams: vec![vec![0], vec![1], vec![2, 3]],
        ..Config::default()
    };
    let pile = [c(0, K), c(1, N), c(1, P), c(2, B), c(3, P)];
    let mut state = table(&config, 4, &[&pile], 0);
    pass_all(&mut state, &[0, 1, 2, 3]);
    // K0 to side 1 (the first after side 0), B2 to side 0 (nothing yet), N1 to side 2
    // (nothing yet), P1 to side 2 (3 each for sides 0 and 2; side 2 comes first after side 1),
    // P3 to side 0 (3 against side 1's 4): 4, 4 and 4.
    assert_eq!(state.captured[1], vec![c(0, K)]);
    assert_eq!(state.captured[0], vec![c(2, B), c(3, P)]);
    assert_eq!(state.captured[2], vec![c(1, N), c(1, P)]);
    // Seat 0's King is captured: seat 0, a team of one, is out and gives nothing.
    assert!(state.players[0].out);
    assert!(state.pending.is_empty());
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

/// The default options with `list` as teams, written out so that the team tests build on any
/// version of the options.
fn teams(list: &[&[u8]]) -> Config {
    Config {
        teams: list.iter().map(|team| team.to_vec()).collect(),
        ..Config::default()
    }
}

#[test]
fn s7_12_bad_team_lists_are_rejected_naming_the_team_at_fault() {
    let cases: [(usize, &[&[u8]], &str); 8] = [
        (4, &[&[0, 1, 2, 3]], "teams: list at least two teams"),
        (
            3,
            &[&[0], &[], &[1, 2]],
            "teams[1]: a team needs at least one seat",
        ),
        (
            3,
            &[&[0], &[1, 3]],
            "teams[1]: seat 3 is not a seat of this game",
        ),
        (
            4,
            &[&[0, 1], &[1, 2, 3]],
            "teams[1]: seat 1 is listed twice",
        ),
        (
            4,
            &[&[0, 0], &[1, 2, 3]],
            "teams[0]: seat 0 is listed twice",
        ),
        (4, &[&[0], &[1, 2]], "teams: seat 3 is in no team"),
        (3, &[&[0], &[2]], "teams: seat 1 is in no team"),
        (
            2,
            &[&[0, 1], &[2]],
            "teams[1]: seat 2 is not a seat of this game",
        ),
    ];
    for (seats, list, expected) in cases {
        match PileChess::new_game(&teams(list), seats, Seed::from_u64(0)) {
            Err(error @ SetupError::InvalidConfig { .. }) => {
                let message = error.to_string();
                assert!(
                    message.starts_with(&format!("invalid config: {expected}")),
                    "{list:?} with {seats} seats: {message:?} should start with {expected:?}"
                )
            }
            other => panic!("{list:?} with {seats} seats: {:?}", other.map(|_| ())),
        }
    }
}

#[test]
fn s7_12_teams_of_one_seat_each_play_exactly_as_free_for_all() {
    // The same seeds and choices give the same game, event for event, with or without teams of
    // one; only the config differs.
    for seats in 2..=4usize {
        let singles: Vec<Vec<u8>> = (0..seats as u8).map(|seat| vec![seat]).collect();
        let config = Config {
            teams: singles,
            ..Config::default()
        };
        for seed in 0..8 {
            let (mut free, free_setup) =
                PileChess::new_game(&ffa(), seats, Seed::from_u64(seed)).unwrap();
            let (mut single, single_setup) =
                PileChess::new_game(&config, seats, Seed::from_u64(seed)).unwrap();
            assert_eq!(free_setup, single_setup);
            let mut rng = GameRng::seed_from_u64(seed);
            let mut plies = 0;
            while let Some(seat) = PileChess::to_act(&free).iter().next() {
                let legal = PileChess::legal_actions(&free, seat);
                assert_eq!(legal, PileChess::legal_actions(&single, seat));
                let action = legal[rng.random_range(0..legal.len())].clone();
                assert_eq!(
                    act(&mut single, seat.0, action.clone()),
                    act(&mut free, seat.0, action)
                );
                plies += 1;
            }
            assert!(plies > 0);
            assert_eq!(PileChess::outcome(&single), PileChess::outcome(&free));
            let mut view = PileChess::observe(&single, Viewer::Spectator);
            view.config = ffa();
            assert_eq!(view, PileChess::observe(&free, Viewer::Spectator));
        }
    }
}

#[test]
fn s7_13_a_team_of_one_whose_king_is_captured_leaves_at_once_without_a_gift() {
    // Seat 1 alone, seat 0 alone, seats 2 and 3 together: seat 1's King falls to seat 0's Rook.
    let config = teams(&[&[1], &[0], &[2, 3]]);
    let mut state = table(&config, 4, &[&[c(0, R)], &[c(1, K), c(0, R)]], 0);
    set_hand(&mut state, 1, &[Q, B]);
    let events = pass_all(&mut state, &[0, 1, 2, 3]);
    assert!(public(&events).contains(&PublicEvent::SeatOut {
        seat: Seat(1),
        reason: super::super::OutReason::KingCaptured,
    }));
    // Nobody is asked for a gift: seat 1's cards left the game with the same resolution.
    assert!(state.pending.is_empty());
    assert!(
        public(&events)
            .iter()
            .any(|event| matches!(event, PublicEvent::CardsLeftGame { seat: Seat(1), .. }))
    );
    assert!(state.removed.contains(&c(1, Q)) && state.removed.contains(&c(1, B)));
    assert_eq!(
        state.players[1].hand_count() + state.players[1].deck.len(),
        0
    );
    assert!(PileChess::outcome(&state).is_none());
    assert_eq!(state.step(), super::super::Step::Play);
    // The King went to seat 0's side, which is team 1.
    assert_eq!(state.captured[1], vec![c(1, K)]);
}

#[test]
fn s7_14_every_game_action_is_a_turn_and_a_meta_action_is_none() {
    let (mut table, _) =
        Table::<PileChess>::new(&ffa(), 2, Seed::from_u64(4)).expect("a two-seat game");
    let mut rng = GameRng::seed_from_u64(4);
    let mut turn = PileChess::turn_number(table.state());
    let mut actions = 0;
    while !table.is_over() && actions < 60 {
        let seat = table.to_act().iter().next().expect("a seat to act");
        // An offer is no turn: the number stays.
        if table.meta_actions(seat).contains(&MetaAction::OfferDraw) && actions % 5 == 0 {
            table
                .apply(seat, &TableAction::Meta(MetaAction::OfferDraw))
                .unwrap();
            assert_eq!(PileChess::turn_number(table.state()), turn);
        }
        // A rejected action is no turn either.
        let mut copy = table.state().clone();
        assert!(PileChess::apply(&mut copy, seat.opponent(), &Action::Pass).is_err());
        assert_eq!(PileChess::turn_number(&copy), turn);
        let legal = table.legal_actions(seat);
        let action = legal[rng.random_range(0..legal.len())].clone();
        table.apply(seat, &TableAction::Game(action)).unwrap();
        let next = PileChess::turn_number(table.state());
        assert_eq!(next, turn + 1, "every game action starts a new turn");
        turn = next;
        actions += 1;
    }
    assert!(actions > 10);
}
