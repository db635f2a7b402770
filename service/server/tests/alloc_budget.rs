//! Allocation budget of the Act and Observe handlers: the mean number of heap allocations, and
//! of bytes requested, per call must stay within the bounds in `alloc_budget.toml`, per game
//! kind and per call kind. A change that adds allocations to the hot path fails here with the
//! measured figure next to its bound.
//!
//! The process runs under `dhat`'s counting allocator, which counts every allocation of the
//! process (a reallocation counts as one, of its new size). The calls run on a current-thread
//! runtime, one at a time, in the only test of this binary: no other thread allocates while a
//! call is measured, so background tasks do not disturb the figures and the same build counts
//! the same every run.
//!
//! For every game the server hosts (taken from `ListVariants`), games are created with fixed
//! seeds through the in-process `GameService` over a `MemoryStore` (the handlers the network
//! reaches, minus the transport's decoding and encoding), warmed up with a few random legal
//! actions, and then played on with random legal actions. Each `Observe` a player makes to
//! choose its action, and each `Act`, is measured on its own, as the server answers them
//! (`GameApi::observe_encoded`, `GameApi::act_encoded`: the answer's bytes, which clients decode
//! themselves, so their decoding is not counted); a game that
//! ends is replaced by a new one. Logging is set up as the server sets it up by default (text
//! lines at the `info` level), so span fields cost what they cost in production.
//!
//! `DECKMATE_ALLOC_REPORT=1 cargo test -p deckmate-server --test alloc_budget -- --nocapture`
//! prints the measured table and bounds with headroom, ready for the toml file.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_server::GameService;
use deckmate_server::Config;
use deckmate_server::api::{ApiSettings, GameApi};
use deckmate_server::shutdown::Shutdown;
use deckmate_server::store::MemoryStore;
use tonic::Request;

#[path = "shared/in_process.rs"]
mod in_process;
use in_process::{Created, Picker, as_seat, create};

/// The bounds, per game kind.
const BOUNDS: &str = include_str!("alloc_budget.toml");
/// Measured Acts (and the Observes before them) per game kind.
const CALLS: usize = 64;
/// Random actions played in each new game before measuring, so that the measured calls see a
/// game in progress and every lazily built part (tracing call sites, codecs) exists.
const WARM_UP_ACTIONS: usize = 6;
/// Headroom the printed bounds add to the measured figures.
const HEADROOM: f64 = 1.25;

#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// Allocations and bytes of a number of calls.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    calls: u64,
    allocations: u64,
    bytes: u64,
}

impl Tally {
    fn mean_allocations(&self) -> f64 {
        self.allocations as f64 / self.calls as f64
    }

    fn mean_bytes(&self) -> f64 {
        self.bytes as f64 / self.calls as f64
    }
}

/// Runs `call`, adding its allocations to `tally`.
async fn measured<T>(tally: &mut Tally, call: impl Future<Output = T>) -> T {
    let before = dhat::HeapStats::get();
    let answer = call.await;
    let after = dhat::HeapStats::get();
    tally.calls += 1;
    tally.allocations += after.total_blocks - before.total_blocks;
    tally.bytes += after.total_bytes - before.total_bytes;
    answer
}

/// The figures of one game kind.
#[derive(Debug, Default)]
struct Figures {
    act: Tally,
    observe: Tally,
}

/// One bound of `alloc_budget.toml`: per call, at most.
#[derive(Clone, Copy, Debug, Default)]
struct Bound {
    allocations: Option<u64>,
    bytes: Option<u64>,
}

/// The bounds of one game kind.
#[derive(Debug, Default)]
struct Bounds {
    act: Bound,
    observe: Bound,
}

/// Reads `alloc_budget.toml`: a `[game_id]` table per game kind holding integer keys
/// `act_allocations`, `act_bytes`, `observe_allocations` and `observe_bytes`; comments and blank
/// lines are skipped. Anything else is a mistake in the file.
fn parse_bounds(text: &str) -> BTreeMap<String, Bounds> {
    let mut bounds = BTreeMap::<String, Bounds>::new();
    let mut current: Option<String> = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let name = name.trim().to_string();
            assert!(
                !bounds.contains_key(&name),
                "alloc_budget.toml line {}: [{name}] twice",
                number + 1
            );
            bounds.insert(name.clone(), Bounds::default());
            current = Some(name);
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("alloc_budget.toml line {}: not `key = value`", number + 1));
        let value: u64 = value.trim().replace('_', "").parse().unwrap_or_else(|_| {
            panic!(
                "alloc_budget.toml line {}: not a whole number: {value}",
                number + 1
            )
        });
        let table = current.as_ref().unwrap_or_else(|| {
            panic!("alloc_budget.toml line {}: key outside a table", number + 1)
        });
        let entry = bounds.get_mut(table).expect("the current table exists");
        let slot = match key.trim() {
            "act_allocations" => &mut entry.act.allocations,
            "act_bytes" => &mut entry.act.bytes,
            "observe_allocations" => &mut entry.observe.allocations,
            "observe_bytes" => &mut entry.observe.bytes,
            other => panic!("alloc_budget.toml line {}: unknown key {other}", number + 1),
        };
        *slot = Some(value);
    }
    bounds
}

/// The game as seat `seat` sees it, adding the call to `tally`.
async fn observe(
    api: &GameApi,
    game: &Created,
    seat: usize,
    tally: &mut Tally,
) -> pb::ObserveResponse {
    let request = as_seat(
        game,
        seat,
        pb::ObserveRequest {
            game_id: game.id.clone(),
        },
    );
    measured(tally, api.observe_encoded(request))
        .await
        .expect("Observe")
        .into_inner()
        .decode()
        .expect("an Observe answer decodes")
}

/// Plays one random legal action, measuring its Observes and its Act into `figures`; `false`
/// when the game has finished and nothing was played.
async fn play_one(
    api: &GameApi,
    game: &Created,
    picker: &mut Picker,
    figures: &mut Figures,
) -> bool {
    let mut view = observe(api, game, 0, &mut figures.observe).await;
    if view.status() == pb::GameStatus::Finished {
        return false;
    }
    let mut seat = 0;
    if view.legal_actions.is_empty() {
        seat = view.to_act[picker.index(view.to_act.len())] as usize;
        view = observe(api, game, seat, &mut figures.observe).await;
    }
    let action = view.legal_actions[picker.index(view.legal_actions.len())].clone();
    let request = as_seat(
        game,
        seat,
        pb::ActRequest {
            game_id: game.id.clone(),
            action: Some(action),
            expected_version: Some(view.version),
            request_id: String::new(),
        },
    );
    let response = measured(&mut figures.act, api.act_encoded(request))
        .await
        .expect("a listed action applies");
    drop(response);
    true
}

/// Creates a game with `seed` and plays the warm-up actions (not measured); `None` if the game
/// ended during them.
async fn warmed_up(
    api: &GameApi,
    config: &pb::GameConfig,
    seed: u64,
    picker: &mut Picker,
) -> Option<Created> {
    let game = create(api, config, 0, seed).await;
    let mut ignored = Figures::default();
    for _ in 0..WARM_UP_ACTIONS {
        if !play_one(api, &game, picker, &mut ignored).await {
            return None;
        }
    }
    Some(game)
}

/// Measures [`CALLS`] Acts of one game kind, and the Observes before them.
async fn measure_kind(api: &GameApi, config: &pb::GameConfig) -> Figures {
    let mut picker = Picker(0x5EED);
    let mut figures = Figures::default();
    let mut seed = 1;
    let mut game = None;
    while figures.act.calls < CALLS as u64 {
        let Some(playing) = &game else {
            game = warmed_up(api, config, seed, &mut picker).await;
            seed += 1;
            assert!(seed < 1000, "every game ends during its warm-up");
            continue;
        };
        if !play_one(api, playing, &mut picker, &mut figures).await {
            game = None;
        }
    }
    figures
}

/// The logging the server sets up by default: text lines at `info`, here written nowhere.
fn server_logging() -> impl tracing::Subscriber + Send + Sync {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
        .with_ansi(false)
        .with_writer(std::io::sink)
        .finish()
}

/// Every game kind's figures, in `ListVariants` order.
fn measure_every_kind() -> Vec<(String, Figures)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let store = MemoryStore::new(Duration::from_secs(60 * 60), 1 << 16);
        let mut settings = ApiSettings::from_config(&Config::default());
        settings.allow_client_seed = true;
        let api = GameApi::new(Arc::new(store), settings, Shutdown::new());
        let variants = api
            .list_variants(Request::new(pb::ListVariantsRequest {}))
            .await
            .expect("ListVariants")
            .into_inner()
            .variants;
        let mut every = Vec::new();
        for variant in variants {
            let config = variant.default_config.clone().expect("a default config");
            every.push((variant.id, measure_kind(&api, &config).await));
        }
        every
    })
}

/// `value` with the headroom, rounded up to two significant digits.
fn with_headroom(value: f64) -> u64 {
    let raised = (value * HEADROOM).ceil().max(1.0) as u64;
    let digits = raised.ilog10();
    let step = if digits >= 2 {
        10u64.pow(digits - 1)
    } else {
        1
    };
    raised.div_ceil(step) * step
}

fn print_report(every: &[(String, Figures)]) {
    println!("Mean heap allocations and requested bytes per call (alloc_budget.rs)");
    println!(
        "{:<16}{:>12}{:>12}{:>16}{:>16}",
        "game", "act allocs", "act bytes", "observe allocs", "observe bytes"
    );
    for (id, figures) in every {
        println!(
            "{:<16}{:>12.1}{:>12.0}{:>16.1}{:>16.0}",
            id,
            figures.act.mean_allocations(),
            figures.act.mean_bytes(),
            figures.observe.mean_allocations(),
            figures.observe.mean_bytes()
        );
    }
    println!("\nBounds with {HEADROOM}x headroom, for alloc_budget.toml:");
    for (id, figures) in every {
        println!("\n[{id}]");
        println!(
            "act_allocations = {}",
            with_headroom(figures.act.mean_allocations())
        );
        println!("act_bytes = {}", with_headroom(figures.act.mean_bytes()));
        println!(
            "observe_allocations = {}",
            with_headroom(figures.observe.mean_allocations())
        );
        println!(
            "observe_bytes = {}",
            with_headroom(figures.observe.mean_bytes())
        );
    }
}

/// The lines of every figure above its bound (or without one).
fn over_budget(id: &str, call: &str, tally: &Tally, bound: Bound) -> Vec<String> {
    let mut failures = Vec::new();
    let checks = [
        ("allocations", tally.mean_allocations(), bound.allocations),
        ("bytes", tally.mean_bytes(), bound.bytes),
    ];
    for (what, measured, bound) in checks {
        match bound {
            None => failures.push(format!(
                "{id} {call}: no {call}_{what} bound in alloc_budget.toml (measured {measured:.1})"
            )),
            Some(bound) if measured > bound as f64 => failures.push(format!(
                "{id} {call}: {measured:.1} {what} per call, bound {bound}"
            )),
            Some(_) => {}
        }
    }
    failures
}

#[test]
fn act_and_observe_stay_within_their_allocation_budget() {
    let _profiler = dhat::Profiler::builder().testing().build();
    counter_counts_what_it_should();
    tracing::subscriber::set_global_default(server_logging()).expect("the only subscriber");
    let bounds = parse_bounds(BOUNDS);
    let every = measure_every_kind();
    if std::env::var_os("DECKMATE_ALLOC_REPORT").is_some() {
        print_report(&every);
    }
    let mut failures = Vec::new();
    for (id, figures) in &every {
        assert_eq!(figures.act.calls, CALLS as u64, "{id}: every Act measured");
        let Some(bound) = bounds.get(id) else {
            failures.push(format!("{id}: no [{id}] table in alloc_budget.toml"));
            continue;
        };
        failures.extend(over_budget(id, "act", &figures.act, bound.act));
        failures.extend(over_budget(id, "observe", &figures.observe, bound.observe));
    }
    for id in bounds.keys() {
        if !every.iter().any(|(measured, _)| measured == id) {
            failures.push(format!(
                "[{id}] in alloc_budget.toml is not a game the server hosts"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "allocation budget exceeded (measured mean per call vs bound; re-measure with \
         DECKMATE_ALLOC_REPORT=1 cargo test -p deckmate-server --test alloc_budget -- \
         --nocapture):\n  {}",
        failures.join("\n  ")
    );
}

/// The counting itself: one allocation of 100 bytes measures as exactly that.
fn counter_counts_what_it_should() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let mut tally = Tally::default();
    let kept = runtime.block_on(measured(&mut tally, async {
        std::hint::black_box(vec![7u8; 100])
    }));
    assert_eq!(kept.len(), 100);
    assert_eq!((tally.calls, tally.allocations, tally.bytes), (1, 1, 100));
}
