//! The codecs' decoder (`deckmate_proto::wire::SliceDecoder`) reads what prost reads: each
//! message of a body of several frames exactly, the next one untouched, and bytes that are no
//! message are INTERNAL, as tonic's own prost decoder answers.

use deckmate_proto::v1 as pb;
use deckmate_proto::wire::SliceDecoder;
use http_body_util::Full;
use prost::Message;
use prost::bytes::{BufMut, Bytes, BytesMut};
use tonic::Code;
use tonic::codec::Streaming;

/// `messages` as one gRPC body: each one uncompressed, after its five-byte frame header.
fn body(messages: &[Vec<u8>]) -> Full<Bytes> {
    let mut body = BytesMut::new();
    for message in messages {
        body.put_u8(0);
        body.put_u32(u32::try_from(message.len()).expect("a small message"));
        body.put_slice(message);
    }
    Full::new(body.freeze())
}

fn observe_response(version: u64) -> pb::ObserveResponse {
    pb::ObserveResponse {
        game_id: format!("g-{version}"),
        variant: "chuno".to_string(),
        version,
        to_act: vec![0, 1, 300],
        seat: Some(1),
        legal_actions: vec![pb::Action {
            kind: Some(pb::action::Kind::Meta(pb::MetaAction {
                kind: pb::MetaActionKind::OfferDraw.into(),
            })),
        }],
        ..Default::default()
    }
}

#[tokio::test]
async fn each_message_of_a_body_decodes_as_prost_decodes_it() {
    let messages = [
        observe_response(7),
        pb::ObserveResponse::default(),
        observe_response(u64::MAX),
    ];
    let encoded: Vec<Vec<u8>> = messages.iter().map(Message::encode_to_vec).collect();
    let mut stream = Streaming::new_request(
        SliceDecoder::<pb::ObserveResponse>::default(),
        body(&encoded),
        None,
        None,
    );
    for message in messages {
        assert_eq!(stream.message().await.expect("decodes"), Some(message));
    }
    assert_eq!(stream.message().await.expect("ends"), None);
}

#[tokio::test]
async fn bytes_that_are_no_message_are_internal() {
    // Field 1 as a length-delimited value longer than what follows.
    let mut stream = Streaming::new_request(
        SliceDecoder::<pb::ObserveResponse>::default(),
        body(&[vec![0x0a, 0x20, b'g']]),
        None,
        None,
    );
    let error = stream.message().await.expect_err("no message");
    assert_eq!(error.code(), Code::Internal);
    assert!(
        error.message().contains("ObserveResponse"),
        "{}",
        error.message()
    );
}
