//! Whether the server's cost per call grows with a game's length (docs/PERFORMANCE.md, "Cost
//! independent of game length"): server CPU per `Act`, per idempotent replay and per view of a
//! `Watch` catch-up, early in a long game and late in it, on the memory store and on Redis, in
//! one run. The figure of merit is the ratio late ÷ early of each (target ≤ 1.2).
//!
//! The game is a Raindropchess game with its caps raised ten-fold (no-progress and ply caps,
//! repetition off), played at random from a fixed seed and recorded once it is at least
//! [`LATE`] + [`MEASURED_ACTS`] plies long. For each store and each starting point ([`EARLY`] and [`LATE`]
//! plies), a fresh game with the same seed is brought to the starting point (not measured), then:
//!
//! * **act**: the next [`MEASURED_ACTS`] recorded actions, each with a request id;
//! * **replay**: each of the last [`REPLAYED`] of those requests sent again (answered from the
//!   game's log at the version it produced, not applied);
//! * **catch-up**: `Watch` from [`CATCH_UP`] versions back, every view read.
//!
//! CPU is the calling thread's (`CLOCK_THREAD_CPUTIME_ID`, through `cpu-time`): the handlers run on a
//! current-thread runtime, so it holds everything the server does for the call, the Redis
//! client included, and nothing else on the machine. The Redis server's own CPU is not in it.
//!
//! Needs a Redis server at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`); without
//! one only the memory store is measured. Run with
//! `cargo bench -p deckmate-server --bench game_length`; under `cargo test --benches` every part
//! runs on a short game once, as a smoke test.

use std::sync::Arc;
use std::time::Duration;

use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_server::GameService;
use deckmate_server::api::{ApiSettings, GameApi};
use deckmate_server::config::Config;
use deckmate_server::shutdown::Shutdown;
use deckmate_server::store::redis::{RedisSettings, RedisStore};
use deckmate_server::store::{MemoryStore, SessionStore};
use futures::StreamExt;

#[path = "../tests/shared/in_process.rs"]
mod in_process;
use in_process::{Created, Picker, as_seat, create};

/// The early starting point (plies).
const EARLY: usize = 10;
/// The late starting point (plies).
const LATE: usize = 500;
/// Actions measured from each starting point.
const MEASURED_ACTS: usize = 200;
/// Requests replayed from each starting point (within the store's request window).
const REPLAYED: usize = 50;
/// How many versions back each `Watch` catch-up starts.
const CATCH_UP: u64 = 100;
/// How often each measurement is repeated (on fresh games, early and late alternating); the
/// median is reported.
const REPEATS: usize = 5;
/// How long benchmark games stay in Redis.
const GAME_TTL: Duration = Duration::from_secs(300);

fn main() {
    let smoke = !std::env::args().any(|arg| arg == "--bench");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(run(smoke));
}

/// One recorded action: the acting seat and what it sent.
type Step = (usize, pb::Action);

async fn run(smoke: bool) {
    let (early, late, repeats) = if smoke {
        (2, 70, 1)
    } else {
        (EARLY, LATE, REPEATS)
    };
    let acts = if smoke { 10 } else { MEASURED_ACTS };
    let memory: Arc<dyn SessionStore> = Arc::new(MemoryStore::new(GAME_TTL, 100_000));
    let mut stores = vec![("memory", memory)];
    match redis_store().await {
        Some(redis) => stores.push(("redis", redis)),
        None => println!(
            "no Redis answers at {}: measuring the memory store only",
            redis_url()
        ),
    }
    let (seed, script) = record_long_game(&api_over(stores[0].1.clone()), late + acts).await;
    println!(
        "raindrop_chess, seed {seed}, caps raised ten-fold: a recorded game of {} plies",
        script.len()
    );
    println!(
        "{:<8} {:<9} {:>12} {:>12} {:>8}",
        "store", "measure", "early µs", "late µs", "late/early"
    );
    for (name, store) in stores {
        let api = api_over(store);
        // One unmeasured round warms every lazily built part up (scripts, connections, codecs);
        // then early and late alternate, so that the machine's load weighs on both alike.
        measure(&api, seed, &script, early, acts).await;
        let (mut early_samples, mut late_samples) = (Vec::new(), Vec::new());
        for _ in 0..repeats {
            early_samples.push(measure(&api, seed, &script, early, acts).await);
            late_samples.push(measure(&api, seed, &script, late, acts).await);
        }
        let figures = [
            Figures::median(&early_samples),
            Figures::median(&late_samples),
        ];
        for (measure, pick) in [
            ("act", (|f: &Figures| f.act) as fn(&Figures) -> f64),
            ("replay", |f: &Figures| f.replay),
            ("catch-up", |f: &Figures| f.catch_up),
        ] {
            let (early, late) = (pick(&figures[0]), pick(&figures[1]));
            println!(
                "{name:<8} {measure:<9} {early:>12.1} {late:>12.1} {:>8.2}",
                late / early
            );
        }
    }
}

/// CPU µs per call of each measure, from one starting point.
#[derive(Clone, Copy, Debug)]
struct Figures {
    act: f64,
    replay: f64,
    catch_up: f64,
}

impl Figures {
    fn median(samples: &[Figures]) -> Figures {
        let median = |pick: fn(&Figures) -> f64| {
            let mut values: Vec<f64> = samples.iter().map(pick).collect();
            values.sort_by(f64::total_cmp);
            values[values.len() / 2]
        };
        Figures {
            act: median(|f| f.act),
            replay: median(|f| f.replay),
            catch_up: median(|f| f.catch_up),
        }
    }
}

/// A fresh game of `seed` brought to `start` plies, then `acts` actions, replays and a catch-up
/// measured.
async fn measure(api: &GameApi, seed: u64, script: &[Step], start: usize, acts: usize) -> Figures {
    let game = create(api, &long_config(), 2, seed).await;
    for (index, (seat, action)) in script[..start].iter().enumerate() {
        act(api, &game, *seat, action, index).await;
    }
    let began = thread_cpu();
    for (index, (seat, action)) in script[start..start + acts].iter().enumerate() {
        act(api, &game, *seat, action, start + index).await;
    }
    let act_us = (thread_cpu() - began) / acts as f64;

    let replayed = REPLAYED.min(acts);
    let began = thread_cpu();
    let first = start + acts - replayed;
    for (offset, (seat, action)) in script[first..start + acts].iter().enumerate() {
        act(api, &game, *seat, action, first + offset).await;
    }
    let replay_us = (thread_cpu() - began) / replayed as f64;

    let current = (start + acts) as u64;
    let from = current.saturating_sub(CATCH_UP);
    let began = thread_cpu();
    let mut stream = api
        .watch(as_seat(
            &game,
            0,
            pb::WatchRequest {
                game_id: game.id.clone(),
                from_version: from,
            },
        ))
        .await
        .expect("Watch")
        .into_inner();
    let mut seen = 0;
    while seen < current - from {
        let view = stream.next().await.expect("a view").expect("no error");
        seen += 1;
        assert_eq!(view.version, from + seen);
    }
    let catch_up_us = (thread_cpu() - began) / seen as f64;
    drop(stream);
    Figures {
        act: act_us,
        replay: replay_us,
        catch_up: catch_up_us,
    }
}

/// Plays random games from successive seeds until one lasts `plies` plies, and returns its seed
/// and the actions of its first `plies` plies.
async fn record_long_game(api: &GameApi, plies: usize) -> (u64, Vec<Step>) {
    let mut picker = Picker(0x1E46_7415);
    for seed in 1..=200 {
        let game = create(api, &long_config(), 2, seed).await;
        let mut script = Vec::new();
        while script.len() < plies {
            let mut able = Vec::new();
            for seat in 0..2 {
                let view = observe(api, &game, seat).await;
                if !view.legal_actions.is_empty() {
                    able.push((seat, view.legal_actions));
                }
            }
            if able.is_empty() {
                break;
            }
            let (seat, legal) = &able[picker.index(able.len())];
            let action = legal[picker.index(legal.len())].clone();
            act(api, &game, *seat, &action, script.len()).await;
            script.push((*seat, action));
        }
        if script.len() >= plies {
            return (seed, script);
        }
    }
    panic!("no random game of the first 200 seeds lasted {plies} plies");
}

/// Raindropchess with its caps raised ten-fold and repetition draws off, so that random play
/// lasts.
fn long_config() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::RaindropChess(
            pb::RaindropChessConfig {
                no_progress_plies: Some(1_500),
                repetitions: Some(0),
                max_plies: Some(10_000),
                ..Default::default()
            },
        )),
    }
}

/// Sends `action` for `seat` with request id `act-<index>`.
async fn act(api: &GameApi, game: &Created, seat: usize, action: &pb::Action, index: usize) {
    let request = as_seat(
        game,
        seat,
        pb::ActRequest {
            game_id: game.id.clone(),
            action: Some(action.clone()),
            expected_version: None,
            request_id: format!("act-{index}"),
        },
    );
    // As the server answers: the bytes, which a client decodes on its side.
    api.act_encoded(request).await.expect("Act");
}

async fn observe(api: &GameApi, game: &Created, seat: usize) -> pb::ObserveResponse {
    let request = as_seat(
        game,
        seat,
        pb::ObserveRequest {
            game_id: game.id.clone(),
        },
    );
    api.observe(request).await.expect("Observe").into_inner()
}

fn api_over(store: Arc<dyn SessionStore>) -> GameApi {
    let config = Config {
        allow_client_seed: true,
        ..Config::default()
    };
    GameApi::new(store, ApiSettings::from_config(&config), Shutdown::new())
}

fn redis_url() -> String {
    std::env::var("DECKMATE_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// The Redis store in a namespace of this run's own, if Redis answers.
async fn redis_store() -> Option<Arc<dyn SessionStore>> {
    let namespace = format!("deckmate-bench-{}", std::process::id());
    let store = RedisStore::open(RedisSettings {
        ttl: GAME_TTL,
        namespace,
        ..RedisSettings::new(redis_url())
    })
    .ok()?;
    store
        .health()
        .await
        .then(|| Arc::new(store) as Arc<dyn SessionStore>)
}

/// The calling thread's CPU time so far, in µs.
fn thread_cpu() -> f64 {
    cpu_time::ThreadTime::now().as_duration().as_secs_f64() * 1e6
}
