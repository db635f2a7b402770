//! [`ClockSpec`]: a game's clock settings as CreateGame asks for them, checked against their
//! ranges (docs/CLOCKS.md, "Settings").

use deckmate_proto::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;

/// The shortest base time or per-action limit: 1 s.
pub const MIN_TIME_MS: u32 = 1_000;

/// The longest base time or per-action limit: 24 h.
pub const MAX_TIME_MS: u32 = 24 * 60 * 60 * 1_000;

/// The largest Fischer increment: 60 s.
pub const MAX_INCREMENT_MS: u32 = 60_000;

/// How the time of each seat is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockKind {
    /// Every seat starts with `base_ms` and gains `increment_ms` whenever its turn ends.
    Fischer {
        /// Starting time per seat.
        base_ms: u32,
        /// Added when a turn ends.
        increment_ms: u32,
    },
    /// Every action has `limit_ms`; unused time is not carried over.
    PerAction {
        /// Time for each action.
        limit_ms: u32,
    },
}

crate::monitoring::label_values! {
    /// What happens when a seat's time runs out; [`TimeoutPolicy::label`] names it in metrics
    /// and logs. Stored with the game (by variant order: add new policies last).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum TimeoutPolicy {
        /// The seat loses on time (the engine's timeout rules, docs/rules/conventions.md).
        Forfeit => "forfeit",
        /// The server moves for the seat with its greedy bot, and the game goes on.
        BotMove => "bot_move",
    }
}

/// A game's clock settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    /// How time is measured.
    pub kind: ClockKind,
    /// What a timeout does.
    pub on_timeout: TimeoutPolicy,
}

impl ClockSpec {
    /// Reads CreateGame's `clock`. A missing kind, an unknown policy or a time out of range is
    /// [`ApiError::InvalidField`] naming the field (`clock.fischer.base_ms`).
    pub fn from_proto(clock: &pb::Clock) -> Result<ClockSpec, ApiError> {
        let kind = match &clock.kind {
            None => {
                return Err(ApiError::invalid_field(
                    "clock.kind",
                    "a clock must be `fischer` or `per_action`",
                ));
            }
            Some(pb::clock::Kind::Fischer(fischer)) => {
                check_range(
                    "clock.fischer.base_ms",
                    fischer.base_ms,
                    MIN_TIME_MS,
                    MAX_TIME_MS,
                )?;
                check_range(
                    "clock.fischer.increment_ms",
                    fischer.increment_ms,
                    0,
                    MAX_INCREMENT_MS,
                )?;
                ClockKind::Fischer {
                    base_ms: fischer.base_ms,
                    increment_ms: fischer.increment_ms,
                }
            }
            Some(pb::clock::Kind::PerAction(per_action)) => {
                check_range(
                    "clock.per_action.limit_ms",
                    per_action.limit_ms,
                    MIN_TIME_MS,
                    MAX_TIME_MS,
                )?;
                ClockKind::PerAction {
                    limit_ms: per_action.limit_ms,
                }
            }
        };
        let on_timeout = match pb::TimeoutPolicy::try_from(clock.on_timeout) {
            Ok(pb::TimeoutPolicy::Unspecified | pb::TimeoutPolicy::Forfeit) => {
                TimeoutPolicy::Forfeit
            }
            Ok(pb::TimeoutPolicy::BotMove) => TimeoutPolicy::BotMove,
            Err(_) => {
                return Err(ApiError::invalid_field(
                    "clock.on_timeout",
                    format!("unknown timeout policy {}", clock.on_timeout),
                ));
            }
        };
        Ok(ClockSpec { kind, on_timeout })
    }

    /// The time a seat has when its clock is (re)set: the base time or the per-action limit.
    pub fn initial_ms(&self) -> u64 {
        match self.kind {
            ClockKind::Fischer { base_ms, .. } => u64::from(base_ms),
            ClockKind::PerAction { limit_ms } => u64::from(limit_ms),
        }
    }
}

/// Refuses `value` outside `min..=max` with a field violation on `field`.
fn check_range(field: &str, value: u32, min: u32, max: u32) -> Result<(), ApiError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(ApiError::invalid_field(
            field,
            format!("must be from {min} to {max} ms, not {value}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base_ms: u32, increment_ms: u32) -> pb::Clock {
        pb::Clock {
            kind: Some(pb::clock::Kind::Fischer(pb::clock::Fischer {
                base_ms,
                increment_ms,
            })),
            on_timeout: 0,
        }
    }

    fn field_of(result: Result<ClockSpec, ApiError>) -> String {
        match result {
            Err(ApiError::InvalidField { field, .. }) => field,
            other => panic!("expected a field violation, got {other:?}"),
        }
    }

    #[test]
    fn ranges_are_inclusive_and_checked_per_field() {
        let spec = ClockSpec::from_proto(&fischer(MIN_TIME_MS, MAX_INCREMENT_MS)).unwrap();
        assert_eq!(spec.on_timeout, TimeoutPolicy::Forfeit);
        assert_eq!(spec.initial_ms(), 1_000);
        assert!(ClockSpec::from_proto(&fischer(MAX_TIME_MS, 0)).is_ok());
        assert_eq!(
            field_of(ClockSpec::from_proto(&fischer(999, 0))),
            "clock.fischer.base_ms"
        );
        assert_eq!(
            field_of(ClockSpec::from_proto(&fischer(MAX_TIME_MS + 1, 0))),
            "clock.fischer.base_ms"
        );
        assert_eq!(
            field_of(ClockSpec::from_proto(&fischer(5_000, 60_001))),
            "clock.fischer.increment_ms"
        );
        let per_action = |limit_ms| pb::Clock {
            kind: Some(pb::clock::Kind::PerAction(pb::clock::PerAction {
                limit_ms,
            })),
            on_timeout: pb::TimeoutPolicy::BotMove.into(),
        };
        let spec = ClockSpec::from_proto(&per_action(30_000)).unwrap();
        assert_eq!(spec.on_timeout, TimeoutPolicy::BotMove);
        assert_eq!(spec.initial_ms(), 30_000);
        assert_eq!(
            field_of(ClockSpec::from_proto(&per_action(0))),
            "clock.per_action.limit_ms"
        );
        let no_kind = pb::Clock {
            kind: None,
            on_timeout: 0,
        };
        assert_eq!(field_of(ClockSpec::from_proto(&no_kind)), "clock.kind");
        let mut unknown_policy = fischer(5_000, 0);
        unknown_policy.on_timeout = 9;
        assert_eq!(
            field_of(ClockSpec::from_proto(&unknown_policy)),
            "clock.on_timeout"
        );
    }
}
