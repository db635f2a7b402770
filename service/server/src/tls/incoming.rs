//! [`incoming`]: the listener as the stream of [`Connection`]s tonic serves.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use futures::stream::{FuturesUnordered, Stream, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;
use tonic::transport::server::TcpIncoming;

use super::{Connection, HANDSHAKE_TIMEOUT, ServerTls};

/// The connections accepted on the API listener. Dropping it (tonic does when shutdown begins)
/// closes the listener, abandons unfinished handshakes and stops reloading on SIGHUP.
pub struct Incoming {
    kind: Kind,
}

enum Kind {
    Plain(TcpIncoming),
    Tls(TlsIncoming),
}

/// Connections on `listener`: TLS with `tls`, or plain TCP without. Either way Nagle's
/// algorithm is off, so that small request/response exchanges do not wait on delayed ACKs
/// (tens of milliseconds per call otherwise). With TLS, the settings are reloaded on SIGHUP
/// while the stream lives.
pub fn incoming(listener: TcpListener, tls: Option<ServerTls>) -> Incoming {
    let kind = match tls {
        None => Kind::Plain(TcpIncoming::from(listener).with_nodelay(Some(true))),
        Some(tls) => Kind::Tls(TlsIncoming {
            _reloader: ReloadTask(tls.reload_on_hangup()),
            listener,
            tls,
            handshakes: FuturesUnordered::new(),
        }),
    };
    Incoming { kind }
}

impl Stream for Incoming {
    type Item = io::Result<Connection>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match &mut self.get_mut().kind {
            Kind::Plain(incoming) => incoming
                .poll_next_unpin(cx)
                .map(|next| next.map(|accepted| accepted.map(Connection::Plain))),
            Kind::Tls(incoming) => incoming.poll_next(cx),
        }
    }
}

struct TlsIncoming {
    listener: TcpListener,
    tls: ServerTls,
    /// Handshakes under way; each yields the connection, or nothing if it failed.
    handshakes: FuturesUnordered<BoxFuture<'static, Option<TlsStream<TcpStream>>>>,
    _reloader: ReloadTask,
}

impl TlsIncoming {
    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<io::Result<Connection>>> {
        // Take every connection waiting to be accepted and start its handshake; the listener
        // wakes this stream for the next one.
        loop {
            match self.listener.poll_accept(cx) {
                Poll::Ready(Ok((stream, peer))) => {
                    if let Err(error) = stream.set_nodelay(true) {
                        tracing::debug!(%peer, %error, "cannot turn off Nagle's algorithm");
                    }
                    let acceptor = self.tls.acceptor();
                    self.handshakes
                        .push(Box::pin(handshake(acceptor, stream, peer)));
                }
                // tonic logs the error and asks for the next connection.
                Poll::Ready(Err(error)) => return Poll::Ready(Some(Err(error))),
                Poll::Pending => break,
            }
        }
        loop {
            match self.handshakes.poll_next_unpin(cx) {
                Poll::Ready(Some(Some(stream))) => {
                    return Poll::Ready(Some(Ok(Connection::Tls(Box::new(stream)))));
                }
                Poll::Ready(Some(None)) => continue,
                // No handshake is under way; the listener will wake the stream.
                Poll::Ready(None) | Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// The TLS handshake of one client, bounded by [`HANDSHAKE_TIMEOUT`]. Failures are logged at
/// debug level only: port scanners and plaintext clients cause them all the time.
async fn handshake(
    acceptor: TlsAcceptor,
    stream: TcpStream,
    peer: SocketAddr,
) -> Option<TlsStream<TcpStream>> {
    match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await {
        Ok(Ok(stream)) => Some(stream),
        Ok(Err(error)) => {
            tracing::debug!(%peer, %error, "TLS handshake failed");
            None
        }
        Err(_) => {
            tracing::debug!(%peer, timeout = ?HANDSHAKE_TIMEOUT, "TLS handshake timed out");
            None
        }
    }
}

/// The SIGHUP reload task, aborted when the listener goes away.
struct ReloadTask(Option<JoinHandle<()>>);

impl Drop for ReloadTask {
    fn drop(&mut self) {
        if let Some(task) = &self.0 {
            task.abort();
        }
    }
}
