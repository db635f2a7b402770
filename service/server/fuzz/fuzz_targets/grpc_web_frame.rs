//! Arbitrary bytes as a gRPC-Web request body, binary and text (base64), through the server's
//! gRPC-Web path in process: the tonic-web layer in front of `GameService` with the server's
//! answers to undecodable calls ([`ProtocolErrors`]), called as a tower service. Any HTTP answer
//! is fine; a panic is not.
//!
//! Input: a byte choosing the method, a byte choosing the content type, then the body.

#![no_main]

use deckmate_server::api::answers::GameServiceAnswers;
use deckmate_server::protocol_errors::ProtocolErrors;
use deckmate_server_fuzz::{MAX_MESSAGE_BYTES, Reader, fresh_api, runtime};
use futures::FutureExt;
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use tower::{Layer, ServiceExt};

const METHODS: [&str; 7] = [
    "CreateGame",
    "Act",
    "Observe",
    "Watch",
    "GetHistory",
    "ListVariants",
    "GetServerInfo",
];

const CONTENT_TYPES: [&str; 4] = [
    "application/grpc-web",
    "application/grpc-web+proto",
    "application/grpc-web-text",
    "application/grpc-web-text+proto",
];

fuzz_target!(|data: &[u8]| {
    let mut input = Reader(data);
    let (Some(method), Some(content_type)) = (input.byte(), input.byte()) else {
        return;
    };
    let method = METHODS[usize::from(method) % METHODS.len()];
    let content_type = CONTENT_TYPES[usize::from(content_type) % CONTENT_TYPES.len()];
    let body = bytes::Bytes::copy_from_slice(input.rest());
    runtime().block_on(async move {
        let service = ProtocolErrors::new(
            GameServiceAnswers::new(fresh_api(), MAX_MESSAGE_BYTES),
            MAX_MESSAGE_BYTES,
        );
        let service = tonic_web::GrpcWebLayer::new().layer(service);
        let request = http::Request::builder()
            .method(http::Method::POST)
            .uri(format!("/deckmate.v1.GameService/{method}"))
            .header(http::header::CONTENT_TYPE, content_type)
            .body(tonic::body::Body::new(http_body_util::Full::new(body)))
            .expect("a well-formed request");
        let response = service
            .oneshot(request)
            .await
            .expect("the service answers every request");
        let mut body = response.into_body();
        if method == "Watch" {
            // A stream stays open for later versions: read only what is ready.
            while let Some(Some(Ok(_))) = body.frame().now_or_never() {}
        } else {
            let _ = body.collect().await;
        }
    });
});
