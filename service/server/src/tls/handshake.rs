//! [`ServerTls::handshake`]: the TLS handshake of one accepted client, and
//! [`HangupReloader`], which reloads the settings on SIGHUP while the server serves.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_rustls::server::TlsStream;

use super::ServerTls;

impl ServerTls {
    /// Runs the TLS handshake of a client on `stream`, giving up after `timeout`. Failures are
    /// logged at debug level only: port scanners and plaintext clients cause them all the time.
    pub async fn handshake(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
        timeout: Duration,
    ) -> Option<TlsStream<TcpStream>> {
        match tokio::time::timeout(timeout, self.acceptor().accept(stream)).await {
            Ok(Ok(stream)) => Some(stream),
            Ok(Err(error)) => {
                tracing::debug!(%peer, %error, "TLS handshake failed");
                None
            }
            Err(_) => {
                tracing::debug!(%peer, ?timeout, "TLS handshake timed out");
                None
            }
        }
    }

    /// Reloads the certificate and key on every SIGHUP until the returned guard is dropped.
    pub fn reload_while_serving(&self) -> HangupReloader {
        HangupReloader(self.reload_on_hangup())
    }
}

/// The SIGHUP reload task, aborted when the listener goes away.
#[derive(Debug)]
pub struct HangupReloader(Option<JoinHandle<()>>);

impl Drop for HangupReloader {
    fn drop(&mut self) {
        if let Some(task) = &self.0 {
            task.abort();
        }
    }
}
