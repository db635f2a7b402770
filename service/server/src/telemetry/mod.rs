//! Logging and tracing (docs/ARCHITECTURE.md §5): a `tracing` subscriber writing text or JSON,
//! filtered by `RUST_LOG` (default `info`), and the span every RPC runs in. With an OTLP
//! endpoint configured ([`crate::otel`]) the same spans are exported as traces.
//!
//! The RPC span is named `deckmate.v1.GameService/<Method>` and carries the OpenTelemetry RPC
//! attributes and the game's variant, id, seat and version (docs/OPERATIONS.md, "Log spans"
//! and "Traces"). Tokens, seeds and request ids are never recorded: handlers only ever pass
//! hashes of them around.

use std::io::IsTerminal;

use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt as _;

use crate::auth;
use crate::config::LogFormat;
use crate::otel;

mod lazy_fields;

pub use lazy_fields::LazyRpcFields;

/// The gRPC service every RPC span belongs to (`rpc.service`).
pub const RPC_SERVICE: &str = "deckmate.v1.GameService";

/// Installs the global subscriber, exporting spans to `traces` when given. Fails if one is
/// already installed.
pub fn init(
    format: LogFormat,
    traces: Option<&SdkTracerProvider>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // With traces, `RUST_LOG` filters the log lines only: the trace layer has its own filter,
    // which keeps the debug-level store and engine spans.
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for people at a terminal, never in files or collectors.
    let ansi = std::io::stdout().is_terminal();
    let logs = log_layer(format, ansi, std::io::stdout).with_filter(filter);
    let subscriber = tracing_subscriber::registry().with(logs);
    match traces {
        None => subscriber.try_init()?,
        Some(provider) => subscriber.with(otel::layer(provider)).try_init()?,
    }
    Ok(())
}

/// The log layer: text or JSON lines written to `writer`, each with the RPC span it was
/// written in, whose fields are formatted only for the lines written ([`LazyRpcFields`]).
pub fn log_layer<S, W>(
    format: LogFormat,
    ansi: bool,
    writer: W,
) -> LazyRpcFields<Box<dyn Layer<S> + Send + Sync>>
where
    S: tracing::Subscriber + for<'span> LookupSpan<'span>,
    W: for<'writer> MakeWriter<'writer> + Send + Sync + 'static,
{
    let logs = tracing_subscriber::fmt::layer()
        .with_ansi(ansi)
        .with_writer(writer);
    LazyRpcFields::new(match format {
        LogFormat::Text => logs.boxed(),
        LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .boxed(),
    })
}

/// An RPC span. Its name is fixed at its call site, hence one call per method.
macro_rules! rpc_span {
    ($name:literal, $method:expr, $game_id:expr) => {
        tracing::info_span!(
            $name,
            otel.kind = "server",
            rpc.method = $method,
            rpc.grpc.status_code = tracing::field::Empty,
            deckmate.variant = tracing::field::Empty,
            deckmate.game_id = $game_id,
            deckmate.seat = tracing::field::Empty,
            deckmate.version = tracing::field::Empty,
            // The name of the caller's API key (CreateGame with keys on); never the key.
            deckmate.api_key = tracing::field::Empty,
        )
    };
}

/// The span of one RPC, named `deckmate.v1.GameService/<method>`. `game_id` is what the client
/// sent; it is recorded only when shaped like a game id, so clients cannot write arbitrary text
/// into logs or traces. The game's variant, seat and version are recorded later (with
/// [`record_game`], [`record_kind`], [`record_version`]), the status code when the call is
/// answered ([`record_status`]).
pub fn rpc_span(method: &'static str, game_id: &str) -> Span {
    // Set when the span is made: each field recorded later is one more pass through every layer.
    let game_id = auth::is_game_id(game_id).then_some(game_id);
    let span = match method {
        "CreateGame" => rpc_span!("deckmate.v1.GameService/CreateGame", method, game_id),
        "Act" => rpc_span!("deckmate.v1.GameService/Act", method, game_id),
        "Observe" => rpc_span!("deckmate.v1.GameService/Observe", method, game_id),
        "Watch" => rpc_span!("deckmate.v1.GameService/Watch", method, game_id),
        "GetHistory" => rpc_span!("deckmate.v1.GameService/GetHistory", method, game_id),
        "ListVariants" => rpc_span!("deckmate.v1.GameService/ListVariants", method, game_id),
        "GetServerInfo" => rpc_span!("deckmate.v1.GameService/GetServerInfo", method, game_id),
        _ => rpc_span!("deckmate.v1.GameService", method, game_id),
    };
    // Constant for every RPC, so kept out of the log lines: set on the trace only.
    if crate::otel::traces_on() {
        span.set_attribute("rpc.system", "grpc");
        span.set_attribute("rpc.service", RPC_SERVICE);
    }
    span
}

/// Records the game id on the current RPC span (for CreateGame, once the game exists).
pub fn record_game_id(game_id: &str) {
    if auth::is_game_id(game_id) {
        Span::current().record("deckmate.game_id", game_id);
    }
}

/// Records the game kind (`deckmate.variant`) on the current RPC span.
pub fn record_kind(kind: deckmate_engine::GameKind) {
    Span::current().record("deckmate.variant", kind.id());
}

/// Records on the current RPC span, in one pass through the layers, the game's kind
/// (`deckmate.variant`), the caller's seat when it has one, and the game version the call read
/// when given.
pub fn record_game(
    kind: deckmate_engine::GameKind,
    seat: Option<deckmate_engine::Seat>,
    version: Option<u64>,
) {
    let span = Span::current();
    let Some(fields) = span.metadata().map(|metadata| metadata.fields()) else {
        return;
    };
    let (Some(variant_field), Some(seat_field), Some(version_field)) = (
        fields.field("deckmate.variant"),
        fields.field("deckmate.seat"),
        fields.field("deckmate.version"),
    ) else {
        return;
    };
    let variant = kind.id();
    // Signed: the trace layer exports unsigned numbers as text.
    let seat = seat.map(|seat| i64::from(seat.0));
    let version = version.map(|version| i64::try_from(version).unwrap_or(i64::MAX));
    span.record_all(
        &fields.value_set(&[
            (&variant_field, Some(&variant as &dyn tracing::Value)),
            (
                &seat_field,
                seat.as_ref().map(|seat| seat as &dyn tracing::Value),
            ),
            (
                &version_field,
                version
                    .as_ref()
                    .map(|version| version as &dyn tracing::Value),
            ),
        ]),
    );
}

/// Records the game version the call read or produced on the current RPC span.
pub fn record_version(version: u64) {
    Span::current().record(
        "deckmate.version",
        i64::try_from(version).unwrap_or(i64::MAX),
    );
}

/// Records how the call was answered on its span: the numeric gRPC code, and an error status
/// for the codes that mean the server failed (the OpenTelemetry RPC conventions for servers).
/// Only traces read them: the call has written its log lines by then. Without a trace layer
/// nothing is recorded.
pub fn record_status(span: &Span, code: tonic::Code) {
    if !crate::otel::traces_on() {
        return;
    }
    span.record("rpc.grpc.status_code", code as i64);
    if is_server_failure(code) {
        span.set_status(opentelemetry::trace::Status::error(
            crate::monitoring::code_name(code),
        ));
    }
}

/// Whether a gRPC code marks a server span as failed (the client's mistakes do not).
fn is_server_failure(code: tonic::Code) -> bool {
    use tonic::Code;
    matches!(
        code,
        Code::Unknown
            | Code::DeadlineExceeded
            | Code::Unimplemented
            | Code::Internal
            | Code::Unavailable
            | Code::DataLoss
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// Collects everything the subscriber writes.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn log_inside(method: &'static str, game_id: &str) -> String {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber =
            tracing_subscriber::registry()
                .with(log_layer(LogFormat::Json, false, move || writer.clone()));
        tracing::subscriber::with_default(subscriber, || {
            let _entered = rpc_span(method, game_id).entered();
            record_game(
                deckmate_engine::GameKind::PigeonChess,
                Some(deckmate_engine::Seat(1)),
                Some(7),
            );
            tracing::info!("handled");
        });
        String::from_utf8(captured.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn spans_carry_method_game_id_variant_seat_and_version() {
        let id = auth::new_game_id().unwrap();
        let line = log_inside("Observe", &id);
        assert!(
            line.contains(r#""name":"deckmate.v1.GameService/Observe""#),
            "{line}"
        );
        assert!(line.contains(r#""rpc.method":"Observe""#), "{line}");
        assert!(
            line.contains(&format!(r#""deckmate.game_id":"{id}""#)),
            "{line}"
        );
        assert!(
            line.contains(r#""deckmate.variant":"pigeon_chess""#),
            "{line}"
        );
        assert!(line.contains(r#""deckmate.seat":1"#), "{line}");
        assert!(line.contains(r#""deckmate.version":7"#), "{line}");
        // Constant per server: only in traces, not repeated on every log line.
        assert!(!line.contains("rpc.system"), "{line}");
    }

    /// Everything written by `body` run under the log layer in `format`.
    fn lines_of(format: LogFormat, body: impl FnOnce()) -> Vec<String> {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber =
            tracing_subscriber::registry().with(log_layer(format, false, move || writer.clone()));
        tracing::subscriber::with_default(subscriber, body);
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn text_lines_carry_the_span_fields_recorded_so_far_each_once() {
        let id = auth::new_game_id().unwrap();
        let lines = lines_of(LogFormat::Text, || {
            let _entered = rpc_span("Act", &id).entered();
            record_kind(deckmate_engine::GameKind::Chuno);
            tracing::info!("loaded");
            record_game(
                deckmate_engine::GameKind::Chuno,
                Some(deckmate_engine::Seat(2)),
                Some(8),
            );
            record_version(9);
            tracing::warn!("acted");
        });
        assert_eq!(lines.len(), 2, "{lines:?}");
        let [loaded, acted] = [&lines[0], &lines[1]];
        assert!(loaded.contains("deckmate.v1.GameService/Act{"), "{loaded}");
        assert!(loaded.contains(r#"rpc.method="Act""#), "{loaded}");
        assert!(
            loaded.contains(&format!(r#"deckmate.game_id="{id}""#)),
            "{loaded}"
        );
        assert!(loaded.contains(r#"deckmate.variant="chuno""#), "{loaded}");
        assert!(!loaded.contains("deckmate.seat"), "{loaded}");
        assert!(acted.contains("deckmate.seat=2"), "{acted}");
        // The latest value only, and nothing twice.
        assert!(acted.contains("deckmate.version=9"), "{acted}");
        assert!(!acted.contains("deckmate.version=8"), "{acted}");
        assert_eq!(acted.matches("deckmate.variant").count(), 1, "{acted}");
    }

    #[test]
    fn other_spans_are_formatted_as_they_are_recorded() {
        let lines = lines_of(LogFormat::Json, || {
            let span = tracing::info_span!("store", op = tracing::field::Empty);
            let _entered = span.enter();
            span.record("op", "load");
            tracing::info!("inside");
        });
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains(r#""span":{"op":"load","name":"store"}"#),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn unknown_methods_still_get_a_span() {
        let line = log_inside("SomethingNew", "");
        assert!(line.contains(r#""rpc.method":"SomethingNew""#), "{line}");
        assert!(
            line.contains(r#""name":"deckmate.v1.GameService""#),
            "{line}"
        );
    }

    #[test]
    fn server_failures_are_the_codes_the_rpc_conventions_name() {
        assert!(is_server_failure(tonic::Code::Internal));
        assert!(is_server_failure(tonic::Code::Unavailable));
        assert!(!is_server_failure(tonic::Code::Ok));
        assert!(!is_server_failure(tonic::Code::InvalidArgument));
        assert!(!is_server_failure(tonic::Code::NotFound));
    }

    #[test]
    fn malformed_game_ids_are_not_logged() {
        let line = log_inside("Act", "forged\nline");
        assert!(!line.contains("forged"), "{line}");
        assert!(!line.contains("game_id"), "{line}");
    }
}
