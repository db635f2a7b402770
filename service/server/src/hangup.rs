//! SIGHUP, the reload signal (docs/OPERATIONS.md): the API keys file and the TLS files are read
//! again on it where they are configured (`protection::api_keys`, `tls`). Log rotation and
//! service managers (`systemctl reload`) send it routinely, so it must never end the server, as
//! its default action would: [`keep_alive_on_hangup`] takes the signal over for the whole
//! process when serving starts, and logs each one when nothing is configured to reload.

use tokio::task::JoinHandle;

/// Listens for SIGHUP from now on (a handler, once installed, stays for the life of the
/// process, so later listeners never meet the default action either) and logs each one when
/// `reloads` is false. The returned task runs until it is aborted; `None` where signals cannot
/// be listened for.
pub fn keep_alive_on_hangup(reloads: bool) -> Option<JoinHandle<()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGHUP; one would end the process");
                return None;
            }
        };
        Some(tokio::spawn(async move {
            while hangups.recv().await.is_some() {
                if !reloads {
                    tracing::info!(
                        "SIGHUP: nothing to reload (no --api-keys-file, no --tls-cert); serving on"
                    );
                }
            }
        }))
    }
    #[cfg(not(unix))]
    {
        let _ = reloads;
        None
    }
}
