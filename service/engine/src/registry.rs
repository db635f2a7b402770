//! The registry of hosted games. Together with the server's codec, this is the only place that
//! lists the games; everything else is generic over [`crate::Game`].

/// Runs `$body` with `$G` bound to the [`Game`] type of `$kind` (a [`GameKind`]).
///
/// ```
/// use deckmate_engine::{Game, GameKind, with_game};
/// assert_eq!(with_game!(GameKind::PigeonChess, G => G::ID), "pigeon_chess");
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::PileChess => {
                type $G = $crate::games::pile_chess::PileChess;
                $body
            }
            $crate::GameKind::CardChess => {
                type $G = $crate::games::card_chess::CardChess;
                $body
            }
            $crate::GameKind::Chuno => {
                type $G = $crate::games::chuno::Chuno;
                $body
            }
            $crate::GameKind::PigeonChess => {
                type $G = $crate::games::pigeon_chess::PigeonChess;
                $body
            }
            $crate::GameKind::RaindropChess => {
                type $G = $crate::games::raindrop_chess::RaindropChess;
                $body
            }
        }
    };
}

use std::ops::RangeInclusive;

use crate::game::Game;
use crate::games::card_chess::CardChess;
use crate::games::chuno::Chuno;
use crate::games::pigeon_chess::PigeonChess;
use crate::games::pile_chess::PileChess;

/// A hosted game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Pile Chess (`pile_chess`).
    PileChess,
    /// Card Chess (`card_chess`).
    CardChess,
    /// CHUNO (`chuno`).
    Chuno,
    /// Pigeon Chess (`pigeon_chess`).
    PigeonChess,
    /// Raindropchess (`raindrop_chess`).
    RaindropChess,
}

impl GameKind {
    /// Every hosted game, in the order `ListVariants` shows them.
    pub const ALL: &'static [GameKind] = &[
        GameKind::PileChess,
        GameKind::CardChess,
        GameKind::Chuno,
        GameKind::PigeonChess,
        GameKind::RaindropChess,
    ];

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

/// Compile-time check that every registered type implements [`Game`].
#[allow(dead_code)]
fn registered_types_are_games() {
    fn is_game<G: Game>() {}
    is_game::<CardChess>();
    is_game::<Chuno>();
    is_game::<PigeonChess>();
    is_game::<PileChess>();
}
