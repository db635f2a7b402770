//! SIGTERM under load (docs/RELIABILITY.md, "SIGTERM under load"): a server on the Redis store
//! is stopped while players act and watchers follow their games. Every call in flight finishes
//! or fails cleanly (UNAVAILABLE, which clients retry elsewhere), every watcher of a running game
//! gets UNAVAILABLE `SHUTTING_DOWN`, the process exits within `--drain-timeout` + 2 s, and every
//! acknowledged action is in its game's history as read through another replica.
//!
//! It needs the Redis server at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::acknowledged::{Acknowledged, assert_in_histories, seeded_games};
use crate::common::Picker;
use crate::redis_replicas::{redis_url, require_redis, through};
use crate::server::TestServer;
use deckmate::{ActOptions, Error, Game, RetryPolicy, pb};
use tonic_types::StatusExt;

/// Games played at once, one player task each.
const PLAYERS: usize = 8;
/// The server's drain timeout.
const DRAIN: Duration = Duration::from_secs(3);
/// How long the load runs before the signal.
const LOAD_BEFORE_SIGNAL: Duration = Duration::from_millis(1_500);

/// Plays random actions on `game` until it ends, a call fails or `stop` is set; returns what was
/// acknowledged and the error that ended the play, if any.
async fn play(game: Game, seed: u64, stop: Arc<AtomicBool>) -> (Vec<Acknowledged>, Option<Error>) {
    let mut picker = Picker::new(seed);
    let mut acknowledged = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let mut views = Vec::new();
        for seat in &game.seats {
            match seat.observe().await {
                Ok(view) => views.push(view),
                Err(error) => return (acknowledged, Some(error)),
            }
        }
        if views[0].status() == pb::GameStatus::Finished {
            return (acknowledged, None);
        }
        let able: Vec<usize> = (0..views.len())
            .filter(|&seat| !views[seat].legal_actions.is_empty())
            .collect();
        let seat = able[picker.index(able.len())];
        let legal = &views[seat].legal_actions;
        let action = legal[picker.index(legal.len())].clone();
        let options =
            ActOptions::expecting(views[0].version).with_request_id(deckmate::new_request_id());
        match game.seats[seat].act_with(action.clone(), options).await {
            Ok(response) => acknowledged.push((response.version, seat as u32, action)),
            Err(error) => return (acknowledged, Some(error)),
        }
    }
    (acknowledged, None)
}

/// How a watch stream ended: `None` when it finished with the game.
async fn watch_to_the_end(client: deckmate::Client, id: String) -> Option<tonic::Status> {
    let mut stream = match client
        .raw()
        .watch(pb::WatchRequest {
            game_id: id,
            from_version: 0,
        })
        .await
    {
        Ok(response) => response.into_inner(),
        Err(status) => return Some(status),
    };
    loop {
        match stream.message().await {
            Ok(Some(_)) => {}
            Ok(None) => return None,
            Err(status) => return Some(status),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_drains_cleanly_and_loses_no_acknowledged_action() {
    require_redis().await;
    let store = ["--store".to_string(), redis_url()];
    let mut args = store.to_vec();
    args.extend(["--drain-timeout".to_string(), "3s".to_string()]);
    let server = TestServer::start_with(&args).await;
    let client = server
        .client()
        .await
        .with_retry_policy(RetryPolicy::never());
    let games = seeded_games(&client, PLAYERS, 100).await;
    let watchers: Vec<_> = games
        .iter()
        .map(|game| tokio::spawn(watch_to_the_end(client.clone(), game.id.clone())))
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = games
        .iter()
        .zip(0u64..)
        .map(|(game, seed)| {
            let game = through(&client, game);
            tokio::spawn(play(game, 200 + seed, stop.clone()))
        })
        .collect();

    tokio::time::sleep(LOAD_BEFORE_SIGNAL).await;
    let signalled = Instant::now();
    let exit = tokio::time::timeout(Duration::from_secs(60), server.terminate())
        .await
        .expect("the server exits");
    let took = signalled.elapsed();
    stop.store(true, Ordering::Relaxed);
    assert!(exit.success(), "the server exits cleanly: {exit:?}");
    assert!(
        took <= DRAIN + Duration::from_secs(2),
        "the server took {took:?} to exit (drain timeout {DRAIN:?})"
    );

    let mut acknowledged = Vec::new();
    for player in players {
        let (played, error) = player.await.expect("the player task");
        if let Some(error) = error {
            // Unavailable, whatever the reason (SHUTTING_DOWN, or the connection closing): the
            // call may be retried on another replica. Nothing else.
            assert!(error.is_retryable(), "an unclean failure: {error:?}");
        }
        acknowledged.push(played);
    }
    assert!(
        acknowledged.iter().map(Vec::len).sum::<usize>() >= PLAYERS,
        "the load ran before the signal"
    );
    for watcher in watchers {
        let Some(status) = watcher.await.expect("the watcher task") else {
            continue;
        };
        assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");
        let reason = status.get_details_error_info().map(|info| info.reason);
        assert_eq!(reason.as_deref(), Some("SHUTTING_DOWN"), "{status:?}");
    }

    // Another replica on the same Redis has every acknowledged action.
    let other = TestServer::start_with(&store).await;
    assert_in_histories(&other.client().await, &games, &acknowledged).await;
}
