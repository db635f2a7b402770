//! Helpers shared by the rule tests of every game.

use crate::game::{EndReason, Game, Outcome};
use crate::seat::Seat;
use crate::table::{MetaAction, MetaEvent, Table, TableAction, TableEvent};

/// The outcome of a game that `seat` won for `reason`.
pub(crate) fn won(seat: u8, reason: EndReason) -> Option<Outcome> {
    Some(Outcome::win(Seat(seat), reason))
}

/// Takes the meta action `action` of `seat` at `table`, failing the test if it is refused.
pub(crate) fn meta<G: Game>(table: &mut Table<G>, seat: u8, action: MetaAction) {
    table
        .apply(Seat(seat), &TableAction::Meta(action))
        .unwrap_or_else(|error| panic!("{action:?} of seat {seat} was refused: {error}"));
}

/// Enters a timeout of `seat` at `table` (docs/rules/conventions.md §8), failing the test if it
/// is refused; checks that the timeout is announced first and returns every event.
pub(crate) fn time_out<G: Game>(table: &mut Table<G>, seat: u8) -> Vec<TableEvent<G::Event>> {
    let events = table
        .apply(Seat(seat), &TableAction::TimeOut)
        .unwrap_or_else(|error| panic!("the timeout of seat {seat} was refused: {error}"));
    assert_eq!(
        events.first(),
        Some(&TableEvent::Meta(MetaEvent::TimedOut(Seat(seat))))
    );
    events
}

/// Checks that a timeout of `seat` is refused as not its turn and changes nothing.
pub(crate) fn time_out_refused<G: Game>(table: &Table<G>, seat: u8) {
    let mut copy = table.clone();
    assert_eq!(
        copy.apply(Seat(seat), &TableAction::TimeOut),
        Err(crate::game::PlayError::NotYourTurn),
        "seat {seat} is not on the clock"
    );
    assert!(copy == *table, "a refused timeout changed the table");
}
