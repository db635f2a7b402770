//! [`Game`]: a newly created game and its seats.

use crate::SeatHandle;

/// A game as `CreateGame` returned it.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's id.
    pub id: String,
    /// The game kind, such as `"pigeon_chess"`.
    pub variant: String,
    /// One handle per seat the caller plays, in seat order (bot seats have none, so a handle's
    /// index is its seat only when the game has no bots: use [`Game::seat`]). Hand each one
    /// only to the player of that seat.
    pub seats: Vec<SeatHandle>,
    /// SHA-256 of the game's secret seed; `GetHistory` reveals the seed once the game has
    /// finished, so that anyone can check the shuffles were fixed in advance.
    pub seed_commitment: Vec<u8>,
    /// The version after setup (0).
    pub version: u64,
}

impl Game {
    /// The handle of seat `index`, if the game has that seat and it is not a bot's.
    pub fn seat(&self, index: usize) -> Option<&SeatHandle> {
        self.seats
            .iter()
            .find(|handle| usize::try_from(handle.seat()).is_ok_and(|seat| seat == index))
    }
}
