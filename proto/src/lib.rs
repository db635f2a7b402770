//! Generated code for the Deckmate gRPC API (`deckmate.v1`), compiled from the `.proto` files
//! beside this crate. The `.proto` files are the source of truth; nothing generated is edited by
//! hand. Beside it: the wire helpers (`wire`) and the few constants and names that the server,
//! the SDK and the load generator share.

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

/// The gRPC code's name as the gRPC specification writes it (`OK`, `INVALID_ARGUMENT`, ...): the
/// label of the server's metrics and of the load generator's error counts.
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code;
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_own_specification_name() {
        let names: Vec<&str> = (0..=16)
            .map(|number| code_name(tonic::Code::from_i32(number)))
            .collect();
        assert_eq!(names[0], "OK");
        assert_eq!(names[3], "INVALID_ARGUMENT");
        assert_eq!(names[16], "UNAUTHENTICATED");
        let distinct: std::collections::HashSet<&str> = names.iter().copied().collect();
        assert_eq!(distinct.len(), 17);
        assert!(
            names
                .iter()
                .all(|name| name.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        );
    }
}
