//! `history()` against a server that pages `GetHistory`: it follows every `next_page_token` and
//! joins the pages, reads a game that finished between two pages again, and `history_page()`
//! sends the paging fields and returns one page.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use deckmate::{Client, pb};
use tonic::codegen::{BoxFuture, Service, http};
use tonic::server::{Grpc, NamedService, UnaryService};
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic::{Request, Response, Status};

/// A server answering `GetHistory` with scripted pages of a game at version 5, by page token.
#[derive(Clone, Default)]
struct PagedServer {
    /// Every request received, in order.
    requests: Arc<Mutex<Vec<pb::GetHistoryRequest>>>,
    /// Whether the first call answers a running game's first page (the game then finishes).
    running_at_first: bool,
}

impl NamedService for PagedServer {
    const NAME: &'static str = "deckmate.v1.GameService";
}

/// One page of the game: one event per version in `versions`, and the actions once finished.
fn page(
    version: u64,
    status: pb::GameStatus,
    versions: std::ops::RangeInclusive<u64>,
    next_page_token: &str,
) -> pb::GetHistoryResponse {
    let finished = status == pb::GameStatus::Finished;
    pb::GetHistoryResponse {
        game_id: "g".into(),
        variant: "chuno".into(),
        seats: 2,
        version,
        status: status as i32,
        events: versions
            .clone()
            .map(|version| pb::Event {
                version,
                ..Default::default()
            })
            .collect(),
        actions: versions
            .filter(|&version| finished && version > 0)
            .map(|version| pb::HistoryAction {
                version,
                seat: (version % 2) as u32,
                action: None,
                timed_out: false,
            })
            .collect(),
        seed: if finished { vec![7; 32] } else { Vec::new() },
        next_page_token: next_page_token.into(),
        ..Default::default()
    }
}

impl PagedServer {
    /// The answer to `request`, the `calls`-th call before it.
    fn answer(&self, request: &pb::GetHistoryRequest, calls: usize) -> pb::GetHistoryResponse {
        use pb::GameStatus::{Finished, InProgress};
        match request.page_token.as_str() {
            "" if self.running_at_first && calls == 0 => page(4, InProgress, 0..=1, "t2"),
            "" => page(5, Finished, 0..=1, "t2"),
            "t2" => page(5, Finished, 2..=3, "t3"),
            "t3" => page(5, Finished, 4..=5, ""),
            other => panic!("an unknown token {other:?}"),
        }
    }
}

impl UnaryService<pb::GetHistoryRequest> for PagedServer {
    type Response = pb::GetHistoryResponse;
    type Future = BoxFuture<Response<pb::GetHistoryResponse>, Status>;

    fn call(&mut self, request: Request<pb::GetHistoryRequest>) -> Self::Future {
        let request = request.into_inner();
        let mut requests = self.requests.lock().expect("the request log");
        let answer = self.answer(&request, requests.len());
        requests.push(request);
        Box::pin(async move { Ok(Response::new(answer)) })
    }
}

impl Service<http::Request<tonic::body::Body>> for PagedServer {
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Infallible>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        let server = self.clone();
        Box::pin(async move {
            Ok(match request.uri().path() {
                "/deckmate.v1.GameService/GetHistory" => {
                    Grpc::new(tonic_prost::ProstCodec::default())
                        .unary(server, request)
                        .await
                }
                _ => Status::unimplemented("not scripted").into_http(),
            })
        })
    }
}

/// Starts `server`; returns a client of it.
async fn start(server: PagedServer) -> Client {
    let incoming = TcpIncoming::bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let address = incoming.local_addr().expect("local address");
    tokio::spawn(
        Server::builder()
            .add_service(server)
            .serve_with_incoming(incoming),
    );
    Client::connect(format!("http://{address}"))
        .await
        .expect("connect")
}

/// The page tokens `server` received, in order.
fn tokens(server: &PagedServer) -> Vec<String> {
    let requests = server.requests.lock().expect("the request log");
    requests
        .iter()
        .map(|request| request.page_token.clone())
        .collect()
}

/// Asserts that `history` is the three finished pages joined.
fn assert_joined(history: &pb::GetHistoryResponse) {
    let events: Vec<u64> = history.events.iter().map(|event| event.version).collect();
    assert_eq!(events, vec![0, 1, 2, 3, 4, 5]);
    let actions: Vec<u64> = history
        .actions
        .iter()
        .map(|action| action.version)
        .collect();
    assert_eq!(actions, vec![1, 2, 3, 4, 5]);
    assert_eq!(history.version, 5);
    assert_eq!(history.status(), pb::GameStatus::Finished);
    assert_eq!(history.seed, vec![7; 32]);
    assert!(history.next_page_token.is_empty());
}

#[tokio::test]
async fn history_follows_every_page_and_joins_them() {
    let server = PagedServer::default();
    let client = start(server.clone()).await;
    let history = client.spectate("g").history().await.expect("history");
    assert_joined(&history);
    assert_eq!(tokens(&server), ["", "t2", "t3"]);
    let seat = client.seat("g", 1, "token").expect("a seat");
    assert_joined(&seat.history().await.expect("a seat's history"));
}

#[tokio::test]
async fn a_game_finishing_between_pages_is_read_again() {
    let server = PagedServer {
        running_at_first: true,
        ..PagedServer::default()
    };
    let client = start(server.clone()).await;
    let history = client.spectate("g").history().await.expect("history");
    assert_joined(&history);
    assert_eq!(tokens(&server), ["", "t2", "t3", "", "t2", "t3"]);
}

#[tokio::test]
async fn history_page_sends_the_paging_fields_and_returns_one_page() {
    let server = PagedServer::default();
    let client = start(server.clone()).await;
    let one = client
        .spectate("g")
        .history_page(3, 2, "t2")
        .await
        .expect("a page");
    let events: Vec<u64> = one.events.iter().map(|event| event.version).collect();
    assert_eq!(events, vec![2, 3]);
    assert_eq!(one.next_page_token, "t3");
    let requests = server.requests.lock().expect("the request log").clone();
    assert_eq!(
        requests,
        vec![pb::GetHistoryRequest {
            game_id: "g".into(),
            from_version: 3,
            page_size: 2,
            page_token: "t2".into(),
        }]
    );
}
