//! Idempotent `Act` retries racing their original on the Redis store: copies of one request
//! (the same request id) sent at once, to one replica or split between two on the same Redis.
//! Whichever copy commits, the others answer with its response, so every copy that succeeds
//! carries the one version the action produced, and a copy may only fail as a version race
//! (ABORTED `STALE_VERSION`), never as a bad request. What decides the interleaving is the
//! scheduler, not a clock: the test asserts what every interleaving must give.
//!
//! They need the Redis server at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`).

use crate::common::{Picker, observe_all, pigeon_chess};
use crate::redis_replicas::{TwoReplicas, replica, require_redis};
use deckmate::{ActOptions, CreateOptions, Error, Game, pb};

/// Copies of each request sent at once.
const COPIES: usize = 8;
/// Requests, one action each, raced in a game.
const ROUNDS: usize = 12;

/// Races `COPIES` copies of one request per round over `games` (the same game through each
/// replica), copy `i` going to `games[i % games.len()]`; half the rounds also name the
/// expected version.
async fn race_copies(games: &[Game], seed: u64) {
    let first = &games[0];
    let mut picker = Picker::new(seed);
    for round in 0..ROUNDS {
        let views = observe_all(first).await;
        let version = views[0].version;
        assert_eq!(
            version, round as u64,
            "each round applies exactly one action"
        );
        assert_ne!(views[0].status(), pb::GameStatus::Finished);
        let able: Vec<usize> = (0..views.len())
            .filter(|&seat| !views[seat].legal_actions.is_empty())
            .collect();
        let seat = able[picker.index(able.len())];
        let legal = &views[seat].legal_actions;
        let action = legal[picker.index(legal.len())].clone();
        let request_id = format!("race-{seed}-{round}");
        let options = if round % 2 == 0 {
            ActOptions::default().with_request_id(&request_id)
        } else {
            ActOptions::expecting(version).with_request_id(&request_id)
        };
        let results = futures::future::join_all((0..COPIES).map(|copy| {
            games[copy % games.len()].seats[seat].act_with(action.clone(), options.clone())
        }))
        .await;
        let mut answered = None;
        for (copy, result) in results.into_iter().enumerate() {
            match result {
                Ok(response) => {
                    assert_eq!(
                        response.version,
                        version + 1,
                        "copy {copy} of round {round} answered another version"
                    );
                    match &answered {
                        None => answered = Some(response),
                        Some(first) => assert_eq!(
                            &response, first,
                            "copy {copy} of round {round} got another answer"
                        ),
                    }
                }
                Err(Error::StaleVersion { .. }) => {}
                Err(other) => panic!("copy {copy} of round {round} failed with {other}"),
            }
        }
        assert!(
            answered.is_some(),
            "no copy of round {round} succeeded although the action was legal"
        );
        let after = first.seats[seat].observe().await.unwrap();
        assert_eq!(
            after.version,
            version + 1,
            "round {round} applied more than once"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_racing_the_original_on_one_replica_answer_alike() {
    require_redis().await;
    let server = replica().await;
    let client = server.client().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(51))
        .await
        .unwrap();
    race_copies(&[game], 51).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_racing_the_original_on_two_replicas_answer_alike() {
    let TwoReplicas {
        servers: _servers,
        on_a,
        on_b,
        ..
    } = TwoReplicas::with_game(52).await;
    race_copies(&[on_a, on_b], 52).await;
}
