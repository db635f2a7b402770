//! Keeping one client from hurting the others (docs/OPERATIONS.md, "Limits" and "API keys").
//!
//! Two places enforce limits:
//! - at the transport, around `GameService` only ([`calls::CallGuard`]): concurrent calls with
//!   load shedding, and the deadline of unary calls;
//! - in the handlers, where the request is known ([`Protection`]): the API key of CreateGame,
//!   the CreateGame rate and the live games per caller, and the open watch streams per game
//!   (spectators' and each seat's apart) and per client ([`watchers`]).
//!
//! Which RPCs need an API key, when `--api-keys-file` is set: only CreateGame. It is the one call
//! that makes the server hold something new (a game, for up to the idle TTL); every other
//! GameService call acts on a game that a keyed CreateGame made, is authorised by that game's
//! seat tokens or its spectator policy, and is bounded by per-game limits. A browser player who
//! was handed a seat token by the application therefore needs no key of its own. ListVariants
//! needs none either: it is a fixed public catalogue that reveals nothing about the server's
//! games, costs nothing, and lets a client find out what it can ask for before it has a key.
//! A key presented on those calls is ignored (not checked, not logged).

pub mod api_keys;
pub mod caller;
pub mod calls;
pub mod cors;
pub mod games;
pub mod open_counts;
pub mod rate;
pub mod status;
pub mod watchers;

use std::sync::Arc;
use std::time::Duration;

use deckmate_engine::Viewer;
use deckmate_proto::v1 as pb;
use tonic::Request;

use self::api_keys::{ApiKeys, KeysFileError};
use self::caller::{Caller, TrustedProxies};
use self::games::GamesPerClient;
use self::rate::{CreateRate, Rate};
use self::watchers::{ClientWatchSlot, WatchSlot, WatchersPerClient, WatchersPerGame};
use crate::config::Config;
use crate::error::ApiError;
use crate::monitoring::{self, Limit};
use crate::store::SessionStore;

/// The per-caller and per-game limits of the handlers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtectionSettings {
    /// CreateGame calls per caller (`--create-rate`).
    pub create_rate: Rate,
    /// CreateGame calls a caller may make at once before the rate applies (`--create-burst`).
    pub create_burst: u32,
    /// Live games one caller may have created (`--max-games-per-client`).
    pub max_games_per_client: usize,
    /// Open Watch streams per game for its spectators, and as many for each of its seats
    /// (`--max-watchers-per-game`).
    pub max_watchers_per_game: usize,
    /// Open Watch streams per client, over every game (`--max-watchers-per-client`).
    pub max_watchers_per_client: usize,
    /// Proxies whose `x-forwarded-for` is believed (`--trusted-proxies`).
    pub trusted_proxies: TrustedProxies,
}

impl ProtectionSettings {
    /// The settings of a server configuration.
    pub fn from_config(config: &Config) -> ProtectionSettings {
        ProtectionSettings {
            create_rate: config.create_rate,
            create_burst: config.create_burst,
            max_games_per_client: config.max_games_per_client,
            max_watchers_per_game: config.max_watchers_per_game,
            max_watchers_per_client: config.max_watchers_per_client,
            trusted_proxies: TrustedProxies::new(config.trusted_proxies.clone()),
        }
    }

    /// No limits at all: for handlers driven in process (tests, benchmarks), where every call
    /// comes from the same place.
    pub fn unlimited() -> ProtectionSettings {
        ProtectionSettings {
            create_rate: Rate::Off,
            create_burst: u32::MAX,
            max_games_per_client: usize::MAX,
            max_watchers_per_game: usize::MAX,
            max_watchers_per_client: usize::MAX,
            trusted_proxies: TrustedProxies::default(),
        }
    }
}

/// The handler-level protection of one server.
#[derive(Debug)]
pub struct Protection {
    /// What this protection enforces, as configured (its proxies are read on every call; the
    /// rest is reported by `GetServerInfo`).
    settings: ProtectionSettings,
    api_keys: Option<Arc<ApiKeys>>,
    create_rate: CreateRate,
    games: GamesPerClient,
    watchers: WatchersPerGame,
    client_watchers: WatchersPerClient,
}

impl Protection {
    /// Enforces `settings`, and `api_keys` on CreateGame when given.
    pub fn new(settings: ProtectionSettings, api_keys: Option<Arc<ApiKeys>>) -> Protection {
        Protection {
            api_keys,
            create_rate: CreateRate::new(settings.create_rate, settings.create_burst),
            games: GamesPerClient::new(settings.max_games_per_client),
            watchers: WatchersPerGame::new(settings.max_watchers_per_game),
            client_watchers: WatchersPerClient::new(settings.max_watchers_per_client),
            settings,
        }
    }

    /// No limits and no keys (see [`ProtectionSettings::unlimited`]).
    pub fn unlimited() -> Protection {
        Protection::new(ProtectionSettings::unlimited(), None)
    }

    /// The protection a configuration asks for, reading `--api-keys-file` when set.
    pub fn from_config(config: &Config) -> Result<Protection, KeysFileError> {
        let api_keys = match &config.api_keys_file {
            Some(path) => Some(Arc::new(ApiKeys::load(path)?)),
            None => None,
        };
        Ok(Protection::new(
            ProtectionSettings::from_config(config),
            api_keys,
        ))
    }

    /// The limits this protection enforces, as configured.
    pub fn settings(&self) -> &ProtectionSettings {
        &self.settings
    }

    /// The API keys in force, when `--api-keys-file` is set (to reload them on SIGHUP).
    pub fn api_keys(&self) -> Option<&Arc<ApiKeys>> {
        self.api_keys.as_ref()
    }

    /// Whether CreateGame needs an `x-api-key` (for clients that ask what the server requires).
    pub fn api_keys_enabled(&self) -> bool {
        self.api_keys.is_some()
    }

    /// Who is calling CreateGame: the name of its API key when keys are on (a missing or wrong
    /// key is [`ApiError::BadApiKey`]), else its client address.
    pub fn identify<T>(&self, request: &Request<T>) -> Result<Caller, ApiError> {
        if let Some(keys) = &self.api_keys {
            return keys.check(request.metadata()).map(Caller::Key);
        }
        Ok(self.client_of(request))
    }

    /// The client a call comes from by its address alone (`--trusted-proxies`): the caller of
    /// the limits on calls that need no API key.
    pub fn client_of<T>(&self, request: &Request<T>) -> Caller {
        match request.remote_addr() {
            Some(peer) => Caller::Address(
                self.settings
                    .trusted_proxies
                    .client_address(peer.ip(), request.metadata()),
            ),
            None => Caller::Unknown,
        }
    }

    /// Runs `create` (the CreateGame handler) for `caller` within the caller's quotas: the
    /// create rate first, then its live games; the game made is counted for the caller as
    /// `weight` games (one, plus one per bot seat).
    pub async fn create_game(
        &self,
        caller: Result<Caller, ApiError>,
        weight: usize,
        store: &dyn SessionStore,
        create: impl Future<Output = Result<pb::CreateGameResponse, ApiError>>,
    ) -> Result<pb::CreateGameResponse, ApiError> {
        let caller = caller?;
        if let Caller::Key(name) = &caller {
            // The key's name, never the key, names the caller in the logs.
            tracing::Span::current().record("deckmate.api_key", &**name);
        }
        if let Err(wait) = self.create_rate.check(&caller) {
            monitoring::limit_rejected(Limit::CreateRate);
            return Err(ApiError::RateLimited {
                message: "this client creates games faster than this server allows".to_string(),
                retry_after: wait,
            });
        }
        let reservation = self
            .games
            .reserve(&caller, weight, store)
            .await
            .inspect_err(|error| {
                if matches!(error, ApiError::LimitReached(_)) {
                    monitoring::limit_rejected(Limit::GamesPerClient);
                }
            })?;
        let response = create.await?;
        reservation.created(&response.game_id);
        Ok(response)
    }

    /// Keeps the per-client game counts to live games until the returned task is aborted:
    /// looks up counted games again every [`games::prune_period`] of `game_ttl`.
    pub fn prune_games_periodically(
        &self,
        store: Arc<dyn SessionStore>,
        game_ttl: Duration,
    ) -> impl Future<Output = ()> + Send + 'static {
        games::prune_periodically(self.games.clone(), store, games::prune_period(game_ttl))
    }

    /// A place for one more Watch stream on game `id` for `viewer`, held while the slot lives:
    /// spectators share the game's places, each seat has its own (see [`watchers`]).
    pub fn open_watch(&self, id: &str, viewer: Viewer) -> Result<WatchSlot, ApiError> {
        self.watchers.open(id, viewer).inspect_err(|_| {
            monitoring::limit_rejected(Limit::WatchersPerGame);
        })
    }

    /// A place for one more Watch stream of `client` on this replica, over every game, held
    /// while the slot lives (`--max-watchers-per-client`).
    pub fn open_client_watch(&self, client: Caller) -> Result<ClientWatchSlot, ApiError> {
        self.client_watchers.open(client).inspect_err(|_| {
            monitoring::limit_rejected(Limit::WatchersPerClient);
        })
    }
}

#[cfg(test)]
mod tests;
