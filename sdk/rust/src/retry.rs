//! Retrying calls that failed for a temporary reason ([`Error::is_retryable`]).

use std::future::Future;
use std::time::Duration;

use crate::Error;

/// How often and how patiently the client repeats a call that failed for a temporary reason.
///
/// Every retried call is safe to repeat: reads change nothing, and `CreateGame` and `Act` are
/// retried only when the client chose their request id, and are resent with that same id, so the
/// server applies them at most once. A call with a request id the caller chose is sent once: the
/// caller owns its retries (it may resend the id later, from another process).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first one included; 1 disables retries.
    pub max_attempts: u32,
    /// The pause before the first retry; each further pause doubles, up to `max_backoff`.
    pub initial_backoff: Duration,
    /// The longest pause between two attempts.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// Four attempts, pausing 100 ms, 200 ms and 400 ms.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// A policy that never retries.
    pub fn never() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The pause after failed attempt number `failed_attempts` (1 for the first failure).
    pub fn backoff(&self, failed_attempts: u32) -> Duration {
        let doublings = failed_attempts.saturating_sub(1).min(16);
        self.initial_backoff
            .saturating_mul(1 << doublings)
            .min(self.max_backoff)
    }

    /// The pause after failed attempt number `failed_attempts` when the server asked for
    /// `retry_delay` (its `RetryInfo`): the longer of the two, so that the retry does not come
    /// back inside the window the server named, but no longer than `max_backoff`.
    pub fn pause(&self, failed_attempts: u32, retry_delay: Option<Duration>) -> Duration {
        let backoff = self.backoff(failed_attempts);
        match retry_delay {
            Some(delay) => backoff.max(delay.min(self.max_backoff)),
            None => backoff,
        }
    }

    /// The policy for a `CreateGame` or `Act` call: this one when the client generated the
    /// request id, a single attempt when the caller chose it.
    pub(crate) fn for_request_id(&self, chosen_by_caller: bool) -> RetryPolicy {
        if chosen_by_caller {
            RetryPolicy::never()
        } else {
            *self
        }
    }

    /// Whether another attempt may follow `failed_attempts` failures ending in `error`.
    pub(crate) fn allows_retry(&self, failed_attempts: u32, error: &Error) -> bool {
        error.is_retryable() && failed_attempts < self.max_attempts
    }

    /// Runs `call` until it succeeds, fails for a reason that is not temporary, or the attempts
    /// run out; returns the last result.
    pub(crate) async fn run<T, F, Fut>(&self, mut call: F) -> Result<T, Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        let mut failed_attempts = 0;
        loop {
            match call().await {
                Ok(value) => return Ok(value),
                Err(error) => {
                    failed_attempts += 1;
                    if !self.allows_retry(failed_attempts, &error) {
                        return Err(error);
                    }
                    tokio::time::sleep(self.pause(failed_attempts, error.retry_delay())).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::ErrorDetails;

    /// The details of a failure that says only `message`.
    fn said(message: &str) -> Box<ErrorDetails> {
        Box::new(ErrorDetails::new(message))
    }

    fn quick(max_attempts: u32) -> RetryPolicy {
        RetryPolicy {
            max_attempts,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(4),
        }
    }

    #[test]
    fn backoff_doubles_up_to_the_maximum() {
        let policy = RetryPolicy {
            max_attempts: 10,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(350),
        };
        assert_eq!(policy.backoff(1), Duration::from_millis(100));
        assert_eq!(policy.backoff(2), Duration::from_millis(200));
        assert_eq!(policy.backoff(3), Duration::from_millis(350));
        assert_eq!(policy.backoff(40), Duration::from_millis(350));
    }

    #[test]
    fn the_pause_honours_the_server_retry_delay_within_the_maximum() {
        let policy = RetryPolicy::default();
        // No delay asked for: the backoff.
        assert_eq!(policy.pause(1, None), Duration::from_millis(100));
        // A longer delay than the backoff wins.
        let second = Some(Duration::from_secs(1));
        assert_eq!(policy.pause(1, second), Duration::from_secs(1));
        assert_eq!(policy.pause(3, second), Duration::from_secs(1));
        // A shorter one does not shorten the backoff.
        let short = Some(Duration::from_millis(10));
        assert_eq!(policy.pause(2, short), Duration::from_millis(200));
        // Bounded by the policy's maximum.
        let long = Some(Duration::from_secs(60));
        assert_eq!(policy.pause(1, long), Duration::from_secs(2));
    }

    #[tokio::test]
    async fn waits_for_the_server_retry_delay_before_retrying() {
        let policy = RetryPolicy {
            max_attempts: 2,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_secs(1),
        };
        let calls = Cell::new(0);
        let started = std::time::Instant::now();
        let result = policy
            .run(|| {
                calls.set(calls.get() + 1);
                let attempt = calls.get();
                async move {
                    if attempt < 2 {
                        let mut details = ErrorDetails::new("busy");
                        details.retry_delay = Some(Duration::from_millis(60));
                        Err(Error::Overloaded(Box::new(details)))
                    } else {
                        Ok(attempt)
                    }
                }
            })
            .await;
        assert_eq!(result.expect("second attempt succeeds"), 2);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(60), "{waited:?}");
    }

    #[tokio::test]
    async fn retries_temporary_failures_until_success() {
        let calls = Cell::new(0);
        let result = quick(3)
            .run(|| {
                calls.set(calls.get() + 1);
                let attempt = calls.get();
                async move {
                    if attempt < 3 {
                        Err(Error::Transport(said("reset")))
                    } else {
                        Ok(attempt)
                    }
                }
            })
            .await;
        assert_eq!(result.expect("third attempt succeeds"), 3);
        assert_eq!(calls.get(), 3);
    }

    #[tokio::test]
    async fn gives_up_after_the_last_attempt() {
        let calls = Cell::new(0);
        let result: Result<(), Error> = quick(2)
            .run(|| {
                calls.set(calls.get() + 1);
                async { Err(Error::Overloaded(said("busy"))) }
            })
            .await;
        assert!(matches!(result, Err(Error::Overloaded(_))));
        assert_eq!(calls.get(), 2);
    }

    #[tokio::test]
    async fn final_errors_are_not_retried() {
        let calls = Cell::new(0);
        let result: Result<(), Error> = quick(5)
            .run(|| {
                calls.set(calls.get() + 1);
                async { Err(Error::IllegalAction(said("no"))) }
            })
            .await;
        assert!(matches!(result, Err(Error::IllegalAction(_))));
        assert_eq!(calls.get(), 1);
    }
}
