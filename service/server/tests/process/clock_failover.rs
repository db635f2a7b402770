//! A turn clock survives the loss of the replica holding its deadline's lease
//! (docs/CLOCKS.md, "Failures"), on a private `redis-server` that nothing else uses (so no other
//! test's replica sweeps its due index):
//!
//! replica A creates a game whose seat on turn has 1 s, and is frozen (SIGSTOP) before the
//! deadline. At the deadline A's claim is made as A's scheduler makes it (the entry is scored
//! again at the end of a lease; a live A would fire within a millisecond of its claim, too soon
//! to kill it in between), and A is killed with SIGKILL. Replica B, started after, must leave
//! the entry alone until the lease ends and fire it within the lease plus its poll interval;
//! the version rises by exactly one and the game ends on time.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::redis_faults::{PrivateRedis, TempDir};
use crate::redis_replicas::through;
use crate::server::{TestServer, free_port};
use deckmate::{CreateOptions, pb};

/// The lease and poll interval both replicas run with (the defaults).
const LEASE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(200);
/// Room for process scheduling on a loaded machine, on top of lease plus poll.
const SLACK: Duration = Duration::from_millis(800);

/// The Redis server's clock, Unix ms.
async fn redis_now(connection: &mut redis::aio::MultiplexedConnection) -> u64 {
    let (seconds, micros): (u64, u64) = redis::cmd("TIME").query_async(connection).await.unwrap();
    seconds * 1_000 + micros / 1_000
}

fn signal(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill {signal} {pid}");
}

#[tokio::test]
async fn a_lost_replicas_deadline_fires_on_another_within_lease_and_poll() {
    let dir = TempDir::new();
    let port = free_port();
    let _redis = PrivateRedis::start(port, &dir.0).await;
    let url = format!("redis://127.0.0.1:{port}");
    let args = [
        "--store".to_string(),
        url.clone(),
        "--timer-lease".to_string(),
        "2s".to_string(),
        "--timer-poll".to_string(),
        "200ms".to_string(),
    ];
    let mut connection = redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();

    let a = TestServer::start_with(&args).await;
    let client = a.client().await;
    let config = pb::GameConfig {
        game: Some(pb::game_config::Game::RaindropChess(Default::default())),
    };
    let options = CreateOptions::default().with_action_clock(1_000, pb::TimeoutPolicy::Forfeit);
    let game = client.create_game(config, 2, options).await.unwrap();
    let view = game.seats[0].observe().await.unwrap();
    let clock = &view.clocks[0];
    assert!(clock.running, "White is on the clock: {:?}", view.clocks);
    let deadline = clock.deadline.expect("a running clock has a deadline");
    let deadline_ms = u64::try_from(deadline.seconds).unwrap() * 1_000
        + u64::try_from(deadline.nanos / 1_000_000).unwrap();
    let due: Option<u64> = redis::cmd("ZSCORE")
        .arg("deckmate:due")
        .arg(&game.id)
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(
        due,
        Some(deadline_ms),
        "the game is filed under its deadline"
    );

    // A freezes before the deadline (its first sweep is a poll after start).
    signal(a.pid(), "-STOP");
    while redis_now(&mut connection).await < deadline_ms {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A's claim at the deadline: the entry scored again at the lease's end.
    let claimed_at = redis_now(&mut connection).await;
    let lease_end = claimed_at + LEASE.as_millis() as u64;
    let updated: u64 = redis::cmd("ZADD")
        .arg("deckmate:due")
        .arg("XX")
        .arg("CH")
        .arg(lease_end)
        .arg(&game.id)
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(updated, 1, "the entry was there to claim");
    let claimed = Instant::now();
    signal(a.pid(), "-KILL");
    drop(a);

    let b = TestServer::start_with(&args).await;
    let on_b = through(&b.client().await, &game);
    let seat = &on_b.seats[1];
    let fired = loop {
        let view = seat.observe().await.unwrap();
        let elapsed = claimed.elapsed();
        if view.version > 0 {
            break (elapsed, view);
        }
        assert!(
            elapsed <= LEASE + POLL + SLACK,
            "the deadline did not fire within the lease and a poll: {elapsed:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let (elapsed, view) = fired;
    // Observed up to one look (20 ms) after the commit; the commit itself came after the lease.
    assert!(
        elapsed + Duration::from_millis(50) >= LEASE,
        "B fired inside A's lease: {elapsed:?}"
    );
    assert_eq!(view.version, 1, "exactly one timeout");
    let outcome = view.outcome.expect("the game ended");
    assert_eq!(outcome.reason, pb::EndReason::Timeout as i32);
    assert_eq!(outcome.winners, vec![1]);
    // Later sweeps change nothing, and the game has left the index.
    tokio::time::sleep(LEASE + POLL).await;
    assert_eq!(seat.observe().await.unwrap().version, 1);
    let due: Option<u64> = redis::cmd("ZSCORE")
        .arg("deckmate:due")
        .arg(&game.id)
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(due, None);
    eprintln!(
        "clock failover: the deadline fired {elapsed:?} after A's claim (lease {LEASE:?}, poll {POLL:?})"
    );
}
