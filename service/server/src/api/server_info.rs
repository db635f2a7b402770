//! `GetServerInfo`: the server's release, API revision, optional features and client-facing
//! limits, so that SDKs and front ends can adapt (for example, ask for an API key only when the
//! server wants one).

use deckmate_proto::v1 as pb;

use super::{GameApi, MAX_REQUEST_ID_BYTES};

pub(super) fn handle(api: &GameApi) -> pb::GetServerInfoResponse {
    let settings = &api.settings;
    pb::GetServerInfoResponse {
        server_version: env!("CARGO_PKG_VERSION").to_string(),
        api_revision: deckmate_proto::API_REVISION,
        features: Some(pb::ServerFeatures {
            client_seeds: settings.allow_client_seed,
            api_keys: api.api_keys_enabled(),
            // Both need a record format that holds them (`--write-record-format`).
            bots: api.bots.settings().records_hold_bots,
            clocks: settings.records_hold_clocks,
            store: settings.store_kind.into(),
        }),
        limits: Some(pb::ServerLimits {
            max_message_bytes: saturate(settings.max_message_bytes),
            max_request_id_bytes: saturate(MAX_REQUEST_ID_BYTES),
        }),
    }
}

/// A size as the `uint32` the API sends; sizes beyond it mean "no practical limit".
fn saturate(bytes: usize) -> u32 {
    u32::try_from(bytes).unwrap_or(u32::MAX)
}
