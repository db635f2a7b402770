//! CreateGame request ids are remembered per caller: without API keys the caller is the client's
//! address (here, as a trusted proxy reports it in `x-forwarded-for`), so two clients that send
//! the same request id get a game each, and neither ever receives the other's tokens.

use crate::common::{connect, pigeon_chess};
use crate::server::TestServer;
use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_client::GameServiceClient;
use tonic::{Code, Request};
use tonic_types::StatusExt;

/// CreateGame forwarded by the local proxy for `client_address`, with `request_id` and a
/// spectator `policy`.
async fn create_for(
    server: &TestServer,
    client_address: &str,
    request_id: &str,
    policy: pb::SpectatorPolicy,
) -> Result<pb::CreateGameResponse, tonic::Status> {
    let mut games = GameServiceClient::new(connect(&server.endpoint()).await);
    let mut request = Request::new(pb::CreateGameRequest {
        config: Some(pigeon_chess()),
        request_id: request_id.to_string(),
        spectator_policy: policy as i32,
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert("x-forwarded-for", client_address.parse().unwrap());
    games
        .create_game(request)
        .await
        .map(tonic::Response::into_inner)
}

const ALLOWED: pb::SpectatorPolicy = pb::SpectatorPolicy::Allowed;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_request_ids_are_remembered_per_client_address() {
    let server =
        TestServer::start_with(&["--trusted-proxies".to_string(), "127.0.0.1".to_string()]).await;
    let request_id = "a-request-id-two-clients-chose";
    let first = create_for(&server, "203.0.113.7", request_id, ALLOWED)
        .await
        .unwrap();
    let second = create_for(&server, "198.51.100.9", request_id, ALLOWED)
        .await
        .unwrap();
    assert_ne!(
        second.game_id, first.game_id,
        "each client gets its own game"
    );
    assert!(
        second
            .seat_tokens
            .iter()
            .all(|token| first.seat_tokens.iter().all(|t| t.token != token.token)),
        "no token of the first game reaches the second client"
    );

    // Each client's retry is answered with its own game.
    let retry = create_for(&server, "203.0.113.7", request_id, ALLOWED)
        .await
        .unwrap();
    assert_eq!(retry, first);
    let retry = create_for(&server, "198.51.100.9", request_id, ALLOWED)
        .await
        .unwrap();
    assert_eq!(retry, second);

    // The same id with a different request is refused, and names nothing of the first game.
    let reused = create_for(
        &server,
        "203.0.113.7",
        request_id,
        pb::SpectatorPolicy::Denied,
    )
    .await
    .unwrap_err();
    assert_eq!(reused.code(), Code::InvalidArgument, "{reused:?}");
    let info = reused
        .get_details_error_info()
        .expect("an ErrorInfo detail");
    assert_eq!(info.reason, "REQUEST_ID_REUSED");
    assert!(!reused.message().contains(&first.game_id));
}
