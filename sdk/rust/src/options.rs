//! Per-call options for `CreateGame` and `Act`.

use crate::pb;

/// Options of [`Client::create_game`](crate::Client::create_game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CreateOptions {
    /// A fixed seed for the game's random number generator. Only servers started to allow
    /// client seeds accept one (for tests and reproductions); unset, the server draws a secret
    /// seed.
    pub seed: Option<u64>,
    /// Whether callers without a seat token may observe the game; unspecified means the
    /// server's default (allowed).
    pub spectator_policy: pb::SpectatorPolicy,
    /// The idempotency key; unset (or empty), the client generates a fresh one. Sending the
    /// same id again returns the first game instead of creating another.
    pub request_id: Option<String>,
    /// The seats the server plays itself, and at which level: `(seat, level)`. A bot seat gets
    /// no token, so the created [`Game`](crate::Game) has no handle for it.
    pub bots: Vec<(u32, pb::BotLevel)>,
    /// Turn clocks; unset, the game has none.
    pub clock: Option<pb::Clock>,
}

impl CreateOptions {
    /// Uses `seed` for the game's random number generator.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Sets the spectator policy.
    #[must_use]
    pub fn with_spectator_policy(mut self, policy: pb::SpectatorPolicy) -> Self {
        self.spectator_policy = policy;
        self
    }

    /// Uses `request_id` as the idempotency key.
    #[must_use]
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> Self {
        self.request_id = Some(request_id.into());
        self
    }

    /// Has the server play `seat` with a bot of `level`. A game whose every seat is a bot needs
    /// an API key or a server that allows such games.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), deckmate::Error> {
    /// use deckmate::{Client, CreateOptions, pb};
    ///
    /// let client = Client::connect("http://127.0.0.1:50051").await?;
    /// let config = pb::GameConfig {
    ///     game: Some(pb::game_config::Game::PigeonChess(Default::default())),
    /// };
    /// // Play seat 0 against the server's greedy bot on seat 1.
    /// let options = CreateOptions::default().with_bot(1, pb::BotLevel::Greedy);
    /// let game = client.create_game(config, 2, options).await?;
    /// assert!(game.seat(1).is_none(), "a bot seat has no token");
    /// let me = game.seat(0).expect("seat 0 is ours");
    /// let view = me.observe().await?;
    /// assert_eq!(view.seat_options[0].seat, 1);
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn with_bot(mut self, seat: u32, level: pb::BotLevel) -> Self {
        self.bots.push((seat, level));
        self
    }

    /// Gives every seat a Fischer clock: `base_ms` to start with (1 s to 24 h) and
    /// `increment_ms` added each time its turn ends (0 to 60 s). `on_timeout` says what a
    /// timeout does (unspecified: the seat forfeits).
    #[must_use]
    pub fn with_fischer_clock(
        mut self,
        base_ms: u32,
        increment_ms: u32,
        on_timeout: pb::TimeoutPolicy,
    ) -> Self {
        self.clock = Some(pb::Clock {
            kind: Some(pb::clock::Kind::Fischer(pb::clock::Fischer {
                base_ms,
                increment_ms,
            })),
            on_timeout: on_timeout.into(),
        });
        self
    }

    /// Gives every action `limit_ms` (1 s to 24 h), not carried over; `on_timeout` as for
    /// [`CreateOptions::with_fischer_clock`].
    #[must_use]
    pub fn with_action_clock(mut self, limit_ms: u32, on_timeout: pb::TimeoutPolicy) -> Self {
        self.clock = Some(pb::Clock {
            kind: Some(pb::clock::Kind::PerAction(pb::clock::PerAction {
                limit_ms,
            })),
            on_timeout: on_timeout.into(),
        });
        self
    }
}

/// Options of [`SeatHandle::act_with`](crate::SeatHandle::act_with).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActOptions {
    /// Apply the action only if the game is still at this version; otherwise the call fails
    /// with [`Error::StaleVersion`](crate::Error::StaleVersion) and nothing changes.
    pub expected_version: Option<u64>,
    /// The idempotency key; unset (or empty), the client generates a fresh one. Sending the
    /// same id again for the same seat returns the first response and applies nothing.
    pub request_id: Option<String>,
}

impl ActOptions {
    /// Options that apply the action only at `version`.
    pub fn expecting(version: u64) -> Self {
        ActOptions {
            expected_version: Some(version),
            request_id: None,
        }
    }

    /// Uses `request_id` as the idempotency key.
    #[must_use]
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> Self {
        self.request_id = Some(request_id.into());
        self
    }
}
