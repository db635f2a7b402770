//! [`Client`]: a connection to a Deckmate server.

use tonic::transport::Channel;

use crate::access::GameAccess;
use crate::connect;
use crate::connection::{API_KEY_HEADER, Connection};
use crate::credential::Credential;
use crate::pb::game_service_client::GameServiceClient;
use crate::secret_header::SecretHeader;
use crate::{
    ConnectOptions, CreateOptions, Error, Game, RetryPolicy, SeatHandle, Spectator, new_request_id,
    pb,
};

/// A connection to a Deckmate server. Cheap to clone; clones share the connection.
#[derive(Clone, Debug)]
pub struct Client {
    connection: Connection,
}

impl Client {
    /// Connects to the server at `endpoint`, such as `"http://127.0.0.1:50051"` or
    /// `"127.0.0.1:50051"` (plaintext) or `"https://games.example.com"` (TLS, trusting the
    /// system's certificate authorities).
    pub async fn connect(endpoint: impl Into<String>) -> Result<Client, Error> {
        Client::connect_with(endpoint, ConnectOptions::default()).await
    }

    /// Connects to the server at `endpoint` with an API key, TLS settings or a retry policy.
    /// With TLS settings the connection always uses TLS, even for an `http://` endpoint.
    pub async fn connect_with(
        endpoint: impl Into<String>,
        options: ConnectOptions,
    ) -> Result<Client, Error> {
        let api_key = api_key_header(&options)?;
        let channel = connect::endpoint(endpoint.into(), &options)?
            .connect()
            .await?;
        Ok(Client {
            connection: Connection::new(channel, options.retry, api_key),
        })
    }

    /// A client over an existing channel (for custom timeouts or lazy connections).
    pub fn from_channel(channel: Channel) -> Client {
        Client {
            connection: Connection::new(channel, RetryPolicy::default(), None),
        }
    }

    /// A client over an existing channel that sends an API key with every call.
    pub fn from_channel_with(channel: Channel, options: ConnectOptions) -> Result<Client, Error> {
        let api_key = api_key_header(&options)?;
        Ok(Client {
            connection: Connection::new(channel, options.retry, api_key),
        })
    }

    /// The same client with another retry policy for every handle made from it.
    #[must_use]
    pub fn with_retry_policy(mut self, retry: RetryPolicy) -> Client {
        self.connection.set_retry(retry);
        self
    }

    /// The generated gRPC client on the same connection, for calls this client does not wrap.
    /// Its calls carry no API key or seat token unless the caller adds them.
    pub fn raw(&self) -> GameServiceClient<Channel> {
        self.connection.rpc()
    }

    /// The hosted games: seat counts, config defaults and rule summaries.
    pub async fn list_variants(&self) -> Result<Vec<pb::Variant>, Error> {
        let connection = &self.connection;
        connection
            .retry()
            .run(|| {
                let mut rpc = connection.rpc();
                let request = connection.request(pb::ListVariantsRequest {}, None);
                async move { Ok(rpc.list_variants(request).await?.into_inner().variants) }
            })
            .await
    }

    /// What the server says about itself: its release, the API revision it speaks, which
    /// optional features are on (client seeds, API keys, bots, clocks, store kind) and the limits
    /// a client must respect. Needs no API key or token; retried like every read. A server
    /// older than this call answers `UNIMPLEMENTED` ([`Error::Other`]).
    pub async fn server_info(&self) -> Result<pb::GetServerInfoResponse, Error> {
        let connection = &self.connection;
        connection
            .retry()
            .run(|| {
                let mut rpc = connection.rpc();
                let request = connection.request(pb::GetServerInfoRequest {}, None);
                async move { Ok(rpc.get_server_info(request).await?.into_inner()) }
            })
            .await
    }

    /// Creates a game of the kind `config` names with `seats` seats (0: the game's smallest
    /// seat count). With a client-generated request id, a retry after a temporary failure
    /// reuses it, so at most one game is created; with a caller-chosen id the call is sent once.
    /// A failed call's error carries the request id it was sent with
    /// ([`Error::request_id`]), to resend it safely.
    pub async fn create_game(
        &self,
        config: pb::GameConfig,
        seats: u32,
        options: CreateOptions,
    ) -> Result<Game, Error> {
        // An empty id is no idempotency key (the proto's `request_id`): it counts as unset.
        let caller_id = options.request_id.filter(|id| !id.is_empty());
        let retry = self.connection.retry().for_request_id(caller_id.is_some());
        let message = pb::CreateGameRequest {
            config: Some(config),
            seats,
            seed: options.seed,
            request_id: caller_id.unwrap_or_else(new_request_id),
            spectator_policy: options.spectator_policy.into(),
            seat_options: options
                .bots
                .iter()
                .map(|&(seat, level)| pb::SeatOptions {
                    seat,
                    bot: level.into(),
                })
                .collect(),
            clock: options.clock,
        };
        let connection = &self.connection;
        let response = retry
            .run(|| {
                let mut rpc = connection.rpc();
                let request = connection.request(message.clone(), None);
                async move { Ok(rpc.create_game(request).await?.into_inner()) }
            })
            .await
            .map_err(|error| error.with_request_id(message.request_id))?;
        let seats = response
            .seat_tokens
            .into_iter()
            .map(|seat_token| self.seat(&response.game_id, seat_token.seat, seat_token.token))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Game {
            id: response.game_id,
            variant: response.variant,
            seats,
            seed_commitment: response.seed_commitment,
            version: response.version,
        })
    }

    /// A handle for a seat whose token was kept from [`Client::create_game`]; fails only when
    /// the token cannot be sent as metadata.
    pub fn seat(
        &self,
        game_id: impl Into<String>,
        seat: u32,
        token: impl Into<String>,
    ) -> Result<SeatHandle, Error> {
        let credential = Credential::new(token)?;
        let access = GameAccess::new(self.connection.clone(), game_id.into(), Some(credential));
        Ok(SeatHandle::new(seat, access))
    }

    /// Observes, watches and reads the history of `game_id` without a seat token.
    pub fn spectate(&self, game_id: impl Into<String>) -> Spectator {
        Spectator::new(GameAccess::new(
            self.connection.clone(),
            game_id.into(),
            None,
        ))
    }
}

/// The `x-api-key` metadata entry of `options`, if it has a key.
fn api_key_header(options: &ConnectOptions) -> Result<Option<SecretHeader>, Error> {
    options
        .api_key
        .clone()
        .map(|key| SecretHeader::new(API_KEY_HEADER, key, "an API key"))
        .transpose()
}
