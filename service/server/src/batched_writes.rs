//! Sockets that send what every task ready to run has to send in one write.
//!
//! A connection's task writes whatever is queued when it runs. The runtime runs a task woken by
//! the one running now next (its "LIFO slot"), so when a call queues its message and waits, the
//! connection's task runs at once and writes that one message: under load, close to one write
//! per message, each a system call with the loopback's work (the peer's wake-up and read)
//! behind it. Two connections are written this way:
//!
//! * **The API's connections on a Redis store** (`connections/io.rs`): when a batch of Redis
//!   answers wakes many handlers at once, each finished answer woke the connection's task, which
//!   wrote it alone. On the memory store, handlers answer in the connection's own flow and h2
//!   already writes several answers at a time; there the wait only cost a pass of the scheduler,
//!   and the connections write directly ([`BatchedWrites::direct`]).
//! * **The Redis store's socket** (`store/redis/single_server.rs`): each call's command went in
//!   a write of its own, and Redis read and answered them one by one.
//!
//! [`BatchedWrites`] holds back the first write after each flush until the runtime has run the
//! tasks that were ready (`tokio::task::yield_now`, which defers the connection's task until
//! its worker has nothing else to run and has polled for I/O): every task about to queue a
//! message has queued it by then, and they go in one write. A lone message waits one pass of the
//! scheduler, with no timer. Reads pass straight through.
//!
//! docs/PERFORMANCE.md, "Writes batched per pass of the scheduler", has the measurements.

use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker, ready};

use futures::task::AtomicWaker;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// `inner`, writing what is queued after the tasks ready to run have queued theirs.
pub struct BatchedWrites<S> {
    inner: S,
    /// Whether this batch has had its pass of the scheduler: writes go through until the next
    /// flush.
    open: bool,
    /// The pass being waited for, once the first write of a batch asked.
    waiting: Option<Arc<Pass>>,
    /// Whether writes wait for their pass at all ([`BatchedWrites::direct`] does not).
    batching: bool,
}

/// One pass of the scheduler, waited for: the waker the scheduler holds until it has run the
/// tasks that were ready. Other wake-ups of the connection's task (a new message queued, the
/// socket ready) come before it and must not end the wait, so the pass says itself when it
/// came.
struct Pass {
    came: AtomicBool,
    task: AtomicWaker,
}

impl Wake for Pass {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.came.store(true, Ordering::Release);
        self.task.wake();
    }
}

impl<S> BatchedWrites<S> {
    /// `inner` with its writes batched.
    pub fn new(inner: S) -> BatchedWrites<S> {
        BatchedWrites {
            inner,
            open: false,
            waiting: None,
            batching: true,
        }
    }

    /// `inner` with its writes going through at once, for a connection whose messages come in
    /// bursts already (see [`crate::connections::ConnectionSettings::batch_writes`]).
    pub fn direct(inner: S) -> BatchedWrites<S> {
        BatchedWrites {
            inner,
            open: true,
            waiting: None,
            batching: false,
        }
    }

    /// Ready once the current batch may be written: at once if it has had its pass of the
    /// scheduler, otherwise after it.
    fn poll_open(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.open {
            return Poll::Ready(());
        }
        let pass = match &self.waiting {
            Some(pass) => pass,
            None => {
                let pass = Arc::new(Pass {
                    came: AtomicBool::new(false),
                    task: AtomicWaker::new(),
                });
                pass.task.register(cx.waker());
                // `yield_now` hands the scheduler the waker of its first poll (or wakes it at
                // once outside a runtime); the future itself is done with after that poll.
                let waker = Waker::from(pass.clone());
                let _ = pin!(tokio::task::yield_now()).poll(&mut Context::from_waker(&waker));
                self.waiting.insert(pass)
            }
        };
        pass.task.register(cx.waker());
        if !pass.came.load(Ordering::Acquire) {
            return Poll::Pending;
        }
        self.waiting = None;
        self.open = true;
        Poll::Ready(())
    }
}

impl<S: std::fmt::Debug> std::fmt::Debug for BatchedWrites<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchedWrites")
            .field("inner", &self.inner)
            .field("open", &self.open)
            .finish_non_exhaustive()
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for BatchedWrites<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for BatchedWrites<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_open(cx));
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_open(cx));
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let flushed = ready!(Pin::new(&mut self.inner).poll_flush(cx));
        // What comes next is a new batch, which waits for its own pass.
        self.open = !self.batching;
        Poll::Ready(flushed)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use ::redis::aio::MultiplexedConnection;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    use super::*;

    /// A stream that counts the writes that carried bytes.
    struct CountedWrites {
        inner: DuplexStream,
        writes: Arc<AtomicUsize>,
    }

    impl AsyncRead for CountedWrites {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Pin::new(&mut self.inner).poll_read(cx, buf)
        }
    }

    impl AsyncWrite for CountedWrites {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let written = ready!(Pin::new(&mut self.inner).poll_write(cx, buf))?;
            if written > 0 {
                self.writes.fetch_add(1, Ordering::Relaxed);
            }
            Poll::Ready(Ok(written))
        }

        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.inner).poll_flush(cx)
        }

        fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.inner).poll_shutdown(cx)
        }
    }

    /// A server that answers every `PING` with `PONG`, however the commands arrive.
    async fn answer_pings(mut server: DuplexStream) {
        let mut pending = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let read = match server.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(read) => read,
            };
            pending.extend_from_slice(&buffer[..read]);
            let ping = b"*1\r\n$4\r\nPING\r\n";
            let mut answers = Vec::new();
            while pending.starts_with(ping) {
                pending.drain(..ping.len());
                answers.extend_from_slice(b"+PONG\r\n");
            }
            if server.write_all(&answers).await.is_err() {
                return;
            }
        }
    }

    /// Sends one `PING` from each of `calls` tasks at once through a connection over `stream`;
    /// every call must be answered.
    async fn pings_in_separate_tasks<S>(stream: S, calls: usize)
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        // Nothing to set up: the connection sends only the calls' commands.
        let info = ::redis::RedisConnectionInfo::default().set_skip_set_lib_name();
        let config = ::redis::AsyncConnectionConfig::new();
        let (connection, driver) = MultiplexedConnection::new_with_config(&info, stream, config)
            .await
            .expect("a connection without a handshake");
        tokio::spawn(driver);
        // Spawned from a task on the runtime's one worker, so that they all wait in its queue
        // and run one after the other, as a server's handlers do.
        let launcher = tokio::spawn(async move {
            let tasks: Vec<_> = (0..calls)
                .map(|_| {
                    let mut connection: MultiplexedConnection = connection.clone();
                    tokio::spawn(async move {
                        ::redis::cmd("PING")
                            .query_async::<String>(&mut connection)
                            .await
                    })
                })
                .collect();
            for task in tasks {
                assert_eq!(task.await.expect("the call ran").expect("PONG"), "PONG");
            }
        });
        launcher.await.expect("every call answered");
    }

    /// How many writes carry `calls` calls from separate tasks over a connection whose socket
    /// `wrap` wraps.
    async fn writes_for(
        calls: usize,
        wrap: fn(CountedWrites) -> BatchedWrites<CountedWrites>,
    ) -> usize {
        let writes = Arc::new(AtomicUsize::new(0));
        let (client, server) = tokio::io::duplex(1 << 16);
        tokio::spawn(answer_pings(server));
        let counted = CountedWrites {
            inner: client,
            writes: writes.clone(),
        };
        pings_in_separate_tasks(wrap(counted), calls).await;
        writes.load(Ordering::Relaxed)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn calls_ready_together_are_written_together() {
        let calls = 16;
        let batched = writes_for(calls, BatchedWrites::new).await;
        // The same calls with writes going straight through, to show that the count could
        // have been higher.
        let unbatched = writes_for(calls, BatchedWrites::direct).await;

        assert!(
            batched <= 2,
            "{calls} calls ready together took {batched} writes"
        );
        assert!(
            unbatched > batched,
            "without batching {unbatched} writes, with it {batched}"
        );
    }
}
