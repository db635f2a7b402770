//! Proptest-driven games: a [`Scenario`] (seed, seat count, edition, config variation and a
//! list of decisions) played through [`Table`], handing every decision and its result to a
//! property's check.

use deckmate_engine::{
    Edition, Game, LoggedAction, MetaAction, PlayError, Seat, Seed, Table, TableAction, TableEvent,
    length::CappedLength,
};
use proptest::prelude::*;
use serde_json::Value;

/// Decisions per game at most; the games rarely end sooner, so every property sees long games.
pub(crate) const MAX_DECISIONS: usize = 160;

/// One generated game.
#[derive(Clone, Debug)]
pub(crate) struct Scenario {
    pub(crate) seed: u64,
    /// Picks the seat count within the game's range.
    pub(crate) seats: usize,
    pub(crate) first_edition: bool,
    /// Picks, for each number of the default config, whether and how it changes.
    pub(crate) config_picks: Vec<u16>,
    pub(crate) decisions: Vec<Decision>,
}

/// One decision: what kind, and the numbers that pick the seat and the action.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decision {
    pub(crate) kind: u8,
    pub(crate) seat: u8,
    pub(crate) pick: u16,
}

/// A generated scenario.
pub(crate) fn scenario() -> impl Strategy<Value = Scenario> {
    (
        any::<u64>(),
        0..8usize,
        any::<bool>(),
        proptest::collection::vec(any::<u16>(), 16),
        proptest::collection::vec(
            (any::<u8>(), any::<u8>(), any::<u16>()).prop_map(|(kind, seat, pick)| Decision {
                kind,
                seat,
                pick,
            }),
            1..MAX_DECISIONS,
        ),
    )
        .prop_map(
            |(seed, seats, first_edition, config_picks, decisions)| Scenario {
                seed,
                seats,
                first_edition,
                config_picks,
                decisions,
            },
        )
}

/// What one decision did.
pub(crate) struct Step<'a, G: Game> {
    pub(crate) before: &'a Table<G>,
    pub(crate) seat: Seat,
    pub(crate) action: &'a TableAction<G::Action>,
    /// Whether the contract allows the decision (listed game action or meta action).
    pub(crate) allowed: bool,
    pub(crate) result: &'a Result<Vec<TableEvent<G::Event>>, PlayError>,
    pub(crate) after: &'a Table<G>,
    /// The accepted actions before this decision.
    pub(crate) version: u64,
}

/// A played scenario: what the game was dealt from, its log and its final table.
pub(crate) struct Played<G: Game> {
    pub(crate) config: G::Config,
    pub(crate) seats: usize,
    pub(crate) seed: Seed,
    pub(crate) edition: Edition,
    pub(crate) log: Vec<LoggedAction<G::Action>>,
    pub(crate) table: Table<G>,
}

/// The config of the scenario: the default, with its numbers varied as the picks say, when
/// the game accepts the result (setup and the length caps, as whoever creates a game checks
/// them); otherwise the default.
fn config_of<G: Game>(scenario: &Scenario, seats: usize) -> G::Config {
    let default = G::Config::default();
    let mut json = serde_json::to_value(&default).expect("configs serialize");
    let mut picks = scenario.config_picks.iter().copied().cycle();
    vary_numbers(&mut json, &mut picks);
    let Ok(config) = serde_json::from_value::<G::Config>(json) else {
        return default;
    };
    let valid = config.length_caps().check().is_ok()
        && G::new_game(&config, seats, Seed::from_u64(scenario.seed)).is_ok();
    if valid { config } else { default }
}

/// Changes some numbers of a config: each is kept, or becomes a value between 0 and ten times
/// itself (the widest range of the engine's length caps); booleans may flip.
fn vary_numbers(value: &mut Value, picks: &mut impl Iterator<Item = u16>) {
    match value {
        Value::Number(number) => {
            let pick = picks.next().unwrap_or(0);
            if let Some(n) = number.as_u64()
                && pick.is_multiple_of(3)
            {
                let varied = u64::from(pick / 3) % (n.saturating_mul(10) + 1);
                *value = Value::from(varied);
            }
        }
        Value::Bool(flag) if picks.next().unwrap_or(0).is_multiple_of(2) => *flag = !*flag,
        Value::Array(items) => items.iter_mut().for_each(|item| vary_numbers(item, picks)),
        Value::Object(fields) => fields
            .values_mut()
            .for_each(|item| vary_numbers(item, picks)),
        _ => {}
    }
}

/// Plays `scenario` for game `G`, calling `check` after every decision.
pub(crate) fn play<G: Game>(scenario: &Scenario, mut check: impl FnMut(&Step<'_, G>)) -> Played<G> {
    let range = G::SEATS;
    let seats = range.start() + scenario.seats % (range.end() - range.start() + 1);
    let edition = if scenario.first_edition {
        Edition::FIRST
    } else {
        Edition::LATEST
    };
    let seed = Seed::from_u64(scenario.seed);
    let config = config_of::<G>(scenario, seats);
    let (mut table, _) = Table::<G>::new_in(&config, seats, seed, edition)
        .unwrap_or_else(|error| panic!("{}: a checked config deals: {error}", G::ID));
    let mut log: Vec<LoggedAction<G::Action>> = Vec::new();
    for decision in &scenario.decisions {
        if table.is_over() {
            break;
        }
        let (seat, action) = decide(&table, decision);
        let allowed = match &action {
            TableAction::Meta(meta) => table.meta_actions(seat).contains(meta),
            TableAction::Game(game_action) => {
                table.to_act().contains(seat) && table.legal_actions(seat).contains(game_action)
            }
            TableAction::TimeOut => table.clock_seats().contains(seat),
            TableAction::MovedOnTimeout(game_action) => {
                table.clock_seats().contains(seat)
                    && table.to_act().contains(seat)
                    && table.legal_actions(seat).contains(game_action)
            }
        };
        let before = table.clone();
        let result = table.apply(seat, &action);
        check(&Step {
            before: &before,
            seat,
            action: &action,
            allowed,
            result: &result,
            after: &table,
            version: log.len() as u64,
        });
        if result.is_ok() {
            log.push((seat, action));
        }
    }
    Played {
        config,
        seats,
        seed,
        edition,
        log,
        table,
    }
}

/// The decision a [`Decision`] picks at `table`: mostly a listed action of a seat to act;
/// sometimes a meta action of any seat (ending the game only rarely), or a listed action
/// played by a seat that may not play it, which the table must refuse; rarely a timeout of any
/// seat number, which the table accepts only for a seat on the clock.
fn decide<G: Game>(table: &Table<G>, decision: &Decision) -> (Seat, TableAction<G::Action>) {
    let seats = table.seat_count();
    let to_act: Vec<Seat> = table.to_act().iter().collect();
    let actor = to_act[usize::from(decision.seat) % to_act.len()];
    let legal = table.legal_actions(actor);
    let listed = legal[usize::from(decision.pick) % legal.len()].clone();
    if decision.kind == u8::MAX {
        // Rarely, a timeout of any seat number: applied when that seat is on the clock.
        return (
            Seat(decision.seat % (seats as u8 + 1)),
            TableAction::TimeOut,
        );
    }
    if decision.kind == u8::MAX - 1 {
        // As rarely, the listed action made on a timeout by any seat number: applied when that
        // seat is on the clock and the action is one of its own (docs/rules/conventions.md §8,
        // item 7).
        return (
            Seat(decision.seat % (seats as u8 + 1)),
            TableAction::MovedOnTimeout(listed),
        );
    }
    match decision.kind % 16 {
        0 => {
            let seat = Seat(decision.seat % seats as u8);
            let meta = match decision.pick % 16 {
                0 => MetaAction::Resign,
                1..=4 => MetaAction::AcceptDraw,
                5..=10 => MetaAction::OfferDraw,
                _ => MetaAction::DeclineDraw,
            };
            (seat, TableAction::Meta(meta))
        }
        1 | 2 => {
            // Another seat (or a seat number past the table) tries the listed action.
            let other = Seat(
                ((actor.index() + 1 + usize::from(decision.seat) % seats) % (seats + 1)) as u8,
            );
            (other, TableAction::Game(listed))
        }
        _ => (actor, TableAction::Game(listed)),
    }
}
