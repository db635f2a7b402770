//! The client against a server newer than it: answers carrying a field, an enum value and a
//! game this client's protos do not have, and an error reason it does not know. Each must come
//! through as "unknown" (skipped, kept as a raw number, an empty oneof, a raw status), never as
//! a failure.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use deckmate::{Client, Error, RetryPolicy, pb};
use tonic::codegen::{BoxFuture, Service, http};
use tonic::server::{Grpc, NamedService, UnaryService};
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// `ObserveResponse` as a later server version might send it: `status` with a value this client
/// has no name for, an observation of a sixth game, and a field added after this client.
#[derive(Clone, PartialEq, prost::Message)]
struct NewerObserveResponse {
    #[prost(string, tag = "1")]
    game_id: String,
    #[prost(string, tag = "2")]
    variant: String,
    #[prost(uint64, tag = "3")]
    version: u64,
    #[prost(int32, tag = "4")]
    status: i32,
    #[prost(message, optional, tag = "9")]
    observation: Option<NewerObservation>,
    #[prost(string, tag = "99")]
    added_later: String,
}

/// `Observation` with a member for a game this client does not know.
#[derive(Clone, PartialEq, prost::Message)]
struct NewerObservation {
    #[prost(message, optional, tag = "6")]
    sixth_game: Option<SixthGameObservation>,
}

/// The sixth game's view.
#[derive(Clone, PartialEq, prost::Message)]
struct SixthGameObservation {
    #[prost(uint32, tag = "1")]
    lanterns: u32,
}

/// The status value a later server version might add.
const NEWER_STATUS: i32 = 99;

/// A server answering `Observe` with a newer message, `Act` with an unknown reason, and
/// `GetHistory` with UNAVAILABLE for a reason this client does not know.
#[derive(Clone, Default)]
struct NewerServer {
    history_calls: Arc<AtomicU32>,
}

impl NamedService for NewerServer {
    const NAME: &'static str = "deckmate.v1.GameService";
}

/// The newer server's `Observe`.
struct ObserveMethod;

impl UnaryService<pb::ObserveRequest> for ObserveMethod {
    type Response = NewerObserveResponse;
    type Future = BoxFuture<Response<NewerObserveResponse>, Status>;

    fn call(&mut self, request: Request<pb::ObserveRequest>) -> Self::Future {
        let game_id = request.into_inner().game_id;
        Box::pin(async move {
            Ok(Response::new(NewerObserveResponse {
                game_id,
                variant: "lantern_chess".into(),
                version: 7,
                status: NEWER_STATUS,
                observation: Some(NewerObservation {
                    sixth_game: Some(SixthGameObservation { lanterns: 3 }),
                }),
                added_later: "a field from the future".into(),
            }))
        })
    }
}

/// A method that always fails with `code` and the ErrorInfo `reason`.
struct FailingMethod {
    code: Code,
    reason: &'static str,
    calls: Option<Arc<AtomicU32>>,
}

impl<T: Send + 'static> UnaryService<T> for FailingMethod {
    type Response = pb::ActResponse;
    type Future = BoxFuture<Response<pb::ActResponse>, Status>;

    fn call(&mut self, _request: Request<T>) -> Self::Future {
        if let Some(calls) = &self.calls {
            calls.fetch_add(1, Ordering::SeqCst);
        }
        let mut details = ErrorDetails::new();
        details.set_error_info(self.reason, "deckmate", HashMap::new());
        let status = Status::with_error_details(self.code, "a newer server says no", details);
        Box::pin(async move { Err(status) })
    }
}

impl Service<http::Request<tonic::body::Body>> for NewerServer {
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Infallible>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        let history_calls = self.history_calls.clone();
        Box::pin(async move {
            let response = match request.uri().path() {
                "/deckmate.v1.GameService/Observe" => {
                    Grpc::new(tonic_prost::ProstCodec::default())
                        .unary(ObserveMethod, request)
                        .await
                }
                "/deckmate.v1.GameService/Act" => {
                    let method = FailingMethod {
                        code: Code::FailedPrecondition,
                        reason: "TABLE_FLIPPED",
                        calls: None,
                    };
                    Grpc::new(tonic_prost::ProstCodec::<_, pb::ActRequest>::default())
                        .unary(method, request)
                        .await
                }
                "/deckmate.v1.GameService/GetHistory" => {
                    let method = FailingMethod {
                        code: Code::Unavailable,
                        reason: "DRAINING_SOON",
                        calls: Some(history_calls),
                    };
                    Grpc::new(tonic_prost::ProstCodec::<_, pb::GetHistoryRequest>::default())
                        .unary(method, request)
                        .await
                }
                _ => Status::unimplemented("not scripted").into_http(),
            };
            Ok(response)
        })
    }
}

/// Starts the newer server; returns a client with quick retries and the server.
async fn start() -> (Client, NewerServer) {
    let server = NewerServer::default();
    let incoming = TcpIncoming::bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let address = incoming.local_addr().expect("local address");
    tokio::spawn(
        Server::builder()
            .add_service(server.clone())
            .serve_with_incoming(incoming),
    );
    let client = Client::connect(format!("http://{address}"))
        .await
        .expect("connect")
        .with_retry_policy(RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(1),
        });
    (client, server)
}

#[tokio::test]
async fn unknown_fields_enum_values_and_games_arrive_as_unknown() {
    let (client, _server) = start().await;
    let view = client
        .spectate("g-7")
        .observe()
        .await
        .expect("a newer answer decodes");
    assert_eq!(view.game_id, "g-7");
    assert_eq!(view.version, 7);
    // The raw value survives; the typed accessor falls back to the default.
    assert_eq!(view.status, NEWER_STATUS);
    assert_eq!(view.status(), pb::GameStatus::Unspecified);
    // The observation is there, but its game is none this client knows.
    let observation = view.observation.expect("observation present");
    assert!(observation.game.is_none(), "{observation:?}");
}

#[tokio::test]
async fn an_unknown_reason_is_kept_as_the_raw_status_and_not_retried() {
    let (client, _server) = start().await;
    let seat = client.seat("g-7", 0, "token").expect("seat");
    let error = seat.resign().await.expect_err("the newer server refuses");
    match &error {
        Error::Other { status, .. } => assert_eq!(status.code(), Code::FailedPrecondition),
        other => panic!("decoded to {other:?}"),
    }
    assert_eq!(error.reason(), None);
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn unavailable_with_an_unknown_reason_is_retried() {
    let (client, server) = start().await;
    let error = client
        .spectate("g-7")
        .history()
        .await
        .expect_err("always unavailable");
    assert!(error.is_retryable(), "{error:?}");
    assert_eq!(server.history_calls.load(Ordering::SeqCst), 3);
}
