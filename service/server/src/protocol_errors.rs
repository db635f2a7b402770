//! Errors that arise around the handlers rather than in them (docs/API.md, "Errors"): a request
//! body gRPC cannot decode, one over the size limit, and a handler that panics.
//!
//! tonic answers an undecodable body with INTERNAL and the decoder's own text, and an oversized
//! one with a bare OUT_OF_RANGE; a panic would drop the connection. [`ProtocolErrors`] wraps
//! `GameService` so that clients instead get the API's error model: INVALID_ARGUMENT
//! `INVALID_REQUEST` with a generic message, RESOURCE_EXHAUSTED `LIMIT_REACHED` with
//! `limit_bytes`, and INTERNAL with a trace id to quote. The detail is logged at debug level
//! with the same trace id, never sent.
//!
//! The handlers' own errors always carry a `google.rpc.Status` detail (`ErrorInfo`); a status
//! without one comes from tonic's decoding, which is how the two are told apart.

use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::task::{Context, Poll};

use futures::FutureExt;
use futures::future::BoxFuture;
use http::HeaderMap;
use tonic::Code;
use tonic::body::Body;
use tonic::server::NamedService;
use tonic_types::{ErrorDetails, StatusExt};
use tower::Service;

use crate::error::ApiError;
use crate::headers::{GRPC_STATUS, GRPC_STATUS_DETAILS, TRACEPARENT};
use crate::monitoring;

/// A `GameService` (or any gRPC service) whose decoding failures and panics are answered in the
/// API's error model.
#[derive(Clone, Debug)]
pub struct ProtocolErrors<S> {
    inner: S,
    max_message_bytes: usize,
}

impl<S> ProtocolErrors<S> {
    /// Wraps `inner`, whose requests are limited to `max_message_bytes` (named in the answer to
    /// an oversized request).
    pub fn new(inner: S, max_message_bytes: usize) -> Self {
        ProtocolErrors {
            inner,
            max_message_bytes,
        }
    }
}

impl<S: NamedService> NamedService for ProtocolErrors<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> Service<http::Request<B>> for ProtocolErrors<S>
where
    S: Service<http::Request<B>, Response = http::Response<Body>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<http::Response<Body>, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let call = CallFacts::of(&request, self.max_message_bytes);
        // A panic while the handler is being set up is caught like one while it runs.
        let answer = std::panic::catch_unwind(AssertUnwindSafe(|| self.inner.call(request)));
        async move {
            let answer = match answer {
                Ok(future) => AssertUnwindSafe(future).catch_unwind().await,
                Err(panic) => Err(panic),
            };
            Ok(match answer {
                Ok(Ok(response)) => call.rewrite(response),
                Ok(Err(never)) => match never {},
                Err(panic) => call.panicked(panic.as_ref()),
            })
        }
        .boxed()
    }
}

/// What the answer to one call needs to know about its request. Both are kept as the request
/// gave them (shared, not copied): almost every call is answered without needing either, so
/// the path is read and the trace id made only for a refusal or a panic.
struct CallFacts {
    /// The request's URI, whose path (such as `/deckmate.v1.GameService/Act`) is logged, never
    /// sent.
    uri: http::Uri,
    /// The request's `traceparent` header, if it has one.
    traceparent: Option<http::HeaderValue>,
    max_message_bytes: usize,
}

impl CallFacts {
    fn of<B>(request: &http::Request<B>, max_message_bytes: usize) -> CallFacts {
        CallFacts {
            uri: request.uri().clone(),
            traceparent: request.headers().get(&TRACEPARENT).cloned(),
            max_message_bytes,
        }
    }

    /// The RPC path.
    fn path(&self) -> &str {
        self.uri.path()
    }

    /// Replaces tonic's own decoding failures by the API's errors; passes everything else.
    fn rewrite(&self, response: http::Response<Body>) -> http::Response<Body> {
        let headers = response.headers();
        if headers.contains_key(&GRPC_STATUS_DETAILS) {
            return response;
        }
        let Some(code) = status_code(headers) else {
            return response;
        };
        let error = match code {
            Code::Internal => ApiError::InvalidRequest(
                "the request is not a valid message for this method".to_string(),
            ),
            Code::OutOfRange => {
                monitoring::limit_rejected(monitoring::Limit::MessageSize);
                ApiError::MessageTooLarge {
                    limit_bytes: self.max_message_bytes,
                }
            }
            _ => return response,
        };
        // tonic's reading of the status decodes the message's percent-encoding for the log.
        let detail = tonic::Status::from_header_map(headers)
            .map(|status| status.message().to_string())
            .unwrap_or_default();
        tracing::debug!(
            path = %self.path(),
            trace_id = %trace_id(self.traceparent.as_ref()),
            detail = %detail,
            reason = error.reason(),
            "request refused before its handler"
        );
        tonic::Status::from(error).into_http()
    }

    /// The answer to a call whose handler panicked: INTERNAL with the trace id, logged.
    fn panicked(&self, panic: &(dyn std::any::Any + Send)) -> http::Response<Body> {
        let what = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let trace_id = trace_id(self.traceparent.as_ref());
        tracing::error!(
            path = %self.path(),
            trace_id = %trace_id,
            panic = %what,
            "a handler panicked"
        );
        let mut details = ErrorDetails::new();
        details.set_error_info(
            ApiError::Internal(String::new()).reason(),
            deckmate_proto::ERROR_DOMAIN,
            [("trace_id".to_string(), trace_id.clone())],
        );
        let status = tonic::Status::with_error_details(
            Code::Internal,
            format!("internal error (trace id {trace_id})"),
            details,
        );
        status.into_http()
    }
}

/// The gRPC status code of a trailers-only response, if it is one.
fn status_code(headers: &HeaderMap) -> Option<Code> {
    let value = headers.get(&GRPC_STATUS)?.to_str().ok()?;
    Some(Code::from_i32(value.parse().ok()?))
}

/// The trace id of a call: the one its `traceparent` names (the server's spans join that
/// trace), or a new random one, in the W3C form of 32 lower-case hex digits.
fn trace_id(traceparent: Option<&http::HeaderValue>) -> String {
    let given = traceparent
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split('-').nth(1))
        .filter(|id| {
            id.len() == 32
                && id
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                && id.bytes().any(|b| b != b'0')
        });
    match given {
        Some(id) => id.to_string(),
        None => {
            let mut bytes = [0u8; 16];
            // Only an identifier to quote, not a secret: if the system has no randomness for it,
            // the all-zero id still answers the call.
            let _ = getrandom::fill(&mut bytes);
            hex::encode(bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A service that answers every call by `answer`.
    #[derive(Clone)]
    struct Fixed(fn() -> http::Response<Body>);

    impl Service<http::Request<Body>> for Fixed {
        type Response = http::Response<Body>;
        type Error = Infallible;
        type Future = BoxFuture<'static, Result<http::Response<Body>, Infallible>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _: http::Request<Body>) -> Self::Future {
            let answer = self.0;
            async move { Ok(answer()) }.boxed()
        }
    }

    fn request(traceparent: Option<&str>) -> http::Request<Body> {
        let mut request = http::Request::builder().uri("/deckmate.v1.GameService/Act");
        if let Some(value) = traceparent {
            request = request.header(&TRACEPARENT, value);
        }
        request.body(Body::empty()).unwrap()
    }

    async fn answer(service: Fixed, traceparent: Option<&str>) -> tonic::Status {
        let mut wrapped = ProtocolErrors::new(service, 1024);
        let response = wrapped.call(request(traceparent)).await.unwrap();
        tonic::Status::from_header_map(response.headers()).expect("a trailers-only status")
    }

    #[tokio::test]
    async fn decoder_failures_become_invalid_request_without_their_text() {
        let status = answer(
            Fixed(|| {
                tonic::Status::internal("failed to decode Protobuf message: buffer underflow")
                    .into_http()
            }),
            None,
        )
        .await;
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "INVALID_REQUEST"
        );
        assert!(
            !status.message().contains("Protobuf"),
            "{}",
            status.message()
        );
    }

    #[tokio::test]
    async fn oversized_bodies_become_limit_reached_with_the_limit() {
        let status = answer(
            Fixed(|| tonic::Status::out_of_range("decoded message length too large").into_http()),
            None,
        )
        .await;
        assert_eq!(status.code(), Code::ResourceExhausted);
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.reason, "LIMIT_REACHED");
        assert_eq!(info.metadata["limit_bytes"], "1024");
    }

    #[tokio::test]
    async fn handler_errors_and_answers_pass_unchanged() {
        let status = answer(
            Fixed(|| tonic::Status::from(ApiError::Internal("bug".into())).into_http()),
            None,
        )
        .await;
        assert_eq!(status.code(), Code::Internal);
        assert_eq!(status.get_details_error_info().unwrap().reason, "INTERNAL");
        let status = answer(
            Fixed(|| tonic::Status::unimplemented("no such method").into_http()),
            None,
        )
        .await;
        assert_eq!(status.code(), Code::Unimplemented);
    }

    #[tokio::test]
    async fn panics_become_internal_with_the_callers_trace_id() {
        let trace = "0af7651916cd43dd8448eb211c80319c";
        let status = answer(
            Fixed(|| panic!("the board is on fire")),
            Some(&format!("00-{trace}-b7ad6b7169203331-01")),
        )
        .await;
        assert_eq!(status.code(), Code::Internal);
        assert_eq!(status.get_details_error_info().unwrap().reason, "INTERNAL");
        assert!(status.message().contains(trace), "{}", status.message());
        assert!(!status.message().contains("fire"), "{}", status.message());
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.metadata["trace_id"], trace);
    }

    #[test]
    fn trace_ids_come_from_a_valid_traceparent_or_are_new() {
        let fresh = trace_id(None);
        assert_eq!(fresh.len(), 32);
        assert_ne!(fresh, trace_id(None));
        let all_zero = http::HeaderValue::from_static(
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
        );
        assert_ne!(trace_id(Some(&all_zero)), "0".repeat(32));
        let given = http::HeaderValue::from_static(
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        );
        assert_eq!(trace_id(Some(&given)), "0af7651916cd43dd8448eb211c80319c");
    }
}
