//! Checks 2 and 3: every listed action applies; nothing else does, and a rejection leaves the
//! table exactly as it was (equal, and byte for byte when serialized).

use std::collections::HashSet;

use deckmate_engine::{Game, PlayError, Seat, Table, TableAction, TableEvent};
use rand::Rng;

use super::budget::Budget;
use super::context::Ctx;
use super::meta::check_transition;
use super::pool::{Pool, encode, sample};
use super::serialization::table_bytes;
use super::stats::Stats;
use super::turn::seats;

/// One listed action applied on a clone of the table.
pub(crate) struct Applied<G: Game> {
    /// The action.
    pub(crate) action: G::Action,
    /// The table after it.
    pub(crate) table: Table<G>,
    /// What `apply` returned.
    pub(crate) events: Vec<TableEvent<G::Event>>,
}

/// An unlisted action the game rejected as illegal for a seat that may act.
pub(crate) struct Rejection<A> {
    /// The seat.
    pub(crate) seat: Seat,
    /// The action.
    pub(crate) action: A,
    /// The error the game gave.
    pub(crate) error: PlayError,
}

/// The error a rejected action must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expected {
    /// The game has ended.
    GameOver,
    /// The seat is not in `to_act`.
    NotYourTurn,
    /// The seat may act, but not this.
    Illegal,
}

impl Expected {
    /// Whether `error` is this kind.
    fn matches(self, error: &PlayError) -> bool {
        match (self, error) {
            (Expected::GameOver, PlayError::GameOver) => true,
            (Expected::NotYourTurn, PlayError::NotYourTurn) => true,
            (Expected::Illegal, PlayError::Illegal(message)) => !message.trim().is_empty(),
            _ => false,
        }
    }
}

/// Check 2: applies the listed actions of `seat` (all of them, or a random sample when there
/// are more than the budget allows) on clones; each must be accepted.
pub(crate) fn apply_listed<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    seat: Seat,
    legal: &[G::Action],
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) -> Vec<Applied<G>> {
    let chosen: Vec<&G::Action> = if legal.len() <= budget.applied_per_seat {
        legal.iter().collect()
    } else {
        rand::seq::index::sample(rng, legal.len(), budget.applied_per_seat)
            .into_iter()
            .map(|index| &legal[index])
            .collect()
    };
    chosen
        .into_iter()
        .map(|action| {
            let mut after = table.clone();
            let table_action = TableAction::Game(action.clone());
            let events = after.apply(seat, &table_action).unwrap_or_else(|error| {
                panic!("{ctx}: listed action {action:?} of {seat} was rejected: {error}")
            });
            check_transition(ctx, table, seat, &table_action, &after, &events);
            stats.applied += 1;
            Applied {
                action: action.clone(),
                table: after,
                events,
            }
        })
        .collect()
}

/// Check 3: actions from the pool that are not listed for a seat are rejected with the right
/// error and without a trace, both through the table and by the game itself. Returns the
/// rejections the game called illegal, for the error-message no-leak check.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_rejections<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    bytes: &[u8],
    legal: &[Vec<G::Action>],
    shared: &Pool<G::Action>,
    local: &Pool<G::Action>,
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) -> Vec<Rejection<G::Action>> {
    let over = table.is_over();
    let to_act = table.to_act();
    let mut illegal = Vec::new();
    for seat in seats(table.seat_count()) {
        let listed: HashSet<Vec<u8>> = legal[seat.index()].iter().map(encode).collect();
        for action in sample(shared, local, budget.rejected_per_seat, rng) {
            if listed.contains(&encode(action)) {
                continue;
            }
            let expected = if over {
                Expected::GameOver
            } else if !to_act.contains(seat) {
                Expected::NotYourTurn
            } else {
                Expected::Illegal
            };
            let table_action = TableAction::Game(action.clone());
            let error = expect_rejected(ctx, table, bytes, seat, &table_action, expected);
            stats.rejected += 1;
            if !over {
                check_game_rejects::<G>(ctx, table.state(), seat, action);
                if expected == Expected::Illegal {
                    illegal.push(Rejection {
                        seat,
                        action: action.clone(),
                        error,
                    });
                }
            }
        }
    }
    // A seat that is not at the table at all.
    if let Some(action) = sample(shared, local, 1, rng).first() {
        let outsider = Seat(table.seat_count() as u8);
        let expected = if over {
            Expected::GameOver
        } else {
            Expected::NotYourTurn
        };
        let table_action = TableAction::Game((*action).clone());
        expect_rejected(ctx, table, bytes, outsider, &table_action, expected);
        stats.rejected += 1;
    }
    illegal
}

/// Applies `action` of `seat` on a clone of `table`; it must fail with `expected` and leave the
/// clone equal to `table` and serialized to the same `bytes`.
pub(crate) fn expect_rejected<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    bytes: &[u8],
    seat: Seat,
    action: &TableAction<G::Action>,
    expected: Expected,
) -> PlayError {
    let mut copy = table.clone();
    match copy.apply(seat, action) {
        Ok(events) => panic!(
            "{ctx}: {action:?} of {seat} was accepted (events {events:?}) but must be rejected \
             ({expected:?})"
        ),
        Err(error) => {
            assert!(
                expected.matches(&error),
                "{ctx}: {action:?} of {seat} was rejected with {error:?}, expected {expected:?}"
            );
            assert!(
                copy == *table,
                "{ctx}: rejecting {action:?} of {seat} ({error}) changed the table from {:?} to {:?}",
                table.state(),
                copy.state()
            );
            assert!(
                table_bytes(ctx, &copy) == bytes,
                "{ctx}: rejecting {action:?} of {seat} ({error}) changed the serialized table"
            );
            error
        }
    }
}

/// The game itself (below the table) rejects an unlisted action with the right error and leaves
/// its state unchanged. Only for running games: the table guards finished ones.
fn check_game_rejects<G: Game>(ctx: &Ctx, state: &G::State, seat: Seat, action: &G::Action) {
    let mut copy = state.clone();
    match G::apply(&mut copy, seat, action) {
        Ok(events) => panic!(
            "{ctx}: the game accepted unlisted {action:?} of {seat} directly (events {events:?})"
        ),
        Err(error) => {
            let expected = if G::to_act(state).contains(seat) {
                Expected::Illegal
            } else {
                Expected::NotYourTurn
            };
            assert!(
                expected.matches(&error),
                "{ctx}: the game rejected {action:?} of {seat} with {error:?}, expected {expected:?}"
            );
            assert!(
                copy == *state,
                "{ctx}: the game's rejection of {action:?} of {seat} changed its state"
            );
        }
    }
}
