//! Rust client for the Deckmate game server.
