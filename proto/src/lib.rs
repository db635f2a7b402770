//! Generated code for the Deckmate gRPC API (`deckmate.v1`), compiled from the `.proto` files
//! beside this crate. The `.proto` files are the source of truth; nothing here is edited by
//! hand.

/// The `deckmate.v1` package: messages, `game_service_client` and `game_service_server`.
pub mod v1 {
    #![allow(missing_docs, unreachable_pub, clippy::all)]
    include!(concat!(env!("OUT_DIR"), "/deckmate.v1.rs"));
}

pub mod wire;

/// The encoded `FileDescriptorSet` of every Deckmate proto file, for gRPC server reflection and
/// for clients that work from descriptors.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/deckmate_descriptor.bin"));

/// The metadata key that carries a seat token, as `Bearer <token>`.
pub const AUTHORIZATION_HEADER: &str = "authorization";

/// The `google.rpc.ErrorInfo.domain` of every Deckmate error.
pub const ERROR_DOMAIN: &str = "deckmate";

/// The API revision this build speaks (`GetServerInfoResponse.api_revision`): 1 for the first
/// release, raised by every release that adds to the API (CHANGELOG.md says what each added).
pub const API_REVISION: u32 = 2;
