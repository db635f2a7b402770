//! [`Keepalive`]: the HTTP/2 pings that find a connection that died silently.

use std::time::Duration;

/// Pings on a connection while calls are open on it.
///
/// A connection can die without either end closing it (a NAT or load balancer forgetting it, a
/// network switch): calls on it then wait forever, and a watch would never hear of another
/// version. With calls open, the client pings every `interval` and closes the connection when a
/// ping is not answered within `timeout`; the calls then fail with a transport error, and a
/// watch reconnects and resumes. No pings are sent on an idle connection. The defaults (20 s
/// and 10 s) notice a dead connection within half a minute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keepalive {
    /// How long after the last frame received a ping is sent.
    pub interval: Duration,
    /// How long a ping may go unanswered before the connection is closed.
    pub timeout: Duration,
}

impl Default for Keepalive {
    fn default() -> Keepalive {
        Keepalive {
            interval: Duration::from_secs(20),
            timeout: Duration::from_secs(10),
        }
    }
}
