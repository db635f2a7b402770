//! Client connections (docs/OPERATIONS.md, "Connections"): the accept loop and what bounds
//! each connection.
//!
//! * At most `--max-connections` are open at once (`limit.rs`). Beyond it a new connection is
//!   accepted and closed at once rather than left in the listen backlog: the client learns
//!   straight away and can retry (another replica, through its load balancer) instead of
//!   waiting for its connect timeout, and the server keeps file descriptors for its store and
//!   logs.
//! * A failed accept (EMFILE, ENFILE, ...) pauses accepting, 50 ms doubling to 1 s
//!   (`backoff.rs`), instead of retrying in a loop that spins a core.
//! * A connection that has not completed a request within `--handshake-timeout` of its accept
//!   (TLS handshake and HTTP/2 preface included) is closed; one with no request in flight for
//!   `--idle-timeout` is closed gracefully (HTTP/2 GOAWAY) (`activity.rs`).
//! * HTTP/2 keepalive pings every [`KEEPALIVE_INTERVAL`] drop a peer that does not answer
//!   within [`KEEPALIVE_TIMEOUT`].
//! * With a Redis store, a connection's writes wait for the tasks ready to run, so that answers
//!   finished together go out in one write ([`ConnectionSettings::batch_writes`]).
//!
//! Each connection is served by a tonic server of its own over a stream of that one
//! connection, because tonic offers no other way to send one connection GOAWAY: ending that
//! server's shutdown future does it, and the server's routes and layers are shared (cloned)
//! between connections.

mod activity;
mod backoff;
mod file_limit;
mod io;
mod layer;
mod limit;
mod small_frames;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::{self, Stream, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::{Config, StoreUrl};
use crate::monitoring::{self, ConnectionTimeout};
use crate::tls::{Connection, ServerTls};

pub use self::activity::{Activity, Close, InFlight, Timeouts};
pub use self::backoff::{AcceptBackoff, FIRST_PAUSE, LONGEST_PAUSE};
pub use self::file_limit::{
    RESERVED_FILES, default_max_connections, open_file_limit, raise_open_file_limit,
};
pub use self::io::{CloseSwitch, ConnectionInfo, TrackedConnection};
pub use self::layer::{ActivityLayer, ActivityService};
pub use self::limit::{Admission, ConnectionLimit};

/// How often an HTTP/2 connection is pinged (while nothing else arrives on it).
pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(30);
/// How long a keepalive ping may go unanswered before the connection is dropped.
pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time between two warnings that the connection limit refused connections.
const REFUSAL_WARNING_PERIOD: Duration = Duration::from_secs(60);

/// What bounds the server's connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionSettings {
    /// The most connections open at once.
    pub max_connections: usize,
    /// The idle and handshake timeouts.
    pub timeouts: Timeouts,
    /// Whether a connection's writes wait for the tasks ready to run, so that answers finished
    /// together go out in one write ([`crate::batched_writes`]): on with a Redis store, whose
    /// answers wake many handlers at once, off with the memory store, where it does not pay
    /// (docs/PERFORMANCE.md, "Writes batched per pass of the scheduler").
    pub batch_writes: bool,
}

impl ConnectionSettings {
    /// The settings the configuration asks for; without `--max-connections`, the open-file
    /// limit in force minus [`RESERVED_FILES`].
    pub fn from_config(config: &Config) -> ConnectionSettings {
        let max_connections = config
            .max_connections
            .unwrap_or_else(|| open_file_limit().map_or(usize::MAX, default_max_connections));
        ConnectionSettings {
            max_connections,
            timeouts: Timeouts {
                idle: config.idle_timeout,
                handshake: config.handshake_timeout,
            },
            batch_writes: !matches!(config.store, StoreUrl::Memory),
        }
    }
}

/// Serves one connection until `close` completes (then gracefully) or the connection ends.
pub type ServeConnection =
    dyn Fn(TrackedConnection, BoxFuture<'static, ()>) -> BoxFuture<'static, ()> + Send + Sync;

/// The stream of one connection that a per-connection tonic server serves. It never ends:
/// tonic shuts its server down when the stream ends, and that is for `close` to decide.
pub fn single(
    connection: TrackedConnection,
) -> impl Stream<Item = std::io::Result<TrackedConnection>> {
    stream::once(async { Ok(connection) }).chain(stream::pending())
}

/// Accepts connections on `listener` (TLS with `tls`) and has `serve_connection` serve each,
/// until `shutdown` completes; then closes the listener, asks every connection to close
/// (GOAWAY: calls in flight finish) and returns once all are closed.
pub async fn serve(
    listener: TcpListener,
    tls: Option<ServerTls>,
    settings: ConnectionSettings,
    serve_connection: Arc<ServeConnection>,
    shutdown: impl Future<Output = ()>,
) {
    let _reloader = tls.as_ref().map(ServerTls::reload_while_serving);
    let limit = ConnectionLimit::new(settings.max_connections);
    let connections = TaskTracker::new();
    let stopping = CancellationToken::new();
    let mut backoff = AcceptBackoff::new();
    let mut last_refusal_warning: Option<Instant> = None;
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // One log line per pause: at most one a second while accepts keep failing.
                let pause = backoff.failed();
                tracing::warn!(%error, ?pause, "cannot accept a connection; pausing accepts");
                tokio::select! {
                    () = &mut shutdown => break,
                    () = tokio::time::sleep(pause) => continue,
                }
            }
        };
        backoff.succeeded();
        let Some(admission) = limit.try_admit() else {
            monitoring::connection_refused();
            // At the limit every freed place lets one connection in and the next ones out: warn
            // once a minute at most, the metric counts them all.
            if last_refusal_warning.is_none_or(|at| at.elapsed() >= REFUSAL_WARNING_PERIOD) {
                tracing::warn!(
                    max_connections = limit.max(),
                    "connection limit reached; closing new connections at once"
                );
                last_refusal_warning = Some(Instant::now());
            }
            drop(stream);
            continue;
        };
        connections.spawn(connection(
            stream,
            peer,
            admission,
            tls.clone(),
            settings,
            serve_connection.clone(),
            stopping.clone(),
        ));
    }
    drop(listener);
    stopping.cancel();
    connections.close();
    connections.wait().await;
}

/// Runs the TLS handshake if any, then serves the connection until a timeout, shutdown or the
/// client closes it.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    admission: Admission,
    tls: Option<ServerTls>,
    settings: ConnectionSettings,
    serve_connection: Arc<ServeConnection>,
    stopping: CancellationToken,
) {
    let timeouts = settings.timeouts;
    let accepted_at = Instant::now();
    // Small request/response exchanges must not wait on delayed ACKs (tens of milliseconds
    // per call otherwise).
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%peer, %error, "cannot turn off Nagle's algorithm");
    }
    let io = match tls {
        None => Connection::Plain(stream),
        Some(tls) => {
            let handshake = tls.handshake(stream, peer, timeouts.handshake);
            match stopping.run_until_cancelled(handshake).await {
                Some(Some(stream)) => Connection::Tls(Box::new(stream)),
                Some(None) => {
                    // Failed or timed out; only the latter counts as a timeout.
                    if accepted_at.elapsed() >= timeouts.handshake {
                        monitoring::connection_timed_out(ConnectionTimeout::Handshake);
                    }
                    return;
                }
                None => return,
            }
        }
    };
    let activity = Activity::new(accepted_at);
    let switch = CloseSwitch::default();
    let connection = TrackedConnection::new(
        io,
        activity.clone(),
        admission,
        switch.clone(),
        settings.batch_writes,
    );
    let close = close_when_due(activity, switch, timeouts, peer, stopping);
    serve_connection(connection, Box::pin(close)).await;
}

/// Completes when the connection is to close gracefully: it was idle too long, the server
/// shuts down, or it closed by itself. One that sent no request in time is cut instead.
async fn close_when_due(
    activity: Activity,
    switch: CloseSwitch,
    timeouts: Timeouts,
    peer: SocketAddr,
    stopping: CancellationToken,
) {
    let close = tokio::select! {
        close = activity.until_close(timeouts) => close,
        () = stopping.cancelled() => return,
    };
    match close {
        Close::Handshake => {
            tracing::debug!(%peer, timeout = ?timeouts.handshake, "no request in time; closing");
            monitoring::connection_timed_out(ConnectionTimeout::Handshake);
            // Nothing to finish gracefully: the client may not even speak HTTP.
            switch.close();
        }
        Close::Idle => {
            tracing::debug!(%peer, timeout = ?timeouts.idle, "connection idle; closing");
            monitoring::connection_timed_out(ConnectionTimeout::Idle);
        }
        Close::Gone => {}
    }
}
