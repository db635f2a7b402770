//! `deckmate-server health`: asks a running server for its standard gRPC health status
//! (`grpc.health.v1.Health/Check`) and turns the answer into an exit code, for container
//! health checks and orchestrators on images that have no shell or `grpc_health_probe`.
//!
//! It speaks plaintext HTTP/2 only: a server started with `--tls-cert` is checked by a
//! TLS-capable probe instead (docs/OPERATIONS.md, "Health").

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::config::{DEFAULT_LISTEN, parse_duration};

/// The variable whose address `health` checks when `--addr` is not given: the one the server
/// itself listens on.
pub const LISTEN_VARIABLE: &str = "DECKMATE_LISTEN";

/// The options of `health`.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The server's `host:port`. By default the address of `DECKMATE_LISTEN` (with
    /// `127.0.0.1` for a wildcard host such as `0.0.0.0`), else `127.0.0.1:50051`.
    #[arg(long)]
    pub addr: Option<SocketAddr>,

    /// The service to ask about, such as `deckmate.v1.GameService`; empty (the default) means
    /// the whole server.
    #[arg(long, default_value = "")]
    pub service: String,

    /// How long to wait for the connection and the answer together, such as `3s`.
    #[arg(long, default_value = "3s", value_parser = parse_duration)]
    pub timeout: Duration,
}

/// What one check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server answered with this status.
    Status(ServingStatus),
    /// The server does not know the service name.
    UnknownService,
    /// No answer: the connection failed, the call failed, or the time ran out.
    Unreachable(String),
}

impl Outcome {
    /// Whether the check passes: only SERVING does.
    pub fn is_serving(&self) -> bool {
        *self == Outcome::Status(ServingStatus::Serving)
    }

    /// The one line the command prints.
    pub fn line(&self, addr: SocketAddr, service: &str) -> String {
        let target = if service.is_empty() {
            format!("{addr}")
        } else {
            format!("{addr} ({service})")
        };
        match self {
            Outcome::Status(status) => format!("{target}: {}", status.as_str_name()),
            Outcome::UnknownService => format!("{target}: unknown service"),
            Outcome::Unreachable(why) => format!("{target}: no answer: {why}"),
        }
    }
}

/// The address to check when `--addr` is absent, from the value of `DECKMATE_LISTEN` if any:
/// a wildcard host (`0.0.0.0`, `::`) becomes loopback on the same port, since the check runs
/// beside the server (in its container); an unset or unreadable value gives the default.
pub fn default_addr(listen: Option<&str>) -> SocketAddr {
    let fallback = || {
        DEFAULT_LISTEN
            .parse()
            .expect("the default listen address parses")
    };
    let Some(addr) = listen.and_then(|value| value.trim().parse::<SocketAddr>().ok()) else {
        return fallback();
    };
    if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port())
    } else {
        addr
    }
}

/// Asks the server at `addr` about `service`, giving up after `timeout`.
pub async fn check(addr: SocketAddr, service: &str, timeout: Duration) -> Outcome {
    match tokio::time::timeout(timeout, ask(addr, service, timeout)).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Unreachable(format!(
            "no answer within {}",
            humantime::format_duration(timeout)
        )),
    }
}

async fn ask(addr: SocketAddr, service: &str, timeout: Duration) -> Outcome {
    let endpoint = match Endpoint::from_shared(format!("http://{addr}")) {
        Ok(endpoint) => endpoint.connect_timeout(timeout),
        Err(error) => return Outcome::Unreachable(error.to_string()),
    };
    let channel = match endpoint.connect().await {
        Ok(channel) => channel,
        Err(error) => return Outcome::Unreachable(describe(&error)),
    };
    let request = HealthCheckRequest {
        service: service.to_string(),
    };
    match HealthClient::new(channel).check(request).await {
        Ok(response) => match ServingStatus::try_from(response.into_inner().status) {
            Ok(status) => Outcome::Status(status),
            Err(_) => Outcome::Status(ServingStatus::Unknown),
        },
        // The standard health service answers NOT_FOUND for a name it does not track.
        Err(status) if status.code() == tonic::Code::NotFound => Outcome::UnknownService,
        Err(status) => Outcome::Unreachable(format!("{:?}: {}", status.code(), status.message())),
    }
}

/// A transport error with its causes, which hold the useful part ("Connection refused").
fn describe(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        // Some layers repeat their cause's text in their own: show each text once.
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// Runs `health`: prints one line and exits 0 for SERVING, 1 for anything else.
pub async fn run(args: &HealthArgs) -> ExitCode {
    let listen = std::env::var(LISTEN_VARIABLE).ok();
    let addr = args.addr.unwrap_or_else(|| default_addr(listen.as_deref()));
    let outcome = check(addr, &args.service, args.timeout).await;
    println!("{}", outcome.line(addr, &args.service));
    if outcome.is_serving() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_address_follows_the_listen_variable() {
        let default: SocketAddr = DEFAULT_LISTEN.parse().unwrap();
        assert_eq!(default_addr(None), default);
        assert_eq!(default_addr(Some("not an address")), default);
        assert_eq!(
            default_addr(Some("0.0.0.0:7000")),
            "127.0.0.1:7000".parse().unwrap()
        );
        assert_eq!(
            default_addr(Some("[::]:7001")),
            "127.0.0.1:7001".parse().unwrap()
        );
        assert_eq!(
            default_addr(Some("10.1.2.3:7002")),
            "10.1.2.3:7002".parse().unwrap()
        );
    }

    #[test]
    fn only_serving_passes() {
        assert!(Outcome::Status(ServingStatus::Serving).is_serving());
        for outcome in [
            Outcome::Status(ServingStatus::NotServing),
            Outcome::Status(ServingStatus::Unknown),
            Outcome::UnknownService,
            Outcome::Unreachable("refused".into()),
        ] {
            assert!(!outcome.is_serving(), "{outcome:?}");
        }
        let addr: SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(
            Outcome::Status(ServingStatus::NotServing).line(addr, "x.Y"),
            "127.0.0.1:1 (x.Y): NOT_SERVING"
        );
    }

    #[tokio::test]
    async fn a_closed_port_does_not_answer() {
        // Bind and let go, so that nothing listens on the port.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let outcome = check(addr, "", Duration::from_secs(3)).await;
        assert!(matches!(outcome, Outcome::Unreachable(_)), "{outcome:?}");
    }
}
