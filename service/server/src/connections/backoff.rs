//! [`AcceptBackoff`]: the pause after a failed `accept`, so that a listener that keeps failing
//! (out of file descriptors: EMFILE, ENFILE) does not spin a core.

use std::time::Duration;

/// The first pause after a failed accept.
pub const FIRST_PAUSE: Duration = Duration::from_millis(50);
/// The longest pause: accepts are retried at least this often while they fail.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// Pauses that double from [`FIRST_PAUSE`] to [`LONGEST_PAUSE`] while accepts fail, and start
/// over after one succeeds.
#[derive(Debug, Default)]
pub struct AcceptBackoff {
    next: Option<Duration>,
}

impl AcceptBackoff {
    /// No accept has failed yet.
    pub fn new() -> AcceptBackoff {
        AcceptBackoff::default()
    }

    /// An accept failed: the pause to take before the next one.
    pub fn failed(&mut self) -> Duration {
        let pause = self.next.unwrap_or(FIRST_PAUSE);
        self.next = Some((pause * 2).min(LONGEST_PAUSE));
        pause
    }

    /// An accept succeeded: the next failure pauses [`FIRST_PAUSE`] again.
    pub fn succeeded(&mut self) {
        self.next = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_up_to_a_second_and_start_over_after_a_success() {
        let mut backoff = AcceptBackoff::new();
        let pauses: Vec<u64> = (0..7)
            .map(|_| backoff.failed().as_millis() as u64)
            .collect();
        assert_eq!(pauses, [50, 100, 200, 400, 800, 1000, 1000]);
        backoff.succeeded();
        assert_eq!(backoff.failed(), FIRST_PAUSE);
        assert_eq!(backoff.failed(), Duration::from_millis(100));
    }
}
