//! One module per game, each implementing [`crate::Game`] as its rule file specifies.
//!
//! The list below is the registry of hosted games: one line a game (`register.rs` says what
//! each line generates).

mod common;
mod inline;
#[cfg(test)]
mod testing;

register_games! {$
    /// Pile Chess (`pile_chess`).
    PileChess => pile_chess::PileChess,
    /// Card Chess (`card_chess`).
    CardChess => card_chess::CardChess,
    /// CHUNO (`chuno`).
    Chuno => chuno::Chuno,
    /// Pigeon Chess (`pigeon_chess`).
    PigeonChess => pigeon_chess::PigeonChess,
    /// Raindropchess (`raindrop_chess`).
    RaindropChess => raindrop_chess::RaindropChess,
}
