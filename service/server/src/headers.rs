//! The names of the request and response headers the server reads on every call, made once.
//! A lookup by `&str` parses and checks the name on each call; one by [`HeaderName`] goes
//! straight to the map.

use http::HeaderName;

/// `authorization`: the caller's seat token (`Bearer dm1_...`).
pub static AUTHORIZATION: HeaderName = http::header::AUTHORIZATION;

/// `grpc-timeout`: the client's deadline.
pub static GRPC_TIMEOUT: HeaderName = HeaderName::from_static("grpc-timeout");

/// `grpc-status`: a status in a trailers-only response.
pub static GRPC_STATUS: HeaderName = HeaderName::from_static("grpc-status");

/// `grpc-status-details-bin`: a status's details; the handlers' errors always have one.
pub static GRPC_STATUS_DETAILS: HeaderName = HeaderName::from_static("grpc-status-details-bin");

/// `traceparent`: the W3C trace context of the caller's span.
pub static TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_wire_names() {
        assert_eq!(AUTHORIZATION.as_str(), deckmate_proto::AUTHORIZATION_HEADER);
        for (name, text) in [
            (&GRPC_TIMEOUT, "grpc-timeout"),
            (&GRPC_STATUS, "grpc-status"),
            (&GRPC_STATUS_DETAILS, "grpc-status-details-bin"),
            (&TRACEPARENT, "traceparent"),
        ] {
            assert_eq!(name.as_str(), text);
            assert_eq!(*name, HeaderName::from_bytes(text.as_bytes()).unwrap());
        }
    }
}
