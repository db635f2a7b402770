//! Graceful shutdown (docs/ARCHITECTURE.md §5): the process signals that start it, and the
//! [`Shutdown`] switch that tells long-lived `Watch` streams to close with a status that asks
//! clients to reconnect.

use std::sync::Arc;

use tokio::sync::watch;

/// A one-way switch from "running" to "shutting down", shared by the server and its streams.
#[derive(Clone, Debug)]
pub struct Shutdown {
    state: Arc<watch::Sender<bool>>,
}

impl Shutdown {
    /// A switch in the running position.
    pub fn new() -> Shutdown {
        Shutdown {
            state: Arc::new(watch::channel(false).0),
        }
    }

    /// Flips the switch; every [`Shutdown::wait`] returns. Flipping twice changes nothing.
    pub fn trigger(&self) {
        self.state.send_replace(true);
    }

    /// Whether the server is shutting down.
    pub fn is_triggered(&self) -> bool {
        *self.state.borrow()
    }

    /// Returns once the switch is flipped (at once if it already is).
    pub fn wait(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut state = self.state.subscribe();
        async move {
            // The sender lives in `self.state`, which every clone shares; if all clones are
            // gone nobody can flip the switch, and waiting forever is the right answer.
            if state.wait_for(|down| *down).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

/// Returns when the process is asked to stop: SIGTERM (as sent by container runtimes) or
/// ctrl-c / SIGINT.
pub async fn termination_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("ctrl-c received; shutting down"),
        () = terminate => tracing::info!("SIGTERM received; shutting down"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiters_return_once_triggered() {
        let shutdown = Shutdown::new();
        let waiter = tokio::spawn(shutdown.wait());
        assert!(!shutdown.is_triggered());
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        shutdown.clone().trigger();
        waiter.await.unwrap();
        assert!(shutdown.is_triggered());
        // A waiter that starts late returns at once.
        shutdown.wait().await;
    }
}
