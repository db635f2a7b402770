//! Helpers shared by the rule tests of every game.

use crate::game::{EndReason, Game, Outcome};
use crate::seat::Seat;
use crate::table::{MetaAction, Table, TableAction};

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
