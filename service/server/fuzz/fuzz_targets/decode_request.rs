//! Arbitrary bytes decoded as each `GameService` request message and, when they decode, handed
//! to the server's handlers (validation, config parsing, action decoding, the store): answers
//! and errors only, never a panic.
//!
//! Input: a byte choosing the RPC, a flags byte, a byte choosing the game dealt for the input,
//! then the request's bytes. Each input gets handlers over an empty memory store holding that
//! one game; flag bit 0 puts its id into the request, bit 1 presents a seat's token (the seat
//! given by the bits above), so that Act, Observe, Watch and GetHistory reach the game.

#![no_main]

use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_server::GameService;
use deckmate_server_fuzz::{Reader, default_config, fresh_api, runtime};
use futures::{FutureExt, StreamExt};
use libfuzzer_sys::fuzz_target;
use prost::Message;
use tonic::Request;

fuzz_target!(|data: &[u8]| {
    let mut input = Reader(data);
    let (Some(rpc), Some(flags), Some(game)) = (input.byte(), input.byte(), input.byte()) else {
        return;
    };
    let body = input.rest();
    runtime().block_on(async move {
        let api = fresh_api();
        let created = api
            .create_game(Request::new(pb::CreateGameRequest {
                config: Some(default_config(game)),
                seed: Some(u64::from(game)),
                ..Default::default()
            }))
            .await
            .expect("a default game is created")
            .into_inner();
        let token = (flags & 2 != 0).then(|| {
            let tokens = &created.seat_tokens;
            tokens[usize::from(flags >> 2) % tokens.len()].token.clone()
        });
        let call = Call {
            game_id: (flags & 1 != 0).then_some(created.game_id),
            token,
        };
        match rpc % 7 {
            0 => {
                if let Ok(request) = pb::CreateGameRequest::decode(body) {
                    let _ = api.create_game(call.request(request, None)).await;
                }
            }
            1 => {
                if let Ok(request) = pb::ActRequest::decode(body) {
                    let request = call.request(request, Some(|r| &mut r.game_id));
                    let _ = api.act(request).await;
                }
            }
            2 => {
                if let Ok(request) = pb::ObserveRequest::decode(body) {
                    let request = call.request(request, Some(|r| &mut r.game_id));
                    let _ = api.observe(request).await;
                }
            }
            3 => {
                if let Ok(request) = pb::WatchRequest::decode(body) {
                    let request = call.request(request, Some(|r| &mut r.game_id));
                    if let Ok(stream) = api.watch(request).await {
                        // What is ready now: the versions after `from_version`, or nothing.
                        let mut stream = stream.into_inner();
                        while let Some(Some(_)) = stream.next().now_or_never() {}
                    }
                }
            }
            4 => {
                if let Ok(request) = pb::GetHistoryRequest::decode(body) {
                    let request = call.request(request, Some(|r| &mut r.game_id));
                    let _ = api.get_history(request).await;
                }
            }
            5 => {
                if let Ok(request) = pb::ListVariantsRequest::decode(body) {
                    let _ = api.list_variants(call.request(request, None)).await;
                }
            }
            _ => {
                if let Ok(request) = pb::GetServerInfoRequest::decode(body) {
                    let _ = api.get_server_info(call.request(request, None)).await;
                }
            }
        }
    });
});

/// What the flags put into a request.
struct Call {
    game_id: Option<String>,
    token: Option<String>,
}

impl Call {
    /// `message` as a request, with the game's id (in the field `game_id` finds, for requests
    /// that name a game) and the seat token the flags asked for.
    fn request<M>(&self, mut message: M, game_id: Option<fn(&mut M) -> &mut String>) -> Request<M> {
        if let (Some(id), Some(field)) = (&self.game_id, game_id) {
            id.clone_into(field(&mut message));
        }
        let mut request = Request::new(message);
        if let Some(token) = &self.token
            && let Ok(value) = format!("Bearer {token}").parse()
        {
            request
                .metadata_mut()
                .insert(deckmate_proto::AUTHORIZATION_HEADER, value);
        }
        request
    }
}
