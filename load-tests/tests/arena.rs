//! The bot arena against an in-process server that allows bot-only games and client seeds:
//! every game is played to its end by the server's bots and scored, and the same seed plays the
//! same games again. A create rate makes the arena wait and retry; a refusal it cannot wait out,
//! or an interruption, ends it with the score of the games it finished.

use std::num::NonZeroU32;
use std::time::Duration;

use deckmate::pb;
use deckmate_load::StopSignal;
use deckmate_load::arena::{self, ArenaError, ArenaOptions};
use deckmate_server::Config;
use deckmate_server::protection::rate::Rate;

mod common;

use common::InProcessServer;

/// A server for the arena: client seeds, games of bots only, no create rate.
fn arena_server() -> Config {
    Config {
        create_rate: Rate::Off,
        allow_client_seed: true,
        allow_bot_only_games: true,
        ..Config::default()
    }
}

/// Runs `body` against a fresh arena server on a free loopback port.
async fn with_server<F, T>(body: impl FnOnce(String) -> F) -> T
where
    F: std::future::Future<Output = T>,
{
    with_server_config(arena_server(), body).await
}

/// Runs `body` against a fresh server with `config` on a free loopback port.
async fn with_server_config<F, T>(config: Config, body: impl FnOnce(String) -> F) -> T
where
    F: std::future::Future<Output = T>,
{
    let server = InProcessServer::start(config).await;
    let result = body(server.address.clone()).await;
    server.stop().await;
    result
}

fn options(target: String, variant: &str) -> ArenaOptions {
    ArenaOptions {
        target,
        variant: variant.into(),
        seats: 0,
        games: 6,
        a: pb::BotLevel::Greedy,
        b: pb::BotLevel::Random,
        seed: 7,
        in_flight: 3,
        api_key: None,
        progress: false,
    }
}

/// Plays the arena of `options` to its end.
async fn play(options: &ArenaOptions) -> arena::ArenaScore {
    arena::run(options, &StopSignal::new())
        .await
        .expect("the arena runs")
}

/// A create rate of `count` games per `period`, after a burst of `burst`.
fn create_rate(count: u32, period: Duration, burst: u32) -> Config {
    Config {
        create_rate: Rate::Limit {
            count: NonZeroU32::new(count).expect("non-zero"),
            period,
        },
        create_burst: burst,
        max_games_per_client: usize::MAX,
        ..arena_server()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_to_its_end_and_scored() {
    for variant in ["pigeon_chess", "chuno"] {
        let score =
            with_server(|target| async move { play(&options(target, variant)).await }).await;
        assert_eq!(score.games(), 6, "{variant}: {score}");
        let line = score.to_string();
        assert!(
            line.starts_with("a=greedy b=random games=6 win="),
            "{variant}: {line}"
        );
        assert!(line.contains(" ci95=["), "{variant}: {line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seed_plays_the_same_games() {
    let run = || with_server(|target| async move { play(&options(target, "card_chess")).await });
    let first = run().await;
    let second = run().await;
    assert_eq!(first, second);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_refuses_bot_only_games_fails_the_run() {
    let config = Config {
        allow_client_seed: true,
        ..Config::default()
    };
    let stopped = with_server_config(config, |target| async move {
        arena::run(&options(target, "pigeon_chess"), &StopSignal::new())
            .await
            .expect_err("bot-only games are refused by default")
    })
    .await;
    assert!(stopped.to_string().contains("CreateGame"), "{stopped}");
    assert_eq!(stopped.partial.map(|score| score.games()), Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_refuses_client_seeds_is_named_before_any_game() {
    let config = Config {
        allow_client_seed: false,
        ..arena_server()
    };
    let stopped = with_server_config(config, |target| async move {
        arena::run(&options(target, "pigeon_chess"), &StopSignal::new())
            .await
            .expect_err("client seeds are refused")
    })
    .await;
    let message = stopped.to_string();
    assert!(
        message.contains("start it with `--allow-client-seed`"),
        "{message}"
    );
    assert!(stopped.partial.is_none(), "no game was created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_refused_by_the_create_rate_wait_and_are_sent_again() {
    // Two games at once, then one a second: games 2 and 3 wait for the rate.
    let config = create_rate(60, Duration::from_secs(60), 2);
    let score = with_server_config(config, |target| async move {
        let options = ArenaOptions {
            games: 4,
            in_flight: 4,
            ..options(target, "pigeon_chess")
        };
        play(&options).await
    })
    .await;
    assert_eq!(score.games(), 4, "{score}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_too_long_to_wait_out_ends_the_run_with_the_score_so_far() {
    // Two games, then one an hour: the third game's wait is longer than the arena accepts.
    let config = create_rate(1, Duration::from_secs(3600), 2);
    let stopped = with_server_config(config, |target| async move {
        let options = ArenaOptions {
            games: 4,
            in_flight: 1,
            ..options(target, "pigeon_chess")
        };
        arena::run(&options, &StopSignal::new())
            .await
            .expect_err("the third game is refused for an hour")
    })
    .await;
    let ArenaError::Call {
        number,
        what,
        error,
        ..
    } = &stopped.error
    else {
        panic!("{stopped}");
    };
    assert_eq!((*number, *what), (2, "CreateGame"), "{stopped}");
    assert_eq!(error.reason(), Some("LIMIT_REACHED"), "{stopped}");
    let partial = stopped.partial.expect("games were played");
    assert_eq!(partial.games(), 2, "{partial}");
    assert!(
        partial
            .to_string()
            .starts_with("a=greedy b=random games=2 ")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_run_returns_the_score_so_far() {
    let stopped = with_server(|target| async move {
        let options = ArenaOptions {
            games: 100_000,
            in_flight: 2,
            ..options(target, "pigeon_chess")
        };
        let stop = StopSignal::new();
        let interrupt = stop.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            interrupt.trigger();
        });
        arena::run(&options, &stop)
            .await
            .expect_err("interrupted long before its last game")
    })
    .await;
    assert!(
        matches!(stopped.error, ArenaError::Interrupted),
        "{stopped}"
    );
    let partial = stopped.partial.expect("the arena had started");
    assert!(partial.games() < 100_000, "{partial}");
}
