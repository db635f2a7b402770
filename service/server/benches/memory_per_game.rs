//! Heap bytes per idle game in the in-memory store (docs/ARCHITECTURE.md §6 target: at most 8 KiB),
//! for every game the server hosts (taken from `ListVariants`, so new games are measured without
//! changing this file).
//!
//! The whole process runs under `dhat`'s heap-counting allocator. For each game kind, games are
//! created through the in-process `GameService` (the same handlers the network reaches, over a
//! `MemoryStore`), and the live heap is read before and after: once right after creation, once
//! after up to 20 random legal actions in each game, and once when every game has finished
//! (finished games stay in the store until their TTL). The figures are requested bytes:
//! the allocator's own rounding and bookkeeping come on top. Games are created without a
//! request id, so the short-lived idempotency entries of `CreateGame` are not counted.
//!
//! `cargo bench -p deckmate-server --bench memory_per_game` prints the table; under
//! `cargo test --benches` it runs with a handful of games as a smoke test.

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

/// Games measured per kind when benchmarking.
const GAMES: usize = 256;
/// Games measured per kind in test mode.
const TEST_GAMES: usize = 8;
/// Actions played in each game for the mid-game figure.
const MID_GAME_ACTIONS: usize = 20;
/// The design's target, in bytes.
const TARGET_BYTES: f64 = 8.0 * 1024.0;

/// One created game: its id and seat tokens.
struct Created {
    id: String,
    tokens: Vec<String>,
}

/// The figures of one game kind.
struct Figures {
    id: String,
    games: usize,
    new_bytes: f64,
    new_blocks: f64,
    mid_bytes: f64,
    mid_actions: f64,
    finished_bytes: f64,
    finished_actions: f64,
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let games = if benchmarking { GAMES } else { TEST_GAMES };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let figures = runtime.block_on(measure_every_kind(games));
    print_table(&figures, benchmarking);
}

/// The live heap: bytes and blocks.
fn heap() -> (usize, usize) {
    let stats = dhat::HeapStats::get();
    (stats.curr_bytes, stats.curr_blocks)
}

async fn measure_every_kind(games: usize) -> Vec<Figures> {
    let variant_count = 16;
    let store = MemoryStore::new(
        Duration::from_secs(24 * 60 * 60),
        (games + 16) * variant_count * 2,
    );
    let api = GameApi::new(
        Arc::new(store),
        ApiSettings::from_config(&Config::default()),
        Shutdown::new(),
    );
    let variants = api
        .list_variants(Request::new(pb::ListVariantsRequest {}))
        .await
        .expect("ListVariants")
        .into_inner()
        .variants;
    assert!(variants.len() <= variant_count, "raise variant_count");
    let mut picker = Picker(0x5EED);
    let mut figures = Vec::new();
    for variant in variants {
        let config = variant.default_config.clone().expect("a default config");
        // Warm up every lazily built part (codecs, tracing call sites, store shards) with a few
        // whole games, which stay in the store below the measured baseline.
        for _ in 0..4 {
            let game = create(&api, &config).await;
            play(&api, &game, usize::MAX, &mut picker).await;
        }
        let (base_bytes, base_blocks) = heap();
        let mut created = Vec::with_capacity(games);
        for _ in 0..games {
            created.push(create(&api, &config).await);
        }
        // The ids and tokens kept here are not part of the store: subtract them.
        let bookkeeping = created_bytes(&created, created.capacity());
        let (new_bytes, new_blocks) = heap();
        let per_game =
            |bytes: usize| (bytes as f64 - base_bytes as f64 - bookkeeping.0 as f64) / games as f64;
        let mut mid_actions = 0;
        for game in &created {
            mid_actions += play(&api, game, MID_GAME_ACTIONS, &mut picker).await;
        }
        let (mid_bytes, _) = heap();
        let mut finished_actions = mid_actions;
        for game in &created {
            finished_actions += play(&api, game, usize::MAX, &mut picker).await;
        }
        let (finished_bytes, _) = heap();
        figures.push(Figures {
            id: variant.id,
            games,
            new_bytes: per_game(new_bytes),
            new_blocks: (new_blocks as f64 - base_blocks as f64 - bookkeeping.1 as f64)
                / games as f64,
            mid_bytes: per_game(mid_bytes),
            mid_actions: mid_actions as f64 / games as f64,
            finished_bytes: per_game(finished_bytes),
            finished_actions: finished_actions as f64 / games as f64,
        });
    }
    figures
}

/// The heap bytes and blocks of the bench's own list of created games (of `capacity`).
fn created_bytes(created: &[Created], capacity: usize) -> (usize, usize) {
    let mut bytes = capacity * std::mem::size_of::<Created>();
    let mut blocks = 1;
    for game in created {
        bytes += game.id.capacity();
        bytes += game.tokens.capacity() * std::mem::size_of::<String>();
        bytes += game.tokens.iter().map(String::capacity).sum::<usize>();
        blocks += 2 + game.tokens.len();
    }
    (bytes, blocks)
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
        }))
        .await
        .expect("CreateGame")
        .into_inner();
    // Exact capacities, so that `created_bytes` knows what this bench itself holds.
    let mut id = response.game_id;
    id.shrink_to_fit();
    let mut tokens = Vec::with_capacity(response.seat_tokens.len());
    for seat in response.seat_tokens {
        let mut token = seat.token;
        token.shrink_to_fit();
        tokens.push(token);
    }
    Created { id, tokens }
}

/// `message` with seat `seat`'s token.
fn as_seat<T>(game: &Created, seat: usize, message: T) -> Request<T> {
    let mut request = Request::new(message);
    let value: MetadataValue<_> = format!("Bearer {}", game.tokens[seat])
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
            game_id: game.id.clone(),
        },
    );
    api.observe(request).await.expect("Observe").into_inner()
}

/// Plays up to `limit` random legal actions; returns how many were played.
async fn play(api: &GameApi, game: &Created, limit: usize, picker: &mut Picker) -> usize {
    let mut played = 0;
    while played < limit {
        let mut view = observe(api, game, 0).await;
        let mut seat = 0;
        if view.status() == pb::GameStatus::Finished {
            break;
        }
        if view.legal_actions.is_empty() {
            seat = view.to_act[picker.index(view.to_act.len())] as usize;
            view = observe(api, game, seat).await;
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
        api.act(request).await.expect("a listed action applies");
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

fn print_table(figures: &[Figures], benchmarking: bool) {
    println!(
        "Heap bytes per idle game in the memory store (requested bytes; docs/ARCHITECTURE.md §6 target <= {TARGET_BYTES:.0} B){}",
        if benchmarking {
            ""
        } else {
            " [test mode: a handful of games, not a measurement]"
        }
    );
    println!(
        "{:<16}{:>7}{:>11}{:>9}{:>14}{:>9}{:>14}{:>9}  target",
        "game", "games", "new B", "blocks", "mid-game B", "actions", "finished B", "actions"
    );
    for figure in figures {
        let worst_idle = figure.new_bytes.max(figure.mid_bytes);
        println!(
            "{:<16}{:>7}{:>11.0}{:>9.1}{:>14.0}{:>9.1}{:>14.0}{:>9.1}  {}",
            figure.id,
            figure.games,
            figure.new_bytes,
            figure.new_blocks,
            figure.mid_bytes,
            figure.mid_actions,
            figure.finished_bytes,
            figure.finished_actions,
            if worst_idle <= TARGET_BYTES {
                format!("met ({:.2}x of 8 KiB)", worst_idle / TARGET_BYTES)
            } else {
                format!("MISSED ({:.2}x of 8 KiB)", worst_idle / TARGET_BYTES)
            }
        );
    }
}
