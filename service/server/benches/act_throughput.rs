//! `Act` throughput over the Redis store as a ratio of the in-memory store's, measured side by side
//! in one run (docs/ARCHITECTURE.md §6: the Redis store should reach at least 0.6× the memory
//! store).
//!
//! Each store gets an in-process server on a loopback port, driven through the Rust SDK by
//! [`CONCURRENCY`] clients at once. Every client replays the same fixed game (Pigeon Chess with
//! seed [`SEED`], padded with declined draw offers so that it lasts, up to [`SCRIPT_LEN`]
//! actions), creating a new game whenever it reaches the end of the script; one `CreateGame` per
//! script is the only other call. Each `Act` carries a fresh request id, as the SDK
//! sends it.
//!
//! Criterion measures each store on its own. The ratio is then measured once more with the two
//! stores interleaved ([`COMPARE_ROUNDS`] rounds of [`COMPARE_BATCH`] acts on each, in turn), so
//! that other load on the machine weighs on both alike, and printed as
//! `redis/memory Act throughput ratio = X`.
//!
//! Needs a Redis server at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`).
//! Run with `cargo bench -p deckmate-server --bench act_throughput`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use deckmate::{Client, CreateOptions, Game, pb};
use deckmate_engine::Seed;
use deckmate_server::catalog;
use deckmate_server::config::Config;
use deckmate_server::store::redis::{RedisSettings, RedisStore};
use deckmate_server::store::{MemoryStore, SessionStore};
use tokio::net::TcpListener;
use tokio::runtime::Runtime;
use tokio::sync::oneshot;

#[path = "../tests/shared/padded_step.rs"]
mod padded_step;
use padded_step::padded_step;

/// Clients acting at once.
const CONCURRENCY: usize = 8;
/// The seed of the replayed game.
const SEED: u64 = 2024;
/// The most actions per replayed game (it may end sooner).
const SCRIPT_LEN: usize = 100;
/// Rounds of the interleaved comparison.
const COMPARE_ROUNDS: usize = 8;
/// Acts per store and round of the interleaved comparison.
const COMPARE_BATCH: u64 = 1_000;
/// How long idle benchmark games stay in Redis.
const GAME_TTL: Duration = Duration::from_secs(300);

/// One action of the script: the acting seat and what it sends.
type Step = (usize, pb::Action);

/// Total acts and the time they took, per store, across every sample.
#[derive(Default)]
struct Tally {
    acts: u64,
    elapsed: Duration,
}

impl Tally {
    fn per_second(&self) -> f64 {
        self.acts as f64 / self.elapsed.as_secs_f64()
    }
}

/// A server on one store and the clients that drive it.
struct Target {
    client: Client,
    workers: Vec<Worker>,
    tally: Arc<Mutex<Tally>>,
    stop: Option<oneshot::Sender<()>>,
}

/// One client's place in its current game.
struct Worker {
    game: Option<Game>,
    next: usize,
}

fn pigeon_chess() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(Default::default())),
    }
}

/// The replayed game: a declined draw offer whenever one can be made or answered (this keeps the
/// game going), otherwise the first legal action of the first seat that may act.
fn script() -> Vec<Step> {
    let mut game = catalog::new_game(&pigeon_chess(), 2, Seed::from_u64(SEED)).unwrap();
    let mut steps = Vec::new();
    while steps.len() < SCRIPT_LEN && !game.is_over() {
        let (seat, action) = padded_step(game.as_ref());
        game.act(seat, &action).unwrap();
        steps.push((usize::from(seat.0), action));
    }
    assert!(steps.len() >= 10, "the scripted game ended early");
    steps
}

fn redis_url() -> String {
    std::env::var("DECKMATE_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// Starts a server over `store` on a loopback port, with clients connected to it.
async fn start(store: Arc<dyn SessionStore>) -> Target {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let config = Config {
        allow_client_seed: true,
        game_ttl: GAME_TTL,
        // One client creates every game: the per-caller quotas would measure themselves.
        create_rate: deckmate_server::protection::rate::Rate::Off,
        max_games_per_client: usize::MAX,
        ..Config::default()
    };
    tokio::spawn(deckmate_server::serve_with_store(
        config,
        store,
        listener,
        async {
            let _ = stopped.await;
        },
    ));
    let client = Client::connect(format!("http://{address}")).await.unwrap();
    Target {
        client,
        workers: (0..CONCURRENCY)
            .map(|_| Worker {
                game: None,
                next: 0,
            })
            .collect(),
        tally: Arc::new(Mutex::new(Tally::default())),
        stop: Some(stop),
    }
}

impl Worker {
    /// Sends `acts` actions of the script, creating games as needed.
    async fn act(&mut self, client: &Client, script: &[Step], acts: u64) {
        for _ in 0..acts {
            if self.next == script.len() {
                self.game = None;
            }
            let game = match &mut self.game {
                Some(game) => game,
                None => {
                    self.next = 0;
                    let options = CreateOptions::default().with_seed(SEED);
                    let created = client.create_game(pigeon_chess(), 2, options).await;
                    self.game.insert(created.expect("CreateGame"))
                }
            };
            let (seat, action) = &script[self.next];
            let response = game.seats[*seat].act(action.clone()).await.expect("Act");
            assert_eq!(response.version, self.next as u64 + 1);
            self.next += 1;
        }
    }
}

/// Measures `iterations` acts spread over the target's clients; returns the wall time.
fn measure(runtime: &Runtime, target: &mut Target, script: &[Step], iterations: u64) -> Duration {
    let share = iterations / CONCURRENCY as u64;
    let extra = (iterations % CONCURRENCY as u64) as usize;
    let client = target.client.clone();
    let workers = &mut target.workers;
    let elapsed = runtime.block_on(async {
        let started = Instant::now();
        futures::future::join_all(workers.iter_mut().enumerate().map(|(index, worker)| {
            let acts = share + u64::from(index < extra);
            worker.act(&client, script, acts)
        }))
        .await;
        started.elapsed()
    });
    let mut tally = target.tally.lock().unwrap();
    tally.acts += iterations;
    tally.elapsed += elapsed;
    elapsed
}

/// Acts per second of each store, measured in alternating batches.
fn interleaved(
    runtime: &Runtime,
    memory: &mut Target,
    redis: &mut Target,
    script: &[Step],
) -> (f64, f64) {
    let (mut memory_time, mut redis_time) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..COMPARE_ROUNDS {
        memory_time += measure(runtime, memory, script, COMPARE_BATCH);
        redis_time += measure(runtime, redis, script, COMPARE_BATCH);
    }
    let acts = (COMPARE_ROUNDS as u64 * COMPARE_BATCH) as f64;
    (
        acts / memory_time.as_secs_f64(),
        acts / redis_time.as_secs_f64(),
    )
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let script = script();
    let mut memory = runtime.block_on(start(Arc::new(MemoryStore::new(GAME_TTL, 1_000_000))));
    let mut redis = runtime.block_on(async {
        let settings = RedisSettings {
            ttl: GAME_TTL,
            max_games: 1_000_000,
            namespace: format!("deckmate-bench-{}", std::process::id()),
            ..RedisSettings::new(redis_url())
        };
        let store = RedisStore::open(settings).expect("a Redis URL");
        assert!(
            store.health().await,
            "no Redis answers at {} (set DECKMATE_TEST_REDIS_URL)",
            redis_url()
        );
        start(Arc::new(store)).await
    });

    let mut criterion = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8))
        .configure_from_args();
    {
        let mut group = criterion.benchmark_group("act_throughput");
        group.throughput(Throughput::Elements(1));
        group.bench_function("memory", |bencher| {
            bencher.iter_custom(|iterations| measure(&runtime, &mut memory, &script, iterations))
        });
        group.bench_function("redis", |bencher| {
            bencher.iter_custom(|iterations| measure(&runtime, &mut redis, &script, iterations))
        });
        group.finish();
    }
    criterion.final_summary();

    let memory_alone = memory.tally.lock().unwrap().per_second();
    let redis_alone = redis.tally.lock().unwrap().per_second();
    if memory_alone.is_finite() && redis_alone.is_finite() && memory_alone > 0.0 {
        println!(
            "measured apart: memory store {memory_alone:.0} acts/s, redis store {redis_alone:.0} \
             acts/s ({CONCURRENCY} clients)"
        );
        let (memory_rate, redis_rate) = interleaved(&runtime, &mut memory, &mut redis, &script);
        println!(
            "measured interleaved: memory store {memory_rate:.0} acts/s, redis store \
             {redis_rate:.0} acts/s"
        );
        println!(
            "redis/memory Act throughput ratio = {:.2}",
            redis_rate / memory_rate
        );
    }
    for target in [&mut memory, &mut redis] {
        if let Some(stop) = target.stop.take() {
            let _ = stop.send(());
        }
    }
}
