//! Reading PEM files into a rustls [`ServerConfig`], with errors that name the file and the
//! problem but never the file's contents.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_rustls::rustls::crypto::{CryptoProvider, ring};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::WebPkiClientVerifier;
use tokio_rustls::rustls::{self, RootCertStore, ServerConfig};

use super::{ALPN_PROTOCOLS, TlsFiles};

/// Why TLS could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// Only one of `--tls-cert` and `--tls-key` was given, or `--tls-client-ca` without them.
    #[error("TLS needs both --tls-cert and --tls-key (and --tls-client-ca needs them too)")]
    Incomplete,
    /// A file could not be read.
    #[error("cannot read the {what} file {path}: {source}")]
    Read {
        /// What the file should hold.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why reading failed.
        source: std::io::Error,
    },
    /// A file holds nothing usable of what it should.
    #[error("the {what} file {path} holds no valid PEM {expected}")]
    Pem {
        /// What the file should hold.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The PEM section looked for.
        expected: &'static str,
    },
    /// The key in `--tls-key` is not the private key of the certificate in `--tls-cert`.
    #[error(
        "the key in --tls-key ({key}) does not match the certificate in --tls-cert ({cert}): \
         give the private key of that certificate, or the certificate of that key"
    )]
    KeyMismatch {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
    },
    /// rustls refused the certificate and key together for another reason (such as a key type
    /// it does not support).
    #[error(
        "the certificate in --tls-cert ({cert}) and the key in --tls-key ({key}) are unusable \
         together: {source}"
    )]
    CertificateAndKey {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
        /// rustls's reason, which names the problem but never quotes the files.
        source: rustls::Error,
    },
    /// rustls refused the protocol versions or the client CA.
    #[error("the TLS {what} is unusable: {source}")]
    Rustls {
        /// What was refused.
        what: &'static str,
        /// rustls's reason.
        source: rustls::Error,
    },
    /// The client CA could not make a client certificate verifier.
    #[error("the client CA file {path} is unusable: {reason}")]
    ClientCa {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// The contents of a PEM file that must hold at least one certificate (such as a CA bundle),
/// checked before use so that a wrong file is refused at start-up with its name.
pub fn read_pem_file(path: &Path, what: &'static str) -> Result<Vec<u8>, TlsError> {
    let bytes = std::fs::read(path).map_err(|source| TlsError::Read {
        what,
        path: path.to_path_buf(),
        source,
    })?;
    certificates(&bytes, path, what)?;
    Ok(bytes)
}

/// A server configuration from `files`, offering [`ALPN_PROTOCOLS`].
pub(super) fn server_config(files: &TlsFiles) -> Result<ServerConfig, TlsError> {
    let provider: Arc<CryptoProvider> = Arc::new(ring::default_provider());
    let chain = certificates(
        &read(&files.cert, "TLS certificate")?,
        &files.cert,
        "TLS certificate",
    )?;
    let key = private_key(&files.key)?;
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|source| TlsError::Rustls {
            what: "protocol versions",
            source,
        })?;
    let builder = match &files.client_ca {
        None => builder.with_no_client_auth(),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            for ca in certificates(&read(path, "client CA")?, path, "client CA")? {
                roots.add(ca).map_err(|source| TlsError::Rustls {
                    what: "client CA",
                    source,
                })?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|error| TlsError::ClientCa {
                    path: path.clone(),
                    reason: error.to_string(),
                })?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder
        .with_single_cert(chain, key)
        .map_err(|source| certificate_and_key_error(files, source))?;
    config.alpn_protocols = ALPN_PROTOCOLS.iter().map(|p| p.to_vec()).collect();
    Ok(config)
}

/// Why rustls refused the certificate and key, naming both flags and files: a key that is not
/// the certificate's is the usual mistake, so it gets a message of its own.
fn certificate_and_key_error(files: &TlsFiles, source: rustls::Error) -> TlsError {
    let cert = files.cert.clone();
    let key = files.key.clone();
    match source {
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch) => {
            TlsError::KeyMismatch { cert, key }
        }
        source => TlsError::CertificateAndKey { cert, key, source },
    }
}

fn read(path: &Path, what: &'static str) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        what,
        path: path.to_path_buf(),
        source,
    })
}

/// Every certificate in `pem`; at least one.
fn certificates(
    pem: &[u8],
    path: &Path,
    what: &'static str,
) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    pem_certificates(pem).ok_or_else(|| TlsError::Pem {
        what,
        path: path.to_path_buf(),
        expected: "CERTIFICATE",
    })
}

/// Every certificate in `pem`, or `None` when a section cannot be read or there is none. The
/// parser's error is dropped: it could quote the file.
pub(crate) fn pem_certificates(pem: &[u8]) -> Option<Vec<CertificateDer<'static>>> {
    CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .ok()
        .filter(|certificates| !certificates.is_empty())
}

/// The first private key in the file. The parser's error is dropped: it could quote the key.
fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let pem = read(path, "TLS key")?;
    PrivateKeyDer::from_pem_slice(&pem).map_err(|_| TlsError::Pem {
        what: "TLS key",
        path: path.to_path_buf(),
        expected: "PRIVATE KEY",
    })
}
