//! One module per game, each implementing [`crate::Game`] as its rule file specifies.

pub mod card_chess;
pub mod chuno;
mod common;
pub mod pigeon_chess;
pub mod pile_chess;
pub mod raindrop_chess;
#[cfg(test)]
mod testing;
