//! Deckmate gRPC game server.
//!
//! The server hosts every Deckmate game behind `deckmate.v1.GameService` (docs/ARCHITECTURE.md §3):
//! the handlers in [`api`] validate requests, run them against a [`live::LiveGame`] loaded from a
//! [`store::SessionStore`], and map failures to [`error::ApiError`]. [`app::serve`] runs the whole
//! server (gRPC, gRPC-Web with CORS, health and reflection) on a listener.

pub mod api;
pub mod app;
pub mod auth;
pub mod batched_writes;
pub mod bots;
pub mod catalog;
pub mod cli;
pub mod clocks;
pub mod codec;
pub mod config;
pub mod connections;
pub mod error;
pub mod hangup;
pub mod headers;
pub mod health_check;
pub mod live;
pub mod monitoring;
pub mod otel;
pub mod protection;
pub mod protocol_errors;
pub mod session;
pub mod shutdown;
pub mod store;
pub mod telemetry;
pub mod tls;

pub use app::{serve, serve_with_store};
pub use config::Config;
