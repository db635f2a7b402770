//! The API error model (docs/ARCHITECTURE.md §3): every failure is an [`ApiError`], turned into a
//! `tonic::Status` whose `google.rpc.ErrorInfo` detail carries a stable reason.
//!
//! Messages are written for the client and never contain hidden information; internal details
//! are logged, not sent.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// Every way a request can fail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// Malformed request, unknown game id or enum, unparsable action.
    #[error("{0}")]
    InvalidRequest(String),
    /// One field of the request is invalid, such as a config option out of range. Sent as
    /// INVALID_REQUEST with a `google.rpc.BadRequest` field violation naming the field.
    #[error("{field}: {description}")]
    InvalidField {
        /// The field's path in the request, e.g. `config.pile_chess.teams`.
        field: String,
        /// What is wrong with it, in public terms.
        description: String,
    },
    /// A request option this server does not allow this caller, such as a game of bots only
    /// (PERMISSION_DENIED `INVALID_REQUEST`); the message names the flag that would allow it.
    #[error("{0}")]
    OptionRefused(String),
    /// A request option this server cannot serve in its current configuration, such as bot
    /// seats while it writes a record format without them (FAILED_PRECONDITION
    /// `INVALID_REQUEST`).
    #[error("{0}")]
    OptionUnavailable(String),
    /// No game with this id, or it expired.
    #[error("game not found (it may have expired)")]
    GameNotFound,
    /// Missing or malformed token (UNAUTHENTICATED).
    #[error("{0}")]
    MissingToken(String),
    /// A token that names no seat of this game (PERMISSION_DENIED).
    #[error("the token does not belong to a seat of this game")]
    WrongToken,
    /// The seat may not act now.
    #[error("it is not this seat's turn")]
    NotYourTurn,
    /// The action is not legal now; the message is public.
    #[error("{0}")]
    IllegalAction(String),
    /// The game has finished.
    #[error("the game is over")]
    GameOver,
    /// `expected_version` is stale.
    #[error("expected version {expected} but the game is at version {current}")]
    StaleVersion {
        /// What the client expected.
        expected: u64,
        /// The game's version.
        current: u64,
    },
    /// The session store cannot be reached.
    #[error("the session store is unavailable; retry later")]
    StoreUnavailable,
    /// Load shedding.
    #[error("the server is overloaded; retry later")]
    Overloaded,
    /// A configured limit was reached; the message names it.
    #[error("{0}")]
    LimitReached(String),
    /// A request larger than the server accepts. Sent as `LIMIT_REACHED` with the limit in the
    /// ErrorInfo metadata `limit_bytes`.
    #[error("the request is larger than the {limit_bytes} bytes this server accepts")]
    MessageTooLarge {
        /// The configured limit (`--max-message-bytes`).
        limit_bytes: usize,
    },
    /// The server is draining before it stops: retry on another replica.
    #[error(
        "the server is shutting down; retry on another server (a watch resumes from your last version)"
    )]
    ShuttingDown,
    /// A bug. The detail is logged; the client sees a generic message.
    #[error("internal error")]
    Internal(String),
    /// The API key is missing or not in force (UNAUTHENTICATED). The key is never repeated.
    #[error("{0}")]
    BadApiKey(String),
    /// A request id was used before, by the same caller, for a different request (INVALID_ARGUMENT
    /// `REQUEST_ID_REUSED`). The message never says what the first request was.
    #[error(
        "this request_id was already used for a different request; use a new request_id for a new request"
    )]
    RequestIdReused,
    /// The store lost a game that should exist: it was created before the store's current data
    /// set began and is younger than the game TTL (DATA_LOSS `GAME_LOST`).
    #[error(
        "the session store lost this game (it restarted without its data); the game cannot be recovered"
    )]
    GameLost,
    /// A rate limit was reached: `LIMIT_REACHED`, with a `RetryInfo` saying when to retry.
    #[error("{message}; retry in {}", humantime::format_duration(rounded_up(*retry_after)))]
    RateLimited {
        /// Which limit, in public terms.
        message: String,
        /// How long until the limit admits the call again.
        retry_after: std::time::Duration,
    },
}

/// A retry delay as a message says it: rounded up to a whole millisecond under a second and to a
/// whole second from a second on, so that waiting as long as it says is always enough (the
/// `RetryInfo` detail carries the delay itself).
fn rounded_up(delay: std::time::Duration) -> std::time::Duration {
    let unit: u128 = if delay < std::time::Duration::from_secs(1) {
        1_000_000
    } else {
        1_000_000_000
    };
    let nanos = delay.as_nanos().div_ceil(unit) * unit;
    std::time::Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

impl ApiError {
    /// An [`ApiError::InvalidField`] for the request field at `field` (its proto path, such as
    /// `config.pile_chess.teams[1]`).
    pub fn invalid_field(field: impl Into<String>, description: impl Into<String>) -> ApiError {
        ApiError::InvalidField {
            field: field.into(),
            description: description.into(),
        }
    }

    /// The gRPC status code.
    pub fn code(&self) -> Code {
        match self {
            ApiError::InvalidRequest(_) | ApiError::InvalidField { .. } => Code::InvalidArgument,
            ApiError::OptionRefused(_) => Code::PermissionDenied,
            ApiError::OptionUnavailable(_) => Code::FailedPrecondition,
            ApiError::GameNotFound => Code::NotFound,
            ApiError::MissingToken(_) => Code::Unauthenticated,
            ApiError::WrongToken => Code::PermissionDenied,
            ApiError::NotYourTurn | ApiError::IllegalAction(_) | ApiError::GameOver => {
                Code::FailedPrecondition
            }
            ApiError::StaleVersion { .. } => Code::Aborted,
            ApiError::StoreUnavailable | ApiError::Overloaded => Code::Unavailable,
            ApiError::LimitReached(_) | ApiError::MessageTooLarge { .. } => Code::ResourceExhausted,
            ApiError::ShuttingDown => Code::Unavailable,
            ApiError::Internal(_) => Code::Internal,
            ApiError::BadApiKey(_) => Code::Unauthenticated,
            ApiError::RateLimited { .. } => Code::ResourceExhausted,
            ApiError::RequestIdReused => Code::InvalidArgument,
            ApiError::GameLost => Code::DataLoss,
        }
    }

    /// The stable `ErrorInfo.reason` (the `deckmate.v1.ErrorReason` name without its prefix).
    pub fn reason(&self) -> &'static str {
        match self {
            ApiError::InvalidRequest(_)
            | ApiError::InvalidField { .. }
            | ApiError::OptionRefused(_)
            | ApiError::OptionUnavailable(_) => "INVALID_REQUEST",
            ApiError::GameNotFound => "GAME_NOT_FOUND",
            ApiError::MissingToken(_) | ApiError::WrongToken => "BAD_TOKEN",
            ApiError::NotYourTurn => "NOT_YOUR_TURN",
            ApiError::IllegalAction(_) => "ILLEGAL_ACTION",
            ApiError::GameOver => "GAME_OVER",
            ApiError::StaleVersion { .. } => "STALE_VERSION",
            ApiError::StoreUnavailable => "STORE_UNAVAILABLE",
            ApiError::Overloaded => "OVERLOADED",
            ApiError::LimitReached(_) | ApiError::MessageTooLarge { .. } => "LIMIT_REACHED",
            ApiError::ShuttingDown => "SHUTTING_DOWN",
            ApiError::Internal(_) => "INTERNAL",
            ApiError::BadApiKey(_) => "BAD_API_KEY",
            ApiError::RateLimited { .. } => "LIMIT_REACHED",
            ApiError::RequestIdReused => "REQUEST_ID_REUSED",
            ApiError::GameLost => "GAME_LOST",
        }
    }
}

impl ApiError {
    /// How long a client should wait before retrying, sent as `google.rpc.RetryInfo`, for the
    /// errors a retry can cure.
    pub fn retry_delay(&self) -> Option<std::time::Duration> {
        match self {
            // Another replica can take the call at once; a short pause spreads the reconnects.
            ApiError::ShuttingDown => Some(SHUTTING_DOWN_RETRY_DELAY),
            _ => None,
        }
    }
}

/// The `RetryInfo` delay sent with `SHUTTING_DOWN`.
pub const SHUTTING_DOWN_RETRY_DELAY: std::time::Duration = std::time::Duration::from_millis(100);

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        if let ApiError::Internal(detail) = &error {
            tracing::error!(detail = %detail, "internal error");
        }
        let mut details = ErrorDetails::new();
        let mut metadata = std::collections::HashMap::new();
        match &error {
            ApiError::StaleVersion { current, .. } => {
                metadata.insert("current_version".to_string(), current.to_string());
            }
            ApiError::MessageTooLarge { limit_bytes } => {
                metadata.insert("limit_bytes".to_string(), limit_bytes.to_string());
            }
            _ => {}
        }
        details.set_error_info(error.reason(), deckmate_proto::ERROR_DOMAIN, metadata);
        if let Some(delay) = error.retry_delay() {
            details.set_retry_info(Some(delay));
        }
        if let ApiError::InvalidField { field, description } = &error {
            details.add_bad_request_violation(field.clone(), description.clone());
        }
        if let ApiError::RateLimited { retry_after, .. } = &error {
            details.set_retry_info(Some(*retry_after));
        }
        Status::with_error_details(error.code(), error.to_string(), details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_carries_reason_and_code() {
        let status = Status::from(ApiError::StaleVersion {
            expected: 3,
            current: 5,
        });
        assert_eq!(status.code(), Code::Aborted);
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "STALE_VERSION");
        assert_eq!(info.domain, "deckmate");
        assert_eq!(
            info.metadata.get("current_version").map(String::as_str),
            Some("5")
        );
    }

    #[test]
    fn invalid_fields_carry_a_field_violation() {
        let status = Status::from(ApiError::InvalidField {
            field: "config.pile_chess.teams".into(),
            description: "seat 4 is not in the game".into(),
        });
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            status.message(),
            "config.pile_chess.teams: seat 4 is not in the game"
        );
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "INVALID_REQUEST");
        let bad_request = status.get_details_bad_request().expect("bad request");
        assert_eq!(bad_request.field_violations.len(), 1);
        assert_eq!(
            bad_request.field_violations[0].field,
            "config.pile_chess.teams"
        );
        assert_eq!(
            bad_request.field_violations[0].description,
            "seat 4 is not in the game"
        );
    }

    #[test]
    fn shutting_down_asks_for_a_retry() {
        let status = Status::from(ApiError::ShuttingDown);
        assert_eq!(status.code(), Code::Unavailable);
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "SHUTTING_DOWN");
        let retry = status.get_details_retry_info().expect("retry info");
        assert_eq!(retry.retry_delay, Some(SHUTTING_DOWN_RETRY_DELAY));
    }

    #[test]
    fn oversized_requests_name_the_limit() {
        let status = Status::from(ApiError::MessageTooLarge { limit_bytes: 1024 });
        assert_eq!(status.code(), Code::ResourceExhausted);
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "LIMIT_REACHED");
        assert_eq!(info.metadata["limit_bytes"], "1024");
        assert!(status.message().contains("1024"), "{}", status.message());
    }

    #[test]
    fn api_key_and_rate_errors() {
        let status = Status::from(ApiError::BadApiKey("no key".into()));
        assert_eq!(status.code(), Code::Unauthenticated);
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "BAD_API_KEY");
        let status = Status::from(ApiError::RateLimited {
            message: "too fast".into(),
            retry_after: std::time::Duration::from_secs(2),
        });
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(status.message(), "too fast; retry in 2s");
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "LIMIT_REACHED");
        let retry = status.get_details_retry_info().expect("retry info");
        assert_eq!(retry.retry_delay, Some(std::time::Duration::from_secs(2)));
    }

    #[test]
    fn retry_delays_are_said_rounded_up_and_sent_exactly() {
        let said = |delay| {
            ApiError::RateLimited {
                message: "too fast".into(),
                retry_after: delay,
            }
            .to_string()
        };
        let exact = std::time::Duration::new(0, 410_541_728);
        assert_eq!(said(exact), "too fast; retry in 411ms");
        assert_eq!(
            said(std::time::Duration::new(3_599, 989_381_071)),
            "too fast; retry in 1h"
        );
        assert_eq!(
            said(std::time::Duration::from_secs(2)),
            "too fast; retry in 2s"
        );
        let status = Status::from(ApiError::RateLimited {
            message: "too fast".into(),
            retry_after: exact,
        });
        let retry = status.get_details_retry_info().expect("retry info");
        assert_eq!(retry.retry_delay, Some(exact));
    }

    #[test]
    fn reused_request_ids_and_lost_games() {
        let status = Status::from(ApiError::RequestIdReused);
        assert_eq!(status.code(), Code::InvalidArgument);
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "REQUEST_ID_REUSED");
        let status = Status::from(ApiError::GameLost);
        assert_eq!(status.code(), Code::DataLoss);
        let info = status.get_details_error_info().expect("error info");
        assert_eq!(info.reason, "GAME_LOST");
    }

    #[test]
    fn internal_detail_is_not_sent() {
        let status = Status::from(ApiError::Internal("secret detail".into()));
        assert!(!status.message().contains("secret"));
    }
}
