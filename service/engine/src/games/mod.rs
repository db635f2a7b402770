//! One module per game, each implementing [`crate::Game`] as its rule file specifies.

pub mod pigeon_chess;
