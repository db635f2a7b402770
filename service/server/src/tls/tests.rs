//! Loading, reloading and handshakes, with certificates made here.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

use super::*;

/// A CA and a server certificate it signed for `localhost` and 127.0.0.1.
struct Pki {
    ca_pem: String,
    cert_pem: String,
    key_pem: String,
}

fn pki() -> Pki {
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    Pki {
        ca_pem: ca.pem(),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
    }
}

/// Writes the server's files into `dir`.
fn write(dir: &Path, pki: &Pki) -> TlsFiles {
    let files = TlsFiles {
        cert: dir.join("cert.pem"),
        key: dir.join("key.pem"),
        client_ca: None,
    };
    std::fs::write(&files.cert, &pki.cert_pem).unwrap();
    std::fs::write(&files.key, &pki.key_pem).unwrap();
    files
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("deckmate-tls-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn connector(ca_pem: &str, alpn: &[&[u8]]) -> TlsConnector {
    let mut roots = RootCertStore::empty();
    for ca in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(ca.unwrap()).unwrap();
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}

#[test]
fn tls_is_off_complete_or_refused() {
    let off = Config::default();
    assert_eq!(TlsFiles::from_config(&off).unwrap(), None);
    let both = Config {
        tls_cert: Some("c.pem".into()),
        tls_key: Some("k.pem".into()),
        tls_client_ca: Some("ca.pem".into()),
        ..Config::default()
    };
    let files = TlsFiles::from_config(&both).unwrap().unwrap();
    assert_eq!(files.client_ca, Some("ca.pem".into()));
    for lone in [
        Config {
            tls_cert: Some("c.pem".into()),
            ..Config::default()
        },
        Config {
            tls_key: Some("k.pem".into()),
            ..Config::default()
        },
        Config {
            tls_client_ca: Some("ca.pem".into()),
            ..Config::default()
        },
    ] {
        let error = TlsFiles::from_config(&lone).unwrap_err();
        assert!(matches!(error, TlsError::Incomplete), "{error}");
    }
}

#[test]
fn unusable_files_are_refused_without_quoting_them() {
    let dir = scratch("unusable");
    let pki = pki();
    let files = write(&dir, &pki);
    assert!(ServerTls::load(files.clone()).is_ok());

    let missing = TlsFiles {
        key: dir.join("absent.pem"),
        ..files.clone()
    };
    let error = ServerTls::load(missing).unwrap_err();
    assert!(
        matches!(
            error,
            TlsError::Read {
                what: "TLS key",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("absent.pem"), "{error}");

    // A key file that holds a certificate instead.
    let swapped = TlsFiles {
        key: files.cert.clone(),
        ..files.clone()
    };
    let error = ServerTls::load(swapped).unwrap_err();
    assert!(
        matches!(
            error,
            TlsError::Pem {
                what: "TLS key",
                ..
            }
        ),
        "{error}"
    );

    // A key that is not the certificate's.
    std::fs::write(
        dir.join("other.pem"),
        KeyPair::generate().unwrap().serialize_pem(),
    )
    .unwrap();
    let mismatched = TlsFiles {
        key: dir.join("other.pem"),
        ..files.clone()
    };
    let error = ServerTls::load(mismatched).unwrap_err();
    assert!(matches!(error, TlsError::KeyMismatch { .. }), "{error}");
    let message = error.to_string();
    // The operator learns which flags and files to fix, and nothing of the key itself.
    for named in ["--tls-key", "--tls-cert", "other.pem", "cert.pem"] {
        assert!(message.contains(named), "{named}: {message}");
    }
    assert!(message.contains("does not match"), "{message}");
    assert!(!message.contains("KeyMismatch"), "{message}");
    assert!(!message.contains("PRIVATE KEY"), "{message}");
    assert!(!message.contains("CERTIFICATE"), "{message}");

    // A client CA file without a certificate in it.
    let bad_ca = TlsFiles {
        client_ca: Some(files.key.clone()),
        ..files.clone()
    };
    let error = ServerTls::load(bad_ca).unwrap_err();
    assert!(
        matches!(
            error,
            TlsError::Pem {
                what: "client CA",
                ..
            }
        ),
        "{error}"
    );
    assert!(read_pem_file(&files.key, "Redis CA").is_err());
    assert!(read_pem_file(&files.cert, "Redis CA").is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn handshakes_offer_both_protocols_and_survive_failures() {
    let dir = scratch("handshakes");
    let pki = pki();
    let tls = ServerTls::load(write(&dir, &pki)).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    // Echo one byte on every connection whose handshake succeeds.
    let server = tokio::spawn(async move {
        loop {
            let (stream, peer) = listener.accept().await.unwrap();
            let tls = tls.clone();
            tokio::spawn(async move {
                let Some(mut connection) =
                    tls.handshake(stream, peer, Duration::from_secs(10)).await
                else {
                    return;
                };
                let mut byte = [0u8; 1];
                if connection.read_exact(&mut byte).await.is_ok() {
                    let _ = connection.write_all(&byte).await;
                    let _ = connection.flush().await;
                }
            });
        }
    });

    // A plaintext client fails its handshake; the accept loop goes on.
    let mut plain = TcpStream::connect(address).await.unwrap();
    plain
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = plain.read_to_end(&mut answer).await;
    assert!(!answer.starts_with(b"HTTP"), "a plaintext answer");

    for (offered, expected) in [
        (vec![b"h2".as_slice()], b"h2".as_slice()),
        (vec![b"http/1.1".as_slice()], b"http/1.1".as_slice()),
    ] {
        let tcp = TcpStream::connect(address).await.unwrap();
        let mut stream = connector(&pki.ca_pem, &offered)
            .connect(ServerName::try_from("localhost").unwrap(), tcp)
            .await
            .unwrap();
        assert_eq!(stream.get_ref().1.alpn_protocol(), Some(expected));
        stream.write_all(b"x").await.unwrap();
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).await.unwrap();
        assert_eq!(&byte, b"x");
    }
    server.abort();
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_failed_reload_keeps_the_previous_certificate() {
    let dir = scratch("reload");
    let first = pki();
    let files = write(&dir, &first);
    let tls = ServerTls::load(files.clone()).unwrap();
    let before = tls.acceptor().config().clone();

    std::fs::write(&files.key, "not a key").unwrap();
    let error = tls.reload().unwrap_err();
    assert!(
        matches!(
            error,
            TlsError::Pem {
                what: "TLS key",
                ..
            }
        ),
        "{error}"
    );
    assert!(Arc::ptr_eq(&before, tls.acceptor().config()));

    let second = pki();
    write(&dir, &second);
    tls.reload().unwrap();
    assert!(!Arc::ptr_eq(&before, tls.acceptor().config()));
    std::fs::remove_dir_all(dir).unwrap();
}
