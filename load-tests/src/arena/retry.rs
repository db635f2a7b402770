//! The arena's answer to a refusal that passes with time: `LIMIT_REACHED` (the server's create
//! rate, `--create-rate`) or `OVERLOADED` (load shedding) with a `google.rpc.RetryInfo` saying
//! how long to wait. The arena waits that long and sends the same request again (same request
//! id, so at most one game is made), a bounded number of times: a long arena on a server with
//! the default create rate would otherwise fail a few minutes in, and none of its games is
//! wrong for having waited.

use std::time::Duration;

use crate::status_details;

/// Retries of one call before the arena gives up on it.
pub(crate) const MAX_RETRIES: u32 = 10;

/// The longest wait the arena accepts: a server asking for longer (a create rate of a few games
/// an hour) would leave the run idle for longer than its games take, so the arena stops instead.
pub(crate) const MAX_DELAY: Duration = Duration::from_secs(60);

/// How long to wait before sending again a call refused with `status`, after `retries` retries
/// of it already; `None` when the refusal is final.
pub(crate) fn delay_before_retry(status: &tonic::Status, retries: u32) -> Option<Duration> {
    if retries >= MAX_RETRIES {
        return None;
    }
    let reason = deckmate::Error::from_status(status.clone()).reason();
    if !matches!(reason, Some("LIMIT_REACHED" | "OVERLOADED")) {
        return None;
    }
    status_details::retry_delay(status).filter(|delay| *delay <= MAX_DELAY)
}

#[cfg(test)]
mod tests {
    use deckmate_server::error::ApiError;
    use deckmate_server::protection::status::with_retry;

    use super::*;

    fn rate_limited(retry_after: Duration) -> tonic::Status {
        tonic::Status::from(ApiError::RateLimited {
            message: "too fast".into(),
            retry_after,
        })
    }

    #[test]
    fn limits_and_shedding_with_a_delay_are_retried_a_few_times() {
        let limited = rate_limited(Duration::from_millis(800));
        assert_eq!(
            delay_before_retry(&limited, 0),
            Some(Duration::from_millis(800))
        );
        assert_eq!(
            delay_before_retry(&limited, MAX_RETRIES - 1),
            Some(Duration::from_millis(800))
        );
        assert_eq!(delay_before_retry(&limited, MAX_RETRIES), None);
        let shed = with_retry(ApiError::Overloaded, Duration::from_secs(1));
        assert_eq!(delay_before_retry(&shed, 3), Some(Duration::from_secs(1)));
    }

    #[test]
    fn other_refusals_and_long_delays_are_final() {
        // A limit without a delay (the games per caller) does not pass by waiting.
        let full = tonic::Status::from(ApiError::LimitReached("too many games".into()));
        assert_eq!(delay_before_retry(&full, 0), None);
        let draining = with_retry(ApiError::ShuttingDown, Duration::from_millis(100));
        assert_eq!(delay_before_retry(&draining, 0), None);
        let bad = tonic::Status::from(ApiError::InvalidRequest("no".into()));
        assert_eq!(delay_before_retry(&bad, 0), None);
        let hourly = rate_limited(MAX_DELAY + Duration::from_secs(1));
        assert_eq!(delay_before_retry(&hourly, 0), None);
    }
}
