//! Check 8: every playout ends (the bound itself is enforced by the playout loop), and the end
//! is well formed: an outcome naming only real seats, announced exactly once as the last event.

use deckmate_engine::{EndReason, Game, Table, TableEvent};

use super::context::Ctx;
use super::stats::Stats;

/// Checks the finished `table`, whose main line produced `events` (setup events included).
pub(crate) fn check_finished<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    events: &[TableEvent<G::Event>],
    stats: &mut Stats,
) {
    let n = table.seat_count();
    let outcome = table
        .outcome()
        .unwrap_or_else(|| panic!("{ctx}: the playout stopped but the game has no outcome"));
    assert!(
        outcome.winners.iter().all(|seat| seat.index() < n),
        "{ctx}: the winners {:?} are not seats of this {n}-seat game",
        outcome.winners
    );
    assert!(
        outcome.scores.is_empty() || outcome.scores.len() == n,
        "{ctx}: {} scores for {n} seats",
        outcome.scores.len()
    );
    match outcome.reason {
        EndReason::DrawAgreed => {
            assert!(outcome.is_draw(), "{ctx}: an agreed draw with winners")
        }
        EndReason::Resignation if n == 2 => {
            assert_eq!(
                outcome.winners.len(),
                1,
                "{ctx}: a resignation needs a winner"
            )
        }
        EndReason::Timeout if n == 2 => {
            assert!(
                outcome.winners.len() <= 1,
                "{ctx}: a timeout won by both seats"
            )
        }
        _ => {}
    }
    let ended: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, event)| matches!(event, TableEvent::Ended(_)))
        .map(|(index, _)| index)
        .collect();
    let last: Vec<usize> = events.len().checked_sub(1).into_iter().collect();
    assert_eq!(
        ended, last,
        "{ctx}: the end must be announced exactly once, as the last event"
    );
    assert_eq!(
        events.last(),
        Some(&TableEvent::Ended(outcome.clone())),
        "{ctx}: the announced end is not the outcome"
    );
    *stats
        .end_reasons
        .entry(format!("{:?}", outcome.reason))
        .or_default() += 1;
}
