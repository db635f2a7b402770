//! The HTTP listener of `--metrics-listen`: `GET /metrics` answers the Prometheus text page
//! (any other path does too, as scrapers are often set up with another one), `/health` answers
//! `OK`.
//!
//! The server binds the listener itself rather than leaving it to the exporter, so that it
//! knows the address it bound: with port 0 the system picks the port, and the log must name the
//! one picked.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use futures::Stream;
use http::header::{CONTENT_TYPE, HeaderValue};
use metrics_exporter_prometheus::PrometheusHandle;
use tokio::net::{TcpListener, TcpStream};
use tonic::service::{AxumBody, AxumRouter, Routes};
use tonic::transport::Server;

/// How long the listener pauses after a failed accept (out of file descriptors, say), so that
/// a persistent failure does not spin a core.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How often histograms drop their expired samples; what the exporter's own listener does.
const UPKEEP_PERIOD: Duration = Duration::from_secs(5);

/// Binds `address` and returns its listener with the address bound. Needs a Tokio runtime.
pub(super) fn bind(address: SocketAddr) -> io::Result<(TcpListener, SocketAddr)> {
    let listener = std::net::TcpListener::bind(address)?;
    listener.set_nonblocking(true)?;
    let listener = TcpListener::from_std(listener)?;
    let bound = listener.local_addr()?;
    Ok((listener, bound))
}

/// Serves `handle`'s page on `listener` until the process ends, and keeps the recorder's
/// histograms trimmed meanwhile.
pub(super) async fn serve(listener: TcpListener, handle: PrometheusHandle) {
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(UPKEEP_PERIOD);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            upkeep.run_upkeep();
        }
    });
    let page = tower::service_fn(move |request: http::Request<AxumBody>| {
        let handle = handle.clone();
        async move { Ok::<_, Infallible>(answer(request.uri().path(), handle).await) }
    });
    let routes = Routes::from(AxumRouter::new().fallback_service(page));
    let served = Server::builder()
        .accept_http1(true)
        .add_routes(routes)
        .serve_with_incoming(connections(listener))
        .await;
    if let Err(error) = served {
        tracing::error!(%error, "the metrics listener stopped");
    }
}

/// The answer to a request for `path`.
async fn answer(path: &str, handle: PrometheusHandle) -> http::Response<String> {
    let body = if path == "/health" {
        "OK".to_string()
    } else {
        // Rendering walks every series: off the runtime's worker threads, as the exporter does.
        tokio::task::spawn_blocking(move || handle.render())
            .await
            .unwrap_or_default()
    };
    let mut response = http::Response::new(body);
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    response
}

/// The connections `listener` accepts; a failed accept is logged and retried after
/// [`ACCEPT_BACKOFF`].
fn connections(listener: TcpListener) -> impl Stream<Item = io::Result<TcpStream>> {
    futures::stream::unfold(listener, |listener| async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => return Some((Ok(stream), listener)),
                Err(error) => {
                    tracing::warn!(%error, "the metrics listener cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            }
        }
    })
}
