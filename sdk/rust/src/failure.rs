//! [`Failure`]: a failed attempt as the retry loops see it, the decoded [`Error`] together with
//! the pause the server asked for before the next attempt.

use std::time::Duration;

use tonic::Status;
use tonic_types::StatusExt;

use crate::Error;

/// One failed attempt.
#[derive(Debug)]
pub(crate) struct Failure {
    /// What failed.
    pub(crate) error: Error,
    /// The `google.rpc.RetryInfo` delay the server attached (with `OVERLOADED` and the create
    /// rate's `LIMIT_REACHED`): retrying sooner is refused again.
    pub(crate) retry_delay: Option<Duration>,
}

impl From<Status> for Failure {
    fn from(status: Status) -> Failure {
        let retry_delay = status
            .get_details_retry_info()
            .and_then(|info| info.retry_delay);
        Failure {
            error: Error::from_status(status),
            retry_delay,
        }
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure {
            error,
            retry_delay: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tonic::Code;
    use tonic_types::ErrorDetails;

    use super::*;

    #[test]
    fn reads_the_retry_delay_the_server_sent() {
        let mut details = ErrorDetails::new();
        details.set_error_info("OVERLOADED", deckmate_proto::ERROR_DOMAIN, HashMap::new());
        details.set_retry_info(Some(Duration::from_millis(1500)));
        let status = Status::with_error_details(Code::Unavailable, "busy", details);
        let failure = Failure::from(status);
        assert!(matches!(failure.error, Error::Overloaded(_)), "{failure:?}");
        assert_eq!(failure.retry_delay, Some(Duration::from_millis(1500)));
    }

    #[test]
    fn a_status_without_retry_info_has_no_delay() {
        let failure = Failure::from(Status::unavailable("reset"));
        assert!(matches!(failure.error, Error::Transport(_)));
        assert_eq!(failure.retry_delay, None);
    }
}
