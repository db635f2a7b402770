//! The transport-level guard around `GameService` (health and reflection are not wrapped, so
//! they always answer): `--max-concurrent-calls` with load shedding, and `--max-call-time`.
//!
//! Concurrency uses tower's `ConcurrencyLimit` under `LoadShed`: a call that finds every permit
//! taken is refused at once with UNAVAILABLE `OVERLOADED` and a `RetryInfo`, rather than queued.
//! A call holds its permit until its handler returns; a Watch stream holds one only while it is
//! being opened (open streams have their own limits).
//!
//! Unary calls get a deadline: the shorter of `--max-call-time` and the client's `grpc-timeout`.
//! The handler runs as its own task, so that when the deadline passes the client is answered
//! DEADLINE_EXCEEDED while the handler runs to its end: a commit already sent to the store is
//! never cut off half-way, and its permit is held until it is done. Watch has no deadline.

use std::convert::Infallible;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::BoxFuture;
use http::{Request, Response};
use tonic::body::Body;
use tonic::server::NamedService;
use tower::limit::ConcurrencyLimit;
use tower::load_shed::LoadShed;
use tower::load_shed::error::Overloaded;
use tower::{Service, ServiceExt};

use super::status;
use crate::error::ApiError;
use crate::monitoring::{self, Limit};

/// How long an overloaded server asks clients to wait before retrying.
pub const OVERLOADED_RETRY_AFTER: Duration = Duration::from_secs(1);
/// Taken off a client's `grpc-timeout`, so that this guard answers DEADLINE_EXCEEDED just before
/// tonic's own timer (which starts a moment earlier) would answer CANCELLED.
const CLIENT_DEADLINE_MARGIN: Duration = Duration::from_millis(2);

/// The limits of [`CallGuard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// The most calls handled at once.
    pub max_concurrent_calls: usize,
    /// The longest a unary call may take.
    pub max_call_time: Duration,
}

/// Wraps a gRPC service (its routes keep the service's name) with [`CallLimits`].
#[derive(Clone)]
pub struct CallGuard<S> {
    inner: LoadShed<ConcurrencyLimit<S>>,
    max_call_time: Duration,
}

impl<S> CallGuard<S> {
    /// Guards `service`.
    pub fn new(service: S, limits: CallLimits) -> CallGuard<S> {
        CallGuard {
            inner: LoadShed::new(ConcurrencyLimit::new(
                service,
                limits.max_concurrent_calls.max(1),
            )),
            max_call_time: limits.max_call_time,
        }
    }
}

impl<S: NamedService> NamedService for CallGuard<S> {
    const NAME: &'static str = S::NAME;
}

impl<S> Service<Request<Body>> for CallGuard<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // Readiness is decided per call, below, so that a full server sheds instead of waiting.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let mut inner = self.inner.clone();
        let deadline = deadline_of(&request, self.max_call_time);
        // The timer starts now, as the client's does.
        let timer = deadline.map(|limit| (limit, tokio::time::sleep(limit)));
        Box::pin(async move {
            let call = match inner.ready().await {
                Ok(ready) => ready.call(request),
                Err(error) => return Ok(failed(error)),
            };
            let Some((limit, timer)) = timer else {
                return Ok(call.await.unwrap_or_else(failed));
            };
            let mut handler = tokio::spawn(call);
            tokio::select! {
                joined = &mut handler => Ok(match joined {
                    Ok(answer) => answer.unwrap_or_else(failed),
                    Err(error) => {
                        tracing::error!(%error, "a handler task failed");
                        tonic::Status::from(ApiError::Internal(error.to_string())).into_http()
                    }
                }),
                () = timer => {
                    tracing::debug!(?limit, "deadline passed; the handler finishes detached");
                    Ok(status::deadline_exceeded(limit).into_http())
                }
            }
        })
    }
}

/// The answer when the layers under the guard fail: load shedding, or (never, the service is
/// infallible) anything else.
fn failed(error: tower::BoxError) -> Response<Body> {
    if error.is::<Overloaded>() {
        monitoring::limit_rejected(Limit::Concurrency);
        tracing::warn!(
            reason = "OVERLOADED",
            "call shed: at --max-concurrent-calls"
        );
        return status::with_retry(ApiError::Overloaded, OVERLOADED_RETRY_AFTER).into_http();
    }
    tonic::Status::from(ApiError::Internal(error.to_string())).into_http()
}

/// The deadline of a call: none for the `Watch` stream, else the shorter of `max_call_time` and
/// the client's `grpc-timeout`.
fn deadline_of(request: &Request<Body>, max_call_time: Duration) -> Option<Duration> {
    if request.uri().path().ends_with("/Watch") {
        return None;
    }
    let client = request
        .headers()
        .get(&crate::headers::GRPC_TIMEOUT)
        .and_then(|value| value.to_str().ok())
        .and_then(parse_grpc_timeout)
        .map(|timeout| timeout.saturating_sub(CLIENT_DEADLINE_MARGIN));
    Some(client.map_or(max_call_time, |client| client.min(max_call_time)))
}

/// Reads a `grpc-timeout` value: at most 8 digits and a unit (`H`, `M`, `S`, `m`, `u`, `n`), as
/// the gRPC over HTTP/2 specification writes it.
fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    if value.len() < 2 || value.len() > 9 {
        return None;
    }
    let (digits, unit) = value.split_at(value.len() - 1);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(path: &str, timeout: Option<&str>) -> Request<Body> {
        let mut builder = Request::builder().uri(path);
        if let Some(timeout) = timeout {
            builder = builder.header("grpc-timeout", timeout);
        }
        builder.body(Body::empty()).unwrap()
    }

    #[test]
    fn grpc_timeouts_parse() {
        assert_eq!(parse_grpc_timeout("5S"), Some(Duration::from_secs(5)));
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(
            parse_grpc_timeout("99999999n"),
            Some(Duration::from_nanos(99_999_999))
        );
        for bad in ["", "S", "5", "5s", "123456789S", "-5S", "5 S"] {
            assert_eq!(parse_grpc_timeout(bad), None, "{bad}");
        }
    }

    #[test]
    fn watch_has_no_deadline_and_clients_may_shorten_it() {
        let ten = Duration::from_secs(10);
        assert_eq!(
            deadline_of(&request("/deckmate.v1.GameService/Watch", Some("1S")), ten),
            None
        );
        assert_eq!(
            deadline_of(&request("/deckmate.v1.GameService/Act", None), ten),
            Some(ten)
        );
        assert_eq!(
            deadline_of(&request("/deckmate.v1.GameService/Act", Some("1S")), ten),
            Some(Duration::from_secs(1) - CLIENT_DEADLINE_MARGIN)
        );
        assert_eq!(
            deadline_of(&request("/deckmate.v1.GameService/Act", Some("60S")), ten),
            Some(ten)
        );
    }
}
