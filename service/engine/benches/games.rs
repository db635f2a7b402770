//! Per-game engine benchmarks (docs/ARCHITECTURE.md §6), for every game in `GameKind::ALL`, each
//! with its default config and smallest seat count:
//!
//! - `<id>/random_game`: one whole game on one core: the deal, then a random legal action of a
//!   random seat to act until the game ends. Throughput in games per second.
//! - `<id>/apply_and_list`: recorded random games replayed action by action, each action applied
//!   and the legal actions of every seat then to act listed (what the server does per `Act`).
//!   Throughput in actions per second; ns per action is its inverse.
//! - `<id>/observe`: the observation of the seat to act, over the recorded positions.
//!
//! After criterion's own output a summary table gives, per game, the figures the design's
//! targets name: games/s, ns per action, observation ns, the state's size in bytes
//! (postcard, as a store keeps it, mean and max over the recorded positions, and the inline
//! size of `Table<G>`), and the size of a finished game as the server stores it (p99 and max
//! over [`STORED_GAMES`] random games). Under `cargo test --benches` everything runs once (the
//! stored size over [`STORED_GAMES_TEST`] games), as a smoke test.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, Throughput};
use deckmate_engine::{
    Dealt, Game, GameKind, Seat, Seed, Table, TableAction, TableEvent, Viewer, with_game,
};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Random games recorded per game for the replay, observation and size measurements.
const RECORDED_GAMES: u64 = 16;
/// The first seed of the games the random-game measurements play (the recorded ones use
/// `0..RECORDED_GAMES`).
const RANDOM_GAME_SEEDS: u64 = 1_000;
/// Time each summary figure is measured for (after criterion, in benchmark mode).
const SUMMARY_BUDGET: Duration = Duration::from_secs(1);
/// Random games (seeds `0..STORED_GAMES`) played to their end for the stored-size figures.
const STORED_GAMES: u64 = 1_000;
/// The same in test mode, where the figure is only a smoke test.
const STORED_GAMES_TEST: u64 = 20;

/// A recorded random game.
struct Recorded<G: Game> {
    seed: Seed,
    actions: Vec<(Seat, TableAction<G::Action>)>,
    /// Every position before an action, with the seat that took it.
    positions: Vec<(Table<G>, Seat)>,
}

/// The end of a random game.
struct Finished<G: Game> {
    plies: usize,
    table: Table<G>,
    /// The events of the last action (of the deal when no action was taken): what the server
    /// keeps of the current version.
    latest_events: Vec<TableEvent<G::Event>>,
}

/// The figures of the summary table for one game.
struct Figures {
    id: &'static str,
    games_per_second: f64,
    plies_per_game: f64,
    ns_per_action: f64,
    ns_per_observation: f64,
    state_bytes_mean: f64,
    state_bytes_max: usize,
    table_inline_bytes: usize,
    stored_bytes_p99: usize,
    stored_bytes_max: usize,
}

fn main() {
    let benchmarking = is_benchmark_mode();
    let filters = name_filters();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
        .configure_from_args();
    let mut figures = Vec::new();
    for &kind in GameKind::ALL {
        let named =
            |filter: &String| kind.id().contains(filter.as_str()) || filter.contains(kind.id());
        if !filters.is_empty() && !filters.iter().any(named) {
            continue;
        }
        with_game!(kind, G => {
            bench_game::<G>(&mut criterion);
            figures.push(summary_figures::<G>(benchmarking));
        });
    }
    criterion.final_summary();
    print_summary(&figures, benchmarking);
}

/// Whether the bench runs for real (`cargo bench`) rather than once as a test.
fn is_benchmark_mode() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|arg| arg == "--bench") && !args.iter().any(|arg| arg == "--test")
}

/// The positional arguments, which criterion reads as benchmark name filters; the summary only
/// covers games whose id contains one of them or which one names (`card_chess/apply_and_list`).
fn name_filters() -> Vec<String> {
    let mut filters = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg.starts_with('-') {
            // Criterion's options that take a value; their value is not a filter.
            if matches!(
                arg.as_str(),
                "--save-baseline"
                    | "--baseline"
                    | "--baseline-lenient"
                    | "--load-baseline"
                    | "--profile-time"
                    | "--sample-size"
                    | "--warm-up-time"
                    | "--measurement-time"
                    | "--nresamples"
                    | "--noise-threshold"
                    | "--confidence-level"
                    | "--significance-level"
                    | "--plotting-backend"
                    | "--output-format"
                    | "--color"
                    | "--format"
            ) {
                args.next();
            }
            continue;
        }
        filters.push(arg);
    }
    filters
}

/// The smallest seat count of `G`.
fn seats<G: Game>() -> usize {
    *G::SEATS.start()
}

/// Deals the default game of `G` from `seed`.
fn deal<G: Game>(seed: Seed) -> Table<G> {
    deal_with_events::<G>(seed).0
}

/// Deals the default game of `G` from `seed`, with the setup events.
fn deal_with_events<G: Game>(seed: Seed) -> Dealt<G> {
    Table::new(&G::Config::default(), seats::<G>(), seed)
        .unwrap_or_else(|error| panic!("{}: the default game does not deal: {error}", G::ID))
}

/// Plays the game of `seed` to its end with random legal actions of random seats to act,
/// calling `visit` before each action.
fn play_random<G: Game>(
    seed: u64,
    mut visit: impl FnMut(&Table<G>, Seat, &TableAction<G::Action>),
) -> Finished<G> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut table, mut latest_events) = deal_with_events::<G>(Seed::from_u64(seed));
    let mut plies = 0;
    while !table.is_over() {
        let to_act: Vec<Seat> = table.to_act().iter().collect();
        let seat = *to_act
            .choose(&mut rng)
            .unwrap_or_else(|| panic!("{}: a running game has nobody to act", G::ID));
        let legal = table.legal_actions(seat);
        let action = TableAction::Game(
            legal
                .choose(&mut rng)
                .unwrap_or_else(|| panic!("{}: a seat to act lists no action", G::ID))
                .clone(),
        );
        visit(&table, seat, &action);
        latest_events = table
            .apply(seat, &action)
            .unwrap_or_else(|error| panic!("{}: a listed action failed: {error}", G::ID));
        plies += 1;
    }
    Finished {
        plies,
        table,
        latest_events,
    }
}

/// The postcard size of the random game of `seed` once finished, in the form the server stores
/// a game: (config, seats, seed, action log, table, latest events), as its session record
/// lays them out (the record adds only its format number and the game id).
fn stored_size<G: Game>(seed: u64) -> usize {
    let mut log: Vec<(Seat, TableAction<G::Action>)> = Vec::new();
    let finished = play_random::<G>(seed, |_, seat, action| log.push((seat, action.clone())));
    let record = (
        G::Config::default(),
        seats::<G>() as u32,
        Seed::from_u64(seed),
        log,
        finished.table,
        finished.latest_events,
    );
    postcard::to_allocvec(&record)
        .unwrap_or_else(|error| panic!("{}: a finished game does not serialize: {error}", G::ID))
        .len()
}

/// The p99 and the max of the stored size over the random games of seeds `0..games`.
fn stored_sizes<G: Game>(games: u64) -> (usize, usize) {
    let mut sizes: Vec<usize> = (0..games).map(stored_size::<G>).collect();
    sizes.sort_unstable();
    let p99 = (sizes.len() * 99).div_ceil(100).max(1) - 1;
    (
        sizes.get(p99).copied().unwrap_or(0),
        sizes.last().copied().unwrap_or(0),
    )
}

/// Records the random games of seeds `0..RECORDED_GAMES`.
fn record<G: Game>() -> Vec<Recorded<G>> {
    (0..RECORDED_GAMES)
        .map(|seed| {
            let mut actions = Vec::new();
            let mut positions = Vec::new();
            play_random::<G>(seed, |table, seat, action| {
                actions.push((seat, action.clone()));
                positions.push((table.clone(), seat));
            });
            Recorded {
                seed: Seed::from_u64(seed),
                actions,
                positions,
            }
        })
        .collect()
}

/// Replays every recorded game on its freshly dealt table: each action applied, then the legal
/// actions of every seat to act listed.
fn replay<G: Game>(tables: &mut [Table<G>], games: &[Recorded<G>]) {
    for (table, game) in tables.iter_mut().zip(games) {
        for (seat, action) in &game.actions {
            let events = table
                .apply(*seat, action)
                .unwrap_or_else(|error| panic!("{}: a replayed action failed: {error}", G::ID));
            black_box(events);
            for seat in table.to_act().iter() {
                black_box(table.legal_actions(seat));
            }
        }
    }
}

/// Freshly dealt tables of the recorded games.
fn fresh_tables<G: Game>(games: &[Recorded<G>]) -> Vec<Table<G>> {
    games.iter().map(|game| deal::<G>(game.seed)).collect()
}

/// Observes every recorded position as the seat that acted there.
fn observe_all<G: Game>(games: &[Recorded<G>]) {
    for game in games {
        for (table, seat) in &game.positions {
            black_box(table.observe(Viewer::Seat(*seat)));
        }
    }
}

/// Criterion's benchmarks of `G`.
fn bench_game<G: Game>(criterion: &mut Criterion) {
    let games = record::<G>();
    let plies: usize = games.iter().map(|game| game.actions.len()).sum();
    let mut group = criterion.benchmark_group(G::ID);

    group.throughput(Throughput::Elements(1));
    let mut next_seed = RANDOM_GAME_SEEDS;
    group.bench_function("random_game", |bencher| {
        bencher.iter(|| {
            next_seed += 1;
            play_random::<G>(next_seed, |_, _, _| {})
        })
    });

    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("apply_and_list", |bencher| {
        bencher.iter_batched(
            || fresh_tables(&games),
            |mut tables| {
                replay(&mut tables, &games);
                tables
            },
            BatchSize::LargeInput,
        )
    });

    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("observe", |bencher| bencher.iter(|| observe_all(&games)));
    group.finish();
}

/// Repeats `run` (which reports how many units it did) until `budget` has passed, at least
/// once; returns nanoseconds per unit and units per second.
fn time_per_unit(budget: Duration, mut run: impl FnMut() -> (usize, Duration)) -> (f64, f64) {
    let mut units = 0;
    let mut spent = Duration::ZERO;
    loop {
        let (done, took) = run();
        units += done;
        spent += took;
        if spent >= budget {
            break;
        }
    }
    let seconds = spent.as_secs_f64().max(f64::EPSILON);
    (seconds * 1e9 / units.max(1) as f64, units as f64 / seconds)
}

/// The summary figures of `G`, measured for [`SUMMARY_BUDGET`] each (once in test mode).
fn summary_figures<G: Game>(benchmarking: bool) -> Figures {
    let budget = if benchmarking {
        SUMMARY_BUDGET
    } else {
        Duration::ZERO
    };
    let games = record::<G>();
    let plies: usize = games.iter().map(|game| game.actions.len()).sum();

    let mut seed = RANDOM_GAME_SEEDS;
    let mut random_plies = 0;
    let (_, games_per_second) = time_per_unit(budget, || {
        seed += 1;
        let started = Instant::now();
        random_plies += black_box(play_random::<G>(seed, |_, _, _| {})).plies;
        (1, started.elapsed())
    });
    let random_games = seed - RANDOM_GAME_SEEDS;

    let (ns_per_action, _) = time_per_unit(budget, || {
        let mut tables = fresh_tables(&games);
        let started = Instant::now();
        replay(&mut tables, &games);
        let took = started.elapsed();
        drop(tables);
        (plies, took)
    });

    let (ns_per_observation, _) = time_per_unit(budget, || {
        let started = Instant::now();
        observe_all(&games);
        (plies, started.elapsed())
    });

    let sizes: Vec<usize> = games
        .iter()
        .flat_map(|game| game.positions.iter())
        .map(|(table, _)| {
            postcard::to_allocvec(table)
                .unwrap_or_else(|error| panic!("{}: a table does not serialize: {error}", G::ID))
                .len()
        })
        .collect();
    let (stored_bytes_p99, stored_bytes_max) = stored_sizes::<G>(if benchmarking {
        STORED_GAMES
    } else {
        STORED_GAMES_TEST
    });
    Figures {
        id: G::ID,
        games_per_second,
        plies_per_game: random_plies as f64 / random_games.max(1) as f64,
        ns_per_action,
        ns_per_observation,
        state_bytes_mean: sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64,
        state_bytes_max: sizes.iter().copied().max().unwrap_or(0),
        table_inline_bytes: std::mem::size_of::<Table<G>>(),
        stored_bytes_p99,
        stored_bytes_max,
    }
}

/// Prints the summary table.
fn print_summary(figures: &[Figures], benchmarking: bool) {
    println!();
    println!(
        "Per-game engine figures (one core, default config, smallest seat count{})",
        if benchmarking {
            ""
        } else {
            "; test mode: one run each, not a measurement"
        }
    );
    println!(
        "docs/ARCHITECTURE.md §6 targets: >= 3000 random full games/s per core; <= 1000 ns per chess-variant action"
    );
    println!(
        "{:<16}{:>12}{:>12}{:>12}{:>14}{:>16}{:>15}{:>18}{:>16}{:>16}",
        "game",
        "games/s",
        "plies/game",
        "ns/action",
        "observe ns",
        "state B mean",
        "state B max",
        "Table inline B",
        "stored B p99",
        "stored B max"
    );
    for figure in figures {
        println!(
            "{:<16}{:>12.0}{:>12.1}{:>12.0}{:>14.0}{:>16.0}{:>15}{:>18}{:>16}{:>16}",
            figure.id,
            figure.games_per_second,
            figure.plies_per_game,
            figure.ns_per_action,
            figure.ns_per_observation,
            figure.state_bytes_mean,
            figure.state_bytes_max,
            figure.table_inline_bytes,
            figure.stored_bytes_p99,
            figure.stored_bytes_max
        );
    }
}
