//! One checked random playout: a game played through [`Table`] with random decisions (mostly
//! game actions, sometimes meta actions, in some seeds a timeout), every position checked, then
//! the end and the replay.

use deckmate_engine::{Edition, Game, MetaAction, Seat, Seed, Table, TableAction, TableEvent};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::budget::Budget;
use super::context::Ctx;
use super::end::check_finished;
use super::legality::{apply_listed, check_rejections};
use super::meta::{check_listing, check_offer_sequences, check_transition};
use super::no_leak::{check_event_views, check_resample, viewers};
use super::pool::Pool;
use super::replay::{MainLine, check_replay};
use super::serialization::{round_trip, round_trip_table};
use super::stats::Stats;
use super::timeout::{check_clocks, check_timeout};
use super::turn::check_turn_model;

/// Plays the game of `seed` to its end, checking every position, and adds to `stats`.
pub(crate) fn play_and_check<G: Game>(
    config: &G::Config,
    seats: usize,
    edition: Edition,
    seed: u64,
    shared: &Pool<G::Action>,
    budget: &Budget,
    stats: &mut Stats,
) {
    let mut ctx = Ctx::new(G::ID, seats, edition, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let game_seed = Seed::from_u64(seed);
    let (mut table, setup) = Table::<G>::new_in(config, seats, game_seed, edition)
        .unwrap_or_else(|error| panic!("{ctx}: the default game cannot be created: {error}"));
    for event in &setup {
        assert!(
            matches!(event, TableEvent::Game(_)),
            "{ctx}: setup produced {event:?}"
        );
        round_trip_event::<G>(&ctx, event);
    }
    stats.deals.insert(deal_fingerprint(&table, &setup));

    let mut local = Pool::new(budget.pool_capacity);
    let mut log: Vec<(Seat, TableAction<G::Action>)> = Vec::new();
    let mut events = setup;
    let allow_terminal_meta = seed % budget.terminal_meta_every == budget.terminal_meta_every - 1;
    let snapshot_at = rng.random_range(1..=32);
    let mut snapshot = None;
    // Some seeds enter a timeout into the main line (docs/rules/conventions.md §8).
    let timeout_at = (seed % budget.main_line_timeout_every == budget.main_line_timeout_every / 2)
        .then(|| rng.random_range(0..48));
    loop {
        ctx.ply = log.len();
        check_position(&ctx, &table, shared, &mut local, budget, &mut rng, stats);
        stats.plies += 1;
        if table.is_over() {
            break;
        }
        assert!(
            log.len() < budget.max_plies,
            "{ctx}: the game has not ended after {} plies",
            budget.max_plies
        );
        let (seat, action) = if timeout_at == Some(log.len()) {
            let clock: Vec<Seat> = table.clock_seats().iter().collect();
            let seat = *clock
                .choose(&mut rng)
                .expect("the clock check guarantees a clock in a running game");
            stats.meta("timeout in the main line");
            (seat, TableAction::TimeOut)
        } else {
            choose(&table, allow_terminal_meta, budget, &mut rng)
        };
        let before = table.clone();
        let produced = table.apply(seat, &action).unwrap_or_else(|error| {
            panic!("{ctx}: {action:?} of {seat}, chosen from the listed actions, failed: {error}")
        });
        check_transition(&ctx, &before, seat, &action, &table, &produced);
        if action == TableAction::TimeOut {
            check_timeout(&ctx, &before, seat, &table, &produced, stats);
        }
        round_trip(&ctx, "table action", &action);
        for event in &produced {
            round_trip_event::<G>(&ctx, event);
        }
        log.push((seat, action));
        events.extend(produced);
        if log.len() == snapshot_at {
            snapshot = Some((log.len(), table.clone()));
        }
    }

    check_finished(&ctx, &table, &events, stats);
    check_replay(
        &ctx,
        &MainLine {
            config,
            seed: game_seed,
            log: &log,
            events: &events,
            table: &table,
            snapshot: snapshot.as_ref(),
        },
    );
    stats.games += 1;
    stats.longest = stats.longest.max(log.len());
}

/// Every per-position check: the turn model, serialization, the listed actions and their
/// events, the rejection of everything else, resampling, the meta actions and timeouts.
fn check_position<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    shared: &Pool<G::Action>,
    local: &mut Pool<G::Action>,
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    let legal = check_turn_model(ctx, table);
    let bytes = round_trip_table(ctx, table);
    let unseen: Vec<&G::Action> = legal
        .iter()
        .flatten()
        .filter(|action| !shared.contains(action))
        .collect();
    for action in local.add(unseen) {
        round_trip(ctx, "action", &action);
        round_trip(ctx, "table action", &TableAction::Game(action));
    }
    for seat in table.to_act().iter() {
        let applied = apply_listed(ctx, table, seat, &legal[seat.index()], budget, rng, stats);
        check_event_views(ctx, seat, &applied, stats);
    }
    let illegal = check_rejections(
        ctx, table, &bytes, &legal, shared, local, budget, rng, stats,
    );
    check_resample(ctx, table, &illegal, budget, rng, stats);
    check_listing(ctx, table, &bytes, stats);
    check_clocks(ctx, table, &bytes, budget, rng, stats);
    if table.seat_count() == 2 && !table.is_over() && rng.random_bool(budget.offer_sequence_rate) {
        check_offer_sequences(ctx, table, budget, rng, stats);
    }
}

/// The next main-line decision: usually a random listed game action of a random seat that may
/// act; sometimes a random meta action of a random seat. Resigning and accepting a draw end the
/// game, so only some seeds may choose them.
fn choose<G: Game>(
    table: &Table<G>,
    allow_terminal_meta: bool,
    budget: &Budget,
    rng: &mut impl Rng,
) -> (Seat, TableAction<G::Action>) {
    if rng.random_bool(budget.meta_rate) {
        let seat = Seat(rng.random_range(0..table.seat_count()) as u8);
        let options: Vec<MetaAction> = table
            .meta_actions(seat)
            .into_iter()
            .filter(|meta| {
                allow_terminal_meta
                    || matches!(meta, MetaAction::OfferDraw | MetaAction::DeclineDraw)
            })
            .collect();
        if let Some(meta) = options.choose(rng) {
            return (seat, TableAction::Meta(*meta));
        }
    }
    let to_act: Vec<Seat> = table.to_act().iter().collect();
    let seat = *to_act
        .choose(rng)
        .expect("the turn model check guarantees a seat to act in a running game");
    let legal = table.legal_actions(seat);
    let action = legal
        .choose(rng)
        .expect("the turn model check guarantees legal actions for a seat to act")
        .clone();
    (seat, TableAction::Game(action))
}

/// A table event and, for a game event, the game's own event survive serialization.
fn round_trip_event<G: Game>(ctx: &Ctx, event: &TableEvent<G::Event>) {
    round_trip(ctx, "table event", event);
    if let TableEvent::Game(game_event) = event {
        round_trip(ctx, "game event", game_event);
    }
}

/// What distinguishes one deal from another: the setup events and every first observation.
fn deal_fingerprint<G: Game>(table: &Table<G>, setup: &[TableEvent<G::Event>]) -> Vec<u8> {
    let mut bytes = postcard::to_allocvec(setup).expect("setup events serialize");
    for viewer in viewers(table.seat_count()) {
        bytes.extend(format!("{:?}", table.observe(viewer)).into_bytes());
    }
    bytes
}
