//! What the integration tests share: a server running in the test process on a free loopback
//! port.

use deckmate_server::Config;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process until [`InProcessServer::stop`].
pub(crate) struct InProcessServer {
    /// Its URL, such as `http://127.0.0.1:40123`.
    pub(crate) address: String,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl InProcessServer {
    /// Starts a server with `config` on a free loopback port.
    pub(crate) async fn start(config: Config) -> InProcessServer {
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
        InProcessServer {
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
