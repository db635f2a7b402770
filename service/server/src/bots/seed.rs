//! The seed of one bot move.

use deckmate_engine::{Seat, Seed};
use sha2::{Digest, Sha256};

/// The seed of the move `seat`'s bot makes at `version` of the game seeded with `game`:
/// SHA-256 over a domain tag, the game seed, the version and the seat. A game made from a
/// client seed therefore replays the same bot moves, while the hash keeps the game seed secret
/// (nothing a bot does reveals it) and the tag keeps these seeds apart from any other use of
/// the game seed.
pub fn move_seed(game: Seed, version: u64, seat: Seat) -> Seed {
    let digest = Sha256::new()
        .chain_update(b"deckmate bot move v1\0")
        .chain_update(game.0)
        .chain_update(version.to_le_bytes())
        .chain_update([seat.0])
        .finalize();
    Seed(digest.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_depend_on_game_version_and_seat_only() {
        let game = Seed::from_u64(9);
        let seed = move_seed(game, 4, Seat(1));
        assert_eq!(seed, move_seed(game, 4, Seat(1)));
        assert_ne!(seed, move_seed(game, 5, Seat(1)));
        assert_ne!(seed, move_seed(game, 4, Seat(0)));
        assert_ne!(seed, move_seed(Seed::from_u64(10), 4, Seat(1)));
        assert_ne!(seed, game);
    }
}
