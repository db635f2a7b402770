//! Statuses the protection layers answer with, beside [`ApiError`]'s own: a retry hint
//! (`google.rpc.RetryInfo`) for refusals that pass with time, and the deadline answer.

use std::time::Duration;

use tonic::Status;
use tonic_types::StatusExt;

use crate::error::ApiError;

/// `error`'s status with a `google.rpc.RetryInfo` asking the client to wait `delay` first.
pub fn with_retry(error: ApiError, delay: Duration) -> Status {
    let status = Status::from(error);
    let mut details = status.get_error_details();
    details.set_retry_info(Some(delay));
    Status::with_error_details(status.code(), status.message(), details)
}

/// The answer to a unary call that ran past its deadline. The call may still complete (a
/// deadline never cuts a commit), so the message tells the client to check before retrying.
pub fn deadline_exceeded(limit: Duration) -> Status {
    Status::deadline_exceeded(format!(
        "no answer within the call's deadline of {}; the request may still take effect: \
         retry with the same request_id, or observe the game first",
        humantime::format_duration(limit)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_hints_keep_the_reason() {
        let status = with_retry(ApiError::Overloaded, Duration::from_millis(1500));
        assert_eq!(status.code(), tonic::Code::Unavailable);
        assert_eq!(
            status.get_details_error_info().expect("error info").reason,
            "OVERLOADED"
        );
        assert_eq!(
            status
                .get_details_retry_info()
                .expect("retry info")
                .retry_delay,
            Some(Duration::from_millis(1500))
        );
    }
}
