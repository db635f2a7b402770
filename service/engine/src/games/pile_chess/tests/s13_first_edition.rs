//! §13 games dealt under the first edition: they keep its rules to their end.

use super::super::{Config, PileChess, PublicEvent, State};
use super::support::*;
use crate::edition::Edition;
use crate::game::Game;
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet};

/// `state` as if dealt under the first edition.
fn first_edition(mut state: State) -> State {
    state.edition = Edition::FIRST;
    state
}

#[test]
fn s13_first_edition_games_keep_sharing_a_three_way_tie_round_robin_from_the_pile_owner() {
    // The 6/3/0 split of the first edition: B1 to seat 0 (the pile owner's side comes first),
    // N0 to seat 1, and N2, whose turn would be seat 2's own, on to seat 0.
    let pile = [c(0, N), c(1, B), c(2, N)];
    let mut state = first_edition(table(&ffa(), 3, &[&pile], 0));
    let events = pass_all(&mut state, &[0, 1, 2]);
    assert!(matches!(
        resolution(&events, 0),
        PublicEvent::PileResolved { winner: None, .. }
    ));
    assert_eq!(state.captured[0], vec![c(1, B), c(2, N)]);
    assert_eq!(state.captured[1], vec![c(0, N)]);
    assert!(state.captured[2].is_empty());
}

#[test]
fn s13_first_edition_games_share_a_tie_with_every_involved_side_lower_ones_too() {
    // Two tied Rooks and a lower Pawn: the Pawn's side shares in the Rooks.
    let mut state = first_edition(table(&ffa(), 3, &[&[c(0, R), c(1, R), c(2, P)]], 0));
    pass_all(&mut state, &[0, 1, 2]);
    assert_eq!(state.captured[1], vec![c(0, R)]);
    assert_eq!(state.captured[2], vec![c(1, R)]);
    assert_eq!(state.captured[0], vec![c(2, P)]);
}

#[test]
fn s13_two_sided_ties_are_the_same_in_both_editions() {
    // With two sides both editions make each side capture the other's cards, in the same order.
    let pile = [c(0, N), c(1, P), c(1, P), c(1, P)];
    let mut latest = table(&ffa(), 2, &[&pile, &[]], 0);
    let mut first = first_edition(latest.clone());
    let events = pass_all(&mut latest, &[0, 1]);
    assert_eq!(pass_all(&mut first, &[0, 1]), events);
    assert_eq!(first.captured, latest.captured);
    // Two teams of two: B0 (3) ties N1 (3).
    let mut latest = table(&Config::two_vs_two(), 4, &[&[c(0, B), c(1, N)]], 0);
    let mut first = first_edition(latest.clone());
    let events = pass_all(&mut latest, &[0, 1, 2, 3]);
    assert_eq!(pass_all(&mut first, &[0, 1, 2, 3]), events);
    assert_eq!(first.captured, latest.captured);
}

#[test]
fn s13_new_games_are_dealt_under_the_latest_edition() {
    let (state, _) = PileChess::new_game(&ffa(), 3, Seed::from_u64(1)).unwrap();
    assert_eq!(state.edition, Edition::LATEST);
    let (state, _) = PileChess::new_game_in(&ffa(), 3, Seed::from_u64(1), Edition::FIRST).unwrap();
    assert_eq!(state.edition, Edition::FIRST);
}

#[test]
fn s13_first_edition_games_ignore_a_resignation_by_a_player_already_out() {
    // The same position as §5's test of edition 2: under edition 1 seat 2 keeps its share of the
    // team's win after resigning while out.
    let mut state = first_edition(table(&Config::two_vs_two(), 4, &[&[c(1, K), c(0, R)]], 0));
    state.players[2].out = true;
    state.players[3].out = true;
    PileChess::resign(&mut state, Seat(2)).expect("eliminates with four seats");
    assert!(!state.players[2].resigned);
    pass_all(&mut state, &[0, 1]);
    let outcome = PileChess::outcome(&state).expect("over");
    assert_eq!(outcome.winners, SeatSet::from_iter([Seat(0), Seat(2)]));
}
