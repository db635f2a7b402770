//! Failures as the load generator counts them: by gRPC code and Deckmate reason, and whether the
//! running scenario expects them.
//!
//! Every scenario drives each game from exactly one task, sends only actions the server listed,
//! and sends each with the version it observed. No scenario therefore races with itself:
//! `NOT_YOUR_TURN`, `STALE_VERSION`, `ILLEGAL_ACTION` and `GAME_OVER` mean a server fault (or a
//! foreign client acting on the same games) and are unexpected like every other error. Reasons
//! named with `--expect` (for example `OVERLOADED` while testing load shedding) are counted but
//! do not fail the run.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;
use tonic::Code;

/// Every reason the API defines (docs/ARCHITECTURE.md §3), the only values `--expect` accepts.
pub const KNOWN_REASONS: [&str; 15] = [
    "INVALID_REQUEST",
    "GAME_NOT_FOUND",
    "BAD_TOKEN",
    "NOT_YOUR_TURN",
    "ILLEGAL_ACTION",
    "GAME_OVER",
    "STALE_VERSION",
    "STORE_UNAVAILABLE",
    "OVERLOADED",
    "LIMIT_REACHED",
    "SHUTTING_DOWN",
    "BAD_API_KEY",
    "REQUEST_ID_REUSED",
    "GAME_LOST",
    "INTERNAL",
];

/// The code under which failures of the client's own checks are counted.
pub const CLIENT_CHECK_CODE: &str = "CLIENT_CHECK";

/// One kind of failure: a gRPC code and the `ErrorInfo` reason ("" when the status had none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ErrorKey {
    /// The gRPC status code in its canonical UPPER_SNAKE name, or [`CLIENT_CHECK_CODE`].
    pub code: &'static str,
    /// The Deckmate reason, the name of a [`ClientFault`], or "" for none.
    pub reason: &'static str,
}

impl ErrorKey {
    /// The key of an error returned by the SDK for a call that carried a seat token.
    ///
    /// The SDK keeps the reason but not the code; the code follows from the reason by the API's
    /// error table. `BAD_TOKEN` is `PERMISSION_DENIED` when a token was presented (the server
    /// answers `UNAUTHENTICATED` only for a missing one), which is always the case here.
    pub fn from_sdk(error: &deckmate::Error) -> ErrorKey {
        use deckmate::Error;
        let code = match error {
            Error::InvalidRequest(_) | Error::RequestIdReused(_) => Code::InvalidArgument,
            Error::GameLost(_) => Code::DataLoss,
            Error::GameNotFound(_) => Code::NotFound,
            Error::BadToken(_) => Code::PermissionDenied,
            Error::NotYourTurn(_) | Error::IllegalAction(_) | Error::GameOver(_) => {
                Code::FailedPrecondition
            }
            Error::StaleVersion { .. } => Code::Aborted,
            Error::StoreUnavailable(_)
            | Error::Overloaded(_)
            | Error::ShuttingDown(_)
            | Error::Transport(_) => Code::Unavailable,
            Error::BadApiKey(_) => Code::Unauthenticated,
            Error::LimitReached(_) => Code::ResourceExhausted,
            Error::Internal(_) => Code::Internal,
            Error::Other { status, .. } => status.code(),
        };
        ErrorKey {
            code: code_name(code),
            reason: error.reason().unwrap_or(""),
        }
    }

    /// The key of a raw status (health checks and watch streams), with its exact code.
    pub fn from_status(status: &tonic::Status) -> ErrorKey {
        let reason = deckmate::Error::from_status(status.clone())
            .reason()
            .unwrap_or("");
        ErrorKey {
            code: code_name(status.code()),
            reason,
        }
    }

    /// The key of a failed client-side check.
    pub fn client(fault: ClientFault) -> ErrorKey {
        ErrorKey {
            code: CLIENT_CHECK_CODE,
            reason: fault.name(),
        }
    }
}

impl fmt::Display for ErrorKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.reason.is_empty() {
            f.write_str(self.code)
        } else {
            write!(f, "{} {}", self.code, self.reason)
        }
    }
}

/// A promise of the API that the client saw broken; always unexpected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientFault {
    /// A running game had no seat with a legal action, or a seat in `to_act` listed none.
    GameStuck,
    /// A call answered with a version other than the one the game must be at.
    VersionSkew,
    /// `Act` answered without the actor's observation.
    MissingObservation,
    /// A game went on past the load generator's ply guard (the games' caps should end it).
    GameTooLong,
    /// A watcher skipped or repeated a version, or its stream ended before the final version.
    WatchGap,
    /// A watcher's stream stayed open long after its game had finished.
    WatchHang,
    /// The health check answered something other than SERVING.
    NotServing,
    /// A worker task panicked.
    WorkerPanicked,
}

impl ClientFault {
    /// The fault's name as reported.
    pub fn name(self) -> &'static str {
        match self {
            ClientFault::GameStuck => "GAME_STUCK",
            ClientFault::VersionSkew => "VERSION_SKEW",
            ClientFault::MissingObservation => "MISSING_OBSERVATION",
            ClientFault::GameTooLong => "GAME_TOO_LONG",
            ClientFault::WatchGap => "WATCH_GAP",
            ClientFault::WatchHang => "WATCH_HANG",
            ClientFault::NotServing => "NOT_SERVING",
            ClientFault::WorkerPanicked => "WORKER_PANICKED",
        }
    }
}

/// The reasons a run tolerates: counted and reported, but they do not fail it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpectedErrors {
    reasons: BTreeSet<&'static str>,
}

impl ExpectedErrors {
    /// No error is expected.
    pub fn none() -> ExpectedErrors {
        ExpectedErrors::default()
    }

    /// Expects the API reasons `names` (case-insensitive); fails on a name the API does not
    /// define.
    pub fn reasons<S: AsRef<str>>(names: &[S]) -> Result<ExpectedErrors, String> {
        let mut reasons = BTreeSet::new();
        for name in names {
            let name = name.as_ref().trim();
            let known = KNOWN_REASONS
                .iter()
                .find(|known| known.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    format!(
                        "`{name}` is not an error reason; expected one of {}",
                        KNOWN_REASONS.join(", ")
                    )
                })?;
            reasons.insert(*known);
        }
        Ok(ExpectedErrors { reasons })
    }

    /// Whether failures with `key` are tolerated. Client checks never are.
    pub fn is_expected(&self, key: &ErrorKey) -> bool {
        key.code != CLIENT_CHECK_CODE && self.reasons.contains(key.reason)
    }

    /// The expected reasons, in name order.
    pub fn names(&self) -> Vec<&'static str> {
        self.reasons.iter().copied().collect()
    }
}

pub use deckmate_proto::code_name;

#[cfg(test)]
mod tests {
    use super::*;
    use deckmate::Error;

    #[test]
    fn sdk_errors_get_the_code_of_the_api_error_table() {
        let none = Default::default;
        let cases = [
            (Error::InvalidRequest(none()), "INVALID_ARGUMENT"),
            (Error::GameNotFound(none()), "NOT_FOUND"),
            (Error::BadToken(none()), "PERMISSION_DENIED"),
            (Error::NotYourTurn(none()), "FAILED_PRECONDITION"),
            (Error::IllegalAction(none()), "FAILED_PRECONDITION"),
            (Error::GameOver(none()), "FAILED_PRECONDITION"),
            (
                Error::StaleVersion {
                    current_version: Some(2),
                    details: none(),
                },
                "ABORTED",
            ),
            (Error::StoreUnavailable(none()), "UNAVAILABLE"),
            (Error::Overloaded(none()), "UNAVAILABLE"),
            (Error::LimitReached(none()), "RESOURCE_EXHAUSTED"),
            (Error::Internal(none()), "INTERNAL"),
            (Error::Transport(none()), "UNAVAILABLE"),
            (
                Error::from_status(tonic::Status::deadline_exceeded("slow")),
                "DEADLINE_EXCEEDED",
            ),
        ];
        for (error, code) in cases {
            let key = ErrorKey::from_sdk(&error);
            assert_eq!(key.code, code, "{error:?}");
            assert_eq!(key.reason, error.reason().unwrap_or(""), "{error:?}");
        }
    }

    #[test]
    fn raw_statuses_keep_their_code() {
        let key = ErrorKey::from_status(&tonic::Status::unimplemented("no such method"));
        assert_eq!(
            key,
            ErrorKey {
                code: "UNIMPLEMENTED",
                reason: ""
            }
        );
        assert_eq!(key.to_string(), "UNIMPLEMENTED");
    }

    #[test]
    fn expected_reasons_are_checked_and_matched_case_insensitively() {
        let expected = ExpectedErrors::reasons(&["overloaded", "LIMIT_REACHED"]).unwrap();
        assert_eq!(expected.names(), ["LIMIT_REACHED", "OVERLOADED"]);
        let shed = ErrorKey::from_sdk(&Error::Overloaded(Default::default()));
        assert!(expected.is_expected(&shed));
        let stale = ErrorKey::from_sdk(&Error::StaleVersion {
            current_version: None,
            details: Default::default(),
        });
        assert!(!expected.is_expected(&stale));
        assert!(ExpectedErrors::reasons(&["SLOW"]).is_err());
    }

    #[test]
    fn client_faults_are_never_expected() {
        let expected = ExpectedErrors::reasons(&KNOWN_REASONS).unwrap();
        let fault = ErrorKey::client(ClientFault::GameStuck);
        assert_eq!(fault.to_string(), "CLIENT_CHECK GAME_STUCK");
        assert!(!expected.is_expected(&fault));
        assert!(
            !ExpectedErrors::none()
                .is_expected(&ErrorKey::from_sdk(&Error::GameOver(Default::default())))
        );
    }
}
