//! Computer players: pick an action for a seat at a [`Table`].
//!
//! Every level here picks one of the seat's legal game actions uniformly at random, from a
//! generator seeded by the caller, so that a bot's choice is reproduced by the same table, seat
//! and seed.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::{Game, Seat, Seed, Table, TableAction};

/// How strongly a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BotLevel {
    /// A uniformly random legal action.
    Random,
    /// The best action one step ahead.
    Greedy,
    /// Sampled look-ahead over the hidden information.
    Search,
}

/// How much work a bot may do for one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// How many states consistent with the bot's view it considers.
    pub determinizations: u32,
    /// How many playouts it runs from each of them.
    pub playouts: u32,
}

impl Budget {
    /// The usual budget of `level`.
    pub fn standard(level: BotLevel) -> Budget {
        match level {
            BotLevel::Random => Budget {
                determinizations: 0,
                playouts: 0,
            },
            BotLevel::Greedy => Budget {
                determinizations: 1,
                playouts: 0,
            },
            BotLevel::Search => Budget {
                determinizations: 8,
                playouts: 32,
            },
        }
    }
}

/// An action for `seat` at `table`, or `None` when the seat may not act. `stop` is polled by
/// levels that search, which then answer with the best action found so far.
pub fn choose<G: Game>(
    table: &Table<G>,
    seat: Seat,
    level: BotLevel,
    budget: Budget,
    seed: Seed,
    stop: &dyn Fn() -> bool,
) -> Option<TableAction<G::Action>> {
    // Every level is the random player for now; the level, budget and stop cap are accepted so
    // that callers already pass what stronger levels need.
    let _ = (level, budget, stop);
    let mut legal = table.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let index = seed.rng().random_range(0..legal.len());
    Some(TableAction::Game(legal.swap_remove(index)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pigeon_chess::{Config, PigeonChess};

    #[test]
    fn picks_a_legal_action_reproducibly() {
        let (table, _) =
            Table::<PigeonChess>::new(&Config::default(), 2, Seed::from_u64(1)).unwrap();
        let seat = table.to_act().iter().next().unwrap();
        let pick = |seed| {
            choose(
                &table,
                seat,
                BotLevel::Random,
                Budget::standard(BotLevel::Random),
                Seed::from_u64(seed),
                &|| false,
            )
        };
        let first = pick(3).unwrap();
        assert_eq!(pick(3), Some(first.clone()));
        let TableAction::Game(action) = first else {
            panic!("a meta action")
        };
        assert!(table.legal_actions(seat).contains(&action));
    }
}
