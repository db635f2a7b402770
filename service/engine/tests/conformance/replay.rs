//! Check 5: determinism. Replaying the action log from (config, seats, seed) rebuilds the same
//! table, through every prefix checked, and produces the very same events.

use deckmate_engine::{Game, Seat, Seed, Table, TableAction, TableEvent};

use super::context::Ctx;

/// A finished main line: what created it and everything it produced.
pub(crate) struct MainLine<'a, G: Game> {
    /// The config.
    pub(crate) config: &'a G::Config,
    /// The seed.
    pub(crate) seed: Seed,
    /// Every decision applied, in order.
    pub(crate) log: &'a [(Seat, TableAction<G::Action>)],
    /// The setup events followed by the events of every decision.
    pub(crate) events: &'a [TableEvent<G::Event>],
    /// The table at the end.
    pub(crate) table: &'a Table<G>,
    /// The table after the first `.0` decisions.
    pub(crate) snapshot: Option<&'a (usize, Table<G>)>,
}

/// Replays the main line twice, through [`Table::replay`] and step by step, and compares.
pub(crate) fn check_replay<G: Game>(ctx: &Ctx, line: &MainLine<'_, G>) {
    let n = line.table.seat_count();
    let edition = line.table.edition();
    let replayed = Table::<G>::replay_in(line.config, n, line.seed, edition, line.log)
        .unwrap_or_else(|error| panic!("{ctx}: the log does not replay: {error}"));
    assert!(
        replayed == *line.table,
        "{ctx}: the replayed table differs: {:?}\nplayed: {:?}",
        replayed.state(),
        line.table.state()
    );

    let (mut again, mut events) = Table::<G>::new_in(line.config, n, line.seed, edition)
        .unwrap_or_else(|error| panic!("{ctx}: the game cannot be created again: {error}"));
    for (index, (seat, action)) in line.log.iter().enumerate() {
        let produced = again.apply(*seat, action).unwrap_or_else(|error| {
            panic!("{ctx}: decision {index} ({action:?} of {seat}) fails on replay: {error}")
        });
        events.extend(produced);
    }
    assert!(
        events == line.events,
        "{ctx}: the same seed and actions gave other events"
    );
    assert!(
        again == *line.table,
        "{ctx}: the step-by-step replay differs"
    );

    if let Some((plies, table)) = line.snapshot {
        let prefix = Table::<G>::replay_in(line.config, n, line.seed, edition, &line.log[..*plies])
            .unwrap_or_else(|error| panic!("{ctx}: a prefix of the log does not replay: {error}"));
        assert!(
            prefix == *table,
            "{ctx}: replaying the first {plies} decisions differs from the table then"
        );
    }
}
