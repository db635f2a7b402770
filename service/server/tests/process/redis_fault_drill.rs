//! Redis faults under load (docs/RELIABILITY.md, "Redis faults"): a server reaches Redis through
//! a proxy that holds every chunk 0–500 ms and cuts every connection every 2 s (alternately a
//! close and a reset) while players act with request ids. Clients see only UNAVAILABLE (retried
//! with the same request id) or ABORTED; once the faults stop, the same server process serves
//! again without a restart; and every acknowledged action is in its game's history, through
//! that server and through another one on Redis directly.
//!
//! It needs the Redis server at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::acknowledged::{Acknowledged, assert_in_histories, seeded_games};
use crate::common::Picker;
use crate::fault_proxy::FaultProxy;
use crate::redis_replicas::{redis_url, require_redis};
use crate::server::TestServer;
use deckmate::{ActOptions, Error, Game, RetryPolicy, pb};

/// Games played at once, one player each.
const PLAYERS: usize = 6;
/// How long the faults last.
const FAULTS_FOR: Duration = Duration::from_secs(8);
/// The pause before a failed call is sent again.
const RETRY_PAUSE: Duration = Duration::from_millis(100);
/// How often one call is tried before the drill gives up on the server.
const ATTEMPTS: usize = 200;

/// What one player saw: the actions acknowledged, and every error other than UNAVAILABLE or
/// ABORTED.
#[derive(Default)]
struct Seen {
    acknowledged: Vec<Acknowledged>,
    unclean: Vec<Error>,
}

/// Whether a client may see `error` while Redis misbehaves.
fn clean(error: &Error) -> bool {
    error.is_retryable() || matches!(error, Error::StaleVersion { .. })
}

/// Plays random actions on `game` until it ends or `stop` is set, sending every failed call
/// again (an action with its request id) while the error is clean.
async fn play(game: Game, seed: u64, stop: Arc<AtomicBool>) -> Seen {
    let mut picker = Picker::new(seed);
    let mut seen = Seen::default();
    'turns: while !stop.load(Ordering::Relaxed) {
        let mut views = Vec::new();
        for seat in &game.seats {
            let mut view = None;
            for _ in 0..ATTEMPTS {
                match seat.observe().await {
                    Ok(answer) => {
                        view = Some(answer);
                        break;
                    }
                    Err(error) if clean(&error) => tokio::time::sleep(RETRY_PAUSE).await,
                    Err(error) => {
                        seen.unclean.push(error);
                        return seen;
                    }
                }
            }
            match view {
                Some(view) => views.push(view),
                None => continue 'turns,
            }
        }
        if views[0].status() == pb::GameStatus::Finished {
            return seen;
        }
        let able: Vec<usize> = (0..views.len())
            .filter(|&seat| !views[seat].legal_actions.is_empty())
            .collect();
        let seat = able[picker.index(able.len())];
        let legal = &views[seat].legal_actions;
        let action = legal[picker.index(legal.len())].clone();
        let options =
            ActOptions::expecting(views[0].version).with_request_id(deckmate::new_request_id());
        for _ in 0..ATTEMPTS {
            match game.seats[seat]
                .act_with(action.clone(), options.clone())
                .await
            {
                Ok(response) => {
                    seen.acknowledged
                        .push((response.version, seat as u32, action.clone()));
                    continue 'turns;
                }
                // Another attempt of the same call: the request id makes it safe.
                Err(error) if error.is_retryable() => tokio::time::sleep(RETRY_PAUSE).await,
                Err(Error::StaleVersion { .. }) => continue 'turns,
                Err(error) => {
                    seen.unclean.push(error);
                    return seen;
                }
            }
        }
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_faults_under_load_lose_no_acknowledged_action() {
    require_redis().await;
    let upstream: SocketAddr = redis_url()
        .trim_start_matches("redis://")
        .trim_end_matches('/')
        .parse()
        .expect("DECKMATE_TEST_REDIS_URL is redis://host:port");
    let proxy = FaultProxy::start(upstream).await;
    let server = TestServer::start_with(&[
        "--store".to_string(),
        proxy.redis_url(),
        "--store-timeout".to_string(),
        "1s".to_string(),
    ])
    .await;
    let client = server
        .client()
        .await
        .with_retry_policy(RetryPolicy::never());
    let games = seeded_games(&client, PLAYERS, 300).await;

    proxy.set_faulty(true);
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = games
        .iter()
        .zip(0u64..)
        .map(|(game, seed)| {
            let game = crate::redis_replicas::through(&client, game);
            tokio::spawn(play(game, 400 + seed, stop.clone()))
        })
        .collect();
    tokio::time::sleep(FAULTS_FOR).await;
    proxy.set_faulty(false);
    stop.store(true, Ordering::Relaxed);

    let mut acknowledged = Vec::new();
    for player in players {
        let seen = player.await.expect("the player task");
        assert!(
            seen.unclean.is_empty(),
            "unclean errors: {:?}",
            seen.unclean
        );
        acknowledged.push(seen.acknowledged);
    }
    assert!(
        acknowledged.iter().any(|played| !played.is_empty()),
        "some actions got through the faults"
    );

    // The same process serves again, and so does a server on Redis directly; both list every
    // acknowledged action.
    let mut recovered = false;
    for _ in 0..ATTEMPTS {
        if games[0].seats[0].observe().await.is_ok() {
            recovered = true;
            break;
        }
        tokio::time::sleep(RETRY_PAUSE).await;
    }
    assert!(recovered, "the server did not serve again after the faults");
    let direct = TestServer::start_with(&["--store".to_string(), redis_url()]).await;
    assert_in_histories(&direct.client().await, &games, &acknowledged).await;
}
