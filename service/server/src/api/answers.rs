//! The `deckmate.v1.GameService` the server serves: `Act` and `Observe`, the calls of every
//! turn, answer with bytes written straight from the game ([`GameApi::act_encoded`],
//! [`GameApi::observe_encoded`]); every other method goes to the generated server.
//!
//! The generated server fixes each method's answer to its generated message, which these two
//! would have to build (the observation, every legal action and the board as messages, most of
//! them with names the API sends as strings), encode and free per call. Here the answer is the
//! encoding itself ([`Encoded`]), written by [`crate::live::LiveGame::write_view`]. Requests are
//! decoded by prost and checked against the same size limit as the generated server's, and
//! clients see the same messages: `tests/wire_encoding.rs` checks the written bytes against the
//! built messages for every game, and the trait methods ([`GameService::act`]) decode these
//! answers, so every test through them reads what clients read.
//!
//! [`GameService::act`]: deckmate_proto::v1::game_service_server::GameService::act

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use deckmate_proto::v1 as pb;
use deckmate_proto::v1::game_service_server::GameServiceServer;
use deckmate_proto::wire::{Encoded, EncodedCodec};
use futures::future::BoxFuture;
use tonic::body::Body;
use tonic::codegen::{Body as HttpBody, StdError};
use tonic::server::{Grpc, NamedService, UnaryService};
use tonic::{Request, Response, Status};

use super::GameApi;

/// The path of `Act`.
const ACT: &str = "/deckmate.v1.GameService/Act";

/// The path of `Observe`.
const OBSERVE: &str = "/deckmate.v1.GameService/Observe";

/// `deckmate.v1.GameService`, answering `Act` and `Observe` with written bytes.
#[derive(Debug, Clone)]
pub struct GameServiceAnswers {
    /// The handlers.
    api: Arc<GameApi>,
    /// The generated server, for every other method.
    generated: GameServiceServer<GameApi>,
    /// The largest request decoded, as the generated server's.
    max_decoding_message_size: usize,
}

impl GameServiceAnswers {
    /// The service of `api`, decoding requests of at most `max_decoding_message_size` bytes.
    pub fn new(api: GameApi, max_decoding_message_size: usize) -> GameServiceAnswers {
        let api = Arc::new(api);
        let generated = GameServiceServer::from_arc(api.clone())
            .max_decoding_message_size(max_decoding_message_size);
        GameServiceAnswers {
            api,
            generated,
            max_decoding_message_size,
        }
    }

    /// Serves one unary call of `method`, as the generated server does.
    fn unary<R, M, B>(&self, method: M, request: http::Request<B>) -> BoxFuture<'static, Answer>
    where
        R: prost::Message + Default + Send + 'static,
        M: UnaryService<R, Response = Encoded> + Send + 'static,
        M::Future: Send + 'static,
        B: HttpBody + Send + 'static,
        B::Error: Into<StdError> + Send + 'static,
    {
        let max_decoding_message_size = self.max_decoding_message_size;
        Box::pin(async move {
            let mut grpc = Grpc::new(EncodedCodec::<R>::default())
                .apply_max_message_size_config(Some(max_decoding_message_size), None);
            Ok(grpc.unary(method, request).await)
        })
    }
}

/// What one call answers.
type Answer = Result<http::Response<Body>, Infallible>;

impl NamedService for GameServiceAnswers {
    const NAME: &'static str = <GameServiceServer<GameApi> as NamedService>::NAME;
}

impl<B> tower::Service<http::Request<B>> for GameServiceAnswers
where
    B: HttpBody + Send + 'static,
    B::Error: Into<StdError> + Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Answer>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        match request.uri().path() {
            ACT => self.unary(Act(self.api.clone()), request),
            OBSERVE => self.unary(Observe(self.api.clone()), request),
            _ => self.generated.call(request),
        }
    }
}

/// `Act`'s handler.
struct Act(Arc<GameApi>);

impl UnaryService<pb::ActRequest> for Act {
    type Response = Encoded;
    type Future = BoxFuture<'static, Result<Response<Encoded>, Status>>;

    fn call(&mut self, request: Request<pb::ActRequest>) -> Self::Future {
        let api = self.0.clone();
        Box::pin(async move { api.act_encoded(request).await })
    }
}

/// `Observe`'s handler.
struct Observe(Arc<GameApi>);

impl UnaryService<pb::ObserveRequest> for Observe {
    type Response = Encoded;
    type Future = BoxFuture<'static, Result<Response<Encoded>, Status>>;

    fn call(&mut self, request: Request<pb::ObserveRequest>) -> Self::Future {
        let api = self.0.clone();
        Box::pin(async move { api.observe_encoded(request).await })
    }
}
