//! The API tests (docs/ARCHITECTURE.md §3): the error model, hidden information, watch and
//! history, a client that knows only server reflection, and every game played through the SDK,
//! all against one in-process server per configuration started through the server library.
//!
//! They form one test binary with one runtime (`server::run`) so that they share those servers
//! and run side by side, instead of each test starting a server process and each test binary
//! running after the last: `cargo test -p deckmate-server --tests` took 79 s over 13 test
//! binaries before and 58 s over 4 after, measured one after the other on the same two-core
//! machine, although the generic suite now also plays every game at every seat count and by
//! reflection. The tests of
//! what only a server process shows (a store going away, replicas) spawn the binary in the
//! `process` test binary.

mod bots;
#[path = "../common/mod.rs"]
mod common;
mod errors;
mod games;
mod history_pages;
mod no_leak;
mod reflection;
mod reflection_client;
mod server;
mod support;
mod watch_and_history;
