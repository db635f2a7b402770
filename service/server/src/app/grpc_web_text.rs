//! gRPC-Web text answered in text: a request in `application/grpc-web-text` (base64) is answered
//! in the same encoding unless the client asked for binary.
//!
//! The gRPC-Web layer picks the encoding of its answer from the request's `Accept` header alone,
//! and only when it is exactly a gRPC-Web text type: a text request without one (no `Accept`,
//! `*/*`, or a list such as `application/grpc-web-text, */*`) is answered in binary
//! (`application/grpc-web+proto`), which a client that speaks only text cannot read. This layer,
//! placed before it, sets `Accept: application/grpc-web-text` on such requests. A client that
//! names a binary gRPC-Web type in `Accept` reads binary, and keeps it.

use std::task::{Context, Poll};

use http::HeaderMap;
use http::header::{ACCEPT, CONTENT_TYPE, HeaderValue};
use tower::{Layer, Service};

/// gRPC-Web text, as a request's `Content-Type` and an `Accept` name it.
const GRPC_WEB_TEXT: &str = "application/grpc-web-text";
/// gRPC-Web text with the message format named.
const GRPC_WEB_TEXT_PROTO: &str = "application/grpc-web-text+proto";
/// Binary gRPC-Web.
const GRPC_WEB: &str = "application/grpc-web";
/// Binary gRPC-Web with the message format named.
const GRPC_WEB_PROTO: &str = "application/grpc-web+proto";

/// The layer of [`TextAnswers`]; it goes outside the gRPC-Web layer.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextAnswersLayer;

impl<S> Layer<S> for TextAnswersLayer {
    type Service = TextAnswers<S>;

    fn layer(&self, inner: S) -> TextAnswers<S> {
        TextAnswers { inner }
    }
}

/// Asks for a text answer on the gRPC-Web text requests that do not say which answer they read
/// (see the module documentation); passes every other request on untouched.
#[derive(Clone, Debug)]
pub struct TextAnswers<S> {
    inner: S,
}

impl<S, B> Service<http::Request<B>> for TextAnswers<S>
where
    S: Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> S::Future {
        answer_in_kind(request.headers_mut());
        self.inner.call(request)
    }
}

/// Which encoding a request's `Accept` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    /// A gRPC-Web text type is among the types named.
    Text,
    /// A binary gRPC-Web type is named, and no text one.
    Binary,
    /// No gRPC-Web type is named (or there is no `Accept`).
    Neither,
}

/// Sets `Accept: application/grpc-web-text` on a text request that does not ask for binary, so
/// that the gRPC-Web layer answers in text.
fn answer_in_kind(headers: &mut HeaderMap) {
    if !is_text(headers.get(CONTENT_TYPE)) || asked(headers) == Asked::Binary {
        return;
    }
    // Replaces every `Accept` value: the gRPC-Web layer reads only the first, and only when it
    // is exactly a text type, so `application/grpc-web-text, */*` would still be binary.
    headers.insert(ACCEPT, HeaderValue::from_static(GRPC_WEB_TEXT));
}

/// Whether `content_type` is one the gRPC-Web layer decodes as text. Compared exactly, as that
/// layer does, so that an answer is text exactly when the request was read as text.
fn is_text(content_type: Option<&HeaderValue>) -> bool {
    content_type.is_some_and(|value| {
        let value = value.as_bytes();
        value == GRPC_WEB_TEXT.as_bytes() || value == GRPC_WEB_TEXT_PROTO.as_bytes()
    })
}

/// What the request's `Accept` headers ask for: every media type listed in any of them, without
/// its parameters, compared without case (as media types are).
fn asked(headers: &HeaderMap) -> Asked {
    let mut binary = false;
    let types = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|item| item.split(';').next().unwrap_or_default().trim());
    for media_type in types {
        let is = |name: &str| media_type.eq_ignore_ascii_case(name);
        if is(GRPC_WEB_TEXT) || is(GRPC_WEB_TEXT_PROTO) {
            return Asked::Text;
        }
        binary |= is(GRPC_WEB) || is(GRPC_WEB_PROTO);
    }
    if binary {
        Asked::Binary
    } else {
        Asked::Neither
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Accept` values a request with `content_type` and `accept` goes on with.
    fn accept_after(content_type: &str, accept: &[&str]) -> Vec<String> {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, content_type.parse().unwrap());
        for value in accept {
            headers.append(ACCEPT, value.parse().unwrap());
        }
        answer_in_kind(&mut headers);
        headers
            .get_all(ACCEPT)
            .iter()
            .map(|value| value.to_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn text_requests_that_do_not_ask_for_binary_are_answered_in_text() {
        for content_type in [GRPC_WEB_TEXT, GRPC_WEB_TEXT_PROTO] {
            for accept in [
                &[][..],
                &["*/*"],
                &["application/json"],
                &["application/grpc-web-text, */*"],
                &["*/*", "Application/GRPC-Web-Text+proto; q=0.9"],
                &[GRPC_WEB_TEXT],
            ] {
                assert_eq!(
                    accept_after(content_type, accept),
                    [GRPC_WEB_TEXT],
                    "{content_type} with {accept:?}"
                );
            }
        }
    }

    #[test]
    fn a_client_that_asks_for_binary_keeps_it() {
        for accept in [GRPC_WEB, GRPC_WEB_PROTO, "*/*, application/grpc-web+proto"] {
            assert_eq!(accept_after(GRPC_WEB_TEXT, &[accept]), [accept]);
        }
    }

    #[test]
    fn other_requests_pass_untouched() {
        for content_type in [
            GRPC_WEB_PROTO,
            GRPC_WEB,
            "application/grpc",
            // Not decoded as text by the gRPC-Web layer either: its answer stays binary too.
            "application/grpc-web-text; charset=utf-8",
        ] {
            assert!(accept_after(content_type, &[]).is_empty(), "{content_type}");
            assert_eq!(
                accept_after(content_type, &["*/*"]),
                ["*/*"],
                "{content_type}"
            );
        }
    }
}
