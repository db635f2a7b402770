//! Memory per live game in the in-memory store at scale (docs/ARCHITECTURE.md §6 target: at most
//! 8 KiB per game), as heap and as resident memory, for every game the server hosts (taken from
//! `ListVariants`, so new games are measured without changing this file).
//!
//! Each game kind is measured in a process of its own (this binary started again with
//! `--variant <id>`), over a fresh `MemoryStore` behind the in-process `GameService` (the same
//! handlers the network reaches), so that memory freed by one kind is not reused, unseen, by the
//! next:
//!
//! * **RSS**: the resident set size (`VmRSS` of `/proc/self/status`) is read before [`GAMES`]
//!   games are created and again after [`MID_GAME_ACTIONS`] random legal actions in each of them
//!   (fewer if a game ends first), every game alive. Its growth per game includes the
//!   allocator's rounding, headers and fragmentation. No heap profiler runs meanwhile: `dhat`
//!   keeps a record per live block (some 40 B each) that would inflate it.
//! * **heap**: then, with those games still alive, `dhat`'s heap profiler starts and counts the
//!   live heap (requested bytes) before and after a sample of [`HEAP_GAMES`] further games is
//!   created (**new**) and after the same number of actions in each (**mid-game**), and before
//!   and after a smaller sample of [`FINISHED_GAMES`] games is created and played to its end
//!   (**finished**: finished games stay in the store until their TTL). The profiler records a
//!   backtrace per allocation, which makes every call some 40 times slower: hence the samples.
//!
//! The ids and tokens the bench keeps to play the games are subtracted from both (as requested
//! bytes: their allocator headers, under 32 B a game, stay in the RSS figure). Games are created
//! without a request id, so the short-lived idempotency entries of `CreateGame` are not counted.
//!
//! `cargo bench -p deckmate-server --bench memory_per_game` prints the table; under
//! `cargo test --benches` it runs with a few dozen games as a smoke test.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_server::GameService;
use deckmate_server::Config;
use deckmate_server::api::{ApiSettings, GameApi};
use deckmate_server::shutdown::Shutdown;
use deckmate_server::store::MemoryStore;
use tonic::Request;
use tonic::metadata::MetadataValue;

#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// Live games per kind when benchmarking (the RSS figure).
const GAMES: usize = 20_000;
/// Live games per kind in test mode.
const TEST_GAMES: usize = 64;
/// Further live games per kind whose heap is counted when benchmarking.
const HEAP_GAMES: usize = 1_000;
/// Further live games per kind whose heap is counted in test mode.
const TEST_HEAP_GAMES: usize = 8;
/// Games played to their end per kind when benchmarking (a sample: long games take many actions).
const FINISHED_GAMES: usize = 200;
/// Games played to their end per kind in test mode.
const TEST_FINISHED_GAMES: usize = 2;
/// Whole games played before measuring, to build every lazily built part.
const WARM_UP_GAMES: usize = 4;
/// Actions played in each game for the mid-game figures.
const MID_GAME_ACTIONS: usize = 20;
/// The design's target, in bytes.
const TARGET_BYTES: f64 = 8.0 * 1024.0;
/// The argument that makes this binary measure one game kind.
const VARIANT_ARG: &str = "--variant";

/// Sizes of one run.
#[derive(Clone, Copy)]
struct Scale {
    /// Live games per kind.
    games: usize,
    /// Further live games per kind whose heap is counted.
    heap_games: usize,
    /// Games played to their end per kind.
    finished_games: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let benchmarking = args.iter().any(|arg| arg == "--bench");
    let scale = if benchmarking {
        Scale {
            games: GAMES,
            heap_games: HEAP_GAMES,
            finished_games: FINISHED_GAMES,
        }
    } else {
        Scale {
            games: TEST_GAMES,
            heap_games: TEST_HEAP_GAMES,
            finished_games: TEST_FINISHED_GAMES,
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match args.iter().position(|arg| arg == VARIANT_ARG) {
        Some(at) => {
            let variant = args.get(at + 1).expect("a variant id after --variant");
            let figures = runtime.block_on(measure(variant, scale));
            print_row(&figures);
        }
        None => {
            print_header(benchmarking, scale);
            for variant in runtime.block_on(variant_ids()) {
                measure_in_own_process(&variant, benchmarking);
            }
        }
    }
}

/// A server API over a memory store holding at most `max_games`.
fn api(max_games: usize) -> GameApi {
    let store = MemoryStore::new(Duration::from_secs(24 * 60 * 60), max_games);
    GameApi::new(
        Arc::new(store),
        ApiSettings::from_config(&Config::default()),
        Shutdown::new(),
    )
}

/// The ids of every game kind the server hosts.
async fn variant_ids() -> Vec<String> {
    api(1)
        .list_variants(Request::new(pb::ListVariantsRequest {}))
        .await
        .expect("ListVariants")
        .into_inner()
        .variants
        .into_iter()
        .map(|variant| variant.id)
        .collect()
}

/// Runs this binary again to measure `variant`; its table row goes straight to standard output.
fn measure_in_own_process(variant: &str, benchmarking: bool) {
    let executable = std::env::current_exe().expect("the bench's own executable");
    let mut command = Command::new(executable);
    command.args([VARIANT_ARG, variant]);
    if benchmarking {
        command.arg("--bench");
    }
    let status = command
        .stdin(Stdio::null())
        .status()
        .expect("the measuring process starts");
    assert!(status.success(), "measuring {variant} failed: {status}");
}

/// An API over a fresh store large enough for `scale`, the default config of `variant`, and a
/// random source, after the warm-up games.
async fn warmed_up(variant: &str, scale: Scale) -> (GameApi, pb::GameConfig, Picker) {
    // Well above every game the process creates, so no create is refused or evicts another.
    let api = api(2 * (scale.games + scale.heap_games + scale.finished_games + WARM_UP_GAMES));
    let config = api
        .list_variants(Request::new(pb::ListVariantsRequest {}))
        .await
        .expect("ListVariants")
        .into_inner()
        .variants
        .into_iter()
        .find(|listed| listed.id == variant)
        .unwrap_or_else(|| panic!("the server hosts {variant}"))
        .default_config
        .expect("a default config");
    let mut picker = Picker(0x5EED);
    // Builds every lazily built part (codecs, tracing call sites, store shards); these games stay
    // in the store below the measured baseline.
    for _ in 0..WARM_UP_GAMES {
        let game = create(&api, &config).await;
        play(&api, &game, usize::MAX, &mut picker).await;
    }
    (api, config, picker)
}

/// The live heap: requested bytes and blocks.
fn heap() -> (usize, usize) {
    let stats = dhat::HeapStats::get();
    (stats.curr_bytes, stats.curr_blocks)
}

/// The resident set size in bytes (`VmRSS`), where `/proc` offers it.
fn resident_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: usize = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Fills every slot of `list` (from [`empty_list`]) with a new game of `config`.
async fn create_into(api: &GameApi, config: &pb::GameConfig, list: &mut [Created]) {
    for slot in list {
        *slot = create(api, config).await;
    }
}

/// A list of `count` empty slots for games, so that the list's own heap and pages predate a
/// baseline taken after it; each game's id and tokens are subtracted apart.
fn empty_list(count: usize) -> Vec<Created> {
    (0..count).map(|_| Created::default()).collect()
}

/// Measures every figure of `variant` in this process.
async fn measure(variant: &str, scale: Scale) -> Figures {
    let (api, config, mut picker) = warmed_up(variant, scale).await;

    let mut live = empty_list(scale.games);
    let resident_before = resident_bytes();
    create_into(&api, &config, &mut live).await;
    for game in &live {
        play(&api, game, MID_GAME_ACTIONS, &mut picker).await;
    }
    let (live_own, _) = Created::heap(&live);
    let mid_resident = resident_before
        .zip(resident_bytes())
        .map(|(before, after)| {
            (after as f64 - before as f64 - live_own as f64) / scale.games as f64
        });

    // Counts only blocks allocated from here on: the games above stay alive, uncounted.
    let _profiler = dhat::Profiler::builder()
        .testing()
        .trim_backtraces(Some(4))
        .build();
    let mut sample = empty_list(scale.heap_games);
    let (base_bytes, base_blocks) = heap();
    create_into(&api, &config, &mut sample).await;
    let (own_bytes, own_blocks) = Created::heap(&sample);
    let (new_bytes, new_blocks) = heap();
    let mut mid_actions = 0;
    for game in &sample {
        mid_actions += play(&api, game, MID_GAME_ACTIONS, &mut picker).await;
    }
    let (mid_bytes, _) = heap();
    let per_game = |now: usize, base: usize, own: usize| {
        (now as f64 - base as f64 - own as f64) / scale.heap_games as f64
    };

    let mut finished = empty_list(scale.finished_games);
    let (finished_base, _) = heap();
    let mut finished_actions = 0;
    for slot in &mut finished {
        *slot = create(&api, &config).await;
        finished_actions += play(&api, slot, usize::MAX, &mut picker).await;
    }
    let (finished_own, _) = Created::heap(&finished);
    let (finished_now, _) = heap();
    let per_finished = |value: f64| value / scale.finished_games as f64;
    Figures {
        id: variant.to_owned(),
        scale,
        new_bytes: per_game(new_bytes, base_bytes, own_bytes),
        new_blocks: per_game(new_blocks, base_blocks, own_blocks),
        mid_bytes: per_game(mid_bytes, base_bytes, own_bytes),
        mid_actions: mid_actions as f64 / scale.heap_games as f64,
        mid_resident,
        finished_bytes: per_finished(
            finished_now as f64 - finished_base as f64 - finished_own as f64,
        ),
        finished_actions: per_finished(finished_actions as f64),
    }
}

/// The figures of one game kind.
struct Figures {
    id: String,
    scale: Scale,
    /// Heap bytes per new game.
    new_bytes: f64,
    /// Heap blocks per new game.
    new_blocks: f64,
    /// Heap bytes per game after the mid-game actions.
    mid_bytes: f64,
    /// Actions played per game for the mid-game figures.
    mid_actions: f64,
    /// Resident bytes per game after the mid-game actions, where `/proc` offers them.
    mid_resident: Option<f64>,
    /// Heap bytes per finished game.
    finished_bytes: f64,
    /// Actions per finished game.
    finished_actions: f64,
}

/// One created game as the bench keeps it: `id\ntoken0\ntoken1...` in one block.
#[derive(Default)]
struct Created {
    text: Box<str>,
}

impl Created {
    /// The game id.
    fn id(&self) -> &str {
        self.text.split('\n').next().expect("an id")
    }

    /// Seat `seat`'s token.
    fn token(&self, seat: usize) -> &str {
        self.text
            .split('\n')
            .nth(seat + 1)
            .expect("a token per seat")
    }

    /// The heap bytes and blocks the games' texts take (the list itself is counted apart).
    fn heap(games: &[Created]) -> (usize, usize) {
        let bytes = games.iter().map(|game| game.text.len()).sum();
        let blocks = games.iter().filter(|game| !game.text.is_empty()).count();
        (bytes, blocks)
    }
}

/// Creates a game of `config` with its smallest seat count.
async fn create(api: &GameApi, config: &pb::GameConfig) -> Created {
    let response = api
        .create_game(Request::new(pb::CreateGameRequest {
            config: Some(config.clone()),
            seats: 0,
            seed: None,
            request_id: String::new(),
            spectator_policy: pb::SpectatorPolicy::Unspecified.into(),
            seat_options: Vec::new(),
            clock: None,
        }))
        .await
        .expect("CreateGame")
        .into_inner();
    let mut text = response.game_id;
    for seat in response.seat_tokens {
        text.push('\n');
        text.push_str(&seat.token);
    }
    Created {
        text: text.into_boxed_str(),
    }
}

/// `message` with seat `seat`'s token.
fn as_seat<T>(game: &Created, seat: usize, message: T) -> Request<T> {
    let mut request = Request::new(message);
    let value: MetadataValue<_> = format!("Bearer {}", game.token(seat))
        .parse()
        .expect("a token is valid metadata");
    request
        .metadata_mut()
        .insert(deckmate_proto::AUTHORIZATION_HEADER, value);
    request
}

/// The game as seat `seat` sees it.
async fn observe(api: &GameApi, game: &Created, seat: usize) -> pb::ObserveResponse {
    let request = as_seat(
        game,
        seat,
        pb::ObserveRequest {
            game_id: game.id().to_owned(),
        },
    );
    api.observe(request).await.expect("Observe").into_inner()
}

/// Plays up to `limit` random legal actions; returns how many were played.
async fn play(api: &GameApi, game: &Created, limit: usize, picker: &mut Picker) -> usize {
    let mut played = 0;
    let mut seat = 0;
    let mut view = observe(api, game, seat).await;
    while played < limit && view.status() != pb::GameStatus::Finished {
        if view.legal_actions.is_empty() {
            seat = view.to_act[picker.index(view.to_act.len())] as usize;
            view = observe(api, game, seat).await;
        }
        let action = view.legal_actions[picker.index(view.legal_actions.len())].clone();
        let request = as_seat(
            game,
            seat,
            pb::ActRequest {
                game_id: game.id().to_owned(),
                action: Some(action),
                expected_version: Some(view.version),
                request_id: String::new(),
            },
        );
        // The answer carries the acting seat's new view: observe again only when another seat
        // is to act.
        view = api
            .act(request)
            .await
            .expect("a listed action applies")
            .into_inner()
            .observation
            .expect("the acting seat's view");
        played += 1;
    }
    played
}

/// A small deterministic random source (SplitMix64).
struct Picker(u64);

impl Picker {
    /// An index below `len` (not 0).
    fn index(&mut self, len: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % len as u64) as usize
    }
}

fn print_header(benchmarking: bool, scale: Scale) {
    println!(
        "Memory per game in the memory store, one process per kind (docs/ARCHITECTURE.md §6 target <= {TARGET_BYTES:.0} B per live game, heap and RSS){}",
        if benchmarking {
            ""
        } else {
            " [test mode: a few dozen games, not a measurement]"
        }
    );
    println!(
        "RSS B: VmRSS growth per game, {} games alive after up to {MID_GAME_ACTIONS} actions each, no profiler running",
        scale.games
    );
    println!(
        "new/mid-game B: requested heap bytes per game of {} further games created with those alive (dhat); finished B: a sample of {} games played to their end",
        scale.heap_games, scale.finished_games
    );
    println!(
        "{:<16}{:>7}{:>8}{:>9}{:>8}{:>12}{:>9}{:>9}{:>12}{:>9}  target",
        "game",
        "games",
        "RSS B",
        "new B",
        "blocks",
        "mid-game B",
        "actions",
        "finished",
        "finished B",
        "actions"
    );
}

fn print_row(figures: &Figures) {
    let worst_heap = figures.new_bytes.max(figures.mid_bytes);
    let target = match figures.mid_resident {
        Some(resident) => {
            let worst = worst_heap.max(resident);
            let verdict = if worst <= TARGET_BYTES {
                "met"
            } else {
                "MISSED"
            };
            format!("{verdict} ({:.2}x of 8 KiB)", worst / TARGET_BYTES)
        }
        None => "unknown: no RSS here".to_owned(),
    };
    println!(
        "{:<16}{:>7}{:>8}{:>9.0}{:>8.1}{:>12.0}{:>9.1}{:>9}{:>12.0}{:>9.1}  {}",
        figures.id,
        figures.scale.games,
        figures
            .mid_resident
            .map_or_else(|| "-".to_owned(), |resident| format!("{resident:.0}")),
        figures.new_bytes,
        figures.new_blocks,
        figures.mid_bytes,
        figures.mid_actions,
        figures.scale.finished_games,
        figures.finished_bytes,
        figures.finished_actions,
        target
    );
}
