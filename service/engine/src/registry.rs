//! What the API asks of every hosted game, written once over `with_game!`. The games themselves are
//! listed in one place, `games/mod.rs` (see `register.rs`); everything else is generic over
//! [`crate::Game`].

use std::ops::RangeInclusive;

use crate::game::Game;

pub use crate::games::GameKind;

impl GameKind {
    /// The stable game id.
    pub fn id(self) -> &'static str {
        with_game!(self, G => G::ID)
    }

    /// The display name.
    pub fn name(self) -> &'static str {
        with_game!(self, G => G::NAME)
    }

    /// A short rule summary.
    pub fn summary(self) -> &'static str {
        with_game!(self, G => G::SUMMARY)
    }

    /// Supported seat counts.
    pub fn seats(self) -> RangeInclusive<usize> {
        with_game!(self, G => G::SEATS)
    }

    /// The game with this id.
    pub fn from_id(id: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|kind| kind.id() == id)
    }
}
