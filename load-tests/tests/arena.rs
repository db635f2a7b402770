//! The bot arena against an in-process server that allows bot-only games and client seeds:
//! every game is played to its end by the server's bots and scored, and the same seed plays the
//! same games again.

use deckmate::pb;
use deckmate_load::arena::{self, ArenaOptions};
use deckmate_server::Config;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Runs `body` against a fresh server on a free loopback port.
async fn with_server<F, T>(body: impl FnOnce(String) -> F) -> T
where
    F: std::future::Future<Output = T>,
{
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let address = format!("http://{}", listener.local_addr().expect("local address"));
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let config = Config {
            create_rate: deckmate_server::protection::rate::Rate::Off,
            allow_client_seed: true,
            allow_bot_only_games: true,
            ..Config::default()
        };
        deckmate_server::serve(config, listener, async {
            let _ = stopped.await;
        })
        .await
        .expect("the server runs");
    });
    let result = body(address).await;
    let _ = stop.send(());
    server.await.expect("the server stops cleanly");
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
        progress: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_to_its_end_and_scored() {
    for variant in ["pigeon_chess", "chuno"] {
        let score = with_server(|target| async move {
            arena::run(&options(target, variant))
                .await
                .expect("the arena runs")
        })
        .await;
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
    let run = || {
        with_server(|target| async move {
            arena::run(&options(target, "card_chess"))
                .await
                .expect("the arena runs")
        })
    };
    let first = run().await;
    let second = run().await;
    assert_eq!(first, second);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_refuses_bot_only_games_fails_the_run() {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let target = format!("http://{}", listener.local_addr().expect("local address"));
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        deckmate_server::serve(Config::default(), listener, async {
            let _ = stopped.await;
        })
        .await
        .expect("the server runs");
    });
    let error = arena::run(&options(target, "pigeon_chess"))
        .await
        .expect_err("bot-only games are refused by default");
    assert!(error.to_string().contains("CreateGame"), "{error}");
    let _ = stop.send(());
    server.await.expect("the server stops cleanly");
}
