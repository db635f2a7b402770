//! W3C trace context from request metadata: a client's `traceparent` (and `tracestate`) makes
//! the RPC span a child of the client's span, so one trace covers both sides.

use opentelemetry::propagation::{Extractor, TextMapPropagator as _};
use opentelemetry::trace::TraceContextExt as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tonic::metadata::{KeyRef, MetadataMap};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

/// Makes `span` (not yet entered) a child of the caller's span named by `traceparent` in
/// `metadata`. Does nothing when the request carries none, when it is malformed (the span then
/// starts a trace of its own) or when no trace layer is installed.
pub fn continue_trace(span: &Span, metadata: &MetadataMap) {
    // Most calls carry no trace context: skip the parsing for them.
    let headers: &http::HeaderMap = metadata.as_ref();
    if !headers.contains_key(&crate::headers::TRACEPARENT) {
        return;
    }
    let context = TraceContextPropagator::new().extract(&MetadataExtractor(metadata));
    if context.span().span_context().is_valid() {
        // Fails only without a trace layer or for a disabled span: nothing to connect then.
        let _ = span.set_parent(context);
    }
}

/// Reads text headers from gRPC request metadata.
struct MetadataExtractor<'a>(&'a MetadataMap);

impl Extractor for MetadataExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0
            .keys()
            .filter_map(|key| match key {
                KeyRef::Ascii(key) => Some(key.as_str()),
                KeyRef::Binary(_) => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ascii_headers_and_skips_binary_ones() {
        let mut metadata = MetadataMap::new();
        metadata.insert("traceparent", "00-abc-def-01".parse().unwrap());
        metadata.insert_bin(
            "blob-bin",
            tonic::metadata::MetadataValue::from_bytes(b"\x00\x01"),
        );
        let extractor = MetadataExtractor(&metadata);
        assert_eq!(extractor.get("traceparent"), Some("00-abc-def-01"));
        assert_eq!(extractor.get("tracestate"), None);
        assert_eq!(extractor.keys(), vec!["traceparent"]);
    }
}
