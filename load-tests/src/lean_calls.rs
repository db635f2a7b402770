//! The two calls a game in play makes on every turn, `Observe` and `Act`, with answers decoded
//! only as far as the driver reads them.
//!
//! The generator shares the machine's cores with the server it measures, so each microsecond it
//! spends on a call is one the server does not get. Decoding a whole view through the SDK (the
//! game's board, hands, events, clocks: most of an answer's bytes) was a third of the
//! generator's instructions, and it read none of it: a turn needs the version, the status, the
//! seats to act and the legal actions. These messages declare just those fields, with the field
//! numbers of `ObserveResponse` and `ActResponse` (docs/PERFORMANCE.md, "The generator decodes
//! what it reads"); protobuf skips the rest without building it. A legal action stays the bytes
//! it came in (a view of the answer's frame, not a copy), and is sent back as those bytes in the
//! `Act` request: the same message on the wire as the SDK's. `create`, `watch` and the errors
//! still go through the SDK.

use std::marker::PhantomData;

use deckmate::{SeatHandle, pb};
use deckmate_proto::wire::{Encoded, EncodedEncoder};
use prost::Message;
use prost::bytes::{Buf, Bytes};
use tonic::codec::{Codec, DecodeBuf, Decoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::metadata::{AsciiMetadataValue, MetadataValue};
use tonic::{Request, Status};

use crate::connect::Keyed;

/// The path of `GameService/Observe`.
const OBSERVE: &str = "/deckmate.v1.GameService/Observe";
/// The path of `GameService/Act`.
const ACT: &str = "/deckmate.v1.GameService/Act";

/// A seat's view as the driver reads it: the fields of `ObserveResponse` a turn needs.
#[derive(Clone, PartialEq, Message)]
pub(crate) struct TurnView {
    /// `ObserveResponse.version`.
    #[prost(uint64, tag = "3")]
    pub(crate) version: u64,
    /// `ObserveResponse.status`.
    #[prost(enumeration = "pb::GameStatus", tag = "4")]
    pub(crate) status: i32,
    /// `ObserveResponse.to_act`.
    #[prost(uint32, repeated, tag = "6")]
    pub(crate) to_act: Vec<u32>,
    /// `ObserveResponse.legal_actions`, each the encoding of an `Action`.
    #[prost(bytes = "bytes", repeated, tag = "8")]
    pub(crate) legal_actions: Vec<Bytes>,
}

/// `ActResponse` as the driver reads it.
#[derive(Clone, PartialEq, Message)]
pub(crate) struct ActAnswer {
    /// `ActResponse.version`.
    #[prost(uint64, tag = "1")]
    pub(crate) version: u64,
    /// `ActResponse.observation`: the actor's new view.
    #[prost(message, optional, tag = "2")]
    pub(crate) observation: Option<TurnView>,
}

/// `ActRequest`, with the action as the bytes of an `Action`.
#[derive(Clone, PartialEq, Message)]
struct ActCall {
    /// `ActRequest.game_id`.
    #[prost(string, tag = "1")]
    game_id: String,
    /// `ActRequest.action`.
    #[prost(bytes = "bytes", tag = "2")]
    action: Bytes,
    /// `ActRequest.expected_version`.
    #[prost(uint64, optional, tag = "3")]
    expected_version: Option<u64>,
    /// `ActRequest.request_id`.
    #[prost(string, tag = "4")]
    request_id: String,
}

/// One seat's `Observe` and `Act`, over the connection its target gives it (which sends the
/// run's API key, if it has one).
#[derive(Clone)]
pub(crate) struct TurnCalls {
    channel: Keyed,
    game_id: String,
    /// The `ObserveRequest`, the same at every call.
    observe: Encoded,
    /// `authorization: Bearer <token>`.
    authorization: AsciiMetadataValue,
}

impl std::fmt::Debug for TurnCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret.
        f.debug_struct("TurnCalls")
            .field("game_id", &self.game_id)
            .finish_non_exhaustive()
    }
}

impl TurnCalls {
    /// The calls of `seat` over `channel`.
    pub(crate) fn new(channel: Keyed, seat: &SeatHandle) -> Result<TurnCalls, Status> {
        let mut authorization = MetadataValue::try_from(format!("Bearer {}", seat.token()))
            .map_err(|_| Status::invalid_argument("the seat token is not a valid header value"))?;
        authorization.set_sensitive(true);
        let observe = pb::ObserveRequest {
            game_id: seat.game_id().to_string(),
        };
        Ok(TurnCalls {
            channel,
            game_id: seat.game_id().to_string(),
            observe: Encoded(observe.encode_to_vec()),
            authorization,
        })
    }

    /// `Observe`: the seat's view.
    pub(crate) async fn observe(&self) -> Result<TurnView, Status> {
        self.unary(self.observe.clone(), OBSERVE).await
    }

    /// `Act`: sends `action` (an `Action`'s encoding) over version `expected`, with a fresh
    /// request id as the SDK does.
    pub(crate) async fn act(&self, action: Bytes, expected: u64) -> Result<ActAnswer, Status> {
        let call = ActCall {
            game_id: self.game_id.clone(),
            action,
            expected_version: Some(expected),
            request_id: deckmate::new_request_id(),
        };
        self.unary(Encoded(call.encode_to_vec()), ACT).await
    }

    async fn unary<U>(&self, message: Encoded, path: &'static str) -> Result<U, Status>
    where
        U: Message + Default + Send + 'static,
    {
        let mut request = Request::new(message);
        request.metadata_mut().insert(
            deckmate_proto::AUTHORIZATION_HEADER,
            self.authorization.clone(),
        );
        let mut grpc = tonic::client::Grpc::new(self.channel.clone());
        grpc.ready()
            .await
            .map_err(|error| Status::unavailable(format!("connection not ready: {error}")))?;
        let answer = grpc
            .unary(
                request,
                PathAndQuery::from_static(path),
                TurnCodec::<U>::default(),
            )
            .await?;
        Ok(answer.into_inner())
    }
}

/// Sends [`Encoded`] requests and decodes answers from the frame's own bytes, so that the
/// `bytes` fields of an answer are views of the frame rather than copies.
struct TurnCodec<U> {
    _type: PhantomData<U>,
}

impl<U> Default for TurnCodec<U> {
    fn default() -> Self {
        TurnCodec { _type: PhantomData }
    }
}

impl<U> Codec for TurnCodec<U>
where
    U: Message + Default + Send + 'static,
{
    type Encode = Encoded;
    type Decode = U;
    type Encoder = EncodedEncoder;
    type Decoder = FrameDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        EncodedEncoder
    }

    fn decoder(&mut self) -> Self::Decoder {
        FrameDecoder { _type: PhantomData }
    }
}

/// Takes the frame as `Bytes` (tonic's buffer split off, no copy) and decodes the message from
/// it.
struct FrameDecoder<U> {
    _type: PhantomData<U>,
}

impl<U: Message + Default> Decoder for FrameDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buffer: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        let frame = buffer.copy_to_bytes(buffer.remaining());
        U::decode(frame)
            .map(Some)
            .map_err(|error| Status::internal(error.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_view() -> pb::ObserveResponse {
        pb::ObserveResponse {
            game_id: "g".into(),
            variant: "chuno".into(),
            version: 7,
            status: pb::GameStatus::InProgress.into(),
            to_act: vec![1, 0],
            seat: Some(1),
            legal_actions: vec![
                deckmate::meta_action(pb::MetaActionKind::Resign),
                deckmate::meta_action(pb::MetaActionKind::OfferDraw),
            ],
            seats: 2,
            ..Default::default()
        }
    }

    #[test]
    fn a_turn_view_reads_the_fields_of_a_full_view() {
        let full = full_view();
        let view = TurnView::decode(Bytes::from(full.encode_to_vec())).unwrap();
        assert_eq!(view.version, 7);
        assert_eq!(view.status(), pb::GameStatus::InProgress);
        assert_eq!(view.to_act, [1, 0]);
        let actions: Vec<pb::Action> = view
            .legal_actions
            .iter()
            .map(|bytes| pb::Action::decode(bytes.clone()).unwrap())
            .collect();
        assert_eq!(actions, full.legal_actions);
    }

    #[test]
    fn an_act_answer_carries_the_actors_view() {
        let full = pb::ActResponse {
            version: 8,
            observation: Some(full_view()),
        };
        let answer = ActAnswer::decode(Bytes::from(full.encode_to_vec())).unwrap();
        assert_eq!(answer.version, 8);
        assert_eq!(answer.observation.map(|view| view.version), Some(7));
    }

    #[test]
    fn an_act_call_is_the_sdks_act_request_on_the_wire() {
        let action = deckmate::meta_action(pb::MetaActionKind::Resign);
        let call = ActCall {
            game_id: "g1".into(),
            action: Bytes::from(action.encode_to_vec()),
            expected_version: Some(0),
            request_id: "r".into(),
        };
        let decoded = pb::ActRequest::decode(call.encode_to_vec().as_slice()).unwrap();
        assert_eq!(
            decoded,
            pb::ActRequest {
                game_id: "g1".into(),
                action: Some(action),
                expected_version: Some(0),
                request_id: "r".into(),
            }
        );
    }
}
