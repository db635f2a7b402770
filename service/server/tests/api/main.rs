//! The API tests (docs/ARCHITECTURE.md §3): the error model, hidden information, watch and
//! history, a client that knows only server reflection, and every game played through the SDK,
//! all against one in-process server per configuration started through the server library.
//!
//! They form one test binary so that its tests share those servers and run in parallel instead
//! of each binary (and each test) starting a server process of its own: `cargo test -p
//! deckmate-server --tests` took BEFORE_SECONDS s over 13 test binaries before, AFTER_SECONDS s
//! over BINARIES_AFTER after. The tests of what only a server process shows (a store going away,
//! replicas) spawn the binary in the `process` test binary.

#[path = "../common/mod.rs"]
mod common;
mod errors;
mod games;
mod no_leak;
mod reflection;
mod reflection_client;
mod server;
mod support;
mod watch_and_history;
