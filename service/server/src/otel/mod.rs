//! OpenTelemetry traces (docs/OPERATIONS.md, "Traces"): the `tracing` spans of the server,
//! bridged by `tracing-opentelemetry` and exported over OTLP/gRPC, so that logs and traces share
//! one set of spans.
//!
//! Export is on only when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
//! is set. The standard variables are read by the OpenTelemetry SDK and exporter themselves:
//! `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` (the resource), `OTEL_TRACES_SAMPLER` and
//! `OTEL_TRACES_SAMPLER_ARG` (default `parentbased_always_on`), `OTEL_EXPORTER_OTLP_HEADERS`
//! and the timeouts. Only gRPC is built in, so any other `OTEL_EXPORTER_OTLP_PROTOCOL` stops
//! start-up rather than being silently ignored. Only plain-text gRPC is built in too, so an
//! endpoint that asks for TLS stops start-up with a message saying what to run instead.
//!
//! Without an exporter no OpenTelemetry layer is installed: the RPC span's OTel-only
//! attributes are then no-ops, and the store and engine spans are at debug level, which the
//! default log filter turns off at their call sites.

mod propagation;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::SpanExporter;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::runtime::Tokio;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::trace::span_processor_with_async_runtime::BatchSpanProcessor;
use tracing::{Level, Metadata, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::registry::LookupSpan;

pub use propagation::continue_trace;

/// The endpoint variables, the signal-specific one first (it wins when both are set); either
/// one turns export on.
pub const ENDPOINT_VARIABLES: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
];

/// The protocol variables, the signal-specific one first (it wins when both are set).
pub const PROTOCOL_VARIABLES: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
];

/// The only OTLP protocol this server exports with.
pub const GRPC: &str = "grpc";

/// The variables that make an endpoint without a scheme plain text (`http://`) when `true`,
/// the signal-specific one first; otherwise such an endpoint means TLS.
const INSECURE_VARIABLES: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_TRACES_INSECURE",
    "OTEL_EXPORTER_OTLP_INSECURE",
];

/// The `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names one
/// (the SDK would say `unknown_service`).
pub const DEFAULT_SERVICE_NAME: &str = "deckmate-server";

/// The instrumentation scope the spans are reported under.
const SCOPE: &str = "deckmate-server";

/// Why traces cannot be exported as configured.
#[derive(Debug, thiserror::Error)]
pub enum OtelError {
    /// A protocol other than gRPC was asked for.
    #[error(
        "{variable}={value} is not supported: this server exports traces over OTLP/gRPC only; \
         set it to grpc or leave it unset"
    )]
    Protocol {
        /// The variable that asked for it.
        variable: &'static str,
        /// What it asked for.
        value: String,
    },
    /// The endpoint asks for TLS, which the exporter is built without.
    #[error(
        "{variable} is {endpoint}, but this server exports traces over plain-text OTLP/gRPC \
         only: set it to the http:// address of a collector next to the server (a sidecar or \
         an agent on the host), and let that collector forward to the backend over TLS"
    )]
    TlsEndpoint {
        /// The variable that names the endpoint.
        variable: &'static str,
        /// Why the endpoint means TLS, never the endpoint itself (it may carry credentials).
        endpoint: &'static str,
    },
    /// The exporter could not be built (a malformed endpoint, for example).
    #[error("cannot set up the OTLP trace exporter: {0}")]
    Exporter(#[from] opentelemetry_otlp::ExporterBuildError),
}

/// Reads the OTLP settings from the environment and, when an endpoint is set, builds the tracer
/// provider that exports to it in batches from a Tokio task. `None` means tracing stays off.
/// Needs a Tokio runtime (the gRPC channel and the batch task live on it).
pub fn provider_from_env() -> Result<Option<SdkTracerProvider>, OtelError> {
    check_protocol(|name| std::env::var(name).ok())?;
    if !export_requested(|name| std::env::var(name).ok()) {
        return Ok(None);
    }
    // Checked here because the exporter's own refusal asks for a build option, which an
    // operator cannot change.
    check_endpoint(|name| std::env::var(name).ok())?;
    let exporter = SpanExporter::builder().with_tonic().build()?;
    let processor = BatchSpanProcessor::builder(exporter, Tokio).build();
    Ok(Some(
        SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_resource(resource())
            .build(),
    ))
}

/// Whether an endpoint variable is set (to anything but the empty string).
fn export_requested(read: impl Fn(&str) -> Option<String>) -> bool {
    ENDPOINT_VARIABLES
        .iter()
        .any(|name| read(name).is_some_and(|value| !value.trim().is_empty()))
}

/// Refuses a protocol other than gRPC, naming the variable that asked for it. The
/// signal-specific variable decides when both are set, as the OTLP specification says.
fn check_protocol(read: impl Fn(&str) -> Option<String>) -> Result<(), OtelError> {
    let chosen = PROTOCOL_VARIABLES.iter().find_map(|&variable| {
        read(variable)
            .filter(|value| !value.trim().is_empty())
            .map(|value| (variable, value))
    });
    match chosen {
        Some((variable, value)) if value.trim() != GRPC => {
            Err(OtelError::Protocol { variable, value })
        }
        _ => Ok(()),
    }
}

/// Refuses an endpoint that asks for TLS, naming the variable that gives it: an `https://`
/// one, or one without a scheme unless an `INSECURE` variable is `true`, as the exporter
/// reads them. The signal-specific endpoint decides when both are set.
fn check_endpoint(read: impl Fn(&str) -> Option<String>) -> Result<(), OtelError> {
    let chosen = ENDPOINT_VARIABLES.iter().find_map(|&variable| {
        read(variable)
            .filter(|value| !value.is_empty())
            .map(|value| (variable, value))
    });
    let Some((variable, value)) = chosen else {
        return Ok(());
    };
    let endpoint = match scheme(value.trim()) {
        Some(scheme) if scheme.eq_ignore_ascii_case("https") => "an https:// endpoint",
        Some(_) => return Ok(()),
        None if insecure(&read) => return Ok(()),
        None => "an endpoint without a scheme, which means https:// (TLS)",
    };
    Err(OtelError::TlsEndpoint { variable, endpoint })
}

/// The scheme of `endpoint`, if it has one: `://` before any path, query or fragment.
fn scheme(endpoint: &str) -> Option<&str> {
    endpoint
        .split_once("://")
        .map(|(scheme, _)| scheme)
        .filter(|scheme| !scheme.contains(['/', '?', '#']))
}

/// Whether an `INSECURE` variable makes an endpoint without a scheme plain text; the
/// signal-specific one decides when it is set, even to something other than `true`.
fn insecure(read: &impl Fn(&str) -> Option<String>) -> bool {
    INSECURE_VARIABLES
        .iter()
        .find_map(|&variable| read(variable))
        .is_some_and(|value| value.eq_ignore_ascii_case("true"))
}

/// The resource from `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`, with this server's own
/// service name when neither names one.
fn resource() -> Resource {
    let resource = Resource::builder().build();
    let named = std::env::var_os("OTEL_SERVICE_NAME").is_some_and(|name| !name.is_empty())
        || resource
            .get(&opentelemetry::Key::from_static_str("service.name"))
            .is_some_and(|name| name.as_str() != "unknown_service");
    if named {
        resource
    } else {
        Resource::builder()
            .with_service_name(DEFAULT_SERVICE_NAME)
            .build()
    }
}

/// Whether a trace layer ([`layer`]) was made in this process.
static TRACE_LAYER_MADE: AtomicBool = AtomicBool::new(false);

/// Whether spans may become traces: false until a trace layer is made, so that what only the
/// traces read (a span's constant attributes, its status) is not recorded for nothing.
pub fn traces_on() -> bool {
    TRACE_LAYER_MADE.load(Ordering::Relaxed)
}

/// The layer that turns this crate's spans into OpenTelemetry spans of `provider`. It sees
/// spans only (events stay in the logs), from this crate, down to debug level whatever
/// `RUST_LOG` says, so the store and engine spans are traced while the logs stay quiet.
pub fn layer<S>(provider: &SdkTracerProvider) -> impl Layer<S>
where
    S: Subscriber + for<'span> LookupSpan<'span>,
{
    TRACE_LAYER_MADE.store(true, Ordering::Relaxed);
    tracing_opentelemetry::layer()
        .with_tracer(provider.tracer(SCOPE))
        // Only the attributes the documentation lists: no source locations, thread names or
        // timings per span, which cost on every call and tell an operator little.
        .with_location(false)
        .with_threads(false)
        .with_target(false)
        .with_tracked_inactivity(false)
        .with_filter(filter_fn(is_traced_span))
}

/// Whether a callsite is one of the spans the traces carry.
fn is_traced_span(metadata: &Metadata<'_>) -> bool {
    metadata.is_span()
        && *metadata.level() <= Level::DEBUG
        && metadata.target().starts_with(env!("CARGO_CRATE_NAME"))
}

/// Exports the spans still queued and stops the exporter (at server shutdown). Failures are
/// logged: the server is stopping anyway.
pub async fn shutdown(provider: SdkTracerProvider) {
    // The SDK blocks the calling thread until the batch task has exported; keep that off the
    // runtime's worker threads, which the export itself runs on.
    let stopped = tokio::task::spawn_blocking(move || provider.shutdown()).await;
    match stopped {
        Ok(Ok(())) => tracing::debug!("traces flushed"),
        Ok(Err(error)) => tracing::warn!(%error, "could not flush the last traces"),
        Err(error) => tracing::warn!(%error, "could not flush the last traces"),
    }
}
