//! Helpers of the API tests: the random player run until a condition, Pigeon Chess views and
//! actions, the error model of a refused field, and the items of a watch stream.

use deckmate::{Client, Error, Game, pb};
use futures::{Stream, StreamExt};
use tokio::task::JoinHandle;

use crate::common::{Picker, Played, observe_all, play_random_step};

/// Plays random actions until `stop` holds for the seats' views or the game ends; returns the
/// actions played.
pub(crate) async fn play_random_until(
    game: &Game,
    picker: &mut Picker,
    mut stop: impl FnMut(&[pb::ObserveResponse]) -> bool,
) -> Vec<Played> {
    let mut played = Vec::new();
    loop {
        let views = observe_all(game).await;
        if stop(&views) {
            return played;
        }
        match play_random_step(game, picker).await {
            Some(step) => played.push(step),
            None => return played,
        }
    }
}

/// The Pigeon Chess part of an observation.
pub(crate) fn pigeon_view(view: &pb::ObserveResponse) -> &pb::PigeonChessObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::PigeonChess(observation)) => observation,
        other => panic!("not a Pigeon Chess observation: {other:?}"),
    }
}

/// The Pigeon Chess phase of a view.
pub(crate) fn phase(view: &pb::ObserveResponse) -> pb::PigeonChessPhase {
    pigeon_view(view).phase()
}

/// A Pigeon Chess game action.
pub(crate) fn pigeon_action(kind: pb::pigeon_chess_action::Kind) -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::PigeonChess(pb::PigeonChessAction {
            kind: Some(kind),
        })),
    }
}

/// The one field violation of `status`, after checking the error model of an invalid field:
/// INVALID_ARGUMENT, reason `INVALID_REQUEST`, a `google.rpc.BadRequest` with exactly one
/// violation, which has a description.
pub(crate) fn field_violation(status: &tonic::Status) -> tonic_types::FieldViolation {
    use tonic_types::StatusExt;
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "INVALID_REQUEST", "{status:?}");
    let bad_request = status.get_details_bad_request().expect("a BadRequest");
    match bad_request.field_violations.as_slice() {
        [violation] => {
            assert!(!violation.description.is_empty(), "{status:?}");
            violation.clone()
        }
        other => panic!("one field violation expected, got {other:?}"),
    }
}

/// Asserts that `status` refuses exactly the field at `field` (see [`field_violation`]).
pub(crate) fn assert_field_violation(status: &tonic::Status, field: &str) {
    assert_eq!(field_violation(status).field, field, "{status:?}");
}

/// Collects a watch stream in the background, failing on an error item.
pub(crate) fn collect(
    stream: impl Stream<Item = Result<pb::ObserveResponse, Error>> + Send + 'static,
) -> JoinHandle<Vec<pb::ObserveResponse>> {
    tokio::spawn(async move {
        stream
            .map(|item| item.expect("a watch item"))
            .collect()
            .await
    })
}

/// Sends a CreateGame of `config` for `seats` through the generated client, past the SDK's own
/// checks.
pub(crate) async fn create_raw(
    client: &Client,
    config: pb::GameConfig,
    seats: u32,
) -> Result<pb::CreateGameResponse, tonic::Status> {
    client
        .raw()
        .create_game(pb::CreateGameRequest {
            config: Some(config),
            seats,
            seed: None,
            request_id: deckmate::new_request_id(),
            spectator_policy: 0,
            seat_options: Vec::new(),
            clock: None,
        })
        .await
        .map(tonic::Response::into_inner)
}

/// Asserts that a two-seat game of `config` is refused with a violation of exactly `field`.
pub(crate) async fn assert_config_refused(client: &Client, config: pb::GameConfig, field: &str) {
    let status = create_raw(client, config, 2).await.expect_err(field);
    assert_field_violation(&status, field);
}

/// Asserts that `action`, sent as seat `seat` of `game` through the generated client, is
/// refused with a violation of exactly `field`.
pub(crate) async fn assert_action_refused(
    client: &Client,
    game: &Game,
    seat: usize,
    action: pb::Action,
    field: &str,
) {
    let mut request = tonic::Request::new(pb::ActRequest {
        game_id: game.id.clone(),
        action: Some(action),
        expected_version: None,
        request_id: deckmate::new_request_id(),
    });
    let token = format!("Bearer {}", game.seats[seat].token());
    request.metadata_mut().insert(
        deckmate_proto::AUTHORIZATION_HEADER,
        token.parse().expect("an ASCII authorization header"),
    );
    let status = client.raw().act(request).await.expect_err(field);
    assert_field_violation(&status, field);
}
