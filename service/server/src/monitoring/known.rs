//! The values each label of the labelled series can take, enumerated from where those values are
//! defined: the API's descriptors (its RPCs and wire enums) and tonic's codes. Start-up registers
//! every combination at 0 from these, so an RPC or end reason added later gets its series from
//! start-up without a list here to keep up.

use deckmate_proto::v1 as pb;
use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorSet, MethodDescriptorProto};
use tonic::Code;

/// The API's descriptors, the set server reflection serves: the one place that names every RPC
/// and every wire enum value.
pub(super) fn descriptors() -> FileDescriptorSet {
    FileDescriptorSet::decode(deckmate_proto::FILE_DESCRIPTOR_SET).unwrap_or_else(|error| {
        // Built into the binary, so only a broken build gets here; the series then appear at
        // their first count, as they would without this start-up work.
        tracing::warn!(%error, "cannot read the API descriptors to start the RPC series at 0");
        FileDescriptorSet::default()
    })
}

/// The GameService's proto package (that of `pb`) and name, read off tonic's full service name
/// so that neither is written a second time.
fn game_service() -> (&'static str, &'static str) {
    let service = pb::game_service_server::SERVICE_NAME;
    service.rsplit_once('.').unwrap_or(("", service))
}

/// The GameService RPCs in declaration order. Their names are the `method` label: the API
/// handlers name each call by its RPC, and `monitoring::rpc_answered` is where every call is
/// counted.
pub(super) fn game_service_methods(
    set: &FileDescriptorSet,
) -> impl Iterator<Item = &MethodDescriptorProto> {
    let (package, name) = game_service();
    set.file
        .iter()
        .filter(move |file| file.package() == package)
        .flat_map(|file| &file.service)
        .filter(move |service| service.name() == name)
        .flat_map(|service| &service.method)
}

/// Whether a call of `method` is timed into `deckmate_rpc_duration_seconds`: a streaming RPC
/// (Watch) is not, as its handler only opens the stream.
pub(super) fn is_unary(method: &MethodDescriptorProto) -> bool {
    !method.client_streaming() && !method.server_streaming()
}

/// Every gRPC code, in number order: tonic maps a number past the last code to `Unknown`, so
/// the codes are the numbers from 0 that map to themselves.
pub(super) fn codes() -> impl Iterator<Item = Code> {
    (0..).map_while(|value| {
        let code = Code::from_i32(value);
        (i32::from(code) == value).then_some(code)
    })
}

/// Every value of one of the API's wire enums, read from the descriptors rather than by
/// counting numbers up, so that a gap in the numbering loses no value. `from_name` is the
/// enum's own `from_str_name`: each proto value name carries its enum's prefix, so it takes only
/// its own enum's values.
pub(super) fn wire_values<E: PartialEq>(
    set: &FileDescriptorSet,
    from_name: fn(&str) -> Option<E>,
) -> Vec<E> {
    /// Walks the enums nested in `message` and its own nested messages.
    fn nested<'a>(message: &'a DescriptorProto, names: &mut Vec<&'a str>) {
        for enumeration in &message.enum_type {
            names.extend(enumeration.value.iter().map(|value| value.name()));
        }
        for inner in &message.nested_type {
            nested(inner, names);
        }
    }
    let mut names = Vec::new();
    let (package, _) = game_service();
    for file in set.file.iter().filter(|file| file.package() == package) {
        for enumeration in &file.enum_type {
            names.extend(enumeration.value.iter().map(|value| value.name()));
        }
        for message in &file.message_type {
            nested(message, &mut names);
        }
    }
    let mut values = Vec::new();
    for value in names.into_iter().filter_map(from_name) {
        // An enum with `allow_alias` names one value twice.
        if !values.contains(&value) {
            values.push(value);
        }
    }
    values
}
