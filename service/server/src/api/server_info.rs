//! `GetServerInfo`: the server's release, API revision, optional features and client-facing
//! limits, so that SDKs and front ends can adapt (for example, ask for an API key only when the
//! server wants one, or pace their CreateGame calls to the server's rate).

use deckmate_proto::v1 as pb;

use super::{GameApi, MAX_REQUEST_ID_BYTES};
use crate::protection::ProtectionSettings;
use crate::protection::rate::Rate;

pub(super) fn handle(api: &GameApi) -> pb::GetServerInfoResponse {
    let settings = &api.settings;
    let protection = api.protection.settings();
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
            create_rate: create_rate(protection),
            max_games_per_client: saturate(protection.max_games_per_client),
            max_watchers_per_game: saturate(protection.max_watchers_per_game),
            max_watchers_per_client: saturate(protection.max_watchers_per_client),
        }),
    }
}

/// A size or count as the `uint32` the API sends; values beyond it mean "no practical limit".
fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// The CreateGame rate per caller, when there is one.
fn create_rate(protection: &ProtectionSettings) -> Option<pb::CallRate> {
    match protection.create_rate {
        Rate::Off => None,
        Rate::Limit { count, period } => Some(pb::CallRate {
            count: count.get(),
            period: prost_types::Duration::try_from(period).ok(),
            burst: protection.create_burst,
        }),
    }
}
