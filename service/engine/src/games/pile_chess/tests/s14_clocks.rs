//! §14 clocks and timeouts: with two players a timeout ends the game; with three or four the
//! player who ran out of time leaves as a resigning one does, in the play step or while choosing
//! a gift, and the others play on; who can still win.

use super::super::{Action, Config, Event, OutReason, Pending, PileChess, PublicEvent, Step};
use super::support::*;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::{time_out, time_out_refused};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::{MetaEvent, Table, TableAction, TableEvent};

/// The public game events among a table's events.
fn public_of(events: &[TableEvent<Event>]) -> Vec<PublicEvent> {
    let game: Vec<Event> = events
        .iter()
        .filter_map(|event| match event {
            TableEvent::Game(event) => Some(event.clone()),
            _ => None,
        })
        .collect();
    public(&game)
}

/// Seat `seat` passes at `table`.
fn pass(table: &mut Table<PileChess>, seat: u8) {
    table
        .apply(Seat(seat), &TableAction::Game(Action::Pass))
        .unwrap_or_else(|error| panic!("seat {seat} could not pass: {error}"));
}

#[test]
fn s14_with_two_players_a_timeout_ends_the_game_and_the_other_wins() {
    let (mut table, _) = Table::<PileChess>::new(&ffa(), 2, Seed::from_u64(3)).unwrap();
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(0)));
    time_out_refused(&table, 1);
    let events = time_out(&mut table, 0);
    let outcome = Outcome::win(Seat(1), EndReason::Timeout);
    assert_eq!(
        events,
        [
            TableEvent::Meta(MetaEvent::TimedOut(Seat(0))),
            TableEvent::Ended(outcome.clone())
        ]
    );
    assert_eq!(table.outcome(), Some(outcome));
}

#[test]
fn s14_a_timeout_in_the_play_step_puts_the_player_out_and_the_others_play_on() {
    let (mut table, _) = Table::<PileChess>::new(&ffa(), 3, Seed::from_u64(9)).unwrap();
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(0)));
    time_out_refused(&table, 1);
    time_out_refused(&table, 2);
    // Seat 0 runs out of time on its move: it is out, its cards leave, seat 1 is to move.
    let events = time_out(&mut table, 0);
    assert!(public_of(&events).contains(&PublicEvent::SeatOut {
        seat: Seat(0),
        reason: OutReason::TimedOut,
    }));
    assert!(table.outcome().is_none());
    assert_eq!(table.to_act(), SeatSet::only(Seat(1)));
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(1)));
    let view = table.observe(Viewer::Spectator);
    assert!(view.players[0].out && view.players[0].resigned);
    assert!(
        view.piles
            .iter()
            .all(|pile| pile.owner != Seat(0) || pile.cards.is_empty())
    );
    assert_eq!(view.removed.len(), 16);
    time_out_refused(&table, 0);
    // Play goes on without seat 0; when seat 2 runs out of time too, seat 1 is left and wins.
    pass(&mut table, 1);
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(2)));
    let events = time_out(&mut table, 2);
    let outcome = Outcome::win(Seat(1), EndReason::Timeout);
    assert_eq!(events.last(), Some(&TableEvent::Ended(outcome.clone())));
    assert_eq!(table.outcome(), Some(outcome));
}

#[test]
fn s14_a_timeout_while_choosing_a_gift_gives_nothing_and_the_round_goes_on() {
    // Seats 0 and 1 against seat 2. Seat 0 loses its King and owes its teammate a gift.
    let config = Config::with_teams(&[&[0, 1], &[2]]);
    let mut state = table(&config, 3, &[&[c(0, K), c(2, R)]], 0);
    set_hand(&mut state, 0, &[Q]);
    pass_all(&mut state, &[0, 1, 2]);
    assert_eq!(state.pending, vec![Pending::Gift { seat: Seat(0) }]);
    let mut table = Table::<PileChess>::from_state(state);
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(0)));
    time_out_refused(&table, 1);
    time_out_refused(&table, 2);
    let events = time_out(&mut table, 0);
    let public_events = public_of(&events);
    // Already out by the King loss, seat 0 is not reported out again and gives nothing.
    assert!(!public_events.iter().any(|event| matches!(
        event,
        PublicEvent::SeatOut { .. } | PublicEvent::Gifted { .. }
    )));
    assert!(public_events.iter().any(|event| matches!(
        event,
        PublicEvent::CardsLeftGame { seat: Seat(0), cards } if cards.contains(&c(0, Q))
    )));
    assert_eq!(table.state().players[1].hand[Q.index()], 0);
    // The round goes on: the draw step, then the next round's play step.
    assert!(table.outcome().is_none());
    assert_eq!(table.state().step(), Step::Play);
    assert!(table.state().players[0].resigned);
    assert_eq!(table.clock_seats(), SeatSet::only(Seat(1)));
    time_out_refused(&table, 0);
    // Seat 0 does not share its team's win: seat 2 runs out of time, seat 1 alone wins.
    pass(&mut table, 1);
    time_out(&mut table, 2);
    assert_eq!(
        table.outcome(),
        Some(Outcome::win(Seat(1), EndReason::Timeout))
    );
}

#[test]
fn s14_a_player_can_win_while_their_side_is_in_and_never_after_forfeiting() {
    let mut state = game(&ffa(), 3, 0);
    assert!(state.seats().all(|seat| PileChess::can_win(&state, seat)));
    // Free for all: a King loss ends a player's chances, unless their captures still count.
    state.players[0].out = true;
    assert!(!PileChess::can_win(&state, Seat(0)));
    state.config.eliminated_captures_count = true;
    assert!(PileChess::can_win(&state, Seat(0)));
    state.players[0].resigned = true;
    assert!(!PileChess::can_win(&state, Seat(0)));
    // Teams: a player out by a King loss shares the win while a teammate is in.
    let mut state = game(&Config::with_teams(&[&[0, 1], &[2]]), 3, 0);
    state.players[0].out = true;
    assert!(PileChess::can_win(&state, Seat(0)));
    state.players[1].out = true;
    assert!(!PileChess::can_win(&state, Seat(0)) && !PileChess::can_win(&state, Seat(1)));
    assert!(PileChess::can_win(&state, Seat(2)));
}
