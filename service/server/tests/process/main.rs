//! Tests of what only a running `deckmate-server` process shows, each spawning the binary:
//! a Redis store going away and coming back under a running server, two replicas on one
//! Redis, idempotent retries racing their original, request ids remembered per caller, games
//! lost with Redis's data, the memory unread watch streams hold, SIGTERM under load, Redis
//! faults under load, a Redis Cluster losing a master during play, Redis calls per action, the
//! Redis store over a Unix socket, API keys read from a file and reloaded on SIGHUP, TLS, traces
//! exported over OTLP, and what deployments use: the `health` subcommand, connection age and
//! the drain timeout, connection limits and timeouts; a turn clock whose replica is lost firing
//! on another.
//! The API itself is tested in process, in the `api` test binary.

mod acknowledged;
mod api_keys;
mod clock_failover;
#[path = "../common/mod.rs"]
mod common;
mod connection_limits;
mod deployment;
mod fault_proxy;
mod idempotent_retries;
mod metrics;
mod redis_cluster_failover;
mod redis_fault_drill;
mod redis_faults;
mod redis_replicas;
mod redis_round_trips;
mod redis_unix_socket;
mod request_ids;
mod scratch;
mod server;
mod sigterm_under_load;
mod tls;
mod traces;
mod watch_memory;
