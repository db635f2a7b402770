//! Where a check is: game, seat count, seed and ply, printed in every failure message so that a
//! failure can be reproduced alone.

use std::fmt;

use deckmate_engine::{Edition, Viewer};

use super::budget::SEEDS_VARIABLE;

/// The position of a check within the suite.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// The game id.
    pub(crate) game: &'static str,
    /// The seat count.
    pub(crate) seats: usize,
    /// The rules edition the games are dealt under.
    pub(crate) edition: Edition,
    /// The seed of the game (and of the test's own random choices).
    pub(crate) seed: u64,
    /// Actions applied so far in the main line.
    pub(crate) ply: usize,
}

impl Ctx {
    /// The start of a playout.
    pub(crate) fn new(game: &'static str, seats: usize, edition: Edition, seed: u64) -> Ctx {
        Ctx {
            game,
            seats,
            edition,
            seed,
            ply: 0,
        }
    }
}

impl fmt::Display for Ctx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{} seats={} {} seed={} ply={}; rerun alone with {}={}..{}]",
            self.game,
            self.seats,
            self.edition,
            self.seed,
            self.ply,
            SEEDS_VARIABLE,
            self.seed,
            self.seed + 1
        )
    }
}

/// A viewer as failure messages name it: `seat 1`, `the spectator`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ViewerName(pub(crate) Viewer);

impl fmt::Display for ViewerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Viewer::Seat(seat) => write!(f, "{seat}"),
            Viewer::Spectator => f.write_str("the spectator"),
        }
    }
}
