//! The connections of a run: `connections` HTTP/2 channels to each target, each carrying an SDK
//! client, a raw `GameService` client and a health client, shared round-robin by the workers of
//! every phase. A worker holds one connection per target, so that it can send each call to the
//! target the routing rule ([`crate::routing`]) gives it. Every client sends the run's API key,
//! if it has one ([`crate::api_key`]).

use std::time::Duration;

use deckmate::pb::game_service_client::GameServiceClient;
use deckmate::{Client, ConnectOptions, RetryPolicy};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::health_client::HealthClient;

use crate::SetupError;
use crate::api_key::{ApiKey, SendApiKey};

/// A channel whose calls carry the run's API key.
pub(crate) type Keyed = InterceptedService<Channel, SendApiKey>;

/// How long opening one connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// One HTTP/2 connection to the server, with both clients over it.
#[derive(Clone, Debug)]
pub(crate) struct Connection {
    /// The Deckmate SDK client. It never retries: every failure is counted as it happens.
    pub(crate) client: Client,
    /// The generated `GameService` client, for the `Watch` calls the scenario reads as raw
    /// streams.
    pub(crate) raw: GameServiceClient<Keyed>,
    /// The channel itself with the key, for the turns of a game in play
    /// ([`crate::lean_calls`]).
    pub(crate) keyed: Keyed,
    /// The standard health client, for the baseline.
    pub(crate) health: HealthClient<Keyed>,
}

/// Every connection of a run.
#[derive(Debug)]
pub(crate) struct Connections {
    /// `count` connections per target, by target.
    by_target: Vec<Vec<Connection>>,
}

/// The connections of one worker: one to each target, in target order.
#[derive(Clone, Debug)]
pub(crate) struct WorkerConnections {
    list: Vec<Connection>,
}

impl WorkerConnections {
    /// The connection to target `index`.
    pub(crate) fn to(&self, index: usize) -> &Connection {
        &self.list[index]
    }

    /// The number of targets.
    pub(crate) fn targets(&self) -> usize {
        self.list.len()
    }
}

impl Connections {
    /// Opens `count` connections to each of `targets` (URLs, at least one), whose calls carry
    /// `api_key` when given.
    pub(crate) async fn open(
        targets: &[String],
        count: usize,
        api_key: Option<&ApiKey>,
    ) -> Result<Connections, SetupError> {
        let mut by_target = Vec::with_capacity(targets.len());
        for target in targets {
            by_target.push(open_target(target, count, api_key).await?);
        }
        Ok(Connections { by_target })
    }

    /// The connections of worker `index`: its round-robin share of each target's.
    pub(crate) fn for_worker(&self, index: usize) -> WorkerConnections {
        WorkerConnections {
            list: self
                .by_target
                .iter()
                .map(|list| list[index % list.len()].clone())
                .collect(),
        }
    }
}

/// Opens `count` connections to `target`, whose calls carry `api_key` when given.
async fn open_target(
    target: &str,
    count: usize,
    api_key: Option<&ApiKey>,
) -> Result<Vec<Connection>, SetupError> {
    let endpoint = Endpoint::from_shared(target.to_string())
        .map_err(|error| SetupError::Target(format!("`{target}`: {error}")))?
        .connect_timeout(CONNECT_TIMEOUT)
        .tcp_nodelay(true);
    let mut list = Vec::with_capacity(count);
    for _ in 0..count {
        let channel = endpoint
            .connect()
            .await
            .map_err(|error| SetupError::Connect(deckmate::Error::from(error).to_string()))?;
        list.push(Connection {
            client: sdk_client(channel.clone(), api_key)?,
            raw: GameServiceClient::with_interceptor(channel.clone(), SendApiKey(api_key.cloned())),
            keyed: InterceptedService::new(channel.clone(), SendApiKey(api_key.cloned())),
            health: HealthClient::with_interceptor(channel, SendApiKey(api_key.cloned())),
        });
    }
    Ok(list)
}

/// The SDK client over `channel`: it never retries, and sends `api_key` when given.
fn sdk_client(channel: Channel, api_key: Option<&ApiKey>) -> Result<Client, SetupError> {
    let mut options = ConnectOptions::default().with_retry_policy(RetryPolicy::never());
    if let Some(key) = api_key {
        options = options.with_api_key(key.expose());
    }
    // The key was checked to be sendable; the SDK's message would not show it anyway.
    Client::from_channel_with(channel, options)
        .map_err(|error| SetupError::Options(error.to_string()))
}

/// `target` as a URL: `host:port` gets the `http://` scheme.
pub fn normalize_target(target: &str) -> String {
    let target = target.trim();
    if target.contains("://") {
        target.to_string()
    } else {
        format!("http://{target}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_addresses_get_the_http_scheme() {
        assert_eq!(
            normalize_target("127.0.0.1:50051"),
            "http://127.0.0.1:50051"
        );
        assert_eq!(
            normalize_target(" https://deckmate.example:443 "),
            "https://deckmate.example:443"
        );
    }

    #[tokio::test]
    async fn a_refused_connection_is_a_setup_error() {
        // Bind and release a port so that nothing listens on it.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .unwrap()
            .port();
        let error = Connections::open(&[format!("http://127.0.0.1:{port}")], 1, None)
            .await
            .expect_err("nothing listens there");
        assert!(matches!(error, SetupError::Connect(_)), "{error}");
        let bad = Connections::open(&["http://bad host".to_string()], 1, None)
            .await
            .unwrap_err();
        assert!(matches!(bad, SetupError::Target(_)), "{bad}");
    }
}
