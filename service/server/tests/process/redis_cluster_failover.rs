//! The failover drill (docs/OPERATIONS.md, "Redis Cluster"): two `deckmate-server` processes on a Redis Cluster of
//! their own (3 masters, 3 replicas, node timeout 2 s, started with `scripts/redis-cluster.sh`
//! on ports 7201–7206 and stopped afterwards). Several games are played to their end through
//! both replicas while a spectator of each watches through the other; during play the master
//! holding the first game is killed (SIGKILL), and its replica takes over.
//!
//! Checked: clients see only retryable errors, for at most the node timeout + 5 s per game;
//! every acknowledged action is in the game's history exactly once, in order (none lost, none
//! applied twice); every game loads and finishes; every watcher resumes and sees every version
//! exactly once.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{Picker, Played, assert_history_lists, pigeon_chess};
use crate::redis_replicas::through;
use crate::server::TestServer;
use deckmate::{ActOptions, Client, CreateOptions, Error, Game, RetryPolicy, pb};
use futures::StreamExt;

/// The first of the drill cluster's six ports (the shared test cluster uses 7101–7106).
const FIRST_PORT: u16 = 7201;
/// The first port of the cluster of the replica-acknowledgement test.
const ACK_FIRST_PORT: u16 = 7211;
/// The cluster's node timeout, as `scripts/redis-cluster.sh` sets it.
const NODE_TIMEOUT: Duration = Duration::from_secs(2);
/// The longest a client may see the store unavailable around the failover.
const MOST_UNAVAILABLE: Duration = Duration::from_secs(7);
/// Games played at once.
const GAMES: usize = 4;
/// Actions every game has made before the master is killed.
const BEFORE_KILL: u64 = 6;
/// More steps than any Pigeon Chess game takes.
const MAX_STEPS: usize = 5_000;
/// The longest a watcher may take to deliver the rest of a finished game.
const WATCH_DEADLINE: Duration = Duration::from_secs(60);

/// A cluster of a test's own, stopped when dropped.
struct DrillCluster {
    url: String,
    first_port: u16,
}

impl DrillCluster {
    fn script(first_port: u16, action: &str) -> std::process::Output {
        let script =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/redis-cluster.sh");
        Command::new("bash")
            .arg(script)
            .arg(action)
            .env("DECKMATE_CLUSTER_PORT", first_port.to_string())
            .env(
                "DECKMATE_CLUSTER_DIR",
                format!("/tmp/deckmate-drill-cluster-{first_port}"),
            )
            .output()
            .expect("bash runs scripts/redis-cluster.sh")
    }

    /// Six nodes on the ports from `first_port` on.
    fn start(first_port: u16) -> DrillCluster {
        // A cluster left by an earlier run may be mid-failover: start afresh.
        Self::script(first_port, "stop");
        let output = Self::script(first_port, "start");
        assert!(
            output.status.success(),
            "the drill cluster did not start: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        DrillCluster {
            url: String::from_utf8(output.stdout).unwrap().trim().to_string(),
            first_port,
        }
    }

    /// A connection to the node on `port`, unless it is down.
    async fn node(port: u16) -> Option<redis::aio::MultiplexedConnection> {
        redis::Client::open(format!("redis://127.0.0.1:{port}"))
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .ok()
    }

    /// A connection to any node that is up.
    async fn any_node(&self) -> redis::aio::MultiplexedConnection {
        for port in self.first_port..self.first_port + 6 {
            if let Some(node) = Self::node(port).await {
                return node;
            }
        }
        panic!("no node of the drill cluster answers");
    }

    /// The port of the master serving `key`'s slot.
    async fn master_of(&self, key: &str) -> u16 {
        let mut node = self.any_node().await;
        let slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query_async(&mut node)
            .await
            .unwrap();
        let nodes: String = redis::cmd("CLUSTER")
            .arg("NODES")
            .query_async(&mut node)
            .await
            .unwrap();
        for line in nodes.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if !fields[2].contains("master") || fields[2].contains("fail") {
                continue;
            }
            let serves = fields[8..].iter().any(|range| {
                let (low, high) = range.split_once('-').unwrap_or((range, range));
                matches!((low.parse::<u16>(), high.parse::<u16>()), (Ok(low), Ok(high)) if (low..=high).contains(&slot))
            });
            if serves {
                let address = fields[1].split('@').next().unwrap();
                return address.rsplit_once(':').unwrap().1.parse().unwrap();
            }
        }
        panic!("no master serves slot {slot}: {nodes}");
    }

    /// The process id of the node on `port`.
    async fn pid(port: u16) -> String {
        let mut node = Self::node(port).await.expect("the node is up");
        let info: String = redis::cmd("INFO")
            .arg("server")
            .query_async(&mut node)
            .await
            .unwrap();
        info.lines()
            .find_map(|line| line.strip_prefix("process_id:"))
            .expect("INFO names the process")
            .trim()
            .to_string()
    }

    /// Sends `signal` (such as `-KILL`) to the node process with id `pid`.
    fn signal(pid: &str, signal: &str) {
        let sent = Command::new("kill").arg(signal).arg(pid).status().unwrap();
        assert!(sent.success(), "kill {signal} {pid}");
    }

    /// Kills the node on `port` at once (no shutdown, no save).
    async fn kill(port: u16) {
        Self::signal(&Self::pid(port).await, "-KILL");
    }

    /// The port of the replica of the master on `port` (`ROLE`).
    async fn replica_of(port: u16) -> u16 {
        let mut master = Self::node(port).await.expect("the master is up");
        let role: (String, i64, Vec<(String, String, String)>) =
            redis::cmd("ROLE").query_async(&mut master).await.unwrap();
        role.2
            .first()
            .expect("the master has a replica")
            .1
            .parse()
            .unwrap()
    }
}

impl Drop for DrillCluster {
    fn drop(&mut self) {
        Self::script(self.first_port, "stop");
    }
}

/// A client that keeps retrying reads (and resuming watches) through a failover.
async fn patient_client(server: &TestServer) -> Client {
    server.client().await.with_retry_policy(RetryPolicy {
        max_attempts: 200,
        initial_backoff: Duration::from_millis(50),
        max_backoff: Duration::from_millis(250),
    })
}

/// What one game's player saw.
struct Drilled {
    played: Vec<Played>,
    /// The longest stretch of failed calls before a success.
    longest_outage: Duration,
}

/// Repeats `call` while it fails for a retryable reason, returning its answer and how long it
/// failed; any other error fails the test.
async fn until_served<T, F: Future<Output = Result<T, Error>>>(
    what: &str,
    mut call: impl FnMut() -> F,
) -> (T, Duration) {
    let mut first_failure: Option<Instant> = None;
    loop {
        match call().await {
            Ok(answer) => {
                let outage = first_failure.map_or(Duration::ZERO, |start| start.elapsed());
                return (answer, outage);
            }
            Err(error) if error.is_retryable() => {
                first_failure.get_or_insert_with(Instant::now);
                assert!(
                    first_failure.unwrap().elapsed() < MOST_UNAVAILABLE * 3,
                    "{what} still fails: {error}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(error) => panic!("{what}: not retryable: {error}"),
        }
    }
}

/// Plays game `replicas[0]` (alternating with `replicas[1]`) to its end with random actions,
/// each sent with a request id of its own and resent with the same id while it fails.
/// `progress` counts this game's acknowledged actions.
async fn play(
    replicas: [Game; 2],
    seed: u64,
    progress: tokio::sync::watch::Sender<u64>,
) -> Drilled {
    let mut picker = Picker::new(seed);
    let mut played = Vec::new();
    let mut longest_outage = Duration::ZERO;
    for step in 0..MAX_STEPS {
        let game = &replicas[step % 2];
        let mut views = Vec::new();
        for seat in &game.seats {
            let (view, outage) = until_served("observing", || seat.observe()).await;
            longest_outage = longest_outage.max(outage);
            views.push(view);
        }
        let version = views[0].version;
        assert_eq!(
            version,
            played.len() as u64,
            "an acknowledged action is missing"
        );
        if views[0].status() == pb::GameStatus::Finished {
            break;
        }
        let able: Vec<usize> = (0..views.len())
            .filter(|&seat| !views[seat].legal_actions.is_empty())
            .collect();
        let seat = able[picker.index(able.len())];
        let legal = &views[seat].legal_actions;
        let action = legal[picker.index(legal.len())].clone();
        let options =
            ActOptions::expecting(version).with_request_id(format!("drill-{seed}-{version}"));
        let (response, outage) = until_served("acting", || {
            game.seats[seat].act_with(action.clone(), options.clone())
        })
        .await;
        longest_outage = longest_outage.max(outage);
        assert_eq!(response.version, version + 1);
        played.push(Played {
            seat: seat as u32,
            action,
            response,
        });
        progress.send_replace(played.len() as u64);
    }
    Drilled {
        played,
        longest_outage,
    }
}

// Run on its own by `.ci/run` ("redis cluster failover"), not beside the other process tests:
// the outage it bounds is measured in wall-clock time, which a busy machine stretches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run alone: cargo test -p deckmate-server --test process redis_cluster_failover -- --ignored"]
async fn a_master_dies_during_play_and_no_acknowledged_action_is_lost() {
    let cluster = DrillCluster::start(FIRST_PORT);
    let store = ["--store".to_string(), cluster.url.clone()];
    let a = TestServer::start_with(&store).await;
    let b = TestServer::start_with(&store).await;
    let client_a = patient_client(&a).await;
    let client_b = patient_client(&b).await;

    let mut games = Vec::new();
    for g in 0..GAMES {
        let seed = 500 + g as u64;
        let on_a = client_a
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(seed))
            .await
            .unwrap();
        let on_b = through(&client_b, &on_a);
        let watcher = tokio::spawn(
            client_b
                .spectate(&on_a.id)
                .watch(0)
                .map(|view| {
                    view.expect("the watch resumes through the failover")
                        .version
                })
                .collect::<Vec<u64>>(),
        );
        let (progress, seen) = tokio::sync::watch::channel(0);
        let id = on_a.id.clone();
        let player = tokio::spawn(play([on_a, on_b], seed, progress));
        games.push((id, seed, player, watcher, seen));
    }

    // Kill the master of the first game once every game is under way.
    for (_, _, _, _, seen) in &mut games {
        seen.wait_for(|&count| count >= BEFORE_KILL).await.unwrap();
    }
    let first_game = games[0].0.clone();
    let victim = cluster
        .master_of(&format!("deckmate:{{{}}}:game", first_game))
        .await;
    for (id, seed, ..) in &games {
        let master = cluster.master_of(&format!("deckmate:{{{id}}}:game")).await;
        eprintln!("game {seed} ({id}) is on the master on port {master}");
    }
    DrillCluster::kill(victim).await;
    eprintln!("killed the master on port {victim}");
    let started = Instant::now();

    for (id, seed, player, watcher, _) in games {
        let drilled = player.await.unwrap();
        eprintln!(
            "game {seed}: {} actions, longest outage {:?}",
            drilled.played.len(),
            drilled.longest_outage
        );
        assert!(
            drilled.longest_outage <= NODE_TIMEOUT + Duration::from_secs(5),
            "game {seed} was unavailable for {:?}",
            drilled.longest_outage
        );
        let last = drilled.played.len() as u64;
        assert!(last > BEFORE_KILL, "game {seed} ended before the kill");
        let spectator = client_a.spectate(&id);
        let (history, _) = until_served("history", || spectator.history()).await;
        assert_history_lists(&history, &drilled.played);
        let versions = tokio::time::timeout(WATCH_DEADLINE, watcher)
            .await
            .unwrap_or_else(|_| panic!("game {seed}: the watch did not finish"))
            .unwrap();
        assert_eq!(
            versions,
            (1..=last).collect::<Vec<_>>(),
            "game {seed}: the watcher saw versions out of order, twice or not at all"
        );
    }
    eprintln!("played to the end {:?} after the kill", started.elapsed());
    // The replica took over the first game's slot: the cluster serves every slot again
    // without the dead master.
    let mut node = cluster.any_node().await;
    let info: String = redis::cmd("CLUSTER")
        .arg("INFO")
        .query_async(&mut node)
        .await
        .unwrap();
    assert!(info.contains("cluster_state:ok"), "{info}");
    let successor = cluster
        .master_of(&format!("deckmate:{{{}}}:game", first_game))
        .await;
    assert_ne!(successor, victim, "the first game's slot has a new master");
}

// Run with the drill by `.ci/run`: it freezes a node of a cluster of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run alone: cargo test -p deckmate-server --test process redis_cluster_failover -- --ignored"]
async fn an_act_no_replica_acknowledged_is_unavailable_and_its_retry_is_safe() {
    let cluster = DrillCluster::start(ACK_FIRST_PORT);
    let server = TestServer::start_with(&[
        "--store".to_string(),
        cluster.url.clone(),
        "--redis-replica-ack".to_string(),
        "300ms".to_string(),
    ])
    .await;
    let client = server.client().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(7))
        .await
        .unwrap();
    let master = cluster
        .master_of(&format!("deckmate:{{{}}}:game", game.id))
        .await;
    let replica = DrillCluster::pid(DrillCluster::replica_of(master).await).await;
    let views = [
        game.seats[0].observe().await.unwrap(),
        game.seats[1].observe().await.unwrap(),
    ];
    let seat = views
        .iter()
        .position(|view| !view.legal_actions.is_empty())
        .unwrap();
    let action = views[seat].legal_actions[0].clone();
    let options = ActOptions::expecting(0).with_request_id("unacknowledged");

    // Frozen (for less than the node timeout, so no failover starts), the replica cannot
    // acknowledge: the Act is applied on the master but answered UNAVAILABLE.
    DrillCluster::signal(&replica, "-STOP");
    let refused = game.seats[seat]
        .act_with(action.clone(), options.clone())
        .await;
    DrillCluster::signal(&replica, "-CONT");
    assert!(
        matches!(&refused, Err(Error::StoreUnavailable(_))),
        "{refused:?}"
    );

    // The retry with the same request id answers the stored response once the replica has
    // it, and applies nothing again.
    let (response, _) = until_served("retrying", || {
        game.seats[seat].act_with(action.clone(), options.clone())
    })
    .await;
    assert_eq!(response.version, 1);
    let history = client.spectate(&game.id).history().await.unwrap();
    assert_eq!(history.version, 1, "applied once");
    assert_eq!(game.seats[0].observe().await.unwrap().version, 1);
}
