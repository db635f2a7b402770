//! The spans of real calls, collected in memory: one CreateGame and one Act through the
//! handlers, with the trace layer the server installs (docs/OPERATIONS.md, "Traces").

use std::sync::Arc;
use std::time::Duration;

use deckmate_proto::v1 as pb;
use opentelemetry::Value;
use opentelemetry::trace::{SpanId, SpanKind, Status, TraceId};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use pb::game_service_server::GameService;
use tonic::Request;
use tracing_subscriber::layer::SubscriberExt as _;

use crate::api::{ApiSettings, GameApi};
use crate::shutdown::Shutdown;
use crate::store::MemoryStore;

/// The caller's trace and span, as a client would send them in `traceparent`.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "00f067aa0ba902b7";

const REQUEST_ID: &str = "trace-test-act-request";

fn api() -> GameApi {
    let store = MemoryStore::new(Duration::from_secs(3600), 100);
    let settings = ApiSettings {
        allow_client_seed: true,
        max_watchers: 4,
        max_message_bytes: 4096,
        store_kind: pb::StoreKind::Memory,
        records_hold_clocks: true,
    };
    GameApi::new(Arc::new(store), settings, Shutdown::new())
}

fn create_request() -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        config: Some(pb::GameConfig {
            game: Some(pb::game_config::Game::PigeonChess(Default::default())),
        }),
        seed: Some(11),
        ..Default::default()
    }
}

fn act_request(game_id: &str, token: &str) -> Request<pb::ActRequest> {
    let mut request = Request::new(pb::ActRequest {
        game_id: game_id.to_string(),
        action: Some(pb::Action {
            kind: Some(pb::action::Kind::Meta(pb::MetaAction {
                kind: pb::MetaActionKind::Resign as i32,
            })),
        }),
        request_id: REQUEST_ID.to_string(),
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

/// Spans collected while `calls` runs, with the server's trace layer as the only subscriber.
struct Collector {
    exporter: InMemorySpanExporter,
    provider: SdkTracerProvider,
    _scope: tracing::subscriber::DefaultGuard,
}

impl Collector {
    fn install() -> Collector {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let subscriber = tracing_subscriber::registry().with(super::layer(&provider));
        Collector {
            _scope: tracing::subscriber::set_default(subscriber),
            exporter,
            provider,
        }
    }

    fn spans(&self) -> Vec<SpanData> {
        self.provider.force_flush().unwrap();
        self.exporter.get_finished_spans().unwrap()
    }
}

fn named<'a>(spans: &'a [SpanData], name: &str) -> &'a SpanData {
    let mut found = spans.iter().filter(|span| span.name == name);
    let span = found
        .next()
        .unwrap_or_else(|| panic!("no span {name} among {:?}", names(spans)));
    assert!(found.next().is_none(), "more than one span {name}");
    span
}

fn names<'a>(spans: impl IntoIterator<Item = &'a SpanData>) -> Vec<&'a str> {
    spans.into_iter().map(|span| span.name.as_ref()).collect()
}

fn attribute(span: &SpanData, key: &str) -> Option<Value> {
    span.attributes
        .iter()
        .find(|pair| pair.key.as_str() == key)
        .map(|pair| pair.value.clone())
}

fn string(value: &str) -> Option<Value> {
    Some(Value::from(value.to_string()))
}

/// The children of `parent` in the order they ended (which, for calls made one after the
/// other, is the order they ran).
fn children<'a>(spans: &'a [SpanData], parent: &SpanData) -> Vec<&'a SpanData> {
    spans
        .iter()
        .filter(|span| span.parent_span_id == parent.span_context.span_id())
        .collect()
}

#[tokio::test]
async fn an_act_is_a_server_span_with_store_and_engine_children_under_the_callers_span() {
    let collector = Collector::install();
    let api = api();
    let created = api
        .create_game(Request::new(create_request()))
        .await
        .unwrap()
        .into_inner();
    let token = created.seat_tokens[0].token.clone();
    let mut request = act_request(&created.game_id, &token);
    let traceparent = format!("00-{TRACE_ID}-{PARENT_ID}-01");
    let metadata = request.metadata_mut();
    metadata.insert("traceparent", traceparent.parse().unwrap());
    metadata.insert("tracestate", "deckmate=test".parse().unwrap());
    let acted = api.act(request).await.unwrap().into_inner();
    assert_eq!(acted.version, 1);

    let spans = collector.spans();
    let act = named(&spans, "deckmate.v1.GameService/Act");
    assert_eq!(act.span_kind, SpanKind::Server);
    assert_eq!(
        act.span_context.trace_id(),
        TraceId::from_hex(TRACE_ID).unwrap(),
        "the caller's trace goes on"
    );
    assert_eq!(act.parent_span_id, SpanId::from_hex(PARENT_ID).unwrap());
    assert!(act.parent_span_is_remote);
    assert_eq!(act.span_context.trace_state().header(), "deckmate=test");
    assert_eq!(act.status, Status::Unset);
    let expected = [
        ("rpc.system", string("grpc")),
        ("rpc.service", string("deckmate.v1.GameService")),
        ("rpc.method", string("Act")),
        ("rpc.grpc.status_code", Some(Value::I64(0))),
        ("deckmate.variant", string("pigeon_chess")),
        ("deckmate.game_id", string(&created.game_id)),
        ("deckmate.seat", Some(Value::I64(0))),
        ("deckmate.version", Some(Value::I64(1))),
    ];
    for (key, value) in expected {
        assert_eq!(attribute(act, key), value, "{key} on {:?}", act.attributes);
    }

    let under_act = children(&spans, act);
    assert_eq!(
        names(under_act.iter().copied()),
        // The request id is checked by the commit itself: one read, then the commit.
        ["store.load_for_update", "engine.apply", "store.commit"],
        "the Act's children, in the order they ran"
    );
    for child in &under_act {
        assert_eq!(child.span_context.trace_id(), act.span_context.trace_id());
        assert_eq!(child.span_kind, SpanKind::Internal);
    }
    assert_eq!(
        attribute(named(&spans, "store.commit"), "db.operation.name"),
        string("commit")
    );

    // CreateGame had no caller's span: it starts a trace of its own.
    let create = named(&spans, "deckmate.v1.GameService/CreateGame");
    assert_eq!(create.parent_span_id, SpanId::INVALID);
    assert_ne!(create.span_context.trace_id(), act.span_context.trace_id());
    assert_eq!(
        attribute(create, "deckmate.game_id"),
        string(&created.game_id)
    );
    assert_eq!(attribute(create, "deckmate.version"), Some(Value::I64(0)));
    assert_eq!(
        attribute(create, "rpc.grpc.status_code"),
        Some(Value::I64(0))
    );
    assert_eq!(names(children(&spans, create)), ["store.create"]);

    // Nothing secret went into any attribute: no token, no request id.
    for span in &spans {
        for pair in &span.attributes {
            let text = pair.value.as_str();
            for secret in created.seat_tokens.iter().map(|seat| seat.token.as_str()) {
                assert!(!text.contains(secret), "a token in {span:?}");
            }
            assert!(!text.contains(REQUEST_ID), "the request id in {span:?}");
        }
    }
}

#[tokio::test]
async fn a_refused_call_records_its_code_and_no_seat() {
    let collector = Collector::install();
    let api = api();
    let created = api
        .create_game(Request::new(create_request()))
        .await
        .unwrap()
        .into_inner();
    let refused = api
        .act(act_request(&created.game_id, "not-a-token"))
        .await
        .unwrap_err();

    let spans = collector.spans();
    let act = named(&spans, "deckmate.v1.GameService/Act");
    assert_eq!(
        attribute(act, "rpc.grpc.status_code"),
        Some(Value::I64(refused.code() as i64))
    );
    assert_ne!(refused.code(), tonic::Code::Ok);
    assert_eq!(attribute(act, "deckmate.seat"), None);
    // A client's mistake is not the server's failure.
    assert_eq!(act.status, Status::Unset);
    assert_eq!(act.parent_span_id, SpanId::INVALID);
}

#[tokio::test]
async fn a_malformed_traceparent_starts_a_new_trace() {
    let collector = Collector::install();
    let api = api();
    let mut request = Request::new(create_request());
    request
        .metadata_mut()
        .insert("traceparent", "00-not-a-trace-01".parse().unwrap());
    api.create_game(request).await.unwrap();

    let spans = collector.spans();
    let create = named(&spans, "deckmate.v1.GameService/CreateGame");
    assert_eq!(create.parent_span_id, SpanId::INVALID);
    assert!(create.span_context.is_valid());
}

/// A reader of environment variables that knows only `pairs`.
fn variables(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_string())
    }
}

#[test]
fn only_grpc_is_accepted_as_the_protocol() {
    assert!(super::check_protocol(variables(&[])).is_ok());
    assert!(super::check_protocol(variables(&[("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")])).is_ok());
    let refused = super::check_protocol(variables(&[(
        "OTEL_EXPORTER_OTLP_PROTOCOL",
        "http/protobuf",
    )]))
    .unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf is not supported"),
        "{refused}"
    );
    // The signal-specific variable wins over the general one, either way.
    assert!(
        super::check_protocol(variables(&[
            ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
        ]))
        .is_ok()
    );
    let refused = super::check_protocol(variables(&[
        ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json"),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
    ]))
    .unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json"),
        "{refused}"
    );
}

#[test]
fn export_needs_an_endpoint() {
    assert!(!super::export_requested(variables(&[])));
    assert!(!super::export_requested(variables(&[(
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        ""
    )])));
    assert!(super::export_requested(variables(&[(
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "http://collector:4317"
    )])));
    assert!(super::export_requested(variables(&[(
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "http://collector:4317"
    )])));
}

#[test]
fn a_tls_endpoint_is_refused_with_what_to_run_instead() {
    for plain in [
        &[][..],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317")][..],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", "HTTP://collector:4317")][..],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4317"),
            ("OTEL_EXPORTER_OTLP_INSECURE", "true"),
        ][..],
        // The signal-specific endpoint wins, as the exporter reads it.
        &[
            (
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "http://collector:4317",
            ),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "https://backend:4317"),
        ][..],
    ] {
        assert!(super::check_endpoint(variables(plain)).is_ok(), "{plain:?}");
    }
    for (tls, variable) in [
        (
            &[(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "https://u:secret@vendor.example:4317",
            )][..],
            "OTEL_EXPORTER_OTLP_ENDPOINT",
        ),
        (
            &[
                (
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                    "HTTPS://vendor.example:4317",
                ),
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317"),
            ][..],
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        ),
        // Without a scheme the exporter would use TLS unless told otherwise.
        (
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "vendor.example:4317"),
                ("OTEL_EXPORTER_OTLP_TRACES_INSECURE", "false"),
                ("OTEL_EXPORTER_OTLP_INSECURE", "true"),
            ][..],
            "OTEL_EXPORTER_OTLP_ENDPOINT",
        ),
    ] {
        let error = super::check_endpoint(variables(tls)).unwrap_err();
        assert!(
            matches!(error, super::OtelError::TlsEndpoint { .. }),
            "{error}"
        );
        let message = error.to_string();
        assert!(message.starts_with(variable), "{message}");
        assert!(message.contains("plain-text OTLP/gRPC only"), "{message}");
        assert!(message.contains("http://"), "{message}");
        assert!(
            message.contains("collector next to the server"),
            "{message}"
        );
        assert!(!message.contains("feature"), "{message}");
        assert!(!message.contains("secret"), "{message}");
        assert!(!message.contains("vendor.example"), "{message}");
    }
}
