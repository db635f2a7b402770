//! `GetHistory`: the event log as the caller may know it; once the game has finished, also
//! every action and the seed, so anyone can replay the game and check the seed against the
//! commitment announced at creation.
//!
//! The log is paged by version (AIP-158), so that no response grows with the game's length: a
//! page covers at most [`MAX_PAGE_SIZE`] versions and names the next one in `next_page_token`.

use deckmate_proto::v1 as pb;
use tonic::Request;

use super::page_token::PageToken;
use super::{GameApi, load_for_reader};
use crate::error::ApiError;

/// The versions a page covers when the request leaves `page_size` at 0, and the most any page
/// covers.
const MAX_PAGE_SIZE: u64 = 1000;

/// Where the page starts, as the request says it.
enum Start {
    /// `from_version` (a first page).
    From(u64),
    /// The decoded `page_token` (a next page).
    Token(PageToken),
}

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::GetHistoryRequest>,
) -> Result<pb::GetHistoryResponse, ApiError> {
    let size = page_size(request.get_ref().page_size)?;
    let start = start_of(request.get_ref())?;
    let (record, viewer) = load_for_reader(api, request, |request| &request.game_id).await?;
    let game = &record.game;
    let current = game.version();
    let first = first_version(start, &record.id, current)?;
    let last = first.saturating_add(size - 1).min(current);
    let next_page_token = if last < current {
        PageToken {
            game_id: record.id.clone(),
            start: last + 1,
        }
        .encode()
    } else {
        String::new()
    };
    let over = game.is_over();
    let (events, actions) = game.history(viewer, first..=last)?;
    Ok(pb::GetHistoryResponse {
        game_id: record.id.clone(),
        variant: game.kind().id().to_string(),
        config: Some(game.config()),
        seats: u32::try_from(game.seats())
            .map_err(|_| ApiError::Internal("seat count out of range".to_string()))?,
        events,
        version: current,
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
        next_page_token,
    })
}

/// The versions one page covers: `page_size`, 0 meaning [`MAX_PAGE_SIZE`] and anything larger
/// clamped to it (AIP-158).
fn page_size(requested: i32) -> Result<u64, ApiError> {
    match u64::try_from(requested) {
        Err(_) => Err(ApiError::invalid_field(
            "page_size",
            format!("must not be negative (0 means the default, {MAX_PAGE_SIZE} versions)"),
        )),
        Ok(0) => Ok(MAX_PAGE_SIZE),
        Ok(size) => Ok(size.min(MAX_PAGE_SIZE)),
    }
}

/// The first version of the page `start` asks for, in the game `game_id` now at version
/// `current`.
fn first_version(start: Start, game_id: &str, current: u64) -> Result<u64, ApiError> {
    match start {
        Start::From(version) if version > current => Err(ApiError::invalid_field(
            "from_version",
            format!("version {version} is after the game's current version {current}"),
        )),
        Start::From(version) => Ok(version),
        Start::Token(token) if token.game_id != game_id => Err(ApiError::invalid_field(
            "page_token",
            "this page token was issued for another game",
        )),
        // Tokens are issued for versions the game has reached, and versions never go back: a
        // later start was not issued by this server. Both versions are the caller's to know (the
        // token's own, and the version every reader sees).
        Start::Token(token) if token.start > current => Err(ApiError::invalid_field(
            "page_token",
            format!(
                "this page token starts at version {}, after the game's current version \
                 {current}; send the next_page_token of the previous page",
                token.start
            ),
        )),
        Start::Token(token) => Ok(token.start),
    }
}

/// Where the request's page starts: its `page_token` when it has one, else `from_version`.
fn start_of(request: &pb::GetHistoryRequest) -> Result<Start, ApiError> {
    if request.page_token.is_empty() {
        return Ok(Start::From(request.from_version));
    }
    PageToken::decode(&request.page_token)
        .map(Start::Token)
        .map_err(|error| ApiError::invalid_field("page_token", error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_sizes_default_clamp_and_refuse_negatives() {
        assert_eq!(page_size(0).ok(), Some(MAX_PAGE_SIZE));
        assert_eq!(page_size(1).ok(), Some(1));
        assert_eq!(page_size(7).ok(), Some(7));
        assert_eq!(page_size(1000).ok(), Some(1000));
        assert_eq!(page_size(1001).ok(), Some(MAX_PAGE_SIZE));
        assert_eq!(page_size(i32::MAX).ok(), Some(MAX_PAGE_SIZE));
        for negative in [-1, i32::MIN] {
            match page_size(negative) {
                Err(ApiError::InvalidField { field, .. }) => assert_eq!(field, "page_size"),
                other => panic!("{negative}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_token_takes_precedence_over_from_version() {
        let token = PageToken {
            game_id: "g".to_string(),
            start: 9,
        };
        let request = pb::GetHistoryRequest {
            game_id: "g".to_string(),
            from_version: 2,
            page_size: 0,
            page_token: token.encode(),
        };
        match start_of(&request) {
            Ok(Start::Token(read)) => assert_eq!(read, token),
            Ok(Start::From(version)) => panic!("from_version {version} used"),
            Err(error) => panic!("{error:?}"),
        }
        let first = pb::GetHistoryRequest {
            page_token: String::new(),
            ..request
        };
        assert!(matches!(start_of(&first), Ok(Start::From(2))));
    }

    /// The field and description of `result`'s field violation.
    fn violation(result: Result<u64, ApiError>) -> (String, String) {
        match result {
            Err(ApiError::InvalidField { field, description }) => (field, description),
            other => panic!("not a field violation: {other:?}"),
        }
    }

    #[test]
    fn starts_after_the_current_version_are_refused_for_what_they_are() {
        let token = |game_id: &str, start| {
            Start::Token(PageToken {
                game_id: game_id.to_string(),
                start,
            })
        };
        assert_eq!(first_version(Start::From(3), "g", 3).ok(), Some(3));
        assert_eq!(first_version(token("g", 3), "g", 3).ok(), Some(3));

        let (field, description) = violation(first_version(Start::From(4), "g", 3));
        assert_eq!(field, "from_version");
        assert!(
            description.contains("after the game's current version 3"),
            "{description}"
        );

        // A token of this game starting past its current version is out of range, not foreign.
        let (field, description) = violation(first_version(token("g", 4), "g", 3));
        assert_eq!(field, "page_token");
        assert!(!description.contains("another game"), "{description}");
        assert!(
            description.contains("starts at version 4, after the game's current version 3"),
            "{description}"
        );

        let (field, description) = violation(first_version(token("h", 1), "g", 3));
        assert_eq!(field, "page_token");
        assert!(description.contains("another game"), "{description}");
    }

    #[test]
    fn a_malformed_token_is_a_page_token_violation() {
        let request = pb::GetHistoryRequest {
            game_id: "g".to_string(),
            from_version: 0,
            page_size: 0,
            page_token: "???".to_string(),
        };
        match start_of(&request) {
            Err(ApiError::InvalidField { field, .. }) => assert_eq!(field, "page_token"),
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("accepted"),
        }
    }
}
