//! Redis calls per `Act` (docs/PERFORMANCE.md, "Redis round trips"), counted from Redis's own
//! `INFO commandstats` around each call, on a private `redis-server` that nothing else uses:
//!
//! * an `Act` on the replica that served the game's previous action (or created it) is one
//!   call, `EVALSHA` of the commit script, which also checks the request id;
//! * on a replica that has no copy of the game: two (the load script, then the commit);
//! * on a replica whose copy another replica made stale: two (the handler sees the copy is
//!   behind the expected version, or the commit loses and its answer carries the current game,
//!   or the action does not fit the stale state; then it loads or has the game, and commits);
//! * a read (`Observe`) on a replica whose copy is current: one plain `HMGET`, no script, once
//!   a read there found the copy current; where another replica serves the actions, one call
//!   of the load script.
//!
//! `commandstats` counts the commands a script runs as well as the script call itself, so each
//! expectation is the calls (`evalsha`, one per round trip) plus exactly the commands those
//! scripts run: any other command the server sent would show as one too many.

use std::collections::BTreeMap;

use crate::common::{Picker, observe_all, pigeon_chess};
use crate::redis_faults::{PrivateRedis, TempDir};
use crate::server::{TestServer, free_port};
use deckmate::{ActOptions, CreateOptions, Game, pb};

/// Actions in the steady-state part (each one by the replica that served the previous one).
const STEADY_ACTIONS: usize = 24;

/// Calls per command since the Redis server started, from `INFO commandstats`, without `info`
/// itself.
async fn command_calls(
    connection: &mut redis::aio::MultiplexedConnection,
) -> BTreeMap<String, u64> {
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(connection)
        .await
        .unwrap();
    info.lines()
        .filter_map(|line| {
            let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats
                .split(',')
                .find_map(|field| field.strip_prefix("calls="))?;
            Some((name.to_string(), calls.parse().ok()?))
        })
        .filter(|(name, _)| name != "info")
        .collect()
}

/// The commands run between two `command_calls` readings, with their counts.
fn calls_between(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
) -> BTreeMap<String, u64> {
    after
        .iter()
        .map(|(name, calls)| (name.clone(), calls - before.get(name).copied().unwrap_or(0)))
        .filter(|(_, calls)| *calls > 0)
        .collect()
}

/// The commands a commit script call runs when it commits an action with a request id (its
/// `evalsha` included).
const COMMIT: &[(&str, u64)] = &[
    ("evalsha", 1),
    ("hmget", 1),
    // Checks and enters the request id in one call.
    ("zadd", 1),
    // No `llen`: the log's tail in the hash names the stored version, so the list holds it.
    ("time", 1),
    ("xadd", 1),
    ("hset", 1),
    ("rpush", 1),
    ("zremrangebyrank", 1),
    // The game's four keys.
    ("pexpire", 4),
];
/// The commands of a load script call by a replica without a copy of the game.
const LOAD: &[(&str, u64)] = &[("evalsha", 1), ("hmget", 1), ("lrange", 1)];
/// The commands of a load script call by a replica with a (stale) copy: it reads the version,
/// then the record, checks the copy's last action and reads only the actions after it.
const LOAD_AFTER_COPY: &[(&str, u64)] = &[
    ("evalsha", 1),
    ("hmget", 1),
    ("hget", 1),
    ("lindex", 1),
    ("lrange", 1),
];
/// The command of a read by a replica whose last read of the game found its copy current, and
/// whose copy is the stored version: one plain `HMGET` of the version and the log's tail, which
/// confirm the copy's last action; no script runs, and neither the log nor the record is read.
const CURRENT_COPY_CHECK: &[(&str, u64)] = &[("hmget", 1)];
/// The commands of a load script call by a replica whose copy is the stored version: the
/// script reads the version and the log's tail, which confirm the copy's last action; neither
/// the log nor the record is read.
const LOAD_OF_CURRENT_COPY: &[(&str, u64)] = &[("evalsha", 1), ("hmget", 1)];
/// The commands of a commit script call that loses to a newer version and answers with it: the
/// request id it entered is taken out again.
const CONFLICT: &[(&str, u64)] = &[
    ("evalsha", 1),
    ("hmget", 2),
    ("zadd", 1),
    ("zrem", 1),
    ("lrange", 1),
];

/// The commands of these script calls together.
fn script_calls(calls: &[&[(&str, u64)]]) -> BTreeMap<String, u64> {
    let mut total = BTreeMap::new();
    for (name, count) in calls.iter().flat_map(|call| call.iter()) {
        *total.entry(name.to_string()).or_default() += count;
    }
    total
}

/// One random legal action of a seat that may act, from the seats' views.
fn next_action(views: &[pb::ObserveResponse], picker: &mut Picker) -> (usize, pb::Action) {
    let able: Vec<usize> = (0..views.len())
        .filter(|&seat| !views[seat].legal_actions.is_empty())
        .collect();
    let seat = able[picker.index(able.len())];
    let legal = &views[seat].legal_actions;
    (seat, legal[picker.index(legal.len())].clone())
}

/// Acts through `game` (a client of one replica), choosing from the views `observer` (a client
/// of a replica that takes no action, so that its reads refresh no acting replica's copy)
/// shows, and returns the Redis commands the action took.
async fn counted_act(
    game: &Game,
    observer: &Game,
    picker: &mut Picker,
    connection: &mut redis::aio::MultiplexedConnection,
    request: usize,
    expecting: bool,
) -> BTreeMap<String, u64> {
    let views = observe_all(observer).await;
    assert_eq!(
        views[0].status(),
        pb::GameStatus::InProgress,
        "the game runs on"
    );
    let (seat, action) = next_action(&views, picker);
    let before = command_calls(connection).await;
    game.seats[seat]
        .act_with(
            action,
            ActOptions {
                expected_version: expecting.then_some(views[0].version),
                request_id: Some(format!("round-trips-{request}")),
            },
        )
        .await
        .expect("a legal action is applied");
    let after = command_calls(connection).await;
    calls_between(&before, &after)
}

/// Observes through `game`'s first seat and returns the Redis commands the read took.
async fn counted_observe(
    game: &Game,
    connection: &mut redis::aio::MultiplexedConnection,
) -> BTreeMap<String, u64> {
    let before = command_calls(connection).await;
    game.seats[0].observe().await.unwrap();
    let after = command_calls(connection).await;
    calls_between(&before, &after)
}

#[tokio::test]
async fn an_act_costs_one_redis_call_on_the_replica_that_served_the_last() {
    let dir = TempDir::new();
    let port = free_port();
    let _redis = PrivateRedis::start(port, &dir.0).await;
    let url = format!("redis://127.0.0.1:{port}");
    let args = [
        "--store".to_string(),
        url.clone(),
        "--game-ttl".to_string(),
        "10m".to_string(),
        // The clock scheduler's sweeps are Redis calls of their own: none during the count
        // (these games have no clocks or bots, so they never touch the due index).
        "--timer-poll".to_string(),
        "1h".to_string(),
    ];
    let a = TestServer::start_with(&args).await;
    let b = TestServer::start_with(&args).await;
    let c = TestServer::start_with(&args).await;
    let (client_a, client_b) = (a.client().await, b.client().await);
    let mut connection = redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let on_a = client_a
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .unwrap();
    let on_b = crate::redis_replicas::through(&client_b, &on_a);
    let on_c = crate::redis_replicas::through(&c.client().await, &on_a);
    let mut picker = Picker::new(17);
    let one_commit = script_calls(&[COMMIT]);
    let load_and_commit = script_calls(&[LOAD, COMMIT]);
    let load_after_copy_and_commit = script_calls(&[LOAD_AFTER_COPY, COMMIT]);
    let conflict_and_commit = script_calls(&[CONFLICT, COMMIT]);
    // A read of the new game on the replica that created it: the creation wrote the log's
    // tail for version 0, so one plain command confirms the copy and the record is not read
    // back.
    assert_eq!(
        counted_observe(&on_a, &mut connection).await,
        script_calls(&[CURRENT_COPY_CHECK]),
        "observe a new game on the replica that created it"
    );
    // The first commit on a fresh Redis also loads the commit script; not counted.
    let mut request = 0;
    let mut act = async |game: &Game, expecting: bool| {
        request += 1;
        counted_act(
            game,
            &on_c,
            &mut picker,
            &mut connection,
            request,
            expecting,
        )
        .await
    };
    act(&on_a, true).await;

    // Steady state: every action on the replica that created the game and served the last one.
    for step in 0..STEADY_ACTIONS {
        assert_eq!(
            act(&on_a, step % 2 == 0).await,
            one_commit,
            "steady-state action {step}"
        );
    }
    // A replica that never served the game: it loads, then commits.
    assert_eq!(
        act(&on_b, true).await,
        load_and_commit,
        "first action on another replica"
    );
    // Back on the first replica, whose copy is now stale: with an expected version the handler
    // sees that the copy is behind and loads, then commits.
    assert_eq!(
        act(&on_a, true).await,
        load_after_copy_and_commit,
        "stale copy, expected version"
    );
    // Without one, it tries the stale copy: either the commit loses and its answer brings the
    // current game along, or the action does not fit the stale state and the handler loads.
    // Either way the retry commits: two calls.
    let calls = act(&on_b, false).await;
    assert!(
        calls == conflict_and_commit || calls == load_after_copy_and_commit,
        "stale copy, no expected version: {calls:?}"
    );
    // And that replica is in the steady state again.
    assert_eq!(
        act(&on_b, false).await,
        one_commit,
        "after the stale copy was refreshed"
    );
    // Reads on that replica, whose copy is current. Its last read found its copy behind (the
    // stale copy above), so the first read goes to the load script at once, which sends nothing
    // of the game; once a read found the copy current, the next one asks with one plain command.
    assert_eq!(
        counted_observe(&on_b, &mut connection).await,
        script_calls(&[LOAD_OF_CURRENT_COPY]),
        "observe with a current copy, after a read that found the copy behind"
    );
    assert_eq!(
        counted_observe(&on_b, &mut connection).await,
        script_calls(&[CURRENT_COPY_CHECK]),
        "observe with a current copy, after a read that found it current"
    );

    // The log's tail in the hash is trusted only when it is the stored version's: a game whose
    // last commit came from a release before the field (no tail, or one an older version left)
    // is read with the load script after the check, which finds the copy's last action in the
    // log, and a tail naming another last action makes that script send the record.
    let game_key = format!("deckmate:{{{}}}:game", on_b.id);
    let expected = on_b.seats[0].observe().await.unwrap();
    let version = expected.version;
    let mut read_with_tail = async |tail: Option<String>| {
        let change = match &tail {
            Some(tail) => {
                let mut set = redis::cmd("HSET");
                set.arg(&game_key).arg("tail").arg(tail);
                set
            }
            None => {
                let mut delete = redis::cmd("HDEL");
                delete.arg(&game_key).arg("tail");
                delete
            }
        };
        let _: i64 = change.query_async(&mut connection).await.unwrap();
        let before = command_calls(&mut connection).await;
        let observed = on_b.seats[0].observe().await.unwrap();
        let after = command_calls(&mut connection).await;
        assert_eq!(
            observed, expected,
            "the read with tail {tail:?} shows the game"
        );
        calls_between(&before, &after)
    };
    let by_the_log = script_calls(&[CURRENT_COPY_CHECK, LOAD_OF_CURRENT_COPY, &[("lindex", 1)]]);
    assert_eq!(read_with_tail(None).await, by_the_log, "no tail");
    assert_eq!(
        read_with_tail(Some(format!("{}:x", version - 1))).await,
        by_the_log,
        "a tail an older version left"
    );
    assert_eq!(
        read_with_tail(Some(format!("{version}:not the last action"))).await,
        script_calls(&[CURRENT_COPY_CHECK, LOAD_AFTER_COPY]),
        "a tail naming another last action"
    );

    // Two replicas taking turns. The first read on the replica that did not serve the last
    // action follows one that found its copy current: the check fails, then the script reads the
    // actions after the copy. From then on its last read found the copy behind, and a read goes
    // to the load script at once: one call, never a check that fails and then the script.
    let expectations = [
        (
            script_calls(&[CURRENT_COPY_CHECK, LOAD_AFTER_COPY]),
            "the first read on the replica that did not serve the last action",
        ),
        (
            script_calls(&[LOAD_AFTER_COPY]),
            "a later read on the replica that did not serve the last action",
        ),
    ];
    for (round, (expected, what)) in expectations.into_iter().enumerate() {
        counted_act(
            &on_a,
            &on_c,
            &mut picker,
            &mut connection,
            STEADY_ACTIONS + 100 + round,
            true,
        )
        .await;
        assert_eq!(
            counted_observe(&on_b, &mut connection).await,
            expected,
            "{what}"
        );
    }
}
