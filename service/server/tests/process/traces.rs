//! OpenTelemetry export (docs/OPERATIONS.md, "Traces"): a real server process with
//! `OTEL_EXPORTER_OTLP_ENDPOINT` sends its spans to a small OTLP/gRPC collector run by the test,
//! flushing them when stopped with SIGTERM; an unsupported protocol stops start-up.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::KeyValue;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use tokio::net::TcpListener;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic::{Request, Response, Status};

use crate::common::pigeon_chess;
use crate::server::TestServer;
use deckmate::{CreateOptions, meta_action, pb};

/// The service name the test gives the server.
const SERVICE_NAME: &str = "deckmate-trace-test";

/// A header the exporter must send with every export (`OTEL_EXPORTER_OTLP_HEADERS`).
const HEADER: (&str, &str) = ("x-collector-key", "trace-test");

/// One export as the collector received it: its request headers' check and its body.
#[derive(Clone, Debug)]
struct Received {
    had_header: bool,
    request: ExportTraceServiceRequest,
}

/// An OTLP/gRPC trace collector that keeps what it receives.
#[derive(Clone, Default)]
struct Collector {
    received: Arc<Mutex<Vec<Received>>>,
}

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        request: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        let had_header = request
            .metadata()
            .get(HEADER.0)
            .is_some_and(|value| value == HEADER.1);
        self.received.lock().unwrap().push(Received {
            had_header,
            request: request.into_inner(),
        });
        Ok(Response::new(ExportTraceServiceResponse::default()))
    }
}

impl Collector {
    /// Serves the collector on a free loopback port; returns its endpoint URL.
    async fn start(&self) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let service = TraceServiceServer::new(self.clone());
        tokio::spawn(
            Server::builder()
                .add_service(service)
                .serve_with_incoming(TcpIncoming::from(listener)),
        );
        format!("http://{address}")
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

fn string_attribute<'a>(attributes: &'a [KeyValue], key: &str) -> Option<&'a str> {
    attributes
        .iter()
        .find(|pair| pair.key == key)
        .and_then(|pair| pair.value.as_ref())
        .and_then(|value| match &value.value {
            Some(Value::StringValue(text)) => Some(text.as_str()),
            _ => None,
        })
}

fn int_attribute(attributes: &[KeyValue], key: &str) -> Option<i64> {
    attributes
        .iter()
        .find(|pair| pair.key == key)
        .and_then(|pair| pair.value.as_ref())
        .and_then(|value| match &value.value {
            Some(Value::IntValue(number)) => Some(*number),
            _ => None,
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_reach_the_collector_named_by_the_endpoint_and_are_flushed_at_sigterm() {
    let collector = Collector::default();
    let endpoint = collector.start().await;
    let server = TestServer::start_with_env(
        &[],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint),
            ("OTEL_SERVICE_NAME", SERVICE_NAME.to_string()),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "deployment.environment.name=test".to_string(),
            ),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                format!("{}={}", HEADER.0, HEADER.1),
            ),
        ],
    )
    .await;
    let client = server.client().await;
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(3))
        .await
        .unwrap();
    game.seats[1]
        .act(meta_action(pb::MetaActionKind::Resign))
        .await
        .unwrap();
    drop(game);
    drop(client);

    // The batch would go out after seconds; stopping the server must send it at once.
    let status = server.terminate().await;
    assert!(status.success(), "the server stopped with {status}");

    let received = collector.received();
    assert!(!received.is_empty(), "no export reached the collector");
    assert!(
        received.iter().all(|export| export.had_header),
        "OTEL_EXPORTER_OTLP_HEADERS was not sent"
    );
    let mut spans = Vec::new();
    for export in &received {
        for resource_spans in &export.request.resource_spans {
            let resource = resource_spans.resource.as_ref().expect("a resource");
            assert_eq!(
                string_attribute(&resource.attributes, "service.name"),
                Some(SERVICE_NAME)
            );
            assert_eq!(
                string_attribute(&resource.attributes, "deployment.environment.name"),
                Some("test")
            );
            for scope_spans in &resource_spans.scope_spans {
                spans.extend(scope_spans.spans.iter().cloned());
            }
        }
    }
    let act = spans
        .iter()
        .find(|span| span.name == "deckmate.v1.GameService/Act")
        .unwrap_or_else(|| panic!("no Act span among {spans:?}"));
    assert_eq!(
        string_attribute(&act.attributes, "rpc.system"),
        Some("grpc")
    );
    assert_eq!(
        int_attribute(&act.attributes, "rpc.grpc.status_code"),
        Some(0)
    );
    assert_eq!(int_attribute(&act.attributes, "deckmate.seat"), Some(1));
    assert_eq!(
        string_attribute(&act.attributes, "deckmate.game_id"),
        Some(game_id_of(&spans).as_str())
    );
    let commit = spans
        .iter()
        .find(|span| span.name == "store.commit")
        .expect("a store.commit span");
    assert_eq!(commit.trace_id, act.trace_id);
    assert_eq!(commit.parent_span_id, act.span_id);
}

/// The game id the CreateGame span recorded.
fn game_id_of(spans: &[opentelemetry_proto::tonic::trace::v1::Span]) -> String {
    let create = spans
        .iter()
        .find(|span| span.name == "deckmate.v1.GameService/CreateGame")
        .expect("a CreateGame span");
    string_attribute(&create.attributes, "deckmate.game_id")
        .expect("CreateGame records the game id")
        .to_string()
}

#[test]
fn a_protocol_other_than_grpc_stops_start_up() {
    let output = Command::new(env!("CARGO_BIN_EXE_deckmate-server"))
        .args(["--listen", "127.0.0.1:0"])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
        .stdin(Stdio::null())
        .output()
        .expect("the server binary runs");
    assert!(!output.status.success(), "the server started");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf is not supported"),
        "{stderr}"
    );
}
