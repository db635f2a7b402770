//! The in-process servers the API tests share: one per configuration, started on first use
//! through the server library on a loopback port, each on a thread and Tokio runtime of its own
//! so that it outlives the runtime of the test that first asked for it (a server spawned on a
//! `#[tokio::test]` runtime would stop with that test).

use std::sync::OnceLock;

use deckmate::Client;
use deckmate_server::app;
use deckmate_server::config::Config;
use tonic::transport::Channel;

/// A `deckmate-server` running in this process on `127.0.0.1`, until the test binary exits.
pub(crate) struct Server {
    endpoint: String,
}

impl Server {
    /// The server with client seeds allowed and every other setting at its default, in memory.
    pub(crate) fn shared() -> &'static Server {
        static SHARED: OnceLock<Server> = OnceLock::new();
        SHARED.get_or_init(|| {
            Server::start(Config {
                allow_client_seed: true,
                ..Config::default()
            })
        })
    }

    /// Binds a free loopback port (so that clients may connect at once: the kernel queues them
    /// until the server accepts) and serves `config` on it from a thread of its own.
    fn start(config: Config) -> Server {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free loopback port");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let address = listener.local_addr().expect("the bound address");
        std::thread::Builder::new()
            .name(format!("test server {address}"))
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()
                    .expect("the test server's runtime");
                runtime.block_on(async move {
                    let listener =
                        tokio::net::TcpListener::from_std(listener).expect("a Tokio listener");
                    app::serve(config, listener, std::future::pending())
                        .await
                        .expect("the test server serves");
                });
            })
            .expect("start the test server's thread");
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
