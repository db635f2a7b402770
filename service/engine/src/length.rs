//! The caps on a game's length, checked the same way for every game: a hard cap on turns
//! (plies, rounds) of at most [`CAP_FACTOR`] times its default, so every game ends within a
//! bounded number of actions, and an optional no-progress limit in the same range, which may
//! be 0 (off) only when the hard cap is at most its default — so switching the early draw off
//! never also lengthens the game.
//!
//! These ranges apply to new games. A game dealt before they existed keeps the caps it was
//! dealt with: the engine deals and replays it by [`Game::new_game`](crate::Game::new_game),
//! which only refuses caps no game can run under (a hard cap of 0).

use crate::game::SetupError;

/// How far above its default a cap may be raised.
pub const CAP_FACTOR: u32 = 10;

/// One cap option: its config field, its value and the rule file's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    /// The config field holding it (`max_turns`).
    pub field: &'static str,
    /// The value asked for.
    pub value: u32,
    /// The rule file's default.
    pub default: u32,
}

impl Cap {
    /// The largest value accepted: [`CAP_FACTOR`] times the default.
    pub fn max(&self) -> u32 {
        self.default.saturating_mul(CAP_FACTOR)
    }
}

/// A game's length caps: the hard cap and, when the game has one, its no-progress limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthCaps {
    /// The cap that always ends the game (`max_turns`, `max_plies`, `max_rounds`): 1 to
    /// [`Cap::max`].
    pub limit: Cap,
    /// The count of actions without progress that draws the game, if the game has one: 0
    /// (off) to [`Cap::max`], 0 only with [`LengthCaps::limit`] at most its default.
    pub no_progress: Option<Cap>,
}

impl LengthCaps {
    /// Refuses a hard cap of 0, under which no game can run: the one check that also applies
    /// to a game dealt before the ranges of [`LengthCaps::check`] existed (module docs).
    pub fn check_playable(&self) -> Result<(), SetupError> {
        if self.limit.value == 0 {
            return Err(SetupError::invalid_config(
                self.limit.field,
                "must be at least 1, not 0",
            ));
        }
        Ok(())
    }

    /// Refuses caps outside their ranges, naming the field at fault.
    pub fn check(&self) -> Result<(), SetupError> {
        let limit = self.limit;
        if !(1..=limit.max()).contains(&limit.value) {
            return Err(SetupError::invalid_config(
                limit.field,
                format!("must be 1 to {}, not {}", limit.max(), limit.value),
            ));
        }
        let Some(no_progress) = self.no_progress else {
            return Ok(());
        };
        if no_progress.value > no_progress.max() {
            return Err(SetupError::invalid_config(
                no_progress.field,
                format!(
                    "must be 0 (off) to {}, not {}",
                    no_progress.max(),
                    no_progress.value
                ),
            ));
        }
        if no_progress.value == 0 && limit.value > limit.default {
            return Err(SetupError::invalid_config(
                no_progress.field,
                format!(
                    "may be 0 (off) only with {} at most {}, not {}",
                    limit.field, limit.default, limit.value
                ),
            ));
        }
        Ok(())
    }
}

/// Options that cap a game's length.
pub trait CappedLength {
    /// The caps these options set.
    fn length_caps(&self) -> LengthCaps;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(limit: u32, no_progress: Option<u32>) -> LengthCaps {
        LengthCaps {
            limit: Cap {
                field: "max_turns",
                value: limit,
                default: 300,
            },
            no_progress: no_progress.map(|value| Cap {
                field: "no_progress_turns",
                value,
                default: 20,
            }),
        }
    }

    fn refused_field(caps: LengthCaps) -> String {
        match caps.check() {
            Err(SetupError::InvalidConfig { field, .. }) => field,
            other => panic!("{caps:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn caps_within_ten_times_their_defaults_pass() {
        assert_eq!(caps(1, Some(0)).check(), Ok(()));
        assert_eq!(caps(3_000, Some(200)).check(), Ok(()));
        assert_eq!(caps(300, Some(0)).check(), Ok(()));
        assert_eq!(caps(3_000, None).check(), Ok(()));
    }

    #[test]
    fn only_a_hard_cap_of_zero_is_unplayable() {
        assert_eq!(refused_playable(caps(0, Some(20))), "max_turns");
        assert_eq!(caps(1, Some(0)).check_playable(), Ok(()));
        assert_eq!(caps(u32::MAX, Some(u32::MAX)).check_playable(), Ok(()));
    }

    fn refused_playable(caps: LengthCaps) -> String {
        match caps.check_playable() {
            Err(SetupError::InvalidConfig { field, .. }) => field,
            other => panic!("{caps:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn caps_outside_their_ranges_name_their_field() {
        assert_eq!(refused_field(caps(0, Some(20))), "max_turns");
        assert_eq!(refused_field(caps(3_001, Some(20))), "max_turns");
        assert_eq!(refused_field(caps(u32::MAX, None)), "max_turns");
        assert_eq!(refused_field(caps(300, Some(201))), "no_progress_turns");
        assert_eq!(refused_field(caps(301, Some(0))), "no_progress_turns");
    }
}
