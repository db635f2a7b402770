//! [`Client`]: a connection to a Deckmate server.

use tonic::transport::{Channel, Endpoint};

use crate::access::GameAccess;
use crate::credential::Credential;
use crate::pb::game_service_client::GameServiceClient;
use crate::{CreateOptions, Error, Game, RetryPolicy, SeatHandle, Spectator, new_request_id, pb};

/// A connection to a Deckmate server. Cheap to clone; clones share the connection.
#[derive(Clone, Debug)]
pub struct Client {
    rpc: GameServiceClient<Channel>,
    retry: RetryPolicy,
}

impl Client {
    /// Connects to the server at `endpoint`, such as `"http://127.0.0.1:50051"`.
    pub async fn connect(endpoint: impl Into<String>) -> Result<Client, Error> {
        let endpoint = Endpoint::from_shared(endpoint.into())
            .map_err(|error| Error::InvalidRequest(format!("bad endpoint: {error}")))?;
        let channel = endpoint.connect().await?;
        Ok(Client::from_channel(channel))
    }

    /// A client over an existing channel (for custom TLS, timeouts or lazy connections).
    pub fn from_channel(channel: Channel) -> Client {
        Client {
            rpc: GameServiceClient::new(channel),
            retry: RetryPolicy::default(),
        }
    }

    /// The same client with another retry policy for every handle made from it.
    #[must_use]
    pub fn with_retry_policy(mut self, retry: RetryPolicy) -> Client {
        self.retry = retry;
        self
    }

    /// The generated gRPC client on the same connection, for calls this client does not wrap.
    pub fn raw(&self) -> GameServiceClient<Channel> {
        self.rpc.clone()
    }

    /// The hosted games: seat counts, config defaults and rule summaries.
    pub async fn list_variants(&self) -> Result<Vec<pb::Variant>, Error> {
        self.retry
            .run(|| {
                let mut rpc = self.rpc.clone();
                async move {
                    let response = rpc.list_variants(pb::ListVariantsRequest {}).await?;
                    Ok(response.into_inner().variants)
                }
            })
            .await
    }

    /// Creates a game of the kind `config` names with `seats` seats (0: the game's smallest
    /// seat count). A retry after a temporary failure reuses the request id, so at most one
    /// game is created.
    pub async fn create_game(
        &self,
        config: pb::GameConfig,
        seats: u32,
        options: CreateOptions,
    ) -> Result<Game, Error> {
        let message = pb::CreateGameRequest {
            config: Some(config),
            seats,
            seed: options.seed,
            request_id: options.request_id.unwrap_or_else(new_request_id),
            spectator_policy: options.spectator_policy.into(),
        };
        let response = self
            .retry
            .run(|| {
                let mut rpc = self.rpc.clone();
                let request = message.clone();
                async move { Ok(rpc.create_game(request).await?.into_inner()) }
            })
            .await?;
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
        let access = GameAccess::new(
            self.rpc.clone(),
            self.retry,
            game_id.into(),
            Some(credential),
        );
        Ok(SeatHandle::new(seat, access))
    }

    /// Observes, watches and reads the history of `game_id` without a seat token.
    pub fn spectate(&self, game_id: impl Into<String>) -> Spectator {
        Spectator::new(GameAccess::new(
            self.rpc.clone(),
            self.retry,
            game_id.into(),
            None,
        ))
    }
}
