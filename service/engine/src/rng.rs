//! Seeds and the per-game random number generator.
//!
//! Every game keeps a [`GameRng`] inside its state, so a game is reproduced exactly by
//! (config, seats, seed, action log). Nothing here reads the clock or the OS.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// The generator every game uses: ChaCha20, whose output cannot be predicted from the cards it
/// has dealt, with its position serialized as part of the game state.
pub type GameRng = rand_chacha::ChaCha20Rng;

/// A game's 32-byte seed. The server commits to it (SHA-256) at creation and reveals it once the
/// game has finished.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// The seed for a 64-bit client-supplied number: its little-endian bytes followed by zeros.
    /// Simple on purpose, so that anyone can rebuild the 32 bytes from the number.
    pub fn from_u64(value: u64) -> Seed {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&value.to_le_bytes());
        Seed(bytes)
    }

    /// The generator this seed starts.
    pub fn rng(&self) -> GameRng {
        GameRng::from_seed(self.0)
    }
}

impl std::fmt::Debug for Seed {
    // The seed is secret while a game runs: never print it by accident.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seed(<hidden>)")
    }
}

/// Shuffles `items` in place with the game's generator (Fisher–Yates).
pub fn shuffle<T>(items: &mut [T], rng: &mut GameRng) {
    items.shuffle(rng);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_shuffle_and_debug_hides_seed() {
        let mut a: Vec<u32> = (0..52).collect();
        let mut b = a.clone();
        shuffle(&mut a, &mut Seed::from_u64(7).rng());
        shuffle(&mut b, &mut Seed::from_u64(7).rng());
        assert_eq!(a, b);
        assert_ne!(a, (0..52).collect::<Vec<_>>());
        assert_eq!(format!("{:?}", Seed::from_u64(7)), "Seed(<hidden>)");
    }
}
