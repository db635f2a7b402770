//! Check 1: the turn model. `to_act` is empty exactly when the game is over; a seat has legal
//! actions exactly when it is in `to_act`; listings are deterministic and free of duplicates.

use std::collections::HashSet;

use deckmate_engine::{Game, Seat, SeatSet, Table};

use super::context::Ctx;
use super::pool::encode;

/// The seats of an `n`-seat game.
pub(crate) fn seats(n: usize) -> impl Iterator<Item = Seat> + Clone {
    (0..n).map(|index| Seat(index as u8))
}

/// Checks the turn model at `table` and returns every seat's legal actions, by seat.
pub(crate) fn check_turn_model<G: Game>(ctx: &Ctx, table: &Table<G>) -> Vec<Vec<G::Action>> {
    let state = table.state();
    let n = table.seat_count();
    assert_eq!(n, ctx.seats, "{ctx}: seat_count is not the requested count");
    assert_eq!(
        G::seat_count(state),
        n,
        "{ctx}: game and table disagree on seats"
    );

    let over = table.is_over();
    let to_act = table.to_act();
    assert_eq!(
        to_act.is_empty(),
        over,
        "{ctx}: to_act is {to_act:?} while over is {over}"
    );
    assert_eq!(
        table.outcome().is_some(),
        over,
        "{ctx}: outcome and is_over disagree"
    );
    assert_subset(ctx, "to_act", to_act, n);

    // The game itself, whatever the table added: its own to_act is empty exactly at its outcome.
    let game_to_act = G::to_act(state);
    assert_subset(ctx, "the game's to_act", game_to_act, n);
    assert_eq!(
        game_to_act.is_empty(),
        G::outcome(state).is_some(),
        "{ctx}: the game's to_act is {game_to_act:?} with outcome {:?}",
        G::outcome(state)
    );
    if !over {
        assert_eq!(
            to_act, game_to_act,
            "{ctx}: table and game disagree on to_act"
        );
    }

    let mut legal_by_seat = Vec::with_capacity(n);
    for seat in seats(n) {
        let legal = table.legal_actions(seat);
        assert_eq!(
            legal,
            table.legal_actions(seat),
            "{ctx}: legal_actions({seat}) is not deterministic"
        );
        assert_eq!(
            !legal.is_empty(),
            to_act.contains(seat),
            "{ctx}: {seat} has {} legal actions but to_act is {to_act:?}",
            legal.len()
        );
        if !over {
            assert_eq!(
                legal,
                G::legal_actions(state, seat),
                "{ctx}: the table lists other actions than the game for {seat}"
            );
        } else {
            assert!(
                table.meta_actions(seat).is_empty(),
                "{ctx}: {seat} has meta actions {:?} after the end",
                table.meta_actions(seat)
            );
        }
        let mut distinct = HashSet::new();
        for action in &legal {
            assert!(
                distinct.insert(encode(action)),
                "{ctx}: {action:?} is listed twice for {seat}"
            );
        }
        legal_by_seat.push(legal);
    }
    legal_by_seat
}

/// `set` holds only seats of an `n`-seat game.
fn assert_subset(ctx: &Ctx, what: &str, set: SeatSet, n: usize) {
    assert!(
        set.iter().all(|seat| seat.index() < n),
        "{ctx}: {what} {set:?} names a seat outside 0..{n}"
    );
}
