//! A TCP proxy that makes a network path bad on purpose, for drills against the Redis store:
//! each chunk of bytes is held 0–500 ms before it is passed on (in order), and every 2 s every
//! open connection is cut, alternately closed (FIN) and reset (RST), while faults are on
//! (`set_faulty`); otherwise it passes bytes straight through.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::common::Picker;

/// The longest a chunk is held.
const MAX_DELAY_MS: u64 = 500;
/// How often every connection is cut.
const CUT_EVERY: Duration = Duration::from_secs(2);

/// A running proxy; it stops when dropped.
pub(crate) struct FaultProxy {
    address: SocketAddr,
    faulty: Arc<AtomicBool>,
    tasks: Vec<JoinHandle<()>>,
}

/// The cuts so far; each change ends every open connection, odd ones with a reset.
type Cuts = watch::Receiver<u64>;

impl FaultProxy {
    /// A proxy to `upstream` on a free loopback port, faults off.
    pub(crate) async fn start(upstream: SocketAddr) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let faulty = Arc::new(AtomicBool::new(false));
        let (cut, cuts) = watch::channel(0u64);
        let cutter = {
            let faulty = faulty.clone();
            tokio::spawn(async move {
                let mut ticks = tokio::time::interval(CUT_EVERY);
                ticks.tick().await;
                loop {
                    ticks.tick().await;
                    if faulty.load(Ordering::Relaxed) {
                        cut.send_modify(|count| *count += 1);
                    }
                }
            })
        };
        let acceptor = {
            let faulty = faulty.clone();
            tokio::spawn(async move {
                let mut seed = 0u64;
                while let Ok((client, _)) = listener.accept().await {
                    seed += 1;
                    let Ok(server) = TcpStream::connect(upstream).await else {
                        continue;
                    };
                    tokio::spawn(relay(client, server, faulty.clone(), cuts.clone(), seed));
                }
            })
        };
        FaultProxy {
            address,
            faulty,
            tasks: vec![cutter, acceptor],
        }
    }

    /// The proxy as a Redis URL.
    pub(crate) fn redis_url(&self) -> String {
        format!("redis://{}", self.address)
    }

    /// Turns the faults on or off.
    pub(crate) fn set_faulty(&self, faulty: bool) {
        self.faulty.store(faulty, Ordering::Relaxed);
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Relays one connection both ways until either side closes or a cut ends it (an odd cut with
/// a reset, an even one with an ordinary close).
async fn relay(
    mut client: TcpStream,
    mut server: TcpStream,
    faulty: Arc<AtomicBool>,
    mut cuts: Cuts,
    seed: u64,
) {
    cuts.borrow_and_update();
    let reset = {
        let (client_read, client_write) = client.split();
        let (server_read, server_write) = server.split();
        let up = pump(client_read, server_write, &faulty, Picker::new(seed));
        let down = pump(server_read, client_write, &faulty, Picker::new(!seed));
        tokio::select! {
            _ = async { tokio::join!(up, down) } => false,
            changed = cuts.changed() => changed.is_ok() && *cuts.borrow() % 2 == 1,
        }
    };
    if reset {
        let _ = client.set_zero_linger();
        let _ = server.set_zero_linger();
    }
}

/// Copies `from` to `to`, holding each chunk 0–500 ms while faults are on, until either side
/// closes.
async fn pump(
    mut from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    faulty: &AtomicBool,
    mut picker: Picker,
) {
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        if faulty.load(Ordering::Relaxed) {
            let delay = picker.next_u64() % (MAX_DELAY_MS + 1);
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}
