//! Deckmate's game rules.
//!
//! Every game implements [`Game`] (see `game.rs` for the contract), and [`Table`] wraps any game
//! with the meta actions every game shares (resignation and draw offers) and the timeouts a
//! server that runs clocks enters. [`GameKind`] is the registry of hosted games. The crate is
//! pure: no I/O, no clocks (it only says whose clock runs), no global randomness; every random
//! choice comes from the seeded ChaCha generator kept inside each game's state.

pub mod bots;
pub mod cards;
pub mod chess;
pub mod edition;
mod event_view;
pub mod game;
pub mod length;
#[macro_use]
mod register;
#[macro_use]
pub mod games;
pub mod notation;
pub mod registry;
pub mod rng;
pub mod seat;
pub mod table;

pub use edition::Edition;
pub use game::{EndReason, Game, Outcome, PlayError, SetupError};
pub use notation::{NameTable, Notation};
pub use registry::GameKind;
pub use rng::{GameRng, Seed};
pub use seat::{Seat, SeatSet, Viewer};
pub use table::{
    Dealt, LoggedAction, MetaAction, MetaEvent, ReplayError, Table, TableAction, TableEvent,
};
