//! Two `deckmate-server` processes on one Redis (docs/ARCHITECTURE.md §4: the server is stateless
//! with Redis, any replica serves any game):
//!
//! * a game created on one replica is played to its end with actions alternating between the
//!   two, and watchers on both see every version exactly once, in order;
//! * concurrent `Act` calls with the same `expected_version` at both replicas apply exactly one
//!   action, the others fail with ABORTED `STALE_VERSION`, and the final state is a serial replay
//!   of the applied actions.
//!
//! They need the Redis server at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`,
//! which CI starts) and fail when none answers.

use std::time::Duration;

use crate::common::{Picker, assert_history_lists, observe_all, pigeon_chess, play_random_step};
use crate::server::TestServer;
use deckmate::{ActOptions, Client, CreateOptions, Error, Game, pb};
use deckmate_engine::{Seat, Seed, Viewer};
use deckmate_server::catalog;
use futures::StreamExt;

/// More steps than any Pigeon Chess game takes (its turn cap ends every game well before).
const MAX_STEPS: usize = 5_000;
/// Rounds of concurrent actions in the race test.
const RACE_ROUNDS: usize = 25;
/// Calls per race round, alternating between the replicas.
const RACERS: usize = 4;
/// The longest a watcher may take to deliver the rest of a finished game.
const WATCH_DEADLINE: Duration = Duration::from_secs(60);

pub(crate) fn redis_url() -> String {
    std::env::var("DECKMATE_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// Fails the test unless Redis answers.
pub(crate) async fn require_redis() {
    let client = redis::Client::open(redis_url()).expect("a Redis URL");
    let mut connection = client
        .get_multiplexed_async_connection()
        .await
        .unwrap_or_else(|error| panic!("no Redis answers at {}: {error}", redis_url()));
    let pong: String = redis::cmd("PING")
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(pong, "PONG");
}

/// A server replica on the test Redis.
pub(crate) async fn replica() -> TestServer {
    TestServer::start_with(&[
        "--store".to_string(),
        redis_url(),
        "--game-ttl".to_string(),
        "10m".to_string(),
    ])
    .await
}

/// Two replicas on the test Redis, a client of each, and a seeded two-seat Pigeon Chess game
/// created on the first, with its seats as each replica's client reaches them.
pub(crate) struct TwoReplicas {
    /// The server processes, killed when this is dropped: bind them to a named variable.
    pub(crate) servers: [TestServer; 2],
    /// A client of the first replica.
    pub(crate) client_a: Client,
    /// A client of the second replica.
    pub(crate) client_b: Client,
    /// The game through the first replica.
    pub(crate) on_a: Game,
    /// The same game through the second replica.
    pub(crate) on_b: Game,
}

impl TwoReplicas {
    /// Starts both replicas (failing the test unless Redis answers) and creates the game with
    /// `seed` on the first.
    pub(crate) async fn with_game(seed: u64) -> TwoReplicas {
        require_redis().await;
        let servers = [replica().await, replica().await];
        let client_a = servers[0].client().await;
        let client_b = servers[1].client().await;
        let on_a = client_a
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(seed))
            .await
            .unwrap();
        let on_b = through(&client_b, &on_a);
        TwoReplicas {
            servers,
            client_a,
            client_b,
            on_a,
            on_b,
        }
    }
}

/// The same game as seen through another replica's client.
pub(crate) fn through(client: &Client, game: &Game) -> Game {
    Game {
        id: game.id.clone(),
        variant: game.variant.clone(),
        seats: game
            .seats
            .iter()
            .map(|seat| client.seat(&game.id, seat.seat(), seat.token()).unwrap())
            .collect(),
        seed_commitment: game.seed_commitment.clone(),
        version: game.version,
    }
}

/// Every view a watch stream delivers until it ends.
async fn collect_views(
    stream: impl futures::Stream<Item = Result<pb::ObserveResponse, Error>> + Unpin,
) -> Vec<pb::ObserveResponse> {
    stream
        .map(|view| view.expect("the watch delivers views"))
        .collect()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_alternates_between_replicas_and_watchers_see_every_version_once() {
    let TwoReplicas {
        servers: _servers,
        client_a,
        client_b,
        on_a,
        on_b,
    } = TwoReplicas::with_game(21).await;

    // Each watcher with the viewer whose final view it must end on.
    let watchers = [
        (
            "seat 0 on A",
            Some(0),
            tokio::spawn(collect_views(on_a.seats[0].watch(0))),
        ),
        (
            "spectator on A",
            None,
            tokio::spawn(collect_views(client_a.spectate(&on_a.id).watch(0))),
        ),
        (
            "seat 1 on B",
            Some(1),
            tokio::spawn(collect_views(on_b.seats[1].watch(0))),
        ),
    ];

    let mut picker = Picker::new(21);
    let mut played = Vec::new();
    for step in 0..MAX_STEPS {
        let replica = if step % 2 == 0 { &on_a } else { &on_b };
        match play_random_step(replica, &mut picker).await {
            Some(action) => played.push(action),
            None => break,
        }
    }
    let final_views = observe_all(&on_b).await;
    assert_eq!(final_views[0].status(), pb::GameStatus::Finished);
    let last = played.len() as u64;
    assert_eq!(final_views[0].version, last);
    assert!(
        last > 10,
        "a game of {last} actions does not alternate much"
    );

    let spectator_view = client_b.spectate(&on_a.id).observe().await.unwrap();
    // Whichever replica took an action, the log holds it once, in order.
    let history = client_a.spectate(&on_b.id).history().await.unwrap();
    assert_history_lists(&history, &played);
    for (name, seat, watcher) in watchers {
        let views = tokio::time::timeout(WATCH_DEADLINE, watcher)
            .await
            .unwrap_or_else(|_| panic!("{name}: the watch did not finish"))
            .unwrap();
        let versions: Vec<u64> = views.iter().map(|view| view.version).collect();
        assert_eq!(
            versions,
            (1..=last).collect::<Vec<_>>(),
            "{name} saw versions out of order, twice or not at all"
        );
        // The last view watched on one replica is the final view observed on the other.
        let expected = match seat {
            Some(seat) => &final_views[seat],
            None => &spectator_view,
        };
        assert_eq!(views.last(), Some(expected), "{name}'s last view");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_acts_at_both_replicas_apply_exactly_once() {
    let seed = 33;
    let TwoReplicas {
        servers: _servers,
        client_a,
        on_a,
        on_b,
        ..
    } = TwoReplicas::with_game(seed).await;
    let mut picker = Picker::new(seed);
    let mut applied: Vec<(u32, pb::Action)> = Vec::new();

    for _ in 0..RACE_ROUNDS {
        let views = observe_all(&on_a).await;
        let version = views[0].version;
        if views[0].status() == pb::GameStatus::Finished {
            break;
        }
        let able: Vec<usize> = (0..views.len())
            .filter(|&seat| !views[seat].legal_actions.is_empty())
            .collect();
        let racers: Vec<(usize, pb::Action, &Game)> = (0..RACERS)
            .map(|racer| {
                let seat = able[picker.index(able.len())];
                let legal = &views[seat].legal_actions;
                let action = legal[picker.index(legal.len())].clone();
                let replica = if racer % 2 == 0 { &on_a } else { &on_b };
                (seat, action, replica)
            })
            .collect();
        let results = futures::future::join_all(racers.iter().map(|(seat, action, replica)| {
            replica.seats[*seat].act_with(action.clone(), ActOptions::expecting(version))
        }))
        .await;

        let mut winners = Vec::new();
        for ((seat, action, _), result) in racers.iter().zip(results) {
            match result {
                Ok(response) => {
                    assert_eq!(response.version, version + 1);
                    winners.push((*seat as u32, action.clone()));
                }
                Err(Error::StaleVersion {
                    current_version, ..
                }) => assert_eq!(current_version, Some(version + 1)),
                Err(other) => panic!("a racing act failed with {other}"),
            }
        }
        assert_eq!(
            winners.len(),
            1,
            "exactly one racer at version {version} wins"
        );
        applied.extend(winners);
    }
    assert!(
        applied.len() >= 5,
        "only {} rounds were raced",
        applied.len()
    );

    // The stored game is the serial replay of the winning actions.
    let config = pigeon_chess();
    let mut replay = catalog::new_game(&config, 2, Seed::from_u64(seed)).unwrap();
    for (seat, action) in &applied {
        replay.act(Seat(*seat as u8), action).unwrap();
    }
    let served = observe_all(&on_b).await;
    assert_eq!(served[0].version, applied.len() as u64);
    for (seat, view) in served.into_iter().enumerate() {
        let mut expected = replay.view(Viewer::Seat(Seat(seat as u8)));
        expected.game_id = on_a.id.clone();
        assert_eq!(view, expected, "seat {seat}'s view differs from the replay");
    }
    let spectator = client_a.spectate(&on_a.id).observe().await.unwrap();
    let mut expected = replay.view(Viewer::Spectator);
    expected.game_id = on_a.id.clone();
    assert_eq!(spectator, expected);
}
