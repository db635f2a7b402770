//! Perft from the start position, side by side with the established `chess` crate.
//!
//! Criterion measures both; afterwards the two are timed again in alternating rounds and the
//! ratio of the best rounds is printed as `perft(5) ratio ours/chess = X` (the design target is
//! at most 2).

use criterion::{BenchmarkId, Criterion};
use deckmate_engine::chess::{Position, Rules, perft};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The depth compared.
const DEPTH: u32 = 5;
/// The published perft(5) of the start position; both generators must reach it.
const NODES: u64 = 4_865_609;
/// Alternating timing rounds for the printed ratio.
const ROUNDS: usize = 10;

fn ours() -> u64 {
    perft(&Position::startpos(), &Rules::standard(), black_box(DEPTH))
}

fn reference() -> u64 {
    chess::MoveGen::movegen_perft_test(&chess::Board::default(), black_box(DEPTH as usize)) as u64
}

fn perft_side_by_side(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_startpos");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    group.bench_with_input(BenchmarkId::new("deckmate", DEPTH), &DEPTH, |b, _| {
        b.iter(ours)
    });
    group.bench_with_input(BenchmarkId::new("chess", DEPTH), &DEPTH, |b, _| {
        b.iter(reference)
    });
    group.finish();
}

/// The fastest of `ROUNDS` runs of `run`, checking the node count every time.
fn best_time(run: fn() -> u64, best: &mut Duration) {
    let start = Instant::now();
    let nodes = run();
    let elapsed = start.elapsed();
    assert_eq!(nodes, NODES, "perft({DEPTH}) node count");
    *best = (*best).min(elapsed);
}

fn print_ratio() {
    let (mut best_ours, mut best_reference) = (Duration::MAX, Duration::MAX);
    for _ in 0..ROUNDS {
        best_time(ours, &mut best_ours);
        best_time(reference, &mut best_reference);
    }
    let ratio = best_ours.as_secs_f64() / best_reference.as_secs_f64();
    println!(
        "perft({DEPTH}) best of {ROUNDS}: deckmate {:.1} ms, chess {:.1} ms",
        best_ours.as_secs_f64() * 1e3,
        best_reference.as_secs_f64() * 1e3
    );
    println!("perft({DEPTH}) ratio ours/chess = {ratio:.2}");
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    perft_side_by_side(&mut criterion);
    criterion.final_summary();
    print_ratio();
}
