//! Open-loop pacing (`--rate N/s`): calls start on a fixed schedule, one every `1/N` s, whatever
//! the answers' latency, instead of each worker calling again as soon as its last call
//! returned (the closed loop of `--in-flight` alone).
//!
//! The schedule is shared by every worker of a phase: each call claims the next slot and waits
//! for it. Its latency counts from the slot, not from when the call was sent, so a server that
//! falls behind shows in the latency percentiles instead of silently lowering the rate (no
//! coordinated omission). `--in-flight` still bounds the calls outstanding: when every worker
//! waits on an answer, later slots are late, and their lateness is part of their latency.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// A shared schedule of call starts.
#[derive(Debug)]
pub(crate) struct Pacer {
    interval: Duration,
    /// When slot 0 is: the first claim.
    start: OnceLock<Instant>,
    /// The next slot to hand out.
    next: AtomicU64,
}

impl Pacer {
    /// A schedule of `per_second` calls a second (at least 1).
    pub(crate) fn new(per_second: u32) -> Pacer {
        Pacer {
            interval: Duration::from_secs(1) / per_second.max(1),
            start: OnceLock::new(),
            next: AtomicU64::new(0),
        }
    }

    /// The start time of the next unclaimed slot, claiming it.
    pub(crate) fn claim(&self) -> Instant {
        let start = *self.start.get_or_init(Instant::now);
        let slot = self.next.fetch_add(1, Ordering::Relaxed);
        let offset = self.interval.as_nanos() * u128::from(slot);
        start + Duration::from_nanos(u64::try_from(offset).unwrap_or(u64::MAX))
    }

    /// Claims the next slot and waits until it; returns the slot's time.
    pub(crate) async fn wait(&self) -> Instant {
        let slot = self.claim();
        tokio::time::sleep_until(slot).await;
        slot
    }
}

/// Parses a rate such as `500/s` (or a bare `500`): calls a second, at least 1.
pub(crate) fn parse_rate(text: &str) -> Result<u32, String> {
    let number = text.strip_suffix("/s").unwrap_or(text).trim();
    match number.parse::<u32>() {
        Ok(rate) if rate >= 1 => Ok(rate),
        _ => Err(format!(
            "`{text}` is not a rate: give calls a second, such as 500/s"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn slots_follow_the_rate_whoever_claims_them() {
        let pacer = Pacer::new(400);
        let first = pacer.claim();
        let second = pacer.claim();
        let third = pacer.claim();
        assert_eq!(second - first, Duration::from_micros(2_500));
        assert_eq!(third - first, Duration::from_millis(5));
        // Waiting reaches the slot's time, not earlier.
        let slot = pacer.wait().await;
        assert_eq!(slot - first, Duration::from_micros(7_500));
        assert!(Instant::now() >= slot);
    }

    #[test]
    fn rates_parse_with_or_without_their_unit() {
        assert_eq!(parse_rate("500/s"), Ok(500));
        assert_eq!(parse_rate("7"), Ok(7));
        assert!(parse_rate("0/s").is_err());
        assert!(parse_rate("fast").is_err());
        assert!(parse_rate("5/m").is_err());
    }
}
