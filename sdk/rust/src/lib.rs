//! Rust client for the Deckmate game server.
//!
//! Connect a [`Client`], create a game, and hand each [`SeatHandle`] to its player; anyone can
//! follow a game through a [`Spectator`]. Every failure is an [`Error`] whose variant is the
//! server's stable error reason, and which carries the rest of what the server reported as
//! [`ErrorDetails`] (metadata, field violations, retry delay, and the request id of an `Act`
//! or `CreateGame`).
//!
//! ```no_run
//! use deckmate::{ActOptions, Client, CreateOptions, pb};
//!
//! # async fn run() -> Result<(), deckmate::Error> {
//! let client = Client::connect("http://127.0.0.1:50051").await?;
//! let config = pb::GameConfig {
//!     game: Some(pb::game_config::Game::PigeonChess(pb::PigeonChessConfig::default())),
//! };
//! let game = client.create_game(config, 2, CreateOptions::default()).await?;
//! let seat = &game.seats[0];
//! let view = seat.observe().await?;
//! if let Some(action) = view.legal_actions.first() {
//!     seat.act_with(action.clone(), ActOptions::expecting(view.version)).await?;
//! }
//! # Ok(())
//! # }
//! ```

mod access;
mod client;
mod connect;
mod connection;
mod credential;
mod details;
mod error;
mod game;
mod keepalive;
mod options;
mod request_id;
mod retry;
mod seat;
mod secret_header;
mod spectator;
mod watch;

/// The generated API types (`deckmate.v1`), re-exported so that callers need no other crate.
pub use deckmate_proto::v1 as pb;

pub use client::Client;
pub use connect::{ConnectOptions, TlsOptions};
pub use details::{ErrorDetails, FieldViolation};
pub use error::Error;
pub use game::Game;
pub use keepalive::Keepalive;
pub use options::{ActOptions, CreateOptions};
pub use request_id::new_request_id;
pub use retry::RetryPolicy;
pub use seat::{SeatHandle, meta_action};
pub use spectator::Spectator;
