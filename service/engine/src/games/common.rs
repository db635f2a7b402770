//! What every game in this crate states in the same way: the checks made before a game is
//! dealt or an action applied, and the parts of a [`Game`] implementation that follow from the
//! module layout the games share. A game calls or invokes them instead of restating them, so
//! the same inputs are refused with the same error everywhere and a new game writes only its
//! own rules.

use crate::edition::Edition;
use crate::game::{Game, PlayError, SetupError};
use crate::rng::GameRng;
use crate::seat::Seat;

/// A new game to deal, its seat count already checked: what a game's `setup::new_game` starts
/// from.
pub(crate) struct Deal<'a, C> {
    /// The options as asked for; checking them is each game's own business.
    pub(crate) config: &'a C,
    /// The number of seats, within [`Game::SEATS`].
    pub(crate) seats: usize,
    /// The generator seeded by the game's seed: every random step of the deal draws from it,
    /// and the state keeps it.
    pub(crate) rng: GameRng,
    /// The rules edition the game is dealt under.
    pub(crate) edition: Edition,
}

/// Refuses a seat count outside [`Game::SEATS`] with [`SetupError::SeatCount`].
pub(crate) fn check_seat_count<G: Game>(requested: usize) -> Result<(), SetupError> {
    if G::SEATS.contains(&requested) {
        Ok(())
    } else {
        Err(SetupError::SeatCount {
            min: *G::SEATS.start(),
            max: *G::SEATS.end(),
            requested,
        })
    }
}

/// Refuses any action once the game is over ([`PlayError::GameOver`]) and any action of a seat
/// that is not to act ([`PlayError::NotYourTurn`]), in that order; what is left to check is the
/// game's own legality ([`PlayError::Illegal`]).
pub(crate) fn check_may_act<G: Game>(state: &G::State, seat: Seat) -> Result<(), PlayError> {
    if G::outcome(state).is_some() {
        return Err(PlayError::GameOver);
    }
    if !G::to_act(state).contains(seat) {
        return Err(PlayError::NotYourTurn);
    }
    Ok(())
}

/// Writes, inside `impl Game for …` in a game's `mod.rs`, the items every game states in the
/// same way, given the layout the games share:
///
/// * the associated types are the game module's own `Config`, `State`, `Action`,
///   `Observation`, `Event` and `EventView`;
/// * `setup::new_game(deal)` deals a game once its seat count is checked (see [`Deal`]);
/// * the state's `to_act()` method and its `outcome` field say who may act and how it ended;
/// * `view::observe(state, viewer)` and `resample::resample(state, viewer, rng)` project and
///   redraw for a viewer.
///
/// With the argument `turn`, it also forwards [`Game::legal_actions`] and [`Game::apply`] to
/// `turn::legal_actions(state, seat)` and `turn::apply(state, seat, action)`, for games whose
/// every action is a turn action. The names are resolved where the macro is invoked.
macro_rules! game_layout {
    () => {
        type Config = Config;
        type State = State;
        type Action = Action;
        type Observation = Observation;
        type Event = Event;
        type EventView = EventView;

        fn new_game_in(
            config: &Config,
            seats: usize,
            seed: $crate::rng::Seed,
            edition: $crate::edition::Edition,
        ) -> Result<(State, Vec<Event>), $crate::game::SetupError> {
            $crate::games::common::check_seat_count::<Self>(seats)?;
            setup::new_game($crate::games::common::Deal {
                config,
                seats,
                rng: seed.rng(),
                edition,
            })
        }

        fn to_act(state: &State) -> $crate::seat::SeatSet {
            state.to_act()
        }

        fn observe(state: &State, viewer: $crate::seat::Viewer) -> Observation {
            view::observe(state, viewer)
        }

        fn outcome(state: &State) -> Option<$crate::game::Outcome> {
            state.outcome.clone()
        }

        fn resample(
            state: &State,
            viewer: $crate::seat::Viewer,
            rng: &mut $crate::rng::GameRng,
        ) -> State {
            resample::resample(state, viewer, rng)
        }
    };
    (turn) => {
        $crate::games::common::game_layout!();

        fn legal_actions(state: &State, seat: $crate::seat::Seat) -> Vec<Action> {
            turn::legal_actions(state, seat)
        }

        fn apply(
            state: &mut State,
            seat: $crate::seat::Seat,
            action: &Action,
        ) -> Result<Vec<Event>, $crate::game::PlayError> {
            turn::apply(state, seat, action)
        }
    };
}

pub(crate) use game_layout;
