//! TLS (docs/OPERATIONS.md, "TLS"): a real server with `--tls-cert`/`--tls-key` serves the Rust
//! SDK over HTTP/2 and gRPC-Web over HTTP/1.1, refuses plaintext, swaps certificates on SIGHUP,
//! requires client certificates with `--tls-client-ca`, and refuses half a configuration; and
//! the Redis store works over `rediss://` with `--redis-ca-cert`. Every certificate is made
//! here.

mod pki;
mod redis_tls;
mod server;

use std::process::{Command, Stdio};
use std::sync::Arc;

use deckmate::{Client, ConnectOptions, CreateOptions, TlsOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};
use tonic::transport::{Certificate, ClientTlsConfig, Identity};
use tonic_health::pb::health_check_response::ServingStatus;

use self::pki::Ca;
use self::server::TlsServer;
use crate::common::{Picker, pigeon_chess, play_random_step};
use crate::scratch::Scratch;

/// The flags of a server with `ca`'s server certificate, written into `scratch`.
fn tls_flags(scratch: &Scratch, ca: &Ca) -> Vec<String> {
    let leaf = ca.server();
    let cert = scratch.write("server.pem", &leaf.cert_pem);
    let key = scratch.write("server.key", &leaf.key_pem);
    vec![
        "--tls-cert".into(),
        cert.display().to_string(),
        "--tls-key".into(),
        key.display().to_string(),
    ]
}

/// A tonic client configuration trusting only `ca`, expecting the name `localhost`.
fn trusting(ca: &Ca) -> ClientTlsConfig {
    ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(ca.pem()))
        .domain_name("localhost")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_plays_over_tls_and_plaintext_clients_fail() {
    let scratch = Scratch::new("sdk");
    let ca = Ca::new("Deckmate test CA");
    let server = TlsServer::start(&tls_flags(&scratch, &ca), &trusting(&ca)).await;

    let options = ConnectOptions::default().with_tls(
        TlsOptions::default()
            .with_ca_pem(ca.pem().into_bytes())
            .with_server_name("localhost"),
    );
    let client = Client::connect_with(server.endpoint(), options)
        .await
        .expect("a TLS connection");
    let variants = client.list_variants().await.unwrap();
    assert!(variants.iter().any(|v| v.id == "pigeon_chess"));
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default())
        .await
        .unwrap();
    let played = play_random_step(&game, &mut Picker::new(15)).await;
    assert!(played.is_some(), "a new game has a move to play");

    // A client that trusts another CA, and one that speaks plaintext, both fail.
    let stranger = Ca::new("Another CA");
    let error = server.health(Some(&trusting(&stranger))).await.unwrap_err();
    assert!(!error.is_empty());
    let error = server.health(None).await.unwrap_err();
    assert!(!error.is_empty());
    // The failed handshakes did not stop the server from accepting.
    assert_eq!(
        server.health(Some(&trusting(&ca))).await,
        Ok(ServingStatus::Serving)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_web_over_http1_works_over_tls() {
    let scratch = Scratch::new("grpc-web");
    let ca = Ca::new("Deckmate test CA");
    let server = TlsServer::start(&tls_flags(&scratch, &ca), &trusting(&ca)).await;

    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca.pem().as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let tcp = TcpStream::connect(("127.0.0.1", server.port()))
        .await
        .unwrap();
    let mut tls = TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .expect("a TLS handshake offering only HTTP/1.1");
    assert_eq!(
        tls.get_ref().1.alpn_protocol(),
        Some(b"http/1.1".as_slice())
    );

    // ListVariants as a browser sends it: an empty message in a gRPC-Web frame.
    let request = "POST /deckmate.v1.GameService/ListVariants HTTP/1.1\r\n\
                   Host: localhost\r\n\
                   Content-Type: application/grpc-web+proto\r\n\
                   X-Grpc-Web: 1\r\n\
                   Content-Length: 5\r\n\
                   Connection: close\r\n\r\n";
    tls.write_all(request.as_bytes()).await.unwrap();
    tls.write_all(&[0, 0, 0, 0, 0]).await.unwrap();
    tls.flush().await.unwrap();
    let mut answer = Vec::new();
    // The server may close without a TLS close_notify; what arrived before counts.
    let _ = tls.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains("content-type: application/grpc-web+proto"),
        "{text}"
    );
    assert!(text.contains("pigeon_chess"), "{text}");
    assert!(text.contains("grpc-status:0"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_swaps_the_certificate_and_a_failed_reload_keeps_the_old_one() {
    let scratch = Scratch::new("reload");
    let old_ca = Ca::new("Old CA");
    let flags = tls_flags(&scratch, &old_ca);
    let mut server = TlsServer::start(&flags, &trusting(&old_ca)).await;

    // A key file that is not a key: the reload fails, the old certificate stays.
    scratch.write("server.key", "not a key");
    server.hang_up();
    server.wait_for_log("TLS reload failed", 1).await;
    assert!(server.is_running());
    assert_eq!(
        server.health(Some(&trusting(&old_ca))).await,
        Ok(ServingStatus::Serving)
    );

    // New files from another CA: after the reload, only clients trusting it connect.
    let new_ca = Ca::new("New CA");
    tls_flags(&scratch, &new_ca);
    server.hang_up();
    server
        .wait_for_log("TLS certificate and key reloaded", 1)
        .await;
    assert_eq!(
        server.health(Some(&trusting(&new_ca))).await,
        Ok(ServingStatus::Serving)
    );
    assert!(server.health(Some(&trusting(&old_ca))).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutual_tls_refuses_clients_without_a_certificate_from_the_client_ca() {
    let scratch = Scratch::new("mtls");
    let ca = Ca::new("Server CA");
    let client_ca = Ca::new("Client CA");
    let mut flags = tls_flags(&scratch, &ca);
    flags.push("--tls-client-ca".into());
    flags.push(
        scratch
            .write("clients.pem", &client_ca.pem())
            .display()
            .to_string(),
    );
    let leaf = client_ca.client();
    let with_certificate =
        trusting(&ca).identity(Identity::from_pem(&leaf.cert_pem, &leaf.key_pem));
    let server = TlsServer::start(&flags, &with_certificate).await;

    assert_eq!(
        server.health(Some(&with_certificate)).await,
        Ok(ServingStatus::Serving)
    );
    assert!(server.health(Some(&trusting(&ca))).await.is_err());
    let foreign = Ca::new("Foreign CA").client();
    let with_foreign_certificate =
        trusting(&ca).identity(Identity::from_pem(&foreign.cert_pem, &foreign.key_pem));
    assert!(
        server
            .health(Some(&with_foreign_certificate))
            .await
            .is_err()
    );
}

#[test]
fn half_a_tls_configuration_refuses_to_start() {
    let scratch = Scratch::new("half");
    let ca = Ca::new("Deckmate test CA");
    let flags = tls_flags(&scratch, &ca);
    let missing = scratch.path().join("missing.pem").display().to_string();
    let [cert_flag, cert, key_flag, key] =
        [&flags[0], &flags[1], &flags[2], &flags[3]].map(String::as_str);
    let cases = [
        (vec![cert_flag, cert], "--tls-key"),
        (vec![key_flag, key], "--tls-cert"),
        (
            vec![cert_flag, missing.as_str(), key_flag, key],
            "cannot read the TLS certificate file",
        ),
        (
            vec![cert_flag, cert, key_flag, cert],
            "holds no valid PEM PRIVATE KEY",
        ),
    ];
    for (args, expected) in cases {
        let output = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
            .args(["--listen", "127.0.0.1:0"])
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("run the server");
        assert!(!output.status.success(), "{args:?} started");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
