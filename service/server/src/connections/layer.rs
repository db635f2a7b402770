//! [`ActivityLayer`]: counts each request as in flight on its connection, from its headers to
//! the end of its response body (so an open Watch stream keeps its connection busy).

use std::task::{Context, Poll};

use futures::future::BoxFuture;
use http_body_util::BodyExt;
use tonic::body::Body;
use tower::{Layer, Service};

use super::io::ConnectionInfo;
use super::small_frames::SmallFrames;

/// The layer of [`ActivityService`]; outermost, so that every request counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct ActivityLayer;

impl<S> Layer<S> for ActivityLayer {
    type Service = ActivityService<S>;

    fn layer(&self, inner: S) -> ActivityService<S> {
        ActivityService { inner }
    }
}

/// Marks each request in flight on its connection while it runs, and gives it the TCP
/// addresses that `Request::remote_addr` reads.
#[derive(Clone, Debug)]
pub struct ActivityService<S> {
    inner: S,
}

impl<S, B> Service<http::Request<B>> for ActivityService<S>
where
    S: Service<http::Request<B>, Response = http::Response<Body>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<http::Response<Body>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        let in_flight = request
            .extensions_mut()
            .remove::<ConnectionInfo>()
            .map(|info| {
                request.extensions_mut().insert(info.tcp);
                info.activity.request_started()
            });
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await?;
            // The body holds the guard: the request is in flight until its last frame is sent
            // or the stream is dropped. Its frames are cut for one write per answer.
            Ok(response.map(|body| {
                Body::new(SmallFrames::new(body.map_frame(move |frame| {
                    let _in_flight = &in_flight;
                    frame
                })))
            }))
        })
    }
}
