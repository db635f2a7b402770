//! The one connection type the store uses for commands, to a single Redis server or to a Redis
//! Cluster, and the replica acknowledgement that follows a write (`WAIT`).
//!
//! Both kinds are multiplexed and reconnect by themselves (the single server's in
//! `single_server.rs`); the cluster connection also follows
//! `MOVED` redirections and failovers, refreshing its slot map. Scripts and commands are routed
//! by their first key, so every call about one game goes to the master of that game's slot.

use std::time::Duration;

use ::redis::aio::ConnectionLike;
use ::redis::cluster_async::ClusterConnection;
use ::redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use ::redis::{Cmd, Pipeline, RedisFuture, Value};

use super::single_server::SingleServer;

/// A connection to a single server or to a cluster. Cheap to clone; clones share the sockets.
#[derive(Clone)]
pub(super) enum StoreConnection {
    /// One Redis server.
    Single(SingleServer),
    /// A Redis Cluster.
    Cluster(ClusterConnection),
}

impl std::fmt::Debug for StoreConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StoreConnection::Single(_) => "StoreConnection::Single",
            StoreConnection::Cluster(_) => "StoreConnection::Cluster",
        })
    }
}

impl StoreConnection {
    /// Asks the server that holds `key` to confirm that at least one replica has every write
    /// made on this connection so far, waiting at most `within`. Returns how many replicas
    /// confirmed (0 when the wait timed out).
    ///
    /// On a cluster the `WAIT` must reach the master of the key's slot (the client would
    /// otherwise send it to every master), on the connection that carried the write.
    pub(super) async fn wait_for_replica(
        &mut self,
        key: &str,
        within: Duration,
    ) -> ::redis::RedisResult<i64> {
        let mut wait = ::redis::cmd("WAIT");
        wait.arg(1).arg(within.as_millis().max(1) as u64);
        let reply = self.on_master_of(key, wait).await?;
        ::redis::from_redis_value(reply).map_err(Into::into)
    }

    /// How many replicas the server that holds `key` has connected now (`ROLE`); `None` when
    /// the node asked is no longer a master (the slot moved or failed over meanwhile).
    pub(super) async fn replica_count(&mut self, key: &str) -> ::redis::RedisResult<Option<usize>> {
        let reply = self.on_master_of(key, ::redis::cmd("ROLE")).await?;
        Ok(connected_replicas(&reply))
    }

    /// Sends `command` to the master holding `key` (on one server: to the server). An error
    /// answer (a node that became a replica, a cluster that is down) is an error, never a value.
    async fn on_master_of(&mut self, key: &str, command: Cmd) -> ::redis::RedisResult<Value> {
        let reply = match self {
            StoreConnection::Single(connection) => command.query_async(connection).await?,
            StoreConnection::Cluster(connection) => {
                let route = Route::with_key(key, SlotAddr::Master);
                let routing = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(route));
                connection.route_command(command, routing).await?
            }
        };
        reply.extract_error()
    }
}

/// The number of replicas in a master's `ROLE` answer (`["master", offset, [replica, ...]]`);
/// `None` for any other answer.
fn connected_replicas(role: &Value) -> Option<usize> {
    match role {
        Value::Array(parts) => match parts.as_slice() {
            [Value::BulkString(kind), _, Value::Array(replicas)] if kind == b"master" => {
                Some(replicas.len())
            }
            _ => None,
        },
        _ => None,
    }
}

impl ConnectionLike for StoreConnection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            StoreConnection::Single(connection) => connection.req_packed_command(cmd),
            StoreConnection::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            StoreConnection::Single(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
            StoreConnection::Cluster(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            StoreConnection::Single(connection) => connection.get_db(),
            StoreConnection::Cluster(connection) => connection.get_db(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_answers_count_the_replicas() {
        let text = |text: &str| Value::BulkString(text.as_bytes().to_vec());
        let replica = Value::Array(vec![text("127.0.0.1"), text("7104"), text("42")]);
        let master = |replicas: Vec<Value>| {
            Value::Array(vec![text("master"), Value::Int(42), Value::Array(replicas)])
        };
        assert_eq!(connected_replicas(&master(vec![replica.clone()])), Some(1));
        assert_eq!(connected_replicas(&master(vec![])), Some(0));
        let slave = Value::Array(vec![text("slave"), text("127.0.0.1"), Value::Int(7101)]);
        assert_eq!(connected_replicas(&slave), None);
        assert_eq!(connected_replicas(&Value::Nil), None);
    }
}
