//! `GetHistory`: the event log as the caller may know it; once the game has finished, also
//! every action and the seed, so anyone can replay the game and check the seed against the
//! commitment announced at creation.

use deckmate_proto::v1 as pb;
use tonic::Request;

use super::{GameApi, load_for_reader};
use crate::error::ApiError;

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::GetHistoryRequest>,
) -> Result<pb::GetHistoryResponse, ApiError> {
    let (record, viewer) = load_for_reader(api, request, |request| &request.game_id).await?;
    let game = &record.game;
    let over = game.is_over();
    let (events, actions) = game.history(viewer, 0..=game.version())?;
    Ok(pb::GetHistoryResponse {
        game_id: record.id.clone(),
        variant: game.kind().id().to_string(),
        config: Some(game.config()),
        seats: u32::try_from(game.seats())
            .map_err(|_| ApiError::Internal("seat count out of range".to_string()))?,
        events,
        version: game.version(),
        status: if over {
            pb::GameStatus::Finished
        } else {
            pb::GameStatus::InProgress
        } as i32,
        // The actions and the seed reveal every secret: only once the game is over.
        actions: if over { actions } else { Vec::new() },
        seed: if over {
            game.seed().0.to_vec()
        } else {
            Vec::new()
        },
        seed_commitment: record.seed_commitment.to_vec(),
    })
}
