//! The pool of actions seen during play. Actions from the pool that are not listed for a seat
//! now must be rejected (the "nothing else applies" half of the legality check).
//!
//! The shared part is harvested from quick unchecked playouts of seeds outside the checked
//! range, so it is the same whichever seeds run: a failure reproduces alone from its seed. Each
//! checked playout adds the actions it sees to its own local part.

use std::collections::HashSet;

use deckmate_engine::{Game, Seat, Seed, Table};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Seeds of the harvest playouts start here, far from the checked seeds.
const HARVEST_SEED_BASE: u64 = 1 << 48;

/// A set of distinct actions, kept in the order first seen.
pub(crate) struct Pool<A> {
    actions: Vec<A>,
    seen: HashSet<Vec<u8>>,
    capacity: usize,
}

impl<A: Clone + Serialize> Pool<A> {
    /// An empty pool holding at most `capacity` actions.
    pub(crate) fn new(capacity: usize) -> Pool<A> {
        Pool {
            actions: Vec::new(),
            seen: HashSet::new(),
            capacity,
        }
    }

    /// Adds the actions not yet in the pool and returns them.
    pub(crate) fn add<'a>(&mut self, actions: impl IntoIterator<Item = &'a A>) -> Vec<A>
    where
        A: 'a,
    {
        let mut added = Vec::new();
        for action in actions {
            if self.actions.len() >= self.capacity {
                break;
            }
            if self.seen.insert(encode(action)) {
                self.actions.push(action.clone());
                added.push(action.clone());
            }
        }
        added
    }

    /// Number of actions held.
    pub(crate) fn len(&self) -> usize {
        self.actions.len()
    }

    /// The action at `index` (`index < len`).
    pub(crate) fn get(&self, index: usize) -> &A {
        &self.actions[index]
    }

    /// Whether `action` is in the pool.
    pub(crate) fn contains(&self, action: &A) -> bool {
        self.seen.contains(&encode(action))
    }
}

/// The canonical bytes of an action, used to compare and hash actions of any game.
pub(crate) fn encode<A: Serialize>(action: &A) -> Vec<u8> {
    postcard::to_allocvec(action).expect("every action serializes with postcard")
}

/// Picks up to `count` actions from the shared and the local pool together, at random.
pub(crate) fn sample<'a, A: Clone + Serialize>(
    shared: &'a Pool<A>,
    local: &'a Pool<A>,
    count: usize,
    rng: &mut impl Rng,
) -> Vec<&'a A> {
    let total = shared.len() + local.len();
    if total == 0 {
        return Vec::new();
    }
    rand::seq::index::sample(rng, total, count.min(total))
        .into_iter()
        .map(|index| {
            if index < shared.len() {
                shared.get(index)
            } else {
                local.get(index - shared.len())
            }
        })
        .collect()
}

/// Fills a pool with every action listed for any seat in `games` quick random playouts.
pub(crate) fn harvest<G: Game>(
    config: &G::Config,
    seats: usize,
    edition: deckmate_engine::Edition,
    games: u64,
    max_plies: usize,
    capacity: usize,
) -> Pool<G::Action> {
    let mut pool = Pool::new(capacity);
    for game in 0..games {
        let seed = HARVEST_SEED_BASE + game;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut table, _) = Table::<G>::new_in(config, seats, Seed::from_u64(seed), edition)
            .unwrap_or_else(|error| panic!("{}: seats={seats}: new game failed: {error}", G::ID));
        for _ in 0..max_plies {
            let to_act: Vec<Seat> = table.to_act().iter().collect();
            for seat in (0..seats).map(|index| Seat(index as u8)) {
                pool.add(&table.legal_actions(seat));
            }
            let Some(seat) = to_act.choose(&mut rng).copied() else {
                break;
            };
            let legal = table.legal_actions(seat);
            let Some(action) = legal.choose(&mut rng) else {
                break;
            };
            if table
                .apply(seat, &deckmate_engine::TableAction::Game(action.clone()))
                .is_err()
            {
                // The checked playouts report this precisely; the harvest only gathers actions.
                break;
            }
        }
    }
    pool
}
