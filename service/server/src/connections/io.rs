//! [`TrackedConnection`]: an accepted connection as tonic serves it, counted against the
//! connection limit, carrying its [`Activity`] to the requests, and closable from outside. With
//! a Redis store its writes are batched per pass of the scheduler ([`crate::batched_writes`]),
//! so that answers finished together go out in one write.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use futures::task::AtomicWaker;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tonic::transport::server::{Connected, TcpConnectInfo};

use super::activity::Activity;
use super::limit::Admission;
use crate::batched_writes::BatchedWrites;
use crate::tls::Connection;

/// What each request of a connection finds in its extensions: the TCP addresses (which
/// [`super::ActivityLayer`] puts there for `Request::remote_addr`) and the connection's
/// activity.
#[derive(Clone, Debug)]
pub struct ConnectionInfo {
    /// The client's and the server's addresses.
    pub tcp: TcpConnectInfo,
    /// The activity of the connection the request came on.
    pub activity: Activity,
}

/// Closes a connection from outside its task: its next read or write fails, which ends the
/// HTTP connection serving it. Cheap to clone, clones share the switch.
#[derive(Clone, Debug, Default)]
pub struct CloseSwitch {
    inner: Arc<SwitchState>,
}

#[derive(Debug, Default)]
struct SwitchState {
    closed: AtomicBool,
    /// The task serving the connection, woken when the switch is thrown.
    waker: AtomicWaker,
}

impl CloseSwitch {
    /// Closes the connection: whatever it waits for, its task wakes and gets an error.
    pub fn close(&self) {
        self.inner.closed.store(true, Ordering::Release);
        self.inner.waker.wake();
    }

    /// Whether the switch was thrown; registers the task to wake when it is.
    fn poll_closed(&self, cx: &Context<'_>) -> bool {
        self.inner.waker.register(cx.waker());
        self.inner.closed.load(Ordering::Acquire)
    }
}

/// An accepted connection, plain or TLS, while it is served.
#[derive(Debug)]
pub struct TrackedConnection {
    io: BatchedWrites<Connection>,
    info: ConnectionInfo,
    switch: CloseSwitch,
    _admission: Admission,
}

impl TrackedConnection {
    /// Tracks `io` with `activity`, counted by `admission` until dropped, closable by `switch`,
    /// its writes batched as `batch_writes` says.
    pub fn new(
        io: Connection,
        activity: Activity,
        admission: Admission,
        switch: CloseSwitch,
        batch_writes: bool,
    ) -> TrackedConnection {
        let info = ConnectionInfo {
            tcp: io.connect_info(),
            activity,
        };
        TrackedConnection {
            io: if batch_writes {
                BatchedWrites::new(io)
            } else {
                BatchedWrites::direct(io)
            },
            info,
            switch,
            _admission: admission,
        }
    }

    fn closed_error() -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, "connection closed by the server")
    }
}

impl Drop for TrackedConnection {
    fn drop(&mut self) {
        self.info.activity.connection_closed();
    }
}

impl Connected for TrackedConnection {
    type ConnectInfo = ConnectionInfo;

    fn connect_info(&self) -> ConnectionInfo {
        self.info.clone()
    }
}

impl AsyncRead for TrackedConnection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.switch.poll_closed(cx) {
            return Poll::Ready(Err(TrackedConnection::closed_error()));
        }
        Pin::new(&mut this.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for TrackedConnection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.switch.poll_closed(cx) {
            return Poll::Ready(Err(TrackedConnection::closed_error()));
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.switch.poll_closed(cx) {
            return Poll::Ready(Err(TrackedConnection::closed_error()));
        }
        Pin::new(&mut this.io).poll_write_vectored(cx, bufs)
    }

    /// No: so that h2 copies answers below a kilobyte into its write buffer and sends each in
    /// one write (`small_frames.rs`). The writes themselves still go through the connection's
    /// own `poll_write_vectored` where a caller uses it.
    fn is_write_vectored(&self) -> bool {
        false
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
