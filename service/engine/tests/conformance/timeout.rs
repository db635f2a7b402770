//! Check 10: clocks and timeouts (docs/rules/conventions.md §8). The seats on the clock are seats
//! to act, and some clock runs while the game does. A timeout of a seat on the clock always
//! applies and is announced first; it either ends the game for the reason `Timeout` (won by the
//! other seats that can still win, or drawn when none can) or takes the seat out of the clock
//! and of `to_act` for the rest of the game, and the seat that ran out of time never wins. It
//! leaves a standing draw offer alone while the game goes on. A timeout of any other seat is
//! rejected and leaves no trace. The table after a timeout survives serialization; the main
//! lines of some seeds hold a timeout, which the replay check then covers.

use deckmate_engine::{
    EndReason, Game, MetaEvent, Outcome, Seat, SeatSet, Table, TableAction, TableEvent,
};
use rand::Rng;
use rand::seq::IndexedRandom;

use super::budget::Budget;
use super::context::Ctx;
use super::legality::{Expected, expect_rejected};
use super::meta::check_transition;
use super::serialization::round_trip_table;
use super::stats::Stats;
use super::turn::seats;

/// Timeout checks that must have run at least once in a full run of every seat count.
pub(crate) const EXPECTED_TIMEOUT_CHECKS: [&str; 5] = [
    "timeout applied",
    "timeout rejected",
    "timeout round trip",
    "timeout in the main line",
    "move on timeout applied",
];

/// The clocks at `table`, and a timeout of every seat (and of a seat number past the table) on
/// clones: applied for the seats on the clock, rejected for the others. Sometimes one applied
/// timeout is followed further: serialization, and the rest of the game when it goes on.
pub(crate) fn check_clocks<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    bytes: &[u8],
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    let clock = check_clock_seats(ctx, table);
    let mut timed_out = Vec::new();
    for seat in seats(table.seat_count() + 1) {
        if clock.contains(seat) {
            let mut after = table.clone();
            let events = after
                .apply(seat, &TableAction::TimeOut)
                .unwrap_or_else(|error| {
                    panic!("{ctx}: the timeout of {seat}, on the clock, was rejected: {error}")
                });
            check_timeout(ctx, table, seat, &after, &events, stats);
            timed_out.push((seat, after));
            check_move_on_timeout(ctx, table, seat, rng, stats);
        } else {
            let expected = if table.is_over() {
                Expected::GameOver
            } else {
                Expected::NotYourTurn
            };
            expect_rejected(ctx, table, bytes, seat, &TableAction::TimeOut, expected);
            stats.meta("timeout rejected");
        }
    }
    if let Some((seat, after)) = timed_out.choose(rng)
        && rng.random_bool(budget.timeout_follow_rate)
    {
        round_trip_table(ctx, after);
        stats.meta("timeout round trip");
        if !after.is_over() {
            play_on_without(ctx, after.clone(), *seat, budget, rng, stats);
        }
    }
}

/// A move made for `seat`, on the clock, on its timeout (docs/rules/conventions.md §8, item 7):
/// the table it leaves is the one the seat's own move leaves, and its events are the timeout's
/// announcement followed by that move's events. A seat to act but not on the clock (CHUNO's
/// out-of-turn call) cannot have one.
fn check_move_on_timeout<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    seat: Seat,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    let Some(action) = table.legal_actions(seat).choose(rng).cloned() else {
        return;
    };
    let mut own = table.clone();
    let own_events = own
        .apply(seat, &TableAction::Game(action.clone()))
        .unwrap_or_else(|error| panic!("{ctx}: listed {action:?} of {seat} failed: {error}"));
    let mut moved = table.clone();
    let moved_action = TableAction::MovedOnTimeout(action);
    let events = moved.apply(seat, &moved_action).unwrap_or_else(|error| {
        panic!("{ctx}: {moved_action:?} of {seat}, on the clock, was rejected: {error}")
    });
    check_transition(ctx, table, seat, &moved_action, &moved, &events);
    assert!(
        moved == own,
        "{ctx}: {moved_action:?} of {seat} left another table than the seat's own move"
    );
    assert_eq!(
        events.first(),
        Some(&TableEvent::Meta(MetaEvent::TimedOut(seat))),
        "{ctx}: {moved_action:?} of {seat} is not announced as a timeout: {events:?}"
    );
    assert_eq!(
        events[1..],
        own_events[..],
        "{ctx}: {moved_action:?} of {seat} gave other events than the seat's own move"
    );
    stats.meta("move on timeout applied");
    for other in table.to_act().iter() {
        if table.clock_seats().contains(other) {
            continue;
        }
        if let Some(action) = table.legal_actions(other).first() {
            let mut copy = table.clone();
            assert!(
                copy.apply(other, &TableAction::MovedOnTimeout(action.clone()))
                    .is_err()
                    && copy == *table,
                "{ctx}: a move on timeout of {other}, not on the clock, was accepted"
            );
        }
    }
}

/// The seats on the clock at `table`: seats to act, none once the game is over, some while it
/// runs; the table's answer is the game's.
fn check_clock_seats<G: Game>(ctx: &Ctx, table: &Table<G>) -> SeatSet {
    let clock = table.clock_seats();
    let to_act = table.to_act();
    assert!(
        clock.iter().all(|seat| to_act.contains(seat)),
        "{ctx}: the seats on the clock {clock:?} are not all to act ({to_act:?})"
    );
    if table.is_over() {
        assert!(
            clock.is_empty(),
            "{ctx}: clocks {clock:?} run after the end"
        );
    } else {
        assert!(!clock.is_empty(), "{ctx}: the game runs but no clock does");
        assert_eq!(
            clock,
            G::clock_seats(table.state()),
            "{ctx}: the table and the game disagree on the clocks"
        );
    }
    clock
}

/// What an accepted timeout of `seat` must show, from `before` to `after`.
pub(crate) fn check_timeout<G: Game>(
    ctx: &Ctx,
    before: &Table<G>,
    seat: Seat,
    after: &Table<G>,
    events: &[TableEvent<G::Event>],
    stats: &mut Stats,
) {
    check_transition(ctx, before, seat, &TableAction::TimeOut, after, events);
    assert_eq!(
        events.first(),
        Some(&TableEvent::Meta(MetaEvent::TimedOut(seat))),
        "{ctx}: the timeout of {seat} is not announced first: {events:?}"
    );
    assert!(
        !events[1..]
            .iter()
            .any(|event| matches!(event, TableEvent::Meta(_))),
        "{ctx}: the timeout of {seat} gave other meta events: {events:?}"
    );
    // What the game itself does with the timeout: `None` leaves the ending to the table.
    let mut state = before.state().clone();
    let by_game = G::time_out(&mut state, seat);
    if let Some(outcome) = after.outcome() {
        assert!(
            !outcome.winners.contains(seat),
            "{ctx}: {seat} ran out of time and won: {outcome:?}"
        );
        if by_game.is_none() {
            let winners: SeatSet = seats(before.seat_count())
                .filter(|other| *other != seat && G::can_win(&state, *other))
                .collect();
            let expected = Outcome {
                winners,
                reason: EndReason::Timeout,
                scores: Vec::new(),
            };
            assert_eq!(
                outcome, expected,
                "{ctx}: the timeout of {seat} must end the game for the seats that can win"
            );
        }
        stats.meta("timeout applied");
        stats.meta(if outcome.is_draw() {
            "timeout drawn"
        } else {
            "timeout won"
        });
    } else {
        assert!(
            by_game.is_some(),
            "{ctx}: the game goes on after a timeout that the game left to the table"
        );
        assert!(
            !after.clock_seats().contains(seat) && !after.to_act().contains(seat),
            "{ctx}: {seat} ran out of time but is still on the clock or to act"
        );
        assert!(
            after.legal_actions(seat).is_empty(),
            "{ctx}: {seat} ran out of time but has legal actions"
        );
        assert_eq!(
            after.draw_offer(),
            before.draw_offer(),
            "{ctx}: a timeout of {seat} changed the draw offer"
        );
        assert!(
            G::turn_number(after.state()) >= G::turn_number(before.state()),
            "{ctx}: a timeout of {seat} took the turn number back"
        );
        stats.meta("timeout applied");
        stats.meta("timeout eliminates");
    }
}

/// Plays `table` to its end with random game actions (and now and then another timeout) after
/// `out` ran out of time: `out` is never again on the clock or to act, and never wins.
fn play_on_without<G: Game>(
    ctx: &Ctx,
    mut table: Table<G>,
    out: Seat,
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    for _ in 0..budget.max_plies {
        let clock = check_clock_seats(ctx, &table);
        if table.is_over() {
            break;
        }
        assert!(
            !clock.contains(out) && !table.to_act().contains(out),
            "{ctx}: {out} ran out of time but is back on the clock or to act"
        );
        let before = table.clone();
        if rng.random_bool(budget.timeout_follow_rate) {
            let seat = *clock
                .iter()
                .collect::<Vec<_>>()
                .choose(rng)
                .expect("a clock runs");
            let events = table
                .apply(seat, &TableAction::TimeOut)
                .unwrap_or_else(|error| panic!("{ctx}: the timeout of {seat} failed: {error}"));
            check_timeout(ctx, &before, seat, &table, &events, stats);
            continue;
        }
        let to_act: Vec<Seat> = table.to_act().iter().collect();
        let seat = *to_act
            .choose(rng)
            .expect("a running game has a seat to act");
        let legal = table.legal_actions(seat);
        let action = TableAction::Game(
            legal
                .choose(rng)
                .unwrap_or_else(|| panic!("{ctx}: {seat} is to act without legal actions"))
                .clone(),
        );
        let events = table
            .apply(seat, &action)
            .unwrap_or_else(|error| panic!("{ctx}: listed {action:?} of {seat} failed: {error}"));
        check_transition(ctx, &before, seat, &action, &table, &events);
    }
    let outcome = table
        .outcome()
        .unwrap_or_else(|| panic!("{ctx}: the game did not end after a timeout of {out}"));
    assert!(
        !outcome.winners.contains(out),
        "{ctx}: {out} ran out of time and won later: {outcome:?}"
    );
    stats.meta("timeout played on");
}
