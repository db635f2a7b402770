//! `Observe`: the game as the caller's seat, or a spectator, sees it now.

use deckmate_proto::v1 as pb;
use deckmate_proto::wire::{Encoded, encode_with};
use tonic::Request;

use super::{GameApi, load_for_reader};
use crate::error::ApiError;

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::ObserveRequest>,
) -> Result<Encoded, ApiError> {
    let (record, viewer) = load_for_reader(api, request, |request| &request.game_id).await?;
    Ok(Encoded(encode_with(|writer| {
        record.game.write_view(viewer, &record.id, writer);
    })))
}
