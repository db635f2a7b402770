//! [`Error`]: every failure of a Deckmate call, decoded from the `google.rpc.ErrorInfo` reason
//! that the server attaches to its statuses (the error table of docs/API.md, "Errors").

use std::time::Duration;

use tonic::{Code, Status};
use tonic_types::StatusExt;

use crate::ErrorDetails;

/// The `ErrorInfo.metadata` key under which a `STALE_VERSION` error names the game's version.
const CURRENT_VERSION_KEY: &str = "current_version";

/// A failed Deckmate call.
///
/// Branch on the variant, never on the message: the variants follow the stable `ErrorInfo`
/// reasons, while messages are written for people and may change.
///
/// Every variant carries the [`ErrorDetails`] of the failure, as the Python and TypeScript
/// errors do: the message (the server's, the transport's, or the client's own), the `ErrorInfo`
/// metadata, the `BadRequest` field violations, the `RetryInfo` delay and, for `Act` and
/// `CreateGame`, the request id the call was sent with. [`Error::Transport`] and
/// [`Error::Other`] carry them too, because a transport failure or a deadline is exactly when
/// the caller needs the request id to resend the call safely. The details are boxed so that
/// `Result<T, Error>` stays small on the paths that succeed.
///
/// ```
/// # fn report(error: &deckmate::Error) {
/// if let Some(reason) = error.reason() {
///     eprintln!("{reason}: {}", error.message());
/// }
/// for violation in &error.details().field_violations {
///     eprintln!("  {}: {}", violation.field, violation.description);
/// }
/// if let Some(delay) = error.retry_delay() {
///     eprintln!("  the server asks to wait {delay:?}");
/// }
/// if let Some(id) = error.request_id() {
///     eprintln!("  resend with request id {id} to apply it at most once");
/// }
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `INVALID_REQUEST`: a malformed request, an unknown game or enum value, or an action the
    /// server cannot decode (its [`ErrorDetails::field_violations`] name the fields). The
    /// client also refuses by itself, with this variant, what it cannot send (a malformed
    /// endpoint, a token that is not printable ASCII).
    #[error("invalid request: {0}")]
    InvalidRequest(Box<ErrorDetails>),
    /// `GAME_NOT_FOUND`: no game has this id, or it expired.
    #[error("game not found: {0}")]
    GameNotFound(Box<ErrorDetails>),
    /// `BAD_TOKEN`: the seat token is missing, malformed or wrong, or the game does not admit
    /// spectators.
    #[error("bad token: {0}")]
    BadToken(Box<ErrorDetails>),
    /// `NOT_YOUR_TURN`: the seat may not act now.
    #[error("not your turn: {0}")]
    NotYourTurn(Box<ErrorDetails>),
    /// `ILLEGAL_ACTION`: the action is not one of the seat's legal actions.
    #[error("illegal action: {0}")]
    IllegalAction(Box<ErrorDetails>),
    /// `GAME_OVER`: the game has finished.
    #[error("game over: {0}")]
    GameOver(Box<ErrorDetails>),
    /// `STALE_VERSION`: `expected_version` was not the game's version. Observe again and decide
    /// anew; resending the same action blindly defeats the point of the check.
    #[error("stale version: {details}")]
    StaleVersion {
        /// The game's version when the action was rejected, when the server named it (its
        /// `current_version` metadata, parsed).
        current_version: Option<u64>,
        /// The message and the rest of what the server sent.
        details: Box<ErrorDetails>,
    },
    /// `STORE_UNAVAILABLE`: the server cannot reach its session store; retry later.
    #[error("store unavailable: {0}")]
    StoreUnavailable(Box<ErrorDetails>),
    /// `OVERLOADED`: the server sheds load; retry later (not before
    /// [`Error::retry_delay`]).
    #[error("server overloaded: {0}")]
    Overloaded(Box<ErrorDetails>),
    /// `LIMIT_REACHED`: a limit (sessions, watchers, message size, create rate) was reached. A
    /// limit that passes with time (the create rate) comes with a [`Error::retry_delay`].
    #[error("limit reached: {0}")]
    LimitReached(Box<ErrorDetails>),
    /// `INTERNAL`: a server bug; the message is deliberately generic.
    #[error("internal server error: {0}")]
    Internal(Box<ErrorDetails>),
    /// `SHUTTING_DOWN`: the server is draining before it stops; retry (on another replica).
    /// A watch resumes by itself from the last version it delivered.
    #[error("server shutting down: {0}")]
    ShuttingDown(Box<ErrorDetails>),
    /// `BAD_API_KEY`: the API key is missing or wrong (seat tokens get [`Error::BadToken`]).
    #[error("bad API key: {0}")]
    BadApiKey(Box<ErrorDetails>),
    /// `REQUEST_ID_REUSED`: the request id was used before, by this caller (for an action: by
    /// this seat), for a different request. Send a new request id with a new request.
    #[error("request id reused: {0}")]
    RequestIdReused(Box<ErrorDetails>),
    /// `GAME_LOST`: the server's store lost the game (it restarted without its data); it cannot
    /// be recovered.
    #[error("game lost: {0}")]
    GameLost(Box<ErrorDetails>),
    /// The server could not be reached, or the connection broke before an answer arrived. The
    /// details hold the transport's message (and the request id, for `Act` and `CreateGame`:
    /// the call may have been applied).
    #[error("transport error: {0}")]
    Transport(Box<ErrorDetails>),
    /// A status without a Deckmate reason this client knows (from a proxy, a deadline, or a
    /// newer server), kept whole; its details are decoded as for every other variant.
    #[error("unexpected status {code:?}: {message}", code = .status.code(), message = .status.message())]
    Other {
        /// The status as received.
        status: Status,
        /// What the status says beyond its code, and the request id the call was sent with.
        details: Box<ErrorDetails>,
    },
}

/// The details of any variant of an [`Error`], borrowed as the error is (`&` or `&mut`): one
/// list of the variants for both accessors.
macro_rules! details_of {
    ($error:expr) => {
        match $error {
            Error::InvalidRequest(details)
            | Error::GameNotFound(details)
            | Error::BadToken(details)
            | Error::NotYourTurn(details)
            | Error::IllegalAction(details)
            | Error::GameOver(details)
            | Error::StaleVersion { details, .. }
            | Error::StoreUnavailable(details)
            | Error::Overloaded(details)
            | Error::LimitReached(details)
            | Error::Internal(details)
            | Error::ShuttingDown(details)
            | Error::BadApiKey(details)
            | Error::RequestIdReused(details)
            | Error::GameLost(details)
            | Error::Transport(details)
            | Error::Other { details, .. } => details,
        }
    };
}

impl Error {
    /// Decodes a status returned by the server.
    ///
    /// The `ErrorInfo` reason decides the variant. A status without one is a transport failure
    /// when its code is `UNAVAILABLE` (what tonic reports when it cannot connect, and what
    /// proxies send) or when the client's own connection failed under the call (a server
    /// closing its connections while it stops: tonic reports `CANCELLED` with the transport
    /// error as its source; a connection broken mid-answer: tonic reports `UNKNOWN` or
    /// `INTERNAL` "h2 protocol error" with the HTTP/2 or I/O error as its source), and
    /// [`Error::Other`] otherwise. Whatever the variant, the `ErrorInfo` metadata (of the
    /// `deckmate` domain only), `BadRequest` field violations and `RetryInfo` delay are decoded
    /// into its [`ErrorDetails`].
    pub fn from_status(status: Status) -> Error {
        let info = status
            .get_details_error_info()
            .filter(|info| info.domain == deckmate_proto::ERROR_DOMAIN);
        let mut details = Box::new(ErrorDetails::from_status(&status, info.as_ref()));
        let Some(info) = info else {
            return match status.code() {
                Code::Unavailable => Error::Transport(details),
                _ if failed_in_transport(&status) => {
                    details.message = format!("the connection failed: {}", status.message());
                    Error::Transport(details)
                }
                _ => Error::Other { status, details },
            };
        };
        match info.reason.as_str() {
            "INVALID_REQUEST" => Error::InvalidRequest(details),
            "GAME_NOT_FOUND" => Error::GameNotFound(details),
            "BAD_TOKEN" => Error::BadToken(details),
            "NOT_YOUR_TURN" => Error::NotYourTurn(details),
            "ILLEGAL_ACTION" => Error::IllegalAction(details),
            "GAME_OVER" => Error::GameOver(details),
            "STALE_VERSION" => Error::StaleVersion {
                current_version: details
                    .metadata
                    .get(CURRENT_VERSION_KEY)
                    .and_then(|value| value.parse().ok()),
                details,
            },
            "STORE_UNAVAILABLE" => Error::StoreUnavailable(details),
            "OVERLOADED" => Error::Overloaded(details),
            "LIMIT_REACHED" => Error::LimitReached(details),
            "INTERNAL" => Error::Internal(details),
            "SHUTTING_DOWN" => Error::ShuttingDown(details),
            "BAD_API_KEY" => Error::BadApiKey(details),
            "REQUEST_ID_REUSED" => Error::RequestIdReused(details),
            "GAME_LOST" => Error::GameLost(details),
            _ => Error::Other { status, details },
        }
    }

    /// A request the client refuses to send (a malformed endpoint or header value), reported
    /// like the server's `INVALID_REQUEST` so that callers handle both alike.
    pub(crate) fn invalid_request(message: impl Into<String>) -> Error {
        Error::InvalidRequest(Box::new(ErrorDetails::new(message)))
    }

    /// A failure of the client's transport (no status: the connection could not be made).
    pub(crate) fn transport(message: impl Into<String>) -> Error {
        Error::Transport(Box::new(ErrorDetails::new(message)))
    }

    /// The same error, recording the request id the failed call was sent with.
    pub(crate) fn with_request_id(mut self, request_id: impl Into<String>) -> Error {
        self.details_mut().request_id = Some(request_id.into());
        self
    }

    /// Whether the same request may succeed if sent again unchanged after a pause: the server or
    /// the network was temporarily unable to answer (gRPC `UNAVAILABLE`, whatever the reason,
    /// including reasons newer than this client). The client retries these by itself, reusing
    /// the request id so that nothing is applied twice.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport(_)
            | Error::StoreUnavailable(_)
            | Error::Overloaded(_)
            | Error::ShuttingDown(_) => true,
            Error::Other { status, .. } => status.code() == Code::Unavailable,
            _ => false,
        }
    }

    /// The stable `ErrorInfo` reason this error was decoded from; `None` for
    /// [`Error::Transport`] and [`Error::Other`].
    pub fn reason(&self) -> Option<&'static str> {
        Some(match self {
            Error::InvalidRequest(_) => "INVALID_REQUEST",
            Error::GameNotFound(_) => "GAME_NOT_FOUND",
            Error::BadToken(_) => "BAD_TOKEN",
            Error::NotYourTurn(_) => "NOT_YOUR_TURN",
            Error::IllegalAction(_) => "ILLEGAL_ACTION",
            Error::GameOver(_) => "GAME_OVER",
            Error::StaleVersion { .. } => "STALE_VERSION",
            Error::StoreUnavailable(_) => "STORE_UNAVAILABLE",
            Error::Overloaded(_) => "OVERLOADED",
            Error::LimitReached(_) => "LIMIT_REACHED",
            Error::Internal(_) => "INTERNAL",
            Error::ShuttingDown(_) => "SHUTTING_DOWN",
            Error::BadApiKey(_) => "BAD_API_KEY",
            Error::RequestIdReused(_) => "REQUEST_ID_REUSED",
            Error::GameLost(_) => "GAME_LOST",
            Error::Transport(_) | Error::Other { .. } => return None,
        })
    }

    /// Everything the failure reported besides its reason. Every variant has details, so this
    /// never fails; fields the server did not send are empty.
    pub fn details(&self) -> &ErrorDetails {
        details_of!(self)
    }

    /// The details, to fill in what the client knows after decoding (the request id).
    fn details_mut(&mut self) -> &mut ErrorDetails {
        details_of!(self)
    }

    /// The message the server (or the transport) gave.
    pub fn message(&self) -> &str {
        &self.details().message
    }

    /// The pause the server asked for before a retry (its `google.rpc.RetryInfo`), if it named
    /// one. The client's own retries already honour it; a caller retrying by itself should too.
    pub fn retry_delay(&self) -> Option<Duration> {
        self.details().retry_delay
    }

    /// The request id the failed `Act` or `CreateGame` was sent with (generated by the client
    /// or chosen by the caller); `None` for other calls. Resend the call with it after a
    /// deadline or a transport failure, and the server applies it at most once.
    pub fn request_id(&self) -> Option<&str> {
        self.details().request_id.as_deref()
    }
}

/// What tonic's message starts with when it turns a local HTTP/2 failure into a status.
const H2_FAILURE_PREFIX: &str = "h2 protocol error";

/// Whether the status comes from this client's transport (its connection closed or broke under
/// the call) rather than from an answer.
///
/// Only a status made on this side of the connection has a source (sources do not travel over
/// the wire), so a source that is a transport, HTTP/2 or I/O error means the call failed
/// locally, before or while its answer arrived. hyper's and h2's error types are recognised
/// without depending on those crates: hyper's by its `Debug` name, h2's by the message tonic
/// gives the statuses it makes from it.
fn failed_in_transport(status: &Status) -> bool {
    let mut source = std::error::Error::source(status);
    if source.is_some() && status.message().starts_with(H2_FAILURE_PREFIX) {
        return true;
    }
    while let Some(cause) = source {
        if cause.is::<tonic::transport::Error>()
            || cause.is::<std::io::Error>()
            || format!("{cause:?}").starts_with("hyper::Error")
        {
            return true;
        }
        source = cause.source();
    }
    false
}

impl From<Status> for Error {
    fn from(status: Status) -> Error {
        Error::from_status(status)
    }
}

impl From<tonic::transport::Error> for Error {
    fn from(error: tonic::transport::Error) -> Error {
        Error::transport(cause_chain(&error))
    }
}

/// The messages of `error` and its causes, joined by `: `. The top-level message of a transport
/// error is terse ("transport error", which [`Error::Transport`] already says); the causes say
/// what actually failed (refused connection, bad address, ...). A message that repeats the end
/// of the text so far (a wrapper naming its cause's own words) is left out.
fn cause_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = String::new();
    let mut source = Some(error);
    while let Some(cause) = source {
        let text = cause.to_string();
        if !text.is_empty() && text != "transport error" && !message.ends_with(&text) {
            if !message.is_empty() {
                message.push_str(": ");
            }
            message.push_str(&text);
        }
        source = cause.source();
    }
    if message.is_empty() {
        message = error.to_string();
    }
    message
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use tonic_types::{ErrorDetails as StatusDetails, FieldViolation as WireViolation};

    use super::*;
    use crate::FieldViolation;

    /// An error with a fixed message and an optional cause.
    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<Layer>>);

    impl std::fmt::Display for Layer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Layer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|cause| cause as _)
        }
    }

    fn layers(messages: &[&'static str]) -> Layer {
        let (last, outer) = messages.split_last().expect("one message at least");
        outer
            .iter()
            .rev()
            .fold(Layer(last, None), |cause, message| {
                Layer(message, Some(Box::new(cause)))
            })
    }

    #[test]
    fn a_transport_message_names_each_cause_once() {
        // The chain a refused connection gives: tonic's terse top level, then a connector
        // error that wraps another with the same words.
        let refused = layers(&[
            "transport error",
            "tcp connect error",
            "tcp connect error",
            "Connection refused (os error 111)",
        ]);
        let error = Error::transport(cause_chain(&refused));
        assert_eq!(
            error.to_string(),
            "transport error: tcp connect error: Connection refused (os error 111)"
        );
        // A wrapper that already quotes its cause does not repeat it.
        let quoted = layers(&["dns error: no such host", "no such host"]);
        assert_eq!(cause_chain(&quoted), "dns error: no such host");
        assert_eq!(
            cause_chain(&layers(&["transport error"])),
            "transport error"
        );
    }

    fn status_with_reason(code: Code, reason: &str, metadata: &[(&str, &str)]) -> Status {
        let mut details = StatusDetails::new();
        let metadata: HashMap<String, String> = metadata
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        details.set_error_info(reason, deckmate_proto::ERROR_DOMAIN, metadata);
        Status::with_error_details(code, format!("message for {reason}"), details)
    }

    /// A status code, the reason sent with it, and a check of the decoded variant.
    type Case = (Code, &'static str, fn(&Error) -> bool);

    #[test]
    fn every_reason_decodes_to_its_variant_with_the_server_message() {
        let cases: [Case; 15] = [
            (Code::InvalidArgument, "INVALID_REQUEST", |e| {
                matches!(e, Error::InvalidRequest(_))
            }),
            (Code::NotFound, "GAME_NOT_FOUND", |e| {
                matches!(e, Error::GameNotFound(_))
            }),
            (Code::PermissionDenied, "BAD_TOKEN", |e| {
                matches!(e, Error::BadToken(_))
            }),
            (Code::FailedPrecondition, "NOT_YOUR_TURN", |e| {
                matches!(e, Error::NotYourTurn(_))
            }),
            (Code::FailedPrecondition, "ILLEGAL_ACTION", |e| {
                matches!(e, Error::IllegalAction(_))
            }),
            (Code::FailedPrecondition, "GAME_OVER", |e| {
                matches!(e, Error::GameOver(_))
            }),
            (Code::Aborted, "STALE_VERSION", |e| {
                matches!(e, Error::StaleVersion { .. })
            }),
            (Code::Unavailable, "STORE_UNAVAILABLE", |e| {
                matches!(e, Error::StoreUnavailable(_))
            }),
            (Code::Unavailable, "OVERLOADED", |e| {
                matches!(e, Error::Overloaded(_))
            }),
            (Code::ResourceExhausted, "LIMIT_REACHED", |e| {
                matches!(e, Error::LimitReached(_))
            }),
            (Code::Internal, "INTERNAL", |e| {
                matches!(e, Error::Internal(_))
            }),
            (Code::Unavailable, "SHUTTING_DOWN", |e| {
                matches!(e, Error::ShuttingDown(_))
            }),
            (Code::Unauthenticated, "BAD_API_KEY", |e| {
                matches!(e, Error::BadApiKey(_))
            }),
            (Code::InvalidArgument, "REQUEST_ID_REUSED", |e| {
                matches!(e, Error::RequestIdReused(_))
            }),
            (Code::DataLoss, "GAME_LOST", |e| {
                matches!(e, Error::GameLost(_))
            }),
        ];
        for (code, reason, is_expected) in cases {
            let error = Error::from(status_with_reason(code, reason, &[]));
            assert!(is_expected(&error), "{reason} decoded to {error:?}");
            assert_eq!(error.reason(), Some(reason));
            assert_eq!(error.message(), format!("message for {reason}"));
        }
    }

    #[test]
    fn unauthenticated_bad_token_is_also_bad_token() {
        let error = Error::from(status_with_reason(Code::Unauthenticated, "BAD_TOKEN", &[]));
        assert!(matches!(error, Error::BadToken(_)));
    }

    #[test]
    fn stale_version_reads_the_current_version_from_metadata() {
        let error = Error::from(status_with_reason(
            Code::Aborted,
            "STALE_VERSION",
            &[("current_version", "17")],
        ));
        match error {
            Error::StaleVersion {
                current_version,
                details,
            } => {
                assert_eq!(current_version, Some(17));
                assert_eq!(details.message, "message for STALE_VERSION");
                assert_eq!(details.metadata["current_version"], "17");
            }
            other => panic!("decoded to {other:?}"),
        }
    }

    #[test]
    fn stale_version_without_or_with_garbled_metadata_has_no_version() {
        for metadata in [&[][..], &[("current_version", "seventeen")][..]] {
            let error = Error::from(status_with_reason(Code::Aborted, "STALE_VERSION", metadata));
            assert!(
                matches!(
                    error,
                    Error::StaleVersion {
                        current_version: None,
                        ..
                    }
                ),
                "{error:?}"
            );
        }
    }

    #[test]
    fn unknown_reason_is_kept_as_the_raw_status() {
        let error = Error::from(status_with_reason(Code::Aborted, "SOMETHING_NEW", &[]));
        match error {
            Error::Other { status, .. } => assert_eq!(status.code(), Code::Aborted),
            other => panic!("decoded to {other:?}"),
        }
    }

    #[test]
    fn reason_from_a_foreign_domain_is_ignored() {
        let mut details = StatusDetails::new();
        let metadata = HashMap::from([("key".to_string(), "value".to_string())]);
        details.set_error_info("GAME_OVER", "example.com", metadata);
        let status = Status::with_error_details(Code::FailedPrecondition, "over", details);
        let error = Error::from(status);
        assert!(matches!(error, Error::Other { .. }), "{error:?}");
        assert!(error.details().metadata.is_empty(), "{error:?}");
    }

    #[test]
    fn unavailable_without_details_is_a_transport_error() {
        let error = Error::from(Status::unavailable("connection refused"));
        assert!(
            matches!(&error, Error::Transport(details) if details.message == "connection refused")
        );
        assert_eq!(error.reason(), None);
    }

    #[tokio::test]
    async fn a_connection_failing_under_a_call_is_a_transport_error() {
        let failed = tonic::transport::Endpoint::from_static("http://127.0.0.1:1")
            .connect()
            .await
            .expect_err("nothing listens on port 1");
        // What tonic answers for a call whose connection the server closed under it.
        let mut status = Status::cancelled("operation was canceled");
        status.set_source(std::sync::Arc::new(failed));
        let error = Error::from(status);
        assert!(matches!(error, Error::Transport(_)), "{error:?}");
        assert!(error.is_retryable());
    }

    #[test]
    fn a_connection_broken_mid_answer_is_a_transport_error() {
        // What tonic makes of an I/O failure while it reads an answer.
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset by peer");
        let status = Status::from_error(Box::new(reset));
        assert_eq!(status.code(), Code::Unknown);
        let error = Error::from(status);
        assert!(matches!(error, Error::Transport(_)), "{error:?}");
        assert!(error.is_retryable());
        // The HTTP/2 failure as tonic reports it, with a local source.
        let mut status = Status::unknown("h2 protocol error: error reading a body from connection");
        status.set_source(std::sync::Arc::new(std::fmt::Error));
        assert!(matches!(Error::from(status), Error::Transport(_)));
    }

    #[test]
    fn a_broken_connection_status_with_a_reason_keeps_the_reason() {
        let mut status = status_with_reason(Code::Unknown, "INTERNAL", &[]);
        status.set_source(std::sync::Arc::new(std::io::Error::other("reset")));
        assert!(matches!(Error::from(status), Error::Internal(_)));
    }

    #[test]
    fn other_codes_without_details_stay_raw() {
        let error = Error::from(Status::internal("h2 protocol error"));
        assert!(matches!(error, Error::Other { .. }));
        assert_eq!(error.message(), "h2 protocol error");
    }

    #[test]
    fn unavailable_with_a_reason_this_client_does_not_know_is_retryable() {
        let error = Error::from(status_with_reason(Code::Unavailable, "DRAINING_SOON", &[]));
        assert!(matches!(error, Error::Other { .. }), "{error:?}");
        assert!(error.is_retryable());
        let error = Error::from(status_with_reason(Code::Aborted, "SOMETHING_NEW", &[]));
        assert!(!error.is_retryable());
    }

    #[test]
    fn only_temporary_failures_are_retryable() {
        let none = Box::<ErrorDetails>::default;
        let retryable = [
            Error::Transport(none()),
            Error::StoreUnavailable(none()),
            Error::Overloaded(none()),
            Error::ShuttingDown(none()),
        ];
        assert!(retryable.iter().all(Error::is_retryable));
        let final_errors = [
            Error::InvalidRequest(none()),
            Error::GameNotFound(none()),
            Error::BadToken(none()),
            Error::NotYourTurn(none()),
            Error::IllegalAction(none()),
            Error::GameOver(none()),
            Error::StaleVersion {
                current_version: Some(3),
                details: none(),
            },
            Error::LimitReached(none()),
            Error::Internal(none()),
            Error::BadApiKey(none()),
            Error::RequestIdReused(none()),
            Error::GameLost(none()),
            Error::Other {
                status: Status::unknown(""),
                details: none(),
            },
        ];
        assert!(!final_errors.iter().any(Error::is_retryable));
    }

    /// A status carrying every detail the server sends: `ErrorInfo` with metadata,
    /// `BadRequest` with two violations, and `RetryInfo`.
    fn status_with_every_detail(code: Code, reason: &str) -> Status {
        let metadata = HashMap::from([
            ("current_version".to_string(), "4".to_string()),
            ("limit".to_string(), "8".to_string()),
        ]);
        let mut details =
            StatusDetails::with_error_info(reason, deckmate_proto::ERROR_DOMAIN, metadata);
        details.set_bad_request(vec![
            WireViolation::new("config.seats", "must be 2"),
            WireViolation::new("action.pile_chess.play.pile", "no such pile"),
        ]);
        details.set_retry_info(Some(Duration::from_millis(2500)));
        Status::with_error_details(code, "every detail", details)
    }

    #[test]
    fn every_detail_is_decoded() {
        let error = Error::from(status_with_every_detail(
            Code::InvalidArgument,
            "INVALID_REQUEST",
        ));
        assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");
        assert_eq!(error.reason(), Some("INVALID_REQUEST"));
        assert_eq!(error.message(), "every detail");
        assert_eq!(error.retry_delay(), Some(Duration::from_millis(2500)));
        assert_eq!(
            error.request_id(),
            None,
            "only the caller knows the request id"
        );
        let details = error.details();
        assert_eq!(details.message, "every detail");
        assert_eq!(
            details.metadata,
            BTreeMap::from([
                ("current_version".to_string(), "4".to_string()),
                ("limit".to_string(), "8".to_string()),
            ])
        );
        assert_eq!(
            details.field_violations,
            vec![
                FieldViolation::new("config.seats", "must be 2"),
                FieldViolation::new("action.pile_chess.play.pile", "no such pile"),
            ]
        );
        assert_eq!(details.retry_delay, Some(Duration::from_millis(2500)));
        assert_eq!(details.to_string(), "every detail");
        // The Display text is unchanged by the details: the label and the message.
        assert_eq!(error.to_string(), "invalid request: every detail");
    }

    #[test]
    fn stale_version_keeps_every_detail_beside_the_current_version() {
        let error = Error::from(status_with_every_detail(Code::Aborted, "STALE_VERSION"));
        match &error {
            Error::StaleVersion {
                current_version,
                details,
            } => {
                assert_eq!(*current_version, Some(4));
                assert_eq!(details.field_violations.len(), 2);
                assert_eq!(details.retry_delay, Some(Duration::from_millis(2500)));
            }
            other => panic!("decoded to {other:?}"),
        }
        assert_eq!(error.to_string(), "stale version: every detail");
    }

    #[test]
    fn statuses_without_a_known_reason_keep_their_details_too() {
        // A newer reason: the raw status, with the Deckmate metadata decoded.
        let error = Error::from(status_with_every_detail(Code::Aborted, "SOMETHING_NEW"));
        assert!(matches!(error, Error::Other { .. }), "{error:?}");
        assert_eq!(error.details().metadata["limit"], "8");
        assert_eq!(error.details().field_violations.len(), 2);
        assert_eq!(error.retry_delay(), Some(Duration::from_millis(2500)));
        // A proxy's UNAVAILABLE with only a RetryInfo: a transport error whose delay the
        // retries honour.
        let mut details = StatusDetails::new();
        details.set_retry_info(Some(Duration::from_secs(1)));
        let status = Status::with_error_details(Code::Unavailable, "try later", details);
        let error = Error::from(status);
        assert!(matches!(error, Error::Transport(_)), "{error:?}");
        assert_eq!(error.retry_delay(), Some(Duration::from_secs(1)));
        assert_eq!(error.to_string(), "transport error: try later");
    }

    #[test]
    fn a_status_without_details_has_empty_details() {
        let error = Error::from(Status::deadline_exceeded("too slow"));
        assert_eq!(error.details(), &ErrorDetails::new("too slow"));
        assert_eq!(error.retry_delay(), None);
        assert_eq!(
            error.to_string(),
            "unexpected status DeadlineExceeded: too slow"
        );
    }

    #[test]
    fn the_request_id_is_recorded_on_every_variant() {
        let errors = [
            Error::from(status_with_reason(Code::Aborted, "STALE_VERSION", &[])),
            Error::from(Status::unavailable("reset")),
            Error::from(Status::deadline_exceeded("too slow")),
        ];
        for error in errors {
            let error = error.with_request_id("id-7");
            assert_eq!(error.request_id(), Some("id-7"), "{error:?}");
            assert_eq!(error.details().request_id.as_deref(), Some("id-7"));
        }
    }
}
