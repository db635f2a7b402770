//! [`Error`]: every failure of a Deckmate call, decoded from the `google.rpc.ErrorInfo` reason
//! that the server attaches to its statuses (the error table of docs/API.md, "Errors").

use tonic::{Code, Status};
use tonic_types::StatusExt;

/// The `ErrorInfo.metadata` key under which a `STALE_VERSION` error names the game's version.
const CURRENT_VERSION_KEY: &str = "current_version";

/// A failed Deckmate call.
///
/// Branch on the variant, never on the message: the variants follow the stable `ErrorInfo`
/// reasons, while messages are written for people and may change. Every variant carries the
/// server's message (or the transport's, for [`Error::Transport`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `INVALID_REQUEST`: a malformed request, an unknown game or enum value, or an action the
    /// server cannot decode.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// `GAME_NOT_FOUND`: no game has this id, or it expired.
    #[error("game not found: {0}")]
    GameNotFound(String),
    /// `BAD_TOKEN`: the seat token is missing, malformed or wrong, or the game does not admit
    /// spectators.
    #[error("bad token: {0}")]
    BadToken(String),
    /// `NOT_YOUR_TURN`: the seat may not act now.
    #[error("not your turn: {0}")]
    NotYourTurn(String),
    /// `ILLEGAL_ACTION`: the action is not one of the seat's legal actions.
    #[error("illegal action: {0}")]
    IllegalAction(String),
    /// `GAME_OVER`: the game has finished.
    #[error("game over: {0}")]
    GameOver(String),
    /// `STALE_VERSION`: `expected_version` was not the game's version. Observe again and decide
    /// anew; resending the same action blindly defeats the point of the check.
    #[error("stale version: {message}")]
    StaleVersion {
        /// The game's version when the action was rejected, when the server named it.
        current_version: Option<u64>,
        /// The server's message.
        message: String,
    },
    /// `STORE_UNAVAILABLE`: the server cannot reach its session store; retry later.
    #[error("store unavailable: {0}")]
    StoreUnavailable(String),
    /// `OVERLOADED`: the server sheds load; retry later.
    #[error("server overloaded: {0}")]
    Overloaded(String),
    /// `LIMIT_REACHED`: a limit (sessions, watchers, message size) was reached.
    #[error("limit reached: {0}")]
    LimitReached(String),
    /// `INTERNAL`: a server bug; the message is deliberately generic.
    #[error("internal server error: {0}")]
    Internal(String),
    /// `SHUTTING_DOWN`: the server is draining before it stops; retry (on another replica).
    /// A watch resumes by itself from the last version it delivered.
    #[error("server shutting down: {0}")]
    ShuttingDown(String),
    /// `BAD_API_KEY`: the API key is missing or wrong (seat tokens get [`Error::BadToken`]).
    #[error("bad API key: {0}")]
    BadApiKey(String),
    /// `REQUEST_ID_REUSED`: the request id was used before, by this caller (for an action: by
    /// this seat), for a different request. Send a new request id with a new request.
    #[error("request id reused: {0}")]
    RequestIdReused(String),
    /// `GAME_LOST`: the server's store lost the game (it restarted without its data); it cannot
    /// be recovered.
    #[error("game lost: {0}")]
    GameLost(String),
    /// The server could not be reached, or the connection broke before an answer arrived.
    #[error("transport error: {0}")]
    Transport(String),
    /// A status without a Deckmate reason this client knows (from a proxy, or a newer server).
    #[error("unexpected status {code:?}: {message}", code = .0.code(), message = .0.message())]
    Other(Status),
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
    /// [`Error::Other`] otherwise.
    pub fn from_status(status: Status) -> Error {
        let info = status
            .get_details_error_info()
            .filter(|info| info.domain == deckmate_proto::ERROR_DOMAIN);
        let Some(info) = info else {
            return match status.code() {
                Code::Unavailable => Error::Transport(status.message().to_string()),
                _ if failed_in_transport(&status) => {
                    Error::Transport(format!("the connection failed: {}", status.message()))
                }
                _ => Error::Other(status),
            };
        };
        let message = status.message().to_string();
        match info.reason.as_str() {
            "INVALID_REQUEST" => Error::InvalidRequest(message),
            "GAME_NOT_FOUND" => Error::GameNotFound(message),
            "BAD_TOKEN" => Error::BadToken(message),
            "NOT_YOUR_TURN" => Error::NotYourTurn(message),
            "ILLEGAL_ACTION" => Error::IllegalAction(message),
            "GAME_OVER" => Error::GameOver(message),
            "STALE_VERSION" => Error::StaleVersion {
                current_version: info
                    .metadata
                    .get(CURRENT_VERSION_KEY)
                    .and_then(|value| value.parse().ok()),
                message,
            },
            "STORE_UNAVAILABLE" => Error::StoreUnavailable(message),
            "OVERLOADED" => Error::Overloaded(message),
            "LIMIT_REACHED" => Error::LimitReached(message),
            "INTERNAL" => Error::Internal(message),
            "SHUTTING_DOWN" => Error::ShuttingDown(message),
            "BAD_API_KEY" => Error::BadApiKey(message),
            "REQUEST_ID_REUSED" => Error::RequestIdReused(message),
            "GAME_LOST" => Error::GameLost(message),
            _ => Error::Other(status),
        }
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
            Error::Other(status) => status.code() == Code::Unavailable,
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
            Error::Transport(_) | Error::Other(_) => return None,
        })
    }

    /// The message the server (or the transport) gave.
    pub fn message(&self) -> &str {
        match self {
            Error::InvalidRequest(message)
            | Error::GameNotFound(message)
            | Error::BadToken(message)
            | Error::NotYourTurn(message)
            | Error::IllegalAction(message)
            | Error::GameOver(message)
            | Error::StaleVersion { message, .. }
            | Error::StoreUnavailable(message)
            | Error::Overloaded(message)
            | Error::LimitReached(message)
            | Error::Internal(message)
            | Error::ShuttingDown(message)
            | Error::BadApiKey(message)
            | Error::RequestIdReused(message)
            | Error::GameLost(message)
            | Error::Transport(message) => message,
            Error::Other(status) => status.message(),
        }
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
        // The top-level message of a transport error is terse ("transport error"); the cause
        // chain says what actually failed (refused connection, bad address, ...).
        let mut message = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        Error::Transport(message)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tonic_types::ErrorDetails;

    use super::*;

    fn status_with_reason(code: Code, reason: &str, metadata: &[(&str, &str)]) -> Status {
        let mut details = ErrorDetails::new();
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
                message,
            } => {
                assert_eq!(current_version, Some(17));
                assert_eq!(message, "message for STALE_VERSION");
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
            Error::Other(status) => assert_eq!(status.code(), Code::Aborted),
            other => panic!("decoded to {other:?}"),
        }
    }

    #[test]
    fn reason_from_a_foreign_domain_is_ignored() {
        let mut details = ErrorDetails::new();
        details.set_error_info("GAME_OVER", "example.com", HashMap::new());
        let status = Status::with_error_details(Code::FailedPrecondition, "over", details);
        assert!(matches!(Error::from(status), Error::Other(_)));
    }

    #[test]
    fn unavailable_without_details_is_a_transport_error() {
        let error = Error::from(Status::unavailable("connection refused"));
        assert!(matches!(&error, Error::Transport(message) if message == "connection refused"));
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
        assert!(matches!(error, Error::Other(_)));
        assert_eq!(error.message(), "h2 protocol error");
    }

    #[test]
    fn unavailable_with_a_reason_this_client_does_not_know_is_retryable() {
        let error = Error::from(status_with_reason(Code::Unavailable, "DRAINING_SOON", &[]));
        assert!(matches!(error, Error::Other(_)), "{error:?}");
        assert!(error.is_retryable());
        let error = Error::from(status_with_reason(Code::Aborted, "SOMETHING_NEW", &[]));
        assert!(!error.is_retryable());
    }

    #[test]
    fn only_temporary_failures_are_retryable() {
        let retryable = [
            Error::Transport(String::new()),
            Error::StoreUnavailable(String::new()),
            Error::Overloaded(String::new()),
            Error::ShuttingDown(String::new()),
        ];
        assert!(retryable.iter().all(Error::is_retryable));
        let final_errors = [
            Error::InvalidRequest(String::new()),
            Error::GameNotFound(String::new()),
            Error::BadToken(String::new()),
            Error::NotYourTurn(String::new()),
            Error::IllegalAction(String::new()),
            Error::GameOver(String::new()),
            Error::StaleVersion {
                current_version: Some(3),
                message: String::new(),
            },
            Error::LimitReached(String::new()),
            Error::Internal(String::new()),
            Error::BadApiKey(String::new()),
            Error::RequestIdReused(String::new()),
            Error::GameLost(String::new()),
            Error::Other(Status::unknown("")),
        ];
        assert!(!final_errors.iter().any(Error::is_retryable));
    }
}
