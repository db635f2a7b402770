//! TLS on the API listener (docs/OPERATIONS.md, "TLS"), terminated here with rustls rather than
//! by tonic, because tonic's own TLS offers only ALPN `h2` (gRPC-Web over HTTP/1.1 needs
//! `http/1.1` too) and cannot swap certificates while serving.
//!
//! * [`ServerTls`] holds the certificate, key and optional client CA read from PEM files, and
//!   re-reads them on SIGHUP; a reload that fails keeps the previous ones.
//! * [`ServerTls::handshake`] runs one client's handshake, in the task of its connection
//!   (`crate::connections`), bounded by `--handshake-timeout`, so a slow or failed handshake
//!   never holds up other clients.
//! * [`read_pem_file`] also reads the private CA that `--redis-ca-cert` names for `rediss://`.

mod connection;
mod files;
mod handshake;

use std::sync::{Arc, PoisonError, RwLock};

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;

use crate::config::Config;

pub use self::connection::Connection;
pub(crate) use self::files::pem_certificates;
pub use self::files::{TlsError, read_pem_file};
pub use self::handshake::HangupReloader;

/// The application protocols offered in the handshake: HTTP/2 for gRPC, HTTP/1.1 for gRPC-Web
/// from browsers and proxies that speak only HTTP/1.1.
pub const ALPN_PROTOCOLS: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// Where the server's TLS material lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, PEM, the server's own certificate first.
    pub cert: std::path::PathBuf,
    /// The private key of the certificate, PEM (PKCS#8, PKCS#1 or SEC1).
    pub key: std::path::PathBuf,
    /// When set, clients must present a certificate signed by one of these CAs (PEM).
    pub client_ca: Option<std::path::PathBuf>,
}

impl TlsFiles {
    /// The files the configuration names: `None` when TLS is off, an error when only one of
    /// the certificate and the key is given, or a client CA without them.
    pub fn from_config(config: &Config) -> Result<Option<TlsFiles>, TlsError> {
        match (&config.tls_cert, &config.tls_key) {
            (Some(cert), Some(key)) => Ok(Some(TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
                client_ca: config.tls_client_ca.clone(),
            })),
            (None, None) if config.tls_client_ca.is_none() => Ok(None),
            _ => Err(TlsError::Incomplete),
        }
    }
}

/// The server's TLS settings as last loaded; cheap to clone, clones share the settings.
#[derive(Clone, Debug)]
pub struct ServerTls {
    files: Arc<TlsFiles>,
    current: Arc<RwLock<Arc<ServerConfig>>>,
}

impl ServerTls {
    /// Reads the files; fails if any is missing or unusable.
    pub fn load(files: TlsFiles) -> Result<ServerTls, TlsError> {
        let config = files::server_config(&files)?;
        Ok(ServerTls {
            files: Arc::new(files),
            current: Arc::new(RwLock::new(Arc::new(config))),
        })
    }

    /// The TLS settings the configuration asks for, loaded, or `None` when TLS is off.
    pub fn from_config(config: &Config) -> Result<Option<ServerTls>, TlsError> {
        TlsFiles::from_config(config)?
            .map(ServerTls::load)
            .transpose()
    }

    /// Reads the files again and uses them for new connections; open connections keep what
    /// they were set up with. On failure the previous settings stay in use.
    pub fn reload(&self) -> Result<(), TlsError> {
        let config = files::server_config(&self.files)?;
        // A panic while holding the lock cannot leave the settings half-written: the write is
        // one pointer swap.
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(config);
        Ok(())
    }

    /// An acceptor with the current settings.
    fn acceptor(&self) -> TlsAcceptor {
        let current = self.current.read().unwrap_or_else(PoisonError::into_inner);
        TlsAcceptor::from(current.clone())
    }

    /// Reloads on every SIGHUP until the returned task is aborted, logging the outcome. The
    /// signal handler is installed before this returns, so that a SIGHUP sent once the server
    /// serves never meets the default action (ending the process).
    #[cfg(unix)]
    fn reload_on_hangup(&self) -> Option<tokio::task::JoinHandle<()>> {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGHUP; TLS files will not be reloaded");
                return None;
            }
        };
        let tls = self.clone();
        Some(tokio::spawn(async move {
            while hangups.recv().await.is_some() {
                match tls.reload() {
                    Ok(()) => tracing::info!("SIGHUP: TLS certificate and key reloaded"),
                    Err(error) => tracing::error!(
                        %error,
                        "SIGHUP: TLS reload failed; the previous certificate and key stay in use"
                    ),
                }
            }
        }))
    }

    #[cfg(not(unix))]
    fn reload_on_hangup(&self) -> Option<tokio::task::JoinHandle<()>> {
        None
    }
}

/// Makes rustls's ring provider the process default, for the TLS clients built from it (the
/// Redis client's). Installing twice is harmless: the first provider stays.
pub fn install_default_provider() {
    let _ = tokio_rustls::rustls::crypto::ring::default_provider().install_default();
}

#[cfg(test)]
mod tests;
