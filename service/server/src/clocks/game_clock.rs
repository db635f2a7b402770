//! [`GameClock`]: every seat's time in one game, charged at each commit (docs/CLOCKS.md,
//! "How time is counted").
//!
//! Time is kept as each seat's time left at one instant, `since`, plus the set of seats whose
//! clock runs from then on; nothing ticks in between. A commit at `now` charges every running
//! seat `now - since`, applies the clock's rule to the seats whose turn ended or began, and makes
//! `now` the new `since`. So a seat's deadline is `since + remaining` while it runs, and a view
//! shows the time left at `since` and the deadline, from which a client counts down.

use deckmate_engine::{Seat, SeatSet};
use deckmate_proto::v1 as pb;
use serde::{Deserialize, Serialize};

use super::spec::{ClockKind, ClockSpec};

/// The clocks of one game, stored with it (session format 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    spec: ClockSpec,
    /// Each seat's time left at `since_ms`.
    remaining_ms: Vec<u64>,
    /// The seats whose clock runs from `since_ms` on.
    running: SeatSet,
    /// When the clocks were last charged: Unix ms by the store's clock.
    since_ms: u64,
}

impl GameClock {
    /// Clocks for `seats` seats at `now_ms`, each with its full time, running for `running`.
    pub fn start(spec: ClockSpec, seats: usize, running: SeatSet, now_ms: u64) -> GameClock {
        GameClock {
            spec,
            remaining_ms: vec![spec.initial_ms(); seats],
            running,
            since_ms: now_ms,
        }
    }

    /// The settings.
    pub fn spec(&self) -> &ClockSpec {
        &self.spec
    }

    /// The seats whose clock runs.
    pub fn running(&self) -> SeatSet {
        self.running
    }

    /// The time `seat` had left when the clocks were last charged.
    pub fn remaining_ms(&self, seat: Seat) -> u64 {
        self.remaining_ms.get(seat.index()).copied().unwrap_or(0)
    }

    /// The first moment a running clock runs out, and whose it is (the lowest seat on a tie);
    /// `None` while no clock runs.
    pub fn deadline(&self) -> Option<(u64, Seat)> {
        self.running
            .iter()
            .map(|seat| (self.since_ms.saturating_add(self.remaining_ms(seat)), seat))
            .min()
    }

    /// When `seat`'s clock runs out, while it runs.
    pub fn deadline_of(&self, seat: Seat) -> Option<u64> {
        self.running
            .contains(seat)
            .then(|| self.since_ms.saturating_add(self.remaining_ms(seat)))
    }

    /// The seat whose time has run out at `now_ms`, if any.
    pub fn expired(&self, now_ms: u64) -> Option<Seat> {
        self.deadline()
            .filter(|(deadline, _)| *deadline <= now_ms)
            .map(|(_, seat)| seat)
    }

    /// Charges the clocks for a commit at `now_ms` after which `running_after` are to act.
    /// `moved` is the seat whose action (or the bot move made for it) the commit holds;
    /// `timed_out` the seat whose timeout it holds, left at zero.
    ///
    /// Fischer: a seat whose turn ended (it ran and no longer does) gains the increment, a
    /// timed-out seat excepted; a seat still on turn after acting (a turn of several actions)
    /// gains nothing yet. Per action: a seat starting a turn, or acting and still on turn, gets
    /// the full limit again, and a seat whose turn ended shows the full limit for its next one.
    pub fn advance(
        &mut self,
        now_ms: u64,
        moved: Option<Seat>,
        timed_out: Option<Seat>,
        running_after: SeatSet,
    ) {
        let now_ms = now_ms.max(self.since_ms);
        let elapsed = now_ms - self.since_ms;
        let running_before = self.running;
        for seat in running_before.iter() {
            if let Some(left) = self.remaining_ms.get_mut(seat.index()) {
                *left = left.saturating_sub(elapsed);
            }
        }
        for (index, left) in self.remaining_ms.iter_mut().enumerate() {
            let Ok(index) = u8::try_from(index) else {
                break;
            };
            let seat = Seat(index);
            if timed_out == Some(seat) {
                *left = 0;
                continue;
            }
            let was = running_before.contains(seat);
            let is = running_after.contains(seat);
            match self.spec.kind {
                ClockKind::Fischer { increment_ms, .. } => {
                    if was && !is {
                        *left = left.saturating_add(u64::from(increment_ms));
                    }
                }
                ClockKind::PerAction { limit_ms } => {
                    if (is && (!was || moved == Some(seat))) || (was && !is) {
                        *left = u64::from(limit_ms);
                    }
                }
            }
        }
        self.running = running_after;
        self.since_ms = now_ms;
    }

    /// Every seat's clock on the wire, in seat order.
    pub fn to_proto(&self) -> Vec<pb::SeatClock> {
        self.remaining_ms
            .iter()
            .enumerate()
            .filter_map(|(index, &left)| {
                let seat = Seat(u8::try_from(index).ok()?);
                let running = self.running.contains(seat);
                Some(pb::SeatClock {
                    seat: u32::from(seat.0),
                    remaining_ms: u32::try_from(left).unwrap_or(u32::MAX),
                    running,
                    deadline: running.then(|| timestamp(self.since_ms.saturating_add(left))),
                })
            })
            .collect()
    }
}

/// A Unix-ms instant as a protobuf timestamp.
fn timestamp(unix_ms: u64) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: i64::try_from(unix_ms / 1_000).unwrap_or(i64::MAX),
        // Below 1e9, so it fits.
        nanos: ((unix_ms % 1_000) * 1_000_000) as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clocks::spec::TimeoutPolicy;

    const A: Seat = Seat(0);
    const B: Seat = Seat(1);

    fn fischer(base_ms: u32, increment_ms: u32) -> ClockSpec {
        ClockSpec {
            kind: ClockKind::Fischer {
                base_ms,
                increment_ms,
            },
            on_timeout: TimeoutPolicy::Forfeit,
        }
    }

    fn per_action(limit_ms: u32) -> ClockSpec {
        ClockSpec {
            kind: ClockKind::PerAction { limit_ms },
            on_timeout: TimeoutPolicy::Forfeit,
        }
    }

    #[test]
    fn fischer_charges_the_mover_and_adds_the_increment_when_its_turn_ends() {
        let mut clock = GameClock::start(fischer(10_000, 2_000), 2, SeatSet::only(A), 1_000);
        assert_eq!(clock.deadline(), Some((11_000, A)));
        assert_eq!(clock.expired(10_999), None);
        assert_eq!(clock.expired(11_000), Some(A));
        // A moves after 3 s: 7 s left, plus 2 s; B's clock starts.
        clock.advance(4_000, Some(A), None, SeatSet::only(B));
        assert_eq!(clock.remaining_ms(A), 9_000);
        assert_eq!(clock.remaining_ms(B), 10_000);
        assert_eq!(clock.deadline(), Some((14_000, B)));
        // B acts but stays on turn (a turn of several actions): charged, no increment yet.
        clock.advance(5_000, Some(B), None, SeatSet::only(B));
        assert_eq!(clock.remaining_ms(B), 9_000);
        assert_eq!(clock.deadline(), Some((14_000, B)));
        // A draw offer by the seat not on turn changes nothing for the running clock.
        clock.advance(6_000, Some(A), None, SeatSet::only(B));
        assert_eq!(clock.remaining_ms(A), 9_000);
        assert_eq!(clock.deadline(), Some((14_000, B)));
    }

    #[test]
    fn simultaneous_turns_run_every_clock_and_the_earliest_runs_out_first() {
        let mut clock = GameClock::start(fischer(5_000, 0), 2, SeatSet::first(2), 0);
        clock.advance(1_000, Some(B), None, SeatSet::only(A));
        assert_eq!(clock.remaining_ms(B), 4_000);
        assert_eq!(clock.deadline(), Some((5_000, A)));
        let both = GameClock::start(fischer(5_000, 0), 2, SeatSet::first(2), 0);
        assert_eq!(
            both.deadline(),
            Some((5_000, A)),
            "ties go to the lower seat"
        );
    }

    #[test]
    fn a_timeout_leaves_the_seat_at_zero_and_stops_every_clock_at_the_end() {
        let mut clock = GameClock::start(fischer(1_000, 5_000), 2, SeatSet::only(A), 0);
        clock.advance(1_200, None, Some(A), SeatSet::EMPTY);
        assert_eq!(clock.remaining_ms(A), 0);
        assert_eq!(clock.remaining_ms(B), 1_000);
        assert_eq!(clock.deadline(), None);
        let wire = clock.to_proto();
        assert_eq!(wire.len(), 2);
        assert!(
            wire.iter()
                .all(|seat| !seat.running && seat.deadline.is_none())
        );
    }

    #[test]
    fn per_action_limits_reset_for_every_action() {
        let mut clock = GameClock::start(per_action(3_000), 2, SeatSet::only(A), 0);
        clock.advance(2_500, Some(A), None, SeatSet::only(B));
        assert_eq!(clock.remaining_ms(A), 3_000);
        assert_eq!(clock.deadline(), Some((5_500, B)));
        clock.advance(4_000, Some(B), None, SeatSet::only(B));
        assert_eq!(
            clock.deadline(),
            Some((7_000, B)),
            "acting again resets the limit"
        );
    }

    #[test]
    fn the_wire_form_carries_the_deadline_of_running_clocks() {
        let clock = GameClock::start(fischer(60_000, 0), 2, SeatSet::only(B), 1_700_000_000_250);
        let wire = clock.to_proto();
        assert_eq!(wire[0].seat, 0);
        assert!(!wire[0].running);
        assert_eq!(wire[1].remaining_ms, 60_000);
        let deadline = wire[1].deadline.expect("a running clock has a deadline");
        assert_eq!(deadline.seconds, 1_700_000_060);
        assert_eq!(deadline.nanos, 250_000_000);
    }

    #[test]
    fn time_never_runs_backwards() {
        let mut clock = GameClock::start(fischer(5_000, 0), 2, SeatSet::only(A), 10_000);
        clock.advance(9_000, Some(A), None, SeatSet::only(B));
        assert_eq!(clock.remaining_ms(A), 5_000);
        assert_eq!(clock.deadline(), Some((15_000, B)));
    }
}
