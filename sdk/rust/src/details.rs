//! [`ErrorDetails`]: what an [`Error`](crate::Error) says beyond its reason, decoded from the
//! `google.rpc` details the server attaches to its statuses (docs/API.md, "Errors").

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use tonic::Status;
use tonic_types::{ErrorInfo, StatusExt};

/// Everything a failed call reported besides its reason: the message, the `ErrorInfo`
/// metadata, the `BadRequest` field violations, the `RetryInfo` delay and the request id the
/// call was sent with. Every [`Error`](crate::Error) variant carries one (read it with
/// [`Error::details`](crate::Error::details)); its `Display` form is the message alone.
///
/// Fields the server did not send are empty or `None`. New fields may be added, so the struct
/// cannot be built with a literal outside this crate: start from [`ErrorDetails::new`] and set
/// the public fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorDetails {
    /// The server's message (or the transport's, or the client's own for a request it refused
    /// to send). Written for people: branch on the reason, never on the message.
    pub message: String,
    /// The metadata of the server's `google.rpc.ErrorInfo` (domain `deckmate`), such as
    /// `current_version` with `STALE_VERSION`; empty when the status had none.
    pub metadata: BTreeMap<String, String>,
    /// The `google.rpc.BadRequest` field violations: which request field (or config option) was
    /// wrong and why.
    pub field_violations: Vec<FieldViolation>,
    /// The pause the server asked for with a `google.rpc.RetryInfo` (with `OVERLOADED`,
    /// `SHUTTING_DOWN`, and `LIMIT_REACHED` for the create rate): a retry sooner is refused
    /// again. The client's own retries never pause less (within their `max_backoff`).
    pub retry_delay: Option<Duration>,
    /// The request id the failed `Act` or `CreateGame` was sent with; `None` for other calls.
    /// After an outcome the caller cannot tell apart from success (a deadline, a transport
    /// failure once the retries ran out), send the call again with this id
    /// ([`ActOptions::with_request_id`](crate::ActOptions::with_request_id),
    /// [`CreateOptions::with_request_id`](crate::CreateOptions::with_request_id)): the server
    /// answers with what the first call did and applies it at most once.
    pub request_id: Option<String>,
}

impl ErrorDetails {
    /// Details holding only `message`.
    pub fn new(message: impl Into<String>) -> ErrorDetails {
        ErrorDetails {
            message: message.into(),
            ..ErrorDetails::default()
        }
    }

    /// Decodes the message and the details of `status`; `info` is its Deckmate `ErrorInfo`,
    /// if it has one (an `ErrorInfo` of another domain says nothing about this API, so its
    /// metadata is not kept).
    pub(crate) fn from_status(status: &Status, info: Option<&ErrorInfo>) -> ErrorDetails {
        let metadata = info
            .map(|info| {
                info.metadata
                    .iter()
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let field_violations = status
            .get_details_bad_request()
            .map(|bad_request| {
                bad_request
                    .field_violations
                    .into_iter()
                    .map(|violation| FieldViolation::new(violation.field, violation.description))
                    .collect()
            })
            .unwrap_or_default();
        let retry_delay = status
            .get_details_retry_info()
            .and_then(|info| info.retry_delay);
        ErrorDetails {
            message: status.message().to_string(),
            metadata,
            field_violations,
            retry_delay,
            request_id: None,
        }
    }
}

impl fmt::Display for ErrorDetails {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// One entry of a `google.rpc.BadRequest`: a request field and what is wrong with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldViolation {
    /// The path of the offending field, dot-separated (for example `action.pile_chess.play.piece`).
    pub field: String,
    /// Why the value was refused, written for people.
    pub description: String,
}

impl FieldViolation {
    /// A violation of `field`, described by `description`.
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> FieldViolation {
        FieldViolation {
            field: field.into(),
            description: description.into(),
        }
    }
}
