//! §5 more than two players: free for all with 3 and 4 players, and teams split any way.

use super::super::{Action, Config, Event, OutReason, Pending, PileChess, PublicEvent, Step};
use super::support::*;
use crate::game::{EndReason, Game, SetupError};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::{MetaAction, Table, TableAction};

#[test]
fn s5_the_seeds_three_player_example_ends_the_round_before_bob_plays_again() {
    // Bob (0) plays a Rook on his pile, George (1) passes, Anna (2) passes: the round is over,
    // and Bob cannot play his Queen on George's pile.
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, B)], &[c(2, P)]], 0);
    set_hand(&mut state, 0, &[R, Q]);
    act(&mut state, 0, play(R, 0));
    assert!(!round_ended(&act(&mut state, 1, Action::Pass)));
    let events = act(&mut state, 2, Action::Pass);
    assert!(round_ended(&events));
    assert!(public(&events).contains(&PublicEvent::RoundStarted {
        round: 2,
        first_player: Seat(0),
    }));
    assert_eq!(
        state.players[0].reuse,
        vec![N, R],
        "Bob's pile was resolved"
    );
    assert_eq!(
        state.players[0].hand,
        hand(&[Q, P, P, P]),
        "the Queen stayed in hand"
    );
}

#[test]
fn s5_every_player_but_the_last_to_play_must_pass_after_that_play() {
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, B)], &[c(2, P)]], 0);
    set_hand(&mut state, 1, &[P]);
    assert!(!round_ended(&act(&mut state, 0, Action::Pass)));
    assert!(!round_ended(&act(&mut state, 1, play(P, 1))));
    assert!(!round_ended(&act(&mut state, 2, Action::Pass)));
    // Seat 0 passed before the play; it must pass again.
    assert!(round_ended(&act(&mut state, 0, Action::Pass)));

    // Nobody plays: the round ends once all three have passed.
    let mut state = table(&ffa(), 3, &[&[c(0, N)], &[c(1, B)], &[c(2, P)]], 1);
    assert!(!round_ended(&act(&mut state, 1, Action::Pass)));
    assert!(!round_ended(&act(&mut state, 2, Action::Pass)));
    assert!(round_ended(&act(&mut state, 0, Action::Pass)));
    assert_eq!(state.first_player, Seat(1));
}

#[test]
fn s5_free_for_all_resolution_gives_the_single_best_player_everyone_elses_cards() {
    let pile = [c(0, N), c(1, R), c(2, Q), c(3, P)];
    let mut state = table(&ffa(), 4, &[&pile], 1);
    pass_all(&mut state, &[1, 2, 3, 0]);
    assert_eq!(state.captured[2], vec![c(0, N), c(1, R), c(3, P)]);
    assert_eq!(state.players[2].reuse, vec![Q]);
}

#[test]
fn s5_a_tie_among_three_players_gives_each_an_even_share() {
    // §7.2: N0, B1 and N2 are worth 3 each. Bishop first: B1 to seat 2 (the first after its
    // owner), N0 to seat 1 (nothing yet), N2 to seat 0 (nothing yet): 3, 3 and 3.
    let pile = [c(0, N), c(1, B), c(2, N)];
    let mut state = table(&ffa(), 3, &[&pile], 0);
    let events = pass_all(&mut state, &[0, 1, 2]);
    let PublicEvent::PileResolved { winner, .. } = resolution(&events, 0) else {
        unreachable!("a resolution")
    };
    assert_eq!(winner, None);
    assert_eq!(state.captured[0], vec![c(2, N)]);
    assert_eq!(state.captured[1], vec![c(0, N)]);
    assert_eq!(state.captured[2], vec![c(1, B)]);
}

#[test]
fn s5_free_for_all_king_loss_puts_the_player_out_and_the_others_play_on() {
    let mut state = table(&ffa(), 3, &[&[c(0, K), c(1, R)], &[c(1, P)], &[c(2, P)]], 0);
    state.captured[0] = vec![c(2, B)];
    state.players[0].reuse = vec![P];
    set_hand(&mut state, 0, &[Q]);
    let events = pass_all(&mut state, &[0, 1, 2]);
    assert!(public(&events).contains(&PublicEvent::SeatOut {
        seat: Seat(0),
        reason: OutReason::KingCaptured,
    }));
    assert!(PileChess::outcome(&state).is_none());
    assert!(state.players[0].out);
    // Deck, hand, reuse pile and (by default) captured pile left the game.
    assert_eq!(
        state.players[0].hand_count() + state.players[0].deck.len(),
        0
    );
    assert!(state.players[0].reuse.is_empty() && state.captured[0].is_empty());
    assert!(state.removed.contains(&c(2, B)) && state.removed.contains(&c(0, Q)));
    assert_eq!(state.removed.len(), 1 + 1 + 1 + 8);
    // Seat 0 has no pile and no turn any more.
    assert!(state.pile(Seat(0)).is_none());
    assert_eq!(state.current, Some(Seat(1)));
    act(&mut state, 1, Action::Pass);
    assert_eq!(state.current, Some(Seat(2)));
    let view = PileChess::observe(&state, Viewer::Spectator);
    assert!(view.players[0].out && !view.players[0].resigned);
}

#[test]
fn s5_the_last_player_left_in_free_for_all_wins() {
    let mut state = table(&ffa(), 3, &[&[c(0, P)], &[c(1, K), c(2, Q)], &[c(2, P)]], 0);
    state.players[0].out = true;
    state.piles[0] = None;
    state.current = Some(Seat(1));
    pass_all(&mut state, &[1, 2]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(2)));
    assert_eq!(outcome.reason, EndReason::KingCaptured);
}

#[test]
fn s5_an_eliminated_players_captures_count_only_when_configured() {
    let keep = Config {
        eliminated_captures_count: true,
        ..Config::default()
    };
    for (config, kept) in [(ffa(), false), (keep, true)] {
        let mut state = table(&config, 3, &[&[c(0, K), c(1, R)], &[], &[]], 0);
        state.captured[0] = vec![c(2, Q), c(1, Q)];
        state.captured[1] = vec![c(0, P)];
        // Round 2 opens with Knights, so that no promotion interrupts.
        for seat in [1, 2] {
            set_deck(&mut state, seat, &[P, P, P, P, N, P, P, P]);
        }
        pass_all(&mut state, &[0, 1, 2]);
        assert_eq!(state.captured[0].len(), if kept { 2 } else { 0 });
        // Now a third shortfall: the stalemate scoring.
        state.players[2].reshuffles = 2;
        state.players[2].deck.clear();
        pass_all(&mut state, &[1, 2]);
        let outcome = PileChess::outcome(&state).expect("over");
        assert_eq!(outcome.reason, EndReason::OutOfCards);
        let expected = if kept { Seat(0) } else { Seat(1) };
        assert_eq!(outcome.winners, SeatSet::only(expected), "{outcome:?}");
    }
}

#[test]
fn s5_team_totals_decide_a_pile_and_fill_the_teams_shared_captured_pile() {
    // Seats 0 and 2 (team 0) against 1 and 3 (team 1).
    let pile = [c(0, N), c(1, R), c(2, N), c(3, P)];
    let mut state = table(&Config::two_vs_two(), 4, &[&pile], 0);
    let events = pass_all(&mut state, &[0, 1, 2, 3]);
    assert_eq!(side_totals(&events), (vec![(0, 6), (1, 6)], None));
    // A tie between two teams: each captures the other team's cards.
    assert_eq!(state.captured[0], vec![c(1, R), c(3, P)]);
    assert_eq!(state.captured[1], vec![c(0, N), c(2, N)]);

    let pile = [c(0, N), c(1, R), c(2, B)];
    let mut state = table(&Config::two_vs_two(), 4, &[&pile], 0);
    pass_all(&mut state, &[0, 1, 2, 3]);
    assert_eq!(state.captured[0], vec![c(1, R)]);
    assert_eq!(state.players[0].reuse, vec![N]);
    assert_eq!(state.players[2].reuse, vec![B]);
    let view = PileChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.captured_piles[0].seats, vec![Seat(0), Seat(2)]);
    assert_eq!(view.players[2].captured_pile, 0);
}

#[test]
fn s5_a_teammate_whose_king_is_captured_gives_up_to_two_cards_then_leaves() {
    let mut state = table(&Config::two_vs_two(), 4, &[&[c(0, K), c(1, R)]], 0);
    set_hand(&mut state, 0, &[Q]);
    state.players[0].reuse = vec![B];
    set_deck(&mut state, 0, &[P, N]);
    pass_all(&mut state, &[0, 1, 2, 3]);
    assert_eq!(state.pending, vec![Pending::Gift { seat: Seat(0) }]);
    assert_eq!(
        PileChess::observe(&state, Viewer::Spectator).step,
        Step::Gift
    );
    assert_eq!(PileChess::to_act(&state), SeatSet::only(Seat(0)));
    let gift = |pieces: Vec<crate::chess::Role>| Action::Gift {
        to: Seat(2),
        pieces,
    };
    let legal = PileChess::legal_actions(&state, Seat(0));
    // Remaining: Q (hand), B (reuse), P and N (deck): the empty gift, 4 singles, 6 pairs.
    assert_eq!(legal.len(), 1 + 4 + 6);
    assert_eq!(legal[0], gift(vec![]));
    assert!(legal.contains(&gift(vec![Q, P])));
    assert!(!legal.contains(&gift(vec![P, Q])), "King side first");
    assert!(!legal.contains(&gift(vec![P, P])), "only one Pawn is left");
    assert!(refused(&state, 0, gift(vec![P, Q])).contains("King side first"));
    assert!(refused(&state, 0, gift(vec![R])).contains("no R left"));
    assert!(
        refused(
            &state,
            0,
            Action::Gift {
                to: Seat(1),
                pieces: vec![]
            }
        )
        .contains("teammate")
    );
    let before = state.players[2].hand;
    let events = act(&mut state, 0, gift(vec![Q, P]));
    assert!(public(&events).contains(&PublicEvent::Gifted {
        seat: Seat(0),
        to: Seat(2),
        pieces: vec![Q, P],
    }));
    let mut after = before;
    after[Q.index()] += 1;
    after[P.index()] += 1;
    // Seat 2 then drew three Pawns for the next round and opened a pile with a fourth.
    after[P.index()] += 3;
    assert_eq!(state.players[2].hand, after);
    // The rest of seat 0's cards left the game; the team plays on.
    assert!(state.removed.contains(&c(0, B)) && state.removed.contains(&c(0, N)));
    assert!(PileChess::outcome(&state).is_none());
    assert_eq!(state.step(), Step::Play);
}

#[test]
fn s5_a_team_loses_when_all_its_players_are_out() {
    let mut state = table(&Config::two_vs_two(), 4, &[&[c(0, K), c(1, R)]], 0);
    state.players[2].out = true;
    state.current = Some(Seat(0));
    pass_all(&mut state, &[0, 1, 3]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.winners, [Seat(1), Seat(3)].into_iter().collect());
    assert_eq!(outcome.reason, EndReason::KingCaptured);
}

#[test]
fn s5_team_stalemates_compare_the_shared_captured_piles() {
    let mut state = table(&Config::two_vs_two(), 4, &[], 0);
    state.captured[0] = vec![c(1, R), c(3, R)];
    state.captured[1] = vec![c(0, Q)];
    state.players[3].reshuffles = 2;
    set_deck(&mut state, 3, &[]);
    pass_all(&mut state, &[0, 1, 2, 3]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.reason, EndReason::OutOfCards);
    assert_eq!(outcome.scores, vec![10, 9, 10, 9]);
    assert_eq!(outcome.winners, [Seat(0), Seat(2)].into_iter().collect());
}

#[test]
fn s5_in_teams_en_passant_needs_an_opposing_players_pawns_not_a_teammates() {
    let mut state = table(&Config::two_vs_two(), 4, &[&[c(0, N)], &[c(1, N)]], 0);
    for seat in 0..4 {
        set_hand(&mut state, seat, &[P, P]);
    }
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(P, 0));
    act(&mut state, 2, play(P, 1));
    act(&mut state, 3, play(P, 0));
    // Seat 1 and seat 3 both played Pawns, so seat 0 may move; seat 2 is a teammate.
    assert!(
        PileChess::legal_actions(&state, Seat(0))
            .iter()
            .any(|action| matches!(action, Action::EnPassant { .. }))
    );
    let mut state = table(&Config::two_vs_two(), 4, &[&[c(0, N)], &[c(1, N)]], 0);
    set_hand(&mut state, 0, &[P, P]);
    set_hand(&mut state, 1, &[Q]);
    set_hand(&mut state, 2, &[P]);
    act(&mut state, 0, play(P, 1));
    act(&mut state, 1, play(Q, 0));
    act(&mut state, 2, play(P, 1));
    act(&mut state, 3, Action::Pass);
    assert!(
        refused(
            &state,
            0,
            Action::EnPassant {
                from: Seat(1),
                to: Seat(0),
                pawns: 1
            }
        )
        .contains("opponent")
    );
}

/// The default options with `teams`, written out so that the team tests build on any version of
/// the options.
/// The first pile's resolution: each side's total, and the winning side if one won.
fn side_totals(events: &[Event]) -> (Vec<(u8, u32)>, Option<u8>) {
    let PublicEvent::PileResolved { totals, winner, .. } = resolution(events, 0) else {
        unreachable!("a resolution")
    };
    let totals = totals.iter().map(|entry| (entry.side, entry.total)).collect();
    (totals, winner)
}

fn teams(list: &[&[u8]]) -> Config {
    Config {
        teams: list.iter().map(|team| team.to_vec()).collect(),
        ..Config::default()
    }
}

#[test]
fn s5_any_split_of_the_seats_into_two_or_more_teams_is_a_team_game() {
    let splits: [(usize, &[&[u8]]); 9] = [
        (2, &[&[0], &[1]]),
        (3, &[&[0], &[1, 2]]),
        (3, &[&[2, 0], &[1]]),
        (3, &[&[0], &[1], &[2]]),
        (4, &[&[0, 2], &[1, 3]]),
        (4, &[&[0], &[1, 2, 3]]),
        (4, &[&[3], &[0], &[1, 2]]),
        (4, &[&[0, 1, 2], &[3]]),
        (4, &[&[0], &[1], &[2], &[3]]),
    ];
    for (seats, split) in splits {
        let config = teams(split);
        let (state, _) = PileChess::new_game(&config, seats, Seed::from_u64(0))
            .unwrap_or_else(|error| panic!("{split:?} with {seats} seats: {error}"));
        // Every seat's captured pile is its team's, numbered by the team's position.
        let view = PileChess::observe(&state, Viewer::Spectator);
        assert_eq!(view.captured_piles.len(), split.len(), "{split:?}");
        for (index, team) in split.iter().enumerate() {
            let mut members: Vec<Seat> = team.iter().map(|seat| Seat(*seat)).collect();
            members.sort();
            assert_eq!(view.captured_piles[index].seats, members, "{split:?}");
            for seat in *team {
                assert_eq!(
                    view.players[usize::from(*seat)].captured_pile,
                    index as u8,
                    "{split:?}"
                );
            }
        }
    }
}

#[test]
fn s5_one_against_two_sums_the_pair_and_ends_when_the_lone_player_loses_the_king() {
    // Seat 0 alone against seats 1 and 2: the pair's Knight and Bishop (6) beat the King (4).
    let config = teams(&[&[0], &[1, 2]]);
    let pile = [c(0, K), c(1, N), c(2, B)];
    let mut state = table(&config, 3, &[&pile], 0);
    let events = pass_all(&mut state, &[0, 1, 2]);
    assert_eq!(side_totals(&events), (vec![(0, 4), (1, 6)], Some(1)));
    assert_eq!(state.captured[1], vec![c(0, K)]);
    let outcome = PileChess::outcome(&state).expect("the lone player lost the King");
    assert_eq!(outcome.reason, EndReason::KingCaptured);
    assert_eq!(outcome.winners, [Seat(1), Seat(2)].into_iter().collect());
}

#[test]
fn s5_one_against_three_plays_on_until_the_three_are_all_out() {
    // Seat 3 alone against seats 0, 1 and 2. Seat 0 loses its King: its teammates play on.
    let config = teams(&[&[0, 1, 2], &[3]]);
    let mut state = table(&config, 4, &[&[c(0, K), c(3, R)]], 0);
    pass_all(&mut state, &[0, 1, 2, 3]);
    assert!(state.players[0].out);
    assert!(PileChess::outcome(&state).is_none());
    assert_eq!(PileChess::to_act(&state), SeatSet::only(Seat(0)));
    assert_eq!(state.step(), Step::Gift);
    let legal = PileChess::legal_actions(&state, Seat(0));
    // Cards may go to either teammate still in, never to the other team.
    for to in [1, 2] {
        assert!(legal.contains(&Action::Gift {
            to: Seat(to),
            pieces: vec![P]
        }));
    }
    assert!(
        legal
            .iter()
            .all(|action| !matches!(action, Action::Gift { to: Seat(3), .. }))
    );
    // §7.13: giving nothing is one choice, addressed to the first teammate still in.
    let empty = |to: u8| Action::Gift {
        to: Seat(to),
        pieces: vec![],
    };
    assert_eq!(legal[0], empty(1));
    assert!(!legal.contains(&empty(2)));
    assert!(refused(&state, 0, empty(2)).contains("addressed to seat 1"));
    act(&mut state, 0, empty(1));
    assert!(PileChess::outcome(&state).is_none());
    assert_eq!(state.step(), Step::Play);
}

#[test]
fn s5_teams_must_split_exactly_the_games_seats() {
    for seats in [2, 3] {
        assert!(matches!(
            PileChess::new_game(&Config::two_vs_two(), seats, Seed::from_u64(0)),
            Err(SetupError::InvalidConfig { field, .. }) if field.starts_with("teams[")
        ));
    }
    // Three seats' teams in a four-seat game: seat 3 plays in no team.
    assert!(matches!(
        PileChess::new_game(&teams(&[&[0], &[1, 2]]), 4, Seed::from_u64(0)),
        Err(SetupError::InvalidConfig { field, problem })
            if field == "teams" && problem.contains("seat 3 is in no team")
    ));
}

#[test]
fn s5_resigning_with_three_players_puts_the_player_out_and_the_others_play_on() {
    let (mut table, _) = Table::<PileChess>::new(&Config::default(), 3, Seed::from_u64(9)).unwrap();
    // Seat 0 is to act; it resigns: its cards leave, seat 1 is to act.
    let resign = TableAction::Meta(MetaAction::Resign);
    table.apply(Seat(0), &resign).unwrap();
    assert!(table.outcome().is_none());
    assert_eq!(table.to_act(), SeatSet::only(Seat(1)));
    let view = table.observe(Viewer::Spectator);
    assert!(view.players[0].out && view.players[0].resigned);
    assert!(
        view.piles
            .iter()
            .all(|pile| pile.owner != Seat(0) || pile.cards.is_empty())
    );
    assert_eq!(view.removed.len(), 16);
    // A second resignation leaves one player: the winner.
    table.apply(Seat(2), &resign).unwrap();
    let outcome = table.outcome().expect("over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(1)));
    assert_eq!(outcome.reason, EndReason::Resignation);
}

#[test]
fn s5_a_player_who_resigned_does_not_share_the_teams_win() {
    let mut state = table(&Config::two_vs_two(), 4, &[&[c(1, K), c(0, R)]], 0);
    let events = PileChess::resign(&mut state, Seat(2)).expect("eliminates with four seats");
    assert!(public(&events).contains(&PublicEvent::SeatOut {
        seat: Seat(2),
        reason: OutReason::Resigned,
    }));
    state.players[3].out = true;
    pass_all(&mut state, &[0, 1]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(0)));
}

#[test]
fn s5_a_player_out_by_a_king_loss_who_resigns_does_not_share_the_teams_win() {
    // Seat 2 (team 0) and seat 3 (team 1) are already out; seat 2 resigns, then seat 0's Rook
    // takes seat 1's King and team 0 wins without seat 2.
    let mut state = table(&Config::two_vs_two(), 4, &[&[c(1, K), c(0, R)]], 0);
    state.players[2].out = true;
    state.players[3].out = true;
    let events = PileChess::resign(&mut state, Seat(2)).expect("eliminates with four seats");
    assert!(events.is_empty(), "a player already out is not put out again: {events:?}");
    assert!(state.players[2].resigned);
    assert!(!PileChess::can_win(&state, Seat(2)));
    pass_all(&mut state, &[0, 1]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(0)));
}

#[test]
fn s5_an_eliminated_player_who_resigns_no_longer_competes_at_a_stalemate() {
    // Free for all keeping eliminated players' captures: seat 2, out with the highest captured
    // pile, resigns; at the round cap's stalemate the two players left tie, and nobody wins.
    let config = Config {
        eliminated_captures_count: true,
        max_rounds: 1,
        ..Config::default()
    };
    let mut state = table(&config, 3, &[&[c(0, N)], &[c(1, N)]], 0);
    state.players[2].out = true;
    state.captured[2] = vec![c(0, Q)];
    assert!(PileChess::can_win(&state, Seat(2)));
    PileChess::resign(&mut state, Seat(2)).expect("eliminates with three seats");
    assert!(!PileChess::can_win(&state, Seat(2)));
    pass_all(&mut state, &[0, 1]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.reason, EndReason::TurnCap);
    assert_eq!(outcome.winners, SeatSet::EMPTY, "{outcome:?}");
}
