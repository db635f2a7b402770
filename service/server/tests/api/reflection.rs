//! A client of `deckmate.v1.GameService` that knows nothing but gRPC server reflection and the
//! names of the envelope's fields: it learns every message type from the server's reflection
//! service, builds `prost_reflect::DynamicMessage`s by field name and sends them through a small
//! tonic codec.

// Each test crate includes this module and uses a different part of it.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::str::FromStr;

use futures::StreamExt;
use prost::Message;
use prost_reflect::prost_types::FileDescriptorProto;
use prost_reflect::{
    DescriptorPool, DynamicMessage, MessageDescriptor, MethodDescriptor, ReflectMessage, Value,
};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::metadata::AsciiMetadataValue;
use tonic::transport::Channel;
use tonic::{Request, Status};
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

/// The service, by its full name: the only name the reflection client starts from.
pub(crate) const GAME_SERVICE: &str = "deckmate.v1.GameService";

// ---------------------------------------------------------------------------------------------
// A tonic codec over dynamic messages.

/// Writes any dynamic message; reads responses of one message type.
#[derive(Clone, Debug)]
pub(crate) struct DynamicCodec(pub(crate) MessageDescriptor);

/// The encoding half of [`DynamicCodec`].
#[derive(Debug)]
pub(crate) struct DynamicEncoder;

/// The decoding half of [`DynamicCodec`]: reads a dynamic message of a known type.
#[derive(Debug)]
pub(crate) struct DynamicDecoder(MessageDescriptor);

impl Codec for DynamicCodec {
    type Encode = DynamicMessage;
    type Decode = DynamicMessage;
    type Encoder = DynamicEncoder;
    type Decoder = DynamicDecoder;

    fn encoder(&mut self) -> DynamicEncoder {
        DynamicEncoder
    }

    fn decoder(&mut self) -> DynamicDecoder {
        DynamicDecoder(self.0.clone())
    }
}

impl Encoder for DynamicEncoder {
    type Item = DynamicMessage;
    type Error = Status;

    fn encode(&mut self, item: DynamicMessage, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        item.encode(dst)
            .map_err(|error| Status::internal(format!("encoding a request: {error}")))
    }
}

impl Decoder for DynamicDecoder {
    type Item = DynamicMessage;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<DynamicMessage>, Status> {
        DynamicMessage::decode(self.0.clone(), src)
            .map(Some)
            .map_err(|error| Status::internal(format!("decoding a response: {error}")))
    }
}

// ---------------------------------------------------------------------------------------------
// Reflection.

/// Asks the v1 reflection service one question.
pub(crate) async fn reflect(
    client: &mut ServerReflectionClient<Channel>,
    request: MessageRequest,
) -> MessageResponse {
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(request),
    };
    client
        .server_reflection_info(futures::stream::iter([request]))
        .await
        .expect("the reflection service answers")
        .into_inner()
        .next()
        .await
        .expect("one reflection response")
        .expect("a successful reflection response")
        .message_response
        .expect("a reflection response carries an answer")
}

/// The services the reflection service lists, by full name.
pub(crate) async fn reflected_services(channel: Channel) -> Vec<String> {
    let mut client = ServerReflectionClient::new(channel);
    match reflect(&mut client, MessageRequest::ListServices(String::new())).await {
        MessageResponse::ListServicesResponse(list) => list
            .service
            .into_iter()
            .map(|service| service.name)
            .collect(),
        other => panic!("expected a service list, got {other:?}"),
    }
}

/// Fetches, by reflection, the file defining the service and, by name, every file it depends on
/// that the server did not send along; returns the pool built from them.
pub(crate) async fn reflected_pool(channel: Channel) -> DescriptorPool {
    let mut client = ServerReflectionClient::new(channel);
    let mut files: Vec<FileDescriptorProto> = Vec::new();
    let mut wanted = vec![MessageRequest::FileContainingSymbol(GAME_SERVICE.into())];
    while let Some(request) = wanted.pop() {
        let MessageResponse::FileDescriptorResponse(found) = reflect(&mut client, request).await
        else {
            panic!("expected file descriptors");
        };
        for bytes in found.file_descriptor_proto {
            let file = FileDescriptorProto::decode(bytes.as_slice()).expect("a file descriptor");
            if files.iter().all(|known| known.name() != file.name()) {
                files.push(file);
            }
        }
        let known: BTreeSet<&str> = files.iter().map(|file| file.name()).collect();
        let missing: BTreeSet<String> = files
            .iter()
            .flat_map(|file| file.dependency.iter())
            .filter(|name| !known.contains(name.as_str()))
            .cloned()
            .collect();
        wanted.extend(missing.into_iter().map(MessageRequest::FileByFilename));
    }
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_protos(files)
        .expect("the reflected files form a valid descriptor pool");
    pool
}

// ---------------------------------------------------------------------------------------------
// Dynamic calls.

/// The descriptor of the service's `method`.
pub(crate) fn method(pool: &DescriptorPool, method: &str) -> MethodDescriptor {
    pool.get_service_by_name(GAME_SERVICE)
        .expect("reflection describes the service")
        .methods()
        .find(|candidate| candidate.name() == method)
        .unwrap_or_else(|| panic!("{GAME_SERVICE} has no method {method}"))
}

/// An empty request for `method`.
pub(crate) fn request(pool: &DescriptorPool, method_name: &str) -> DynamicMessage {
    DynamicMessage::new(method(pool, method_name).input())
}

/// Calls the unary `method` of the service with `request`, as the holder of `token`, if any
/// (sent as bearer authorization).
pub(crate) async fn call(
    channel: &Channel,
    pool: &DescriptorPool,
    method_name: &str,
    request: DynamicMessage,
    token: Option<&str>,
) -> Result<DynamicMessage, Status> {
    let descriptor = method(pool, method_name);
    let mut request = Request::new(request);
    if let Some(token) = token {
        let value =
            AsciiMetadataValue::try_from(format!("Bearer {token}")).expect("tokens are ASCII");
        request.metadata_mut().insert("authorization", value);
    }
    let path = PathAndQuery::from_str(&format!("/{GAME_SERVICE}/{method_name}"))
        .expect("a valid method path");
    let mut grpc = tonic::client::Grpc::new(channel.clone());
    grpc.ready()
        .await
        .map_err(|error| Status::unavailable(error.to_string()))?;
    let codec = DynamicCodec(descriptor.output());
    Ok(grpc.unary(request, path, codec).await?.into_inner())
}

/// `Observe` of game `game_id` as each seat, in seat order.
pub(crate) async fn observe_seats(
    channel: &Channel,
    pool: &DescriptorPool,
    game_id: &str,
    tokens: &[String],
) -> Vec<DynamicMessage> {
    let mut views = Vec::with_capacity(tokens.len());
    for token in tokens {
        let mut observe = request(pool, "Observe");
        observe.set_field_by_name("game_id", Value::String(game_id.to_string()));
        views.push(
            call(channel, pool, "Observe", observe, Some(token))
                .await
                .expect("Observe"),
        );
    }
    views
}

// ---------------------------------------------------------------------------------------------
// Field access by name.

/// The value of field `name`.
pub(crate) fn get(message: &DynamicMessage, name: &str) -> Value {
    message
        .get_field_by_name(name)
        .unwrap_or_else(|| panic!("{} has no field {name}", message.descriptor().full_name()))
        .into_owned()
}

/// The messages of repeated field `name`.
pub(crate) fn messages(message: &DynamicMessage, name: &str) -> Vec<DynamicMessage> {
    get(message, name)
        .as_list()
        .unwrap_or_else(|| panic!("{name} is not a list"))
        .iter()
        .map(|value| value.as_message().expect("a list of messages").clone())
        .collect()
}

/// The name of the enum value held by field `name`, such as `GAME_STATUS_FINISHED`.
pub(crate) fn enum_name(message: &DynamicMessage, name: &str) -> String {
    let number = get(message, name)
        .as_enum_number()
        .unwrap_or_else(|| panic!("{name} is not an enum"));
    let descriptor = message
        .descriptor()
        .get_field_by_name(name)
        .unwrap_or_else(|| panic!("no field {name}"));
    let enum_type = descriptor
        .kind()
        .as_enum()
        .unwrap_or_else(|| panic!("{name} is not an enum"))
        .clone();
    enum_type
        .get_value(number)
        .map(|value| value.name().to_string())
        .unwrap_or_else(|| format!("unknown value {number}"))
}
