//! The connection to a single Redis server: one multiplexed socket that every call shares, made
//! on first use and made again once it is lost, whose writes carry the commands of every call
//! ready at the time ([`crate::batched_writes`]).
//!
//! The Redis client's connection manager reconnects as well, but it makes its sockets itself, so
//! their writes cannot be batched; this is the same job with the socket made here. A `redis://`
//! URL connects over TCP, a `redis+unix://` (`unix://`) URL over a Unix socket and a `rediss://`
//! URL over TLS (rustls), trusting the CA given (`--redis-ca-cert`) or else the public roots.
//! The handshake (`AUTH`, `SELECT`, the protocol) is the client's, from the URL.
//!
//! A connection is dropped when its connection task ends (Redis closed it, or a read or write
//! failed) and when a call fails in a way that calls for a new connection; the next call makes
//! a new one, within the store's timeout. While Redis does not answer, each call tries to
//! connect in turn, so a call fails fast (connection refused) or at its deadline, and the first
//! call after Redis returns is served.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use ::redis::aio::{ConnectionLike, MultiplexedConnection};
use ::redis::{
    AsyncConnectionConfig, Client, Cmd, ConnectionAddr, Pipeline, RedisConnectionInfo, RedisError,
    RedisFuture, RedisResult, Value,
};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::crypto::ring;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

use super::lock;
use crate::batched_writes::BatchedWrites;
use crate::tls::pem_certificates;

/// A connection to one Redis server. Cheap to clone; clones share the socket.
#[derive(Clone)]
pub(super) struct SingleServer {
    shared: Arc<Shared>,
}

struct Shared {
    /// The handshake: credentials, database and protocol from the URL.
    redis: RedisConnectionInfo,
    /// Where the server is.
    address: Address,
    /// How long a connection may take to be made (each answer's deadline is the store's).
    timeout: Duration,
    /// The connection in use, if any.
    state: Mutex<State>,
    /// Held while a connection is being made, so that calls waiting for one share it.
    connecting: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct State {
    live: Option<Live>,
    /// The number of the next connection made.
    next: u64,
}

/// A connection made, and its number: a failure forgets only the connection it happened on.
#[derive(Clone)]
struct Live {
    number: u64,
    connection: MultiplexedConnection,
}

/// Where a server listens.
enum Address {
    Tcp { host: String, port: u16 },
    Tls { host: String, port: u16, tls: Tls },
    Unix(PathBuf),
}

/// The TLS side of a `rediss://` address.
struct Tls {
    connector: TlsConnector,
    name: ServerName<'static>,
}

impl SingleServer {
    /// A connection to the server `client` names (nothing connects until the first call),
    /// trusting `ca_pem` for TLS when given, with `timeout` for connecting.
    pub(super) fn new(
        client: &Client,
        ca_pem: Option<&[u8]>,
        timeout: Duration,
    ) -> Result<SingleServer, String> {
        let info = client.get_connection_info();
        let address = match info.addr() {
            ConnectionAddr::Tcp(host, port) => Address::Tcp {
                host: host.clone(),
                port: *port,
            },
            ConnectionAddr::TcpTls { insecure: true, .. } => {
                return Err(
                    "`rediss://` URLs that skip verifying Redis's certificate (`#insecure`) are \
                     not supported"
                        .into(),
                );
            }
            ConnectionAddr::TcpTls { host, port, .. } => Address::Tls {
                host: host.clone(),
                port: *port,
                tls: Tls::new(host, ca_pem)?,
            },
            ConnectionAddr::Unix(path) => Address::Unix(path.clone()),
            other => return Err(format!("unsupported Redis address {other}")),
        };
        if ca_pem.is_some() && !matches!(address, Address::Tls { .. }) {
            return Err("a Redis CA applies to `rediss://` URLs only".into());
        }
        Ok(SingleServer {
            shared: Arc::new(Shared {
                redis: info.redis_settings().clone(),
                address,
                timeout,
                state: Mutex::new(State::default()),
                connecting: tokio::sync::Mutex::new(()),
            }),
        })
    }

    /// The connection in use, made first if there is none.
    async fn live(&self) -> RedisResult<Live> {
        if let Some(live) = self.current() {
            return Ok(live);
        }
        // Making a connection is a future of several kilobytes (the socket, TLS, the
        // handshake): boxed apart, so that every call's future does not carry (and copy) it.
        Box::pin(self.connect_live()).await
    }

    /// Makes the connection every call will use, or waits for the call already making it.
    async fn connect_live(&self) -> RedisResult<Live> {
        let _turn = self.shared.connecting.lock().await;
        // Another call may have connected while this one waited for its turn.
        if let Some(live) = self.current() {
            return Ok(live);
        }
        let timeout = self.shared.timeout;
        let connection = tokio::time::timeout(timeout, self.shared.connect())
            .await
            .map_err(|_| {
                RedisError::from(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no connection to Redis within {timeout:?}"),
                ))
            })??;
        let live = {
            let mut state = lock(&self.shared.state);
            let live = Live {
                number: state.next,
                connection: connection.connection,
            };
            state.next += 1;
            state.live = Some(live.clone());
            live
        };
        // The connection's task ends when the socket is closed or fails: the next call then
        // connects again rather than finding out by failing.
        let shared = Arc::downgrade(&self.shared);
        let number = live.number;
        tokio::spawn(async move {
            connection.driver.await;
            forget(&shared, number);
        });
        Ok(live)
    }

    fn current(&self) -> Option<Live> {
        lock(&self.shared.state).live.clone()
    }

    /// Forgets connection `live` after `reply` when the reply says the connection is lost.
    fn after<T>(&self, live: &Live, reply: &RedisResult<T>) {
        if let Err(error) = reply
            && error.is_unrecoverable_error()
        {
            forget(&Arc::downgrade(&self.shared), live.number);
        }
    }
}

/// Drops connection `number` if it is still the one in use.
fn forget(shared: &Weak<Shared>, number: u64) {
    let Some(shared) = shared.upgrade() else {
        return;
    };
    let mut state = lock(&shared.state);
    if state
        .live
        .as_ref()
        .is_some_and(|live| live.number == number)
    {
        state.live = None;
    }
}

/// A connection just made and the task that carries its commands, not yet spawned.
struct Made {
    connection: MultiplexedConnection,
    driver: futures::future::BoxFuture<'static, ()>,
}

impl Shared {
    /// Makes a new connection: the socket, TLS when asked for, and the client's handshake.
    async fn connect(&self) -> RedisResult<Made> {
        match &self.address {
            Address::Tcp { host, port } => self.over(tcp(host, *port).await?).await,
            Address::Tls { host, port, tls } => {
                let socket = tcp(host, *port).await?;
                let stream = tls.connector.connect(tls.name.clone(), socket).await?;
                self.over(stream).await
            }
            Address::Unix(path) => {
                self.over(tokio::net::UnixStream::connect(path).await?)
                    .await
            }
        }
    }

    /// The client's multiplexed connection over `stream`, its writes batched.
    async fn over<S>(&self, stream: S) -> RedisResult<Made>
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + Sync + 'static,
    {
        // Every call on this connection has the store's deadline around it
        // (`failure::bounded`), which fails it the same way (the connection is kept): the
        // client's own answer timeout would only set a second timer per call.
        let config = AsyncConnectionConfig::new().set_response_timeout(None);
        let (connection, driver) =
            MultiplexedConnection::new_with_config(&self.redis, BatchedWrites::new(stream), config)
                .await?;
        Ok(Made {
            connection,
            driver: Box::pin(driver),
        })
    }
}

/// A TCP connection to `host`:`port` that sends small writes at once: batching is
/// [`BatchedWrites`]'s job, and waiting for an acknowledgement before the next write
/// (Nagle's algorithm) would only add latency.
async fn tcp(host: &str, port: u16) -> std::io::Result<TcpStream> {
    let socket = TcpStream::connect((host, port)).await?;
    socket.set_nodelay(true)?;
    Ok(socket)
}

impl Tls {
    /// TLS to `host`, trusting the certificates of `ca_pem` or, without it, the public roots.
    fn new(host: &str, ca_pem: Option<&[u8]>) -> Result<Tls, String> {
        let mut roots = RootCertStore::empty();
        match ca_pem {
            Some(pem) => {
                let certificates = pem_certificates(pem)
                    .ok_or("the Redis CA holds no certificate that can be read as PEM")?;
                for certificate in certificates {
                    roots
                        .add(certificate)
                        .map_err(|error| format!("unusable Redis CA certificate: {error}"))?;
                }
            }
            None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        }
        let config = ClientConfig::builder_with_provider(Arc::new(ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|error| format!("TLS to Redis: {error}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from(host.to_owned())
            .map_err(|error| format!("Redis host {host:?} is not a TLS server name: {error}"))?;
        Ok(Tls {
            connector: TlsConnector::from(Arc::new(config)),
            name,
        })
    }
}

impl ConnectionLike for SingleServer {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        Box::pin(async move {
            let mut live = self.live().await?;
            let reply = live.connection.send_packed_command(cmd).await;
            self.after(&live, &reply);
            reply
        })
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        Box::pin(async move {
            let mut live = self.live().await?;
            let reply = live
                .connection
                .send_packed_commands(pipeline, offset, count)
                .await;
            self.after(&live, &reply);
            reply
        })
    }

    fn get_db(&self) -> i64 {
        self.shared.redis.db()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// The number of whole commands (RESP arrays of bulk strings) at the start of `bytes`, and
    /// the bytes they take.
    fn whole_commands(bytes: &[u8]) -> (Vec<Vec<u8>>, usize) {
        fn line(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
            let end = at
                + bytes
                    .get(at..)?
                    .windows(2)
                    .position(|pair| pair == b"\r\n")?;
            let number = std::str::from_utf8(&bytes[at + 1..end])
                .ok()?
                .parse()
                .ok()?;
            Some((number, end + 2))
        }
        let mut commands = Vec::new();
        let mut at = 0;
        'commands: while let Some((parts, mut next)) = line(bytes, at) {
            let mut name = Vec::new();
            for part in 0..parts {
                let Some((length, data)) = line(bytes, next) else {
                    break 'commands;
                };
                if bytes.len() < data + length + 2 {
                    break 'commands;
                }
                if part == 0 {
                    name = bytes[data..data + length].to_ascii_uppercase();
                }
                next = data + length + 2;
            }
            commands.push(name);
            at = next;
        }
        (commands, at)
    }

    /// A server that answers `OK` to every command of the handshake and `PONG` to the first
    /// `PING` of each connection, then closes the connection; it counts the connections it
    /// accepted.
    async fn one_answer_per_connection(listener: TcpListener, accepted: Arc<AtomicUsize>) {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            accepted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buffer = [0u8; 1024];
                let mut seen = Vec::new();
                loop {
                    match socket.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => seen.extend_from_slice(&buffer[..read]),
                    }
                    let (commands, used) = whole_commands(&seen);
                    seen.drain(..used);
                    for command in commands {
                        let ping = command == b"PING";
                        let answer: &[u8] = if ping { b"+PONG\r\n" } else { b"+OK\r\n" };
                        if socket.write_all(answer).await.is_err() || ping {
                            return;
                        }
                    }
                }
            });
        }
    }

    async fn ping(connection: &mut SingleServer) -> RedisResult<String> {
        ::redis::cmd("PING").query_async(connection).await
    }

    #[tokio::test]
    async fn a_lost_connection_is_made_again_by_the_next_call() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let accepted = Arc::new(AtomicUsize::new(0));
        tokio::spawn(one_answer_per_connection(listener, accepted.clone()));
        let client =
            Client::open(format!("redis://127.0.0.1:{port}/?protocol=resp2")).expect("a URL");
        let mut connection =
            SingleServer::new(&client, None, Duration::from_secs(5)).expect("a connection");

        assert_eq!(ping(&mut connection).await.expect("an answer"), "PONG");
        // The server closes each connection after one answer; every later call is served on
        // a new one, never failed for the closed one.
        for calls in 2..=4 {
            let mut answered = false;
            for _ in 0..100 {
                if connection.current().is_none() {
                    answered = ping(&mut connection).await.is_ok();
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            assert!(
                answered,
                "call {calls} was not answered on a new connection"
            );
            assert_eq!(accepted.load(Ordering::SeqCst), calls);
        }
    }

    #[tokio::test]
    async fn an_unreachable_server_fails_the_call() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("an address").port();
        drop(listener);
        let client = Client::open(format!("redis://127.0.0.1:{port}")).expect("a URL");
        let mut connection =
            SingleServer::new(&client, None, Duration::from_secs(5)).expect("a connection");
        let error = ping(&mut connection).await.expect_err("nobody listens");
        assert!(error.is_io_error(), "{error:?}");
        assert!(connection.current().is_none());
    }

    #[test]
    fn tls_options_are_checked_when_the_store_opens() {
        let client = |url: &str| Client::open(url).expect("a URL");
        let timeout = Duration::from_secs(1);
        let insecure =
            SingleServer::new(&client("rediss://127.0.0.1:6380/#insecure"), None, timeout);
        assert!(insecure.is_err_and(|error| error.contains("#insecure")));
        let ca_without_tls = SingleServer::new(
            &client("redis://127.0.0.1:6379"),
            Some(b"" as &[u8]),
            timeout,
        );
        assert!(ca_without_tls.is_err_and(|error| error.contains("rediss://")));
        let empty_ca = SingleServer::new(
            &client("rediss://127.0.0.1:6380"),
            Some(b"" as &[u8]),
            timeout,
        );
        assert!(empty_ca.is_err_and(|error| error.contains("no certificate")));
        assert!(SingleServer::new(&client("rediss://127.0.0.1:6380"), None, timeout).is_ok());
    }
}
