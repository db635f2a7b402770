//! Game-playing bots for every game: how a seat without a person picks its next action.
//!
//! Three levels ([`BotLevel`]):
//!
//! * **Random** picks a uniformly random legal action.
//! * **Greedy** looks one action ahead: it applies each legal action to one sampled state and
//!   keeps the action whose result the game's [`Game::evaluate`] likes best for the bot's seat.
//!   An action that wins at once is always taken.
//! * **Search** is determinized information-set search: it samples several hidden states
//!   consistent with what the seat sees, and in each spends a number of playouts on the
//!   candidate actions (UCB1), then plays the action with the best summed average.
//!
//! # What a bot may know
//!
//! A bot never reads hidden information. Its code gets the table only through a
//! [`Determinizer`], which exposes the seat's observation, its legal actions and samples of
//! the hidden state drawn with [`Game::resample`] for the seat's viewer. Every game's resample
//! depends only on what that viewer sees and the generator (its pools of unseen cards are put
//! in a canonical order before shuffling), so two tables the seat cannot tell apart give the bot
//! exactly the same samples, and the same answer (tested over every game in
//! `tests/bots.rs`).
//!
//! # Determinism
//!
//! All randomness comes from a [`GameRng`] seeded by the caller's [`Seed`]: the same table,
//! seat, level, budget and seed give the same action. The engine has no clock; the caller caps
//! thinking time with the `stop` callback of [`choose`], polled between playouts.
//!
//! # What a bot never does
//!
//! A bot answers with a game action ([`TableAction::Game`]) only: it never resigns, offers a
//! draw or accepts one. A standing draw offer is answered by playing on, which the table treats
//! as declining it (docs/rules/conventions.md §4).

mod determinizer;
mod greedy;
mod pick;
mod playout;
mod random;
mod search;

pub use determinizer::Determinizer;

use crate::game::{Game, Outcome};
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;
use crate::table::{Table, TableAction};

/// How strong a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum BotLevel {
    /// A uniformly random legal action.
    Random,
    /// The best action one step ahead by the game's evaluation.
    Greedy,
    /// Determinized search with playouts.
    Search,
}

impl BotLevel {
    /// Every level, weakest first.
    pub const ALL: [BotLevel; 3] = [BotLevel::Random, BotLevel::Greedy, BotLevel::Search];

    /// The level's lower-case name (`random`, `greedy`, `search`).
    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
            BotLevel::Search => "search",
        }
    }

    /// The level named `name` as [`BotLevel::name`] writes it.
    pub fn from_name(name: &str) -> Option<BotLevel> {
        BotLevel::ALL.into_iter().find(|level| level.name() == name)
    }
}

/// How much a bot may think: determinizations x playouts (Search; the others ignore it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Budget {
    /// How many hidden states the search samples; at least one is always sampled.
    pub determinizations: u32,
    /// Playouts in each sampled state, shared among the candidate actions by UCB1. With 0 the
    /// search only compares the candidates one action ahead, averaged over the samples.
    pub playouts: u32,
}

impl Budget {
    /// The budget the server uses for `level`: nothing for Random and Greedy (they do not
    /// search); for Search 8 sampled states of 64 playouts each, which beats Greedy in every
    /// game (docs/BOTS.md, "Arena results") and takes well under a tenth of a second a move in
    /// a release build on one core.
    pub fn standard(level: BotLevel) -> Budget {
        match level {
            BotLevel::Random | BotLevel::Greedy => Budget {
                determinizations: 0,
                playouts: 0,
            },
            BotLevel::Search => Budget {
                determinizations: 8,
                playouts: 64,
            },
        }
    }
}

/// Picks `seat`'s next action at `table`, deterministically for a fixed `seed` (the same table,
/// seat, level, budget and seed give the same action). `None` when the seat may not act now
/// (not in `table.to_act()`, or the game is over). `stop` is polled between playouts; when it
/// returns true the bot answers with the best action found so far (a safety cap on thinking
/// time kept by the caller; the engine itself has no clock).
pub fn choose<G: Game>(
    table: &Table<G>,
    seat: Seat,
    level: BotLevel,
    budget: Budget,
    seed: Seed,
    stop: &dyn Fn() -> bool,
) -> Option<TableAction<G::Action>> {
    let view = Determinizer::new(table, seat);
    if !view.may_act() {
        return None;
    }
    let mut rng: GameRng = seed.rng();
    let action = match level {
        BotLevel::Random => random::choose(&view, &mut rng),
        BotLevel::Greedy => greedy::choose(&view, &mut rng),
        BotLevel::Search => search::choose(&view, budget, &mut rng, stop),
    }?;
    Some(TableAction::Game(action))
}

/// The value of a finished game for `seat`: 1 when it is among the winners, 1/2 for a draw, 0
/// otherwise (a loss, or another side's win in a game for more than two seats).
pub fn outcome_score(outcome: &Outcome, seat: Seat) -> f32 {
    if outcome.winners.contains(seat) {
        1.0
    } else if outcome.is_draw() {
        0.5
    } else {
        0.0
    }
}

/// Maps an advantage `x` (in the game's own units, positive = good for the seat) into `(0, 1)`
/// with `scale` units giving about 0.76: the shape the games' evaluations share, so that a
/// small lead moves the value and a large one saturates below a won game's 1.
pub fn squash(x: f32, scale: f32) -> f32 {
    0.5 + 0.5 * (x / scale).tanh()
}

/// The evaluation shape of games played side against side: the outcome's value for `seat` once
/// the game is over; before, `side_value` of `seat` minus that of every other side in `sides`,
/// through [`squash`] with `scale`.
pub fn side_against_side(
    outcome: Option<&Outcome>,
    seat: Seat,
    sides: impl IntoIterator<Item = Seat>,
    scale: f32,
    side_value: impl Fn(Seat) -> f32,
) -> f32 {
    if let Some(outcome) = outcome {
        return outcome_score(outcome, seat);
    }
    let advantage: f32 = sides
        .into_iter()
        .map(|side| {
            let value = side_value(side);
            if side == seat { value } else { -value }
        })
        .sum();
    squash(advantage, scale)
}
