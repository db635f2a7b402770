//! The Redis Cluster harness of the store suite, and the cases only a cluster has. The cluster
//! is the one at `DECKMATE_TEST_REDIS_CLUSTER_URL` (default: the one `scripts/redis-cluster.sh
//! start` makes, which `.ci/run` starts); the cases fail, never skip, when none answers.

use super::*;

/// The test cluster's store URL.
pub(super) fn cluster_url() -> String {
    std::env::var("DECKMATE_TEST_REDIS_CLUSTER_URL").unwrap_or_else(|_| {
        let nodes: Vec<String> = (7101..=7106)
            .map(|port| format!("127.0.0.1:{port}"))
            .collect();
        format!("redis-cluster://{}", nodes.join(","))
    })
}

/// The Redis store on the test cluster, in a namespace of its own per case, writing with a
/// replica's acknowledgement as a cluster server does by default.
pub(super) struct Cluster {
    namespace: String,
}

impl Cluster {
    pub(super) fn new() -> Cluster {
        Cluster {
            namespace: format!("deckmate-test-{}", fresh_id()),
        }
    }

    fn settings(&self, ttl: Duration, max_games: usize) -> RedisSettings {
        RedisSettings {
            ttl,
            max_games,
            namespace: self.namespace.clone(),
            replica_ack: Some(Duration::from_secs(1)),
            ..RedisSettings::new(cluster_url())
        }
    }

    /// A plain connection to each master of the cluster, for looking at keys.
    async fn masters(&self) -> Vec<redis::aio::MultiplexedConnection> {
        let mut masters = Vec::new();
        for node in deckmate_server::store::redis::cluster_nodes(&cluster_url()).unwrap() {
            let client = redis::Client::open(node.as_str()).unwrap();
            let Ok(mut connection) = client.get_multiplexed_async_connection().await else {
                continue;
            };
            let role: redis::Value = redis::cmd("ROLE")
                .query_async(&mut connection)
                .await
                .unwrap();
            let is_master = matches!(&role, redis::Value::Array(parts)
                if matches!(parts.first(), Some(redis::Value::BulkString(role)) if role == b"master"));
            if is_master {
                masters.push(connection);
            }
        }
        assert!(
            !masters.is_empty(),
            "no Redis Cluster answers at {} (set DECKMATE_TEST_REDIS_CLUSTER_URL, or run \
             scripts/redis-cluster.sh start)",
            cluster_url()
        );
        masters
    }

    /// Every key of this case's namespace, with the master holding it.
    async fn keys(&self) -> Vec<(redis::aio::MultiplexedConnection, String)> {
        let pattern = format!("{}:*", self.namespace);
        let mut found = Vec::new();
        for mut master in self.masters().await {
            let keys: Vec<String> = master.keys(&pattern).await.unwrap();
            found.extend(keys.into_iter().map(|key| (master.clone(), key)));
        }
        found
    }
}

#[async_trait]
impl Harness for Cluster {
    type Store = RedisStore;

    async fn store(&self, ttl: Duration, max_games: usize) -> RedisStore {
        let store = RedisStore::open(self.settings(ttl, max_games)).expect("a cluster URL");
        assert!(
            store.health().await,
            "no Redis Cluster answers at {} (set DECKMATE_TEST_REDIS_CLUSTER_URL, or run \
             scripts/redis-cluster.sh start)",
            cluster_url()
        );
        store
    }

    async fn pass_time(&self, duration: Duration) {
        let passed = duration.as_millis() as i64;
        for (mut master, key) in self.keys().await {
            let left: i64 = master.pttl(&key).await.unwrap();
            if left > passed {
                let _: bool = master.pexpire(&key, left - passed).await.unwrap();
            } else if left >= 0 {
                let _: usize = master.del(&key).await.unwrap();
            }
        }
    }

    fn limit_is_sharded(&self) -> bool {
        true
    }
}

networked_cases!(Cluster::new());

#[tokio::test]
async fn the_game_index_is_sharded_over_slots() {
    let harness = Cluster::new();
    let store = harness.store(LONG_TTL, 1_600).await;
    for _ in 0..24 {
        created(&store).await;
    }
    assert_eq!(store.live_games().await, Ok(24));
    let keys: Vec<String> = harness
        .keys()
        .await
        .into_iter()
        .map(|(_, key)| key)
        .collect();
    let shards: Vec<&String> = keys
        .iter()
        .filter(|key| key.starts_with(&format!("{}:games", harness.namespace)))
        .collect();
    // 24 random ids over 16 shards use several of them, never an unsharded index.
    assert!(shards.len() > 1, "{shards:?}");
    for shard in &shards {
        let number = shard
            .strip_prefix(&format!("{}:games:{{", harness.namespace))
            .and_then(|rest| rest.strip_suffix('}'))
            .and_then(|number| number.parse::<u32>().ok());
        assert!(number.is_some_and(|n| n < 16), "{shard}");
    }
}

#[tokio::test]
async fn every_key_of_a_game_lives_on_one_master() {
    let harness = Cluster::new();
    let store = harness.store(LONG_TTL, 100).await;
    let game = created(&store).await;
    commit_next(&store, &game, Some((Seat(0), RequestKey::for_act("k")))).await;
    let prefix = format!("{}:{{{}}}:", harness.namespace, game.id);
    let mut holders = Vec::new();
    for (mut master, key) in harness.keys().await {
        if key.starts_with(&prefix) {
            let node: String = redis::cmd("CLUSTER")
                .arg("MYID")
                .query_async(&mut master)
                .await
                .unwrap();
            holders.push((key, node));
        }
    }
    assert_eq!(
        holders.len(),
        4,
        "record, log, events, requests: {holders:?}"
    );
    assert!(
        holders.iter().all(|(_, node)| *node == holders[0].1),
        "{holders:?}"
    );
}
