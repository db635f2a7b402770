//! `Observe`: the game as the caller's seat, or a spectator, sees it now.

use deckmate_proto::v1 as pb;
use tonic::Request;

use super::{GameApi, load_game, with_game_id};
use crate::auth;
use crate::error::ApiError;

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::ObserveRequest>,
) -> Result<pb::ObserveResponse, ApiError> {
    let presented = auth::presented_token(request.metadata())?;
    let request = request.into_inner();
    let record = load_game(api.store.as_ref(), &request.game_id).await?;
    let viewer = auth::reader(
        &record.token_hashes,
        presented.as_ref(),
        record.spectators_allowed,
    )?;
    Ok(with_game_id(record.game.view(viewer), &record.id))
}
