//! Deckmate gRPC game server.

pub mod error;
pub mod live;
