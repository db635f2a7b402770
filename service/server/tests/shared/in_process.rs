//! Calling the in-process `GameService` the way a client would: games created with a fixed
//! seed and seats calling with their bearer tokens. Shared by the tests and benches that measure
//! the handlers themselves (allocations, cost per call).

use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_server::GameService;
use deckmate_server::api::GameApi;
use tonic::Request;
use tonic::metadata::MetadataValue;

/// One created game: its id and seat tokens.
pub(crate) struct Created {
    pub(crate) id: String,
    pub(crate) tokens: Vec<String>,
}

/// Creates a game of `config` with `seats` seats (0: its smallest count) and the given seed
/// (the handlers must allow client seeds).
pub(crate) async fn create(
    api: &GameApi,
    config: &pb::GameConfig,
    seats: u32,
    seed: u64,
) -> Created {
    let response = api
        .create_game(Request::new(pb::CreateGameRequest {
            config: Some(config.clone()),
            seats,
            seed: Some(seed),
            request_id: String::new(),
            spectator_policy: pb::SpectatorPolicy::Unspecified.into(),
            seat_options: Vec::new(),
            clock: None,
        }))
        .await
        .expect("CreateGame")
        .into_inner();
    Created {
        id: response.game_id,
        tokens: response
            .seat_tokens
            .into_iter()
            .map(|seat| seat.token)
            .collect(),
    }
}

/// `message` with seat `seat`'s token.
pub(crate) fn as_seat<T>(game: &Created, seat: usize, message: T) -> Request<T> {
    let mut request = Request::new(message);
    let value: MetadataValue<_> = format!("Bearer {}", game.tokens[seat])
        .parse()
        .expect("a token is valid metadata");
    request
        .metadata_mut()
        .insert(deckmate_proto::AUTHORIZATION_HEADER, value);
    request
}

/// A small deterministic random source (SplitMix64), so that a run replays the same games.
pub(crate) struct Picker(pub(crate) u64);

impl Picker {
    /// An index below `len` (not 0).
    pub(crate) fn index(&mut self, len: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % len as u64) as usize
    }
}
