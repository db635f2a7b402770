//! `Observe`: the game as the caller's seat, or a spectator, sees it now.

use deckmate_proto::v1 as pb;
use tonic::Request;

use super::{GameApi, load_for_reader, with_game_id};
use crate::error::ApiError;

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::ObserveRequest>,
) -> Result<pb::ObserveResponse, ApiError> {
    let (record, viewer) = load_for_reader(api, request, |request| &request.game_id).await?;
    Ok(with_game_id(record.game.view(viewer), &record.id))
}
