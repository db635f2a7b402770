//! The engine contract: the [`Game`] trait every game implements.
//!
//! # Shape of a game
//!
//! A game is a set of associated types and pure functions over them. The engine never holds a
//! game "object": the server keeps a [`Game::State`] per session, calls [`Game::apply`] with one
//! seat's decision, and projects [`Game::observe`] and [`Game::view_event`] for each viewer.
//!
//! # Properties every implementation must have
//!
//! These are checked for every game by the generic conformance suite
//! (`service/engine/tests/conformance.rs`), over hundreds of seeds:
//!
//! * **Turn model.** [`Game::to_act`] may hold several seats: simultaneous secret choices and
//!   out-of-turn calls are ordinary actions of every seat in the set. A seat is in `to_act`
//!   exactly when [`Game::legal_actions`] for it is non-empty, and `to_act` is empty exactly
//!   when [`Game::outcome`] is `Some`. Meta actions (resign, draw offers) are not game actions:
//!   [`crate::Table`] adds them on top of every game; a game may react to an accepted one
//!   through [`Game::before_meta_action`] (the only way a meta action other than resigning
//!   changes the game state).
//! * **Clocks.** [`Game::clock_seats`] is a subset of `to_act`. A timeout
//!   ([`crate::TableAction::TimeOut`]) of a seat on the clock always applies: it ends the game
//!   with [`EndReason::Timeout`], never won by that seat, or ([`Game::time_out`]) takes the seat
//!   out of `clock_seats` and `to_act` for the rest of the game. A timeout of any other seat is
//!   rejected.
//! * **Every listed action applies; nothing else does.** `apply` accepts every action in
//!   `legal_actions(state, seat)` and rejects every other action.
//! * **Rejection leaves no trace.** When `apply` returns an error the state is exactly as it was.
//! * **Determinism.** All randomness comes from the [`crate::GameRng`] inside the state, seeded
//!   by [`Game::new_game`]. (config, seats, seed, action log) reproduces the state exactly, and
//!   every shuffle or random pick is reported as an event.
//! * **Hidden information.** [`Game::Observation`] for a seat holds its own hand and what it has
//!   seen; for others only counts and public cards; a spectator sees only public information.
//!   The types are built so that hidden information cannot be represented in them. Events are
//!   projected per viewer by [`Game::view_event`] in the same way. [`Game::resample`] redraws
//!   everything a viewer cannot see; observations must not change under it (the no-leak test).
//!   Error messages never mention hidden information either.
//! * **Termination.** Every game ends: the caps of the rule files are config with defaults.
//! * **Serialization.** `State`, `Config`, `Action` and `Event` round-trip through serde;
//!   observations serialize (the golden playthroughs record them).
//! * **Editions.** A game is dealt under an [`Edition`] of the rules and keeps it to the end
//!   (see `edition.rs`): rule code that changed between editions asks the state's edition.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::{self, Debug};
use std::ops::RangeInclusive;

use crate::edition::Edition;
use crate::length::CappedLength;
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::MetaAction;

/// A game's rules. See the module documentation for the properties every implementation has.
pub trait Game: 'static {
    /// The stable game id used on the wire, in storage and in file names (`pigeon_chess`).
    const ID: &'static str;
    /// The display name (`Pigeon Chess`).
    const NAME: &'static str;
    /// A short summary of the rules for people browsing the variants.
    const SUMMARY: &'static str;
    /// The seat counts the game supports.
    const SEATS: RangeInclusive<usize>;

    /// Options. Every engine addition of the rule file is a field here, and `Default` gives the
    /// rule file's defaults.
    /// Its length caps ([`CappedLength`]) are checked for new games by whoever creates them
    /// ([`crate::length`]), not by [`Game::new_game`], so games dealt under wider caps replay.
    type Config: Clone
        + Debug
        + Default
        + PartialEq
        + Serialize
        + DeserializeOwned
        + CappedLength
        + Send
        + Sync;
    /// The complete, authoritative state, including deck order and the generator. Never sent to
    /// a client.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One seat's decision. `Display` writes it in the game's notation, which names one action
    /// among those listed at any moment (the golden playthroughs are written in it).
    type Action: Clone
        + Debug
        + fmt::Display
        + PartialEq
        + Eq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// What one viewer may know. Hidden information is unrepresentable in it.
    type Observation: Clone + Debug + PartialEq + Serialize + Send + Sync;
    /// Something that happened, with all its hidden details (kept only on the server).
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// An event as one viewer may know it.
    type EventView: Clone + Debug + PartialEq + Send + Sync;

    /// Checks `config` and `seats` and deals a new game from `seed` under the latest rules.
    /// Returns the state and the setup events (shuffles, deals).
    fn new_game(
        config: &Self::Config,
        seats: usize,
        seed: Seed,
    ) -> Result<(Self::State, Vec<Self::Event>), SetupError> {
        Self::new_game_in(config, seats, seed, Edition::LATEST)
    }

    /// [`Game::new_game`] under `edition` of the rules, which the state keeps to the end.
    fn new_game_in(
        config: &Self::Config,
        seats: usize,
        seed: Seed,
        edition: Edition,
    ) -> Result<(Self::State, Vec<Self::Event>), SetupError>;

    /// The number of seats of this game. The default serves a game for one seat count (a
    /// [`Game::SEATS`] of one number); a game for several counts reads it from the state.
    fn seat_count(state: &Self::State) -> usize {
        let _ = state;
        debug_assert_eq!(
            Self::SEATS.start(),
            Self::SEATS.end(),
            "a game for several seat counts reads its count from the state"
        );
        *Self::SEATS.start()
    }

    /// The seats that may take a game action now; empty once the game is over.
    fn to_act(state: &Self::State) -> SeatSet;

    /// Every game action `seat` may take now, in a deterministic order; empty when the seat may
    /// not act.
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// Applies one action of `seat`, returning what happened. On error the state is unchanged.
    /// The caller has already checked that the game is running; games still report
    /// [`PlayError::NotYourTurn`] and [`PlayError::Illegal`] themselves.
    fn apply(
        state: &mut Self::State,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<Vec<Self::Event>, PlayError>;

    /// The game as `viewer` may see it.
    fn observe(state: &Self::State, viewer: Viewer) -> Self::Observation;

    /// `event` as `viewer` may know it, or `None` when the viewer learns nothing of it.
    fn view_event(event: &Self::Event, viewer: Viewer) -> Option<Self::EventView>;

    /// `event` with every detail, for the complete history of a finished game.
    fn reveal_event(event: &Self::Event) -> Self::EventView;

    /// The result, once the game has ended by its own rules.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// The number of the turn in progress: it grows by at least one whenever a new turn begins
    /// (whoever's it is) and never changes within a turn. [`crate::Table`] uses it to allow
    /// each seat one draw offer per turn (docs/rules/conventions.md §4).
    fn turn_number(state: &Self::State) -> u32;

    /// Whether taking `action` while the opponent's draw offer stands declines the offer. The
    /// default, true, fits every turn action; an action that is no move in the game (CHUNO's
    /// call, made at any moment) returns false and leaves the offer standing.
    fn answers_draw_offer(action: &Self::Action) -> bool {
        let _ = action;
        true
    }

    /// Ends the game for `seat`, which resigned. `None` (the default) means the game has no rule
    /// of its own, and [`crate::Table`] ends the game with every other seat winning. Games for
    /// more than two seats may instead eliminate the seat and play on.
    fn resign(state: &mut Self::State, seat: Seat) -> Option<Vec<Self::Event>> {
        let _ = (state, seat);
        None
    }

    /// The seats whose clock runs now, for a server that runs turn clocks
    /// (docs/rules/conventions.md §8): the seats whose turn it is. The default is
    /// [`Game::to_act`]. A game in which a seat may act out of turn only to make an optional
    /// call (CHUNO's call) leaves that seat off the clock: nobody waits for it. Always a subset
    /// of [`Game::to_act`], and empty once the game is over.
    fn clock_seats(state: &Self::State) -> SeatSet {
        Self::to_act(state)
    }

    /// Ends the game for `seat`, whose clock ran out (docs/rules/conventions.md §8), or
    /// eliminates it. `None` means the game has no rule of its own, and [`crate::Table`] ends
    /// the game with every other seat that [`Game::can_win`] winning (a draw when none can). The
    /// default is [`Game::resign`]: a game that eliminates a resigning seat and plays on
    /// eliminates a seat that ran out of time the same way, and reports an ending it causes
    /// with [`EndReason::Timeout`].
    fn time_out(state: &mut Self::State, seat: Seat) -> Option<Vec<Self::Event>> {
        Self::resign(state, seat)
    }

    /// Whether `seat` still has the means to win the game by its rules (in chess: mating
    /// material), whatever is played from `state` on. [`crate::Table`] asks it when a clock
    /// runs out: a seat that could never win does not win on the opponent's time, and the game
    /// is drawn instead (docs/rules/conventions.md §8). It answers false only when the seat
    /// provably can never win; the default, true, suits a game in which every seat always can.
    fn can_win(state: &Self::State, seat: Seat) -> bool {
        let _ = (state, seat);
        true
    }

    /// Lets the game react to a meta action of `seat` that [`crate::Table`] has accepted, before
    /// the table applies it; the returned events come before the meta action's own. The default
    /// does nothing. A game whose rules treat meta actions as game actions uses it, e.g. CHUNO,
    /// where any action of the opponent (a draw offer, accept, decline, resignation) closes a
    /// pending CHUNO call window and triggers its penalty. Like `apply`, it is deterministic
    /// (all randomness from the state's generator), so replays reproduce it.
    fn before_meta_action(
        state: &mut Self::State,
        seat: Seat,
        action: MetaAction,
    ) -> Vec<Self::Event> {
        let _ = (state, seat, action);
        Vec::new()
    }

    /// A state that `viewer` cannot tell apart from `state`: everything the viewer cannot see
    /// (other hands, face-down cards, deck order, secret choices) is redrawn at random from what
    /// is consistent with its observation. Used by the no-leak test and by bots.
    fn resample(state: &Self::State, viewer: Viewer, rng: &mut GameRng) -> Self::State;

    /// How good `state` is for `seat`, in `[0, 1]`: 1 is won, 0 lost, 1/2 even. Bots score
    /// positions with it (`crate::bots`), inside playouts, so it must be cheap. It may read the
    /// whole state: bots only ever call it on states they sampled themselves with
    /// [`Game::resample`], never on the true one.
    ///
    /// The default knows nothing of the game: once it is over, 1 for a winning seat, 0 for a
    /// losing one and 1/2 for a draw ([`crate::bots::outcome_score`]); 1/2 while it runs. Every
    /// hosted game overrides it with an estimate from its rules.
    fn evaluate(state: &Self::State, seat: Seat) -> f32 {
        Self::outcome(state).map_or(0.5, |outcome| crate::bots::outcome_score(&outcome, seat))
    }
}

/// Why a game could not be created.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The game does not support this many seats.
    #[error("this game is for {}, not {requested}", seat_range(*min, *max))]
    SeatCount {
        /// Smallest supported count.
        min: usize,
        /// Largest supported count.
        max: usize,
        /// The requested count.
        requested: usize,
    },
    /// A config option is out of range, or several options do not fit together.
    #[error("invalid config: {}{problem}", field_prefix(field))]
    InvalidConfig {
        /// The option at fault, named as its field in the game's config message (`max_rounds`,
        /// `teams[1]`), so that an API can point at it; empty when the options as a whole are at
        /// fault (a deck too small for the deal).
        field: String,
        /// What is wrong, with the allowed range and the value given, in public terms.
        problem: String,
    },
}

impl SetupError {
    /// An [`SetupError::InvalidConfig`] on `field` (empty for the options as a whole).
    pub fn invalid_config(field: impl Into<String>, problem: impl Into<String>) -> SetupError {
        SetupError::InvalidConfig {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// `"field: "` before a problem, so logs read "invalid config: max_turns: must be at least 1".
/// "2 seats", or "2 to 4 seats" for a game of several seat counts.
fn seat_range(min: usize, max: usize) -> String {
    if min == max {
        format!("{min} seats")
    } else {
        format!("{min} to {max} seats")
    }
}

fn field_prefix(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!("{field}: ")
    }
}

/// Why an action was rejected. Messages never contain hidden information.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The seat may not act now.
    #[error("it is not this seat's turn")]
    NotYourTurn,
    /// The action is not legal now; the message says why in public terms.
    #[error("illegal action: {0}")]
    Illegal(String),
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EndReason {
    /// A seat resigned.
    Resignation,
    /// The seats agreed to a draw.
    DrawAgreed,
    /// The game ended by its rules and the scores decided.
    Score,
    /// A player chose to end the game, as its rules allow.
    PlayerEnded,
    /// No seat had a legal action.
    NoLegalAction,
    /// The players ran out of cards, as the game's rules define it.
    OutOfCards,
    /// An engine-added no-progress limit was reached.
    NoProgress,
    /// An engine-added hard cap on turns was reached.
    TurnCap,
    /// A chess move captured the enemy King.
    KingCaptured,
    /// The seat to move was in check and had no way out.
    Checkmate,
    /// The seat to move was not in check and had no legal action.
    Stalemate,
    /// The same position came back as often as the game's repetition limit allows.
    Repetition,
    /// Neither side had the material left to win.
    InsufficientMaterial,
    /// A seat's clock ran out (docs/rules/conventions.md §8).
    Timeout,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The winning seats; empty for a draw.
    pub winners: SeatSet,
    /// Why the game ended.
    pub reason: EndReason,
    /// Final scores by seat, for games that score; empty otherwise.
    pub scores: Vec<i32>,
}

impl Outcome {
    /// A win for one seat.
    pub fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winners: SeatSet::only(seat),
            reason,
            scores: Vec::new(),
        }
    }

    /// A draw.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winners: SeatSet::EMPTY,
            reason,
            scores: Vec::new(),
        }
    }

    /// Decides by score: the highest score wins, a tie between the best is a draw.
    pub fn by_scores(scores: Vec<i32>, reason: EndReason) -> Outcome {
        let best = scores.iter().copied().max().unwrap_or(0);
        let leaders: SeatSet = scores
            .iter()
            .enumerate()
            .filter(|(_, score)| **score == best)
            .map(|(seat, _)| Seat(seat as u8))
            .collect();
        let winners = if leaders.len() == 1 {
            leaders
        } else {
            SeatSet::EMPTY
        };
        Outcome {
            winners,
            reason,
            scores,
        }
    }

    /// Whether the game was drawn.
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_decide_winner_or_draw() {
        let win = Outcome::by_scores(vec![9, 7], EndReason::Score);
        assert_eq!(win.winners, SeatSet::only(Seat(0)));
        let draw = Outcome::by_scores(vec![7, 7], EndReason::Score);
        assert!(draw.is_draw());
    }
}
