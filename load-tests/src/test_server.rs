//! A server in the test process on a free loopback port, for the unit tests that drive a phase
//! against a real server.

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A running server; [`TestServer::stop`] stops it.
pub(crate) struct TestServer {
    /// Its URL, such as `http://127.0.0.1:40123`.
    pub(crate) address: String,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl TestServer {
    /// Starts a server with `config`.
    pub(crate) async fn start(config: deckmate_server::Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let address = format!("http://{}", listener.local_addr().expect("local address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            deckmate_server::serve(config, listener, async {
                let _ = stopped.await;
            })
            .await
            .expect("the server runs");
        });
        TestServer {
            address,
            stop,
            task,
        }
    }

    /// Stops the server and waits for it.
    pub(crate) async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.expect("the server stops cleanly");
    }
}
