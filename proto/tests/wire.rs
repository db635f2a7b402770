//! The one-pass encoder (`deckmate_proto::wire`) writes the same bytes as prost for messages
//! that hold every shape of field the API uses: zero and non-zero scalars, proto3 `optional`
//! fields set to zero, negative `int32` values, packed repeated fields, bytes, nested and
//! well-known messages, oneofs holding a default message. Every game's own messages are checked
//! the same way by the server's `wire_encoding` test.

use deckmate_proto::v1 as pb;
use deckmate_proto::wire::WireEncode;
use prost::Message;

/// Both encoders agree on `message`, and prost decodes the one-pass bytes back to it.
fn check<M: Message + WireEncode + Default + PartialEq + std::fmt::Debug>(message: &M) {
    let wire = message.encode_wire();
    assert_eq!(wire, message.encode_to_vec(), "{message:?}");
    assert_eq!(&M::decode(wire.as_slice()).expect("decodes"), message);
}

#[test]
fn empty_messages_encode_to_nothing() {
    check(&pb::ObserveResponse::default());
    check(&pb::GetHistoryResponse::default());
    check(&pb::CreateGameRequest::default());
    assert!(pb::ActResponse::default().encode_wire().is_empty());
}

#[test]
fn every_field_shape_matches_prost() {
    let outcome = pb::Outcome {
        winners: vec![1, 0, 300],
        draw: true,
        reason: pb::EndReason::Score.into(),
        scores: vec![-3, 0, 5, i32::MIN, i32::MAX],
        description: "White wins on score".to_string(),
    };
    let observe = pb::ObserveResponse {
        game_id: "g-1".to_string(),
        variant: "pile_chess".to_string(),
        version: u64::MAX,
        status: pb::GameStatus::Finished.into(),
        outcome: Some(outcome),
        to_act: vec![0, 1, 127, 128, 16_384],
        seat: Some(0),
        legal_actions: vec![
            pb::Action {
                kind: Some(pb::action::Kind::Meta(pb::MetaAction::default())),
            },
            pb::Action {
                kind: Some(pb::action::Kind::Meta(pb::MetaAction {
                    kind: pb::MetaActionKind::OfferDraw.into(),
                })),
            },
            pb::Action { kind: None },
        ],
        observation: Some(pb::Observation { game: None }),
        recent_events: vec![pb::Event {
            version: 7,
            seat: Some(0),
            kind: Some(pb::event::Kind::Meta(pb::MetaEvent {
                kind: pb::MetaEventKind::TimedOut.into(),
                seat: 1,
            })),
        }],
        meta_actions: vec![pb::MetaAction {
            kind: pb::MetaActionKind::Resign.into(),
        }],
        seats: 2,
        draw_offered_by: Some(0),
        seat_options: vec![pb::SeatOptions {
            seat: 1,
            bot: pb::BotLevel::Search.into(),
        }],
        clocks: vec![
            pb::SeatClock {
                seat: 0,
                remaining_ms: 90_000,
                running: true,
                deadline: Some(prost_types::Timestamp {
                    seconds: 1_764_806_400,
                    nanos: 123_000_000,
                }),
            },
            pb::SeatClock {
                seat: 1,
                remaining_ms: 0,
                running: false,
                deadline: Some(prost_types::Timestamp {
                    seconds: -1,
                    nanos: 0,
                }),
            },
        ],
    };
    check(&observe);
    check(&pb::ActResponse {
        version: 3,
        observation: Some(observe),
    });
    check(&pb::GetHistoryResponse {
        game_id: "g-2".to_string(),
        seed: vec![0, 1, 2, 255],
        seed_commitment: vec![9; 32],
        next_page_token: "next".to_string(),
        ..Default::default()
    });
    check(&pb::CreateGameRequest {
        seed: Some(0),
        clock: Some(pb::Clock {
            on_timeout: pb::TimeoutPolicy::BotMove.into(),
            kind: Some(pb::clock::Kind::Fischer(pb::clock::Fischer::default())),
        }),
        ..Default::default()
    });
    check(&pb::ActRequest {
        game_id: "g".to_string(),
        action: None,
        expected_version: Some(0),
        request_id: "r".repeat(200),
    });
}

#[test]
fn long_messages_grow_the_buffer_and_still_match() {
    let observe = pb::ObserveResponse {
        game_id: "x".repeat(10_000),
        to_act: (0..5_000).collect(),
        recent_events: (0..500)
            .map(|version| pb::Event {
                version,
                seat: None,
                kind: None,
            })
            .collect(),
        ..Default::default()
    };
    check(&observe);
}
