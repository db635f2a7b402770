//! The one runtime of the API test binary and the in-process servers the tests share: one per
//! configuration, started on first use through the server library on a loopback port. Every
//! test runs on the same runtime as the servers ([`run`]), so a server started by one test keeps
//! serving the others (a server spawned on a per-test runtime would stop with its test).

use std::future::Future;
use std::sync::OnceLock;

use deckmate::Client;
use deckmate_server::app;
use deckmate_server::config::{Config, StoreUrl};
use tonic::transport::Channel;

/// The runtime every API test and every shared server runs on.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("the API tests' runtime")
    })
}

/// Runs one test on the binary's runtime; the test thread drives `test` while the runtime's
/// workers serve the shared servers and whatever the test spawns.
pub(crate) fn run<F: Future>(test: F) -> F::Output {
    runtime().block_on(test)
}

/// A `deckmate-server` running in this process on `127.0.0.1`, until the test binary exits.
pub(crate) struct Server {
    endpoint: String,
}

impl Server {
    /// The server with client seeds allowed and every other setting at its default, on the
    /// store `DECKMATE_TEST_STORE` names (`memory` unless set; CI runs these tests again on a
    /// Redis server and on a Redis Cluster).
    pub(crate) fn shared() -> &'static Server {
        static SHARED: OnceLock<Server> = OnceLock::new();
        SHARED.get_or_init(|| {
            Server::start(Config {
                allow_client_seed: true,
                // Every test creates its games from this one address.
                create_rate: deckmate_server::protection::rate::Rate::Off,
                store: test_store(),
                ..Config::default()
            })
        })
    }

    /// The shared server's settings with `--allow-bot-only-games`.
    pub(crate) fn bot_only_allowed() -> &'static Server {
        static BOTS: OnceLock<Server> = OnceLock::new();
        BOTS.get_or_init(|| {
            Server::start(Config {
                allow_client_seed: true,
                create_rate: deckmate_server::protection::rate::Rate::Off,
                store: test_store(),
                allow_bot_only_games: true,
                ..Config::default()
            })
        })
    }

    /// A server on the Redis at `DECKMATE_TEST_REDIS_URL` (default `redis://127.0.0.1:6379`)
    /// writing record format `format`, as during a rolling upgrade from an older release.
    pub(crate) fn writing_record_format(format: u32) -> Server {
        let url = std::env::var("DECKMATE_TEST_REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string());
        Server::start(Config {
            create_rate: deckmate_server::protection::rate::Rate::Off,
            store: StoreUrl::parse(&url).expect("a Redis URL"),
            write_record_format: format,
            ..Config::default()
        })
    }

    /// Binds a free loopback port (so that clients may connect at once: the kernel queues them
    /// until the server accepts) and serves `config` on it on the binary's runtime.
    pub(crate) fn start(config: Config) -> Server {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free loopback port");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let address = listener.local_addr().expect("the bound address");
        runtime().spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a Tokio listener");
            app::serve(config, listener, std::future::pending())
                .await
                .expect("the test server serves");
        });
        Server {
            endpoint: format!("http://{address}"),
        }
    }

    /// A new connection to the server.
    pub(crate) async fn channel(&self) -> Channel {
        crate::common::connect(&self.endpoint).await
    }

    /// An SDK client connected to the server.
    pub(crate) async fn client(&self) -> Client {
        crate::common::client(&self.endpoint).await
    }
}

/// The store of the shared server: `DECKMATE_TEST_STORE`, or memory.
fn test_store() -> StoreUrl {
    match std::env::var("DECKMATE_TEST_STORE") {
        Ok(url) => StoreUrl::parse(&url)
            .unwrap_or_else(|error| panic!("DECKMATE_TEST_STORE is not a store URL: {error}")),
        Err(_) => StoreUrl::Memory,
    }
}
