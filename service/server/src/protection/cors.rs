//! CORS for browsers calling through gRPC-Web (`--cors-origins`): which origins may call, the
//! request headers gRPC-Web, the SDKs and trace propagation send, and the trailers-as-headers
//! a browser must be allowed to read.
//!
//! Only requests with an `Origin` header go through the CORS rules ([`BrowserCors`]): a browser
//! sends one with every cross-origin request and every `POST` (gRPC-Web is always `POST`, a
//! preflight always carries one), while native gRPC clients never do. Their calls are answered
//! without CORS headers, which only a browser reads, and without the cost of building them on
//! every call (a `Vary` value assembled and four header maps filled per call).

use std::fmt;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::Either;
use http::header::{self, HeaderName};
use http::{HeaderValue, Request, Response};
use tower::{Layer, Service};
use tower_http::cors::{AllowOrigin, Any, Cors, CorsLayer, ResponseFuture};

/// The origins allowed to call from a browser.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum CorsOrigins {
    /// Any origin (`*`), the default: the API's secrets are tokens and keys sent as metadata,
    /// never cookies, so another site's page gains nothing a script could not do itself.
    #[default]
    Any,
    /// Exactly these origins, such as `https://play.example.com`.
    List(Vec<String>),
}

impl CorsOrigins {
    /// Reads `*` or a comma-separated list of origins (`scheme://host[:port]`, no path).
    pub fn parse(value: &str) -> Result<CorsOrigins, String> {
        let value = value.trim();
        if value == "*" {
            return Ok(CorsOrigins::Any);
        }
        let mut origins = Vec::new();
        for origin in value.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let origin = origin.trim_end_matches('/');
            let rest = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            let valid = rest.is_some_and(|host| {
                !host.is_empty()
                    && !host.contains(['/', '*'])
                    && HeaderValue::from_str(origin).is_ok()
            });
            if !valid {
                return Err(format!(
                    "`{origin}` is not an origin like https://play.example.com (no path, no `*`)"
                ));
            }
            origins.push(origin.to_string());
        }
        if origins.is_empty() {
            return Err("expected `*` or a comma-separated list of origins".to_string());
        }
        Ok(CorsOrigins::List(origins))
    }
}

impl fmt::Display for CorsOrigins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorsOrigins::Any => f.write_str("*"),
            CorsOrigins::List(origins) => f.write_str(&origins.join(",")),
        }
    }
}

/// The CORS layer for `origins`, applied to requests from browsers ([`BrowserCors`]).
pub fn layer(origins: &CorsOrigins) -> BrowserCorsLayer {
    BrowserCorsLayer(rules(origins))
}

/// The CORS rules for `origins`.
fn rules(origins: &CorsOrigins) -> CorsLayer {
    let allow_origin = match origins {
        CorsOrigins::Any => AllowOrigin::from(Any),
        CorsOrigins::List(list) => AllowOrigin::list(
            list.iter()
                .filter_map(|origin| HeaderValue::from_str(origin).ok()),
        ),
    };
    CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([http::Method::POST, http::Method::OPTIONS])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            HeaderName::from_static("x-grpc-web"),
            HeaderName::from_static("x-user-agent"),
            HeaderName::from_static("grpc-timeout"),
            // The SDKs send the caller's API key with every call (docs/API.md, "API keys").
            HeaderName::from_static("x-api-key"),
            // W3C trace context, so that a browser's trace continues on the server.
            HeaderName::from_static("traceparent"),
            HeaderName::from_static("tracestate"),
        ])
        .expose_headers([
            HeaderName::from_static("grpc-status"),
            HeaderName::from_static("grpc-message"),
            HeaderName::from_static("grpc-status-details-bin"),
        ])
        .max_age(Duration::from_secs(24 * 60 * 60))
}

/// The layer of [`BrowserCors`].
#[derive(Clone, Debug)]
pub struct BrowserCorsLayer(CorsLayer);

impl<S> Layer<S> for BrowserCorsLayer {
    type Service = BrowserCors<S>;

    fn layer(&self, inner: S) -> BrowserCors<S> {
        BrowserCors(self.0.layer(inner))
    }
}

/// Applies the CORS rules to requests with an `Origin` header and passes every other request
/// straight to the inner service.
#[derive(Clone, Debug)]
pub struct BrowserCors<S>(Cors<S>);

impl<S, B, ResponseBody> Service<Request<B>> for BrowserCors<S>
where
    S: Service<Request<B>, Response = Response<ResponseBody>>,
    ResponseBody: Default,
{
    type Response = Response<ResponseBody>;
    type Error = S::Error;
    type Future = Either<ResponseFuture<S::Future>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Readies the inner service either path calls.
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if request.headers().contains_key(header::ORIGIN) {
            Either::Left(self.0.call(request))
        } else {
            Either::Right(self.0.get_mut().call(request))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use tower::{Layer, ServiceExt};

    /// The answer of the layer for `origins`, over a service that answers every request with an
    /// empty 200, to `request`.
    async fn answer(origins: &CorsOrigins, request: http::Request<()>) -> http::Response<()> {
        let service = layer(origins).layer(tower::service_fn(|_: http::Request<()>| async {
            Ok::<_, Infallible>(http::Response::new(()))
        }));
        service.oneshot(request).await.unwrap()
    }

    /// The preflight answer of `origins` to a browser at `origin` asking to send `headers`.
    async fn preflight(origins: &CorsOrigins, origin: &str, headers: &str) -> http::Response<()> {
        let request = http::Request::builder()
            .method(http::Method::OPTIONS)
            .uri("/deckmate.v1.GameService/CreateGame")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(header::ACCESS_CONTROL_REQUEST_HEADERS, headers)
            .body(())
            .unwrap();
        answer(origins, request).await
    }

    fn header_of(response: &http::Response<()>, name: HeaderName) -> String {
        response
            .headers()
            .get(name)
            .map(|value| value.to_str().unwrap().to_ascii_lowercase())
            .unwrap_or_default()
    }

    #[tokio::test]
    async fn any_origin_by_default_with_trace_and_key_headers() {
        let response = preflight(
            &CorsOrigins::Any,
            "https://anywhere.example",
            "traceparent,tracestate,x-api-key",
        )
        .await;
        assert_eq!(
            header_of(&response, header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "*"
        );
        let allowed = header_of(&response, header::ACCESS_CONTROL_ALLOW_HEADERS);
        for name in ["traceparent", "tracestate", "x-api-key", "authorization"] {
            assert!(allowed.contains(name), "{name} missing from {allowed}");
        }
    }

    #[tokio::test]
    async fn a_list_admits_exactly_its_origins() {
        let origins =
            CorsOrigins::parse("https://play.example.com, http://localhost:5173").unwrap();
        let listed = preflight(&origins, "http://localhost:5173", "traceparent").await;
        assert_eq!(
            header_of(&listed, header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "http://localhost:5173"
        );
        let other = preflight(&origins, "https://evil.example", "traceparent").await;
        assert_eq!(header_of(&other, header::ACCESS_CONTROL_ALLOW_ORIGIN), "");
    }

    /// The answer of `origins` to a `POST` with `origin`, if any.
    async fn post(origins: &CorsOrigins, origin: Option<&str>) -> http::Response<()> {
        let mut request = http::Request::builder()
            .method(http::Method::POST)
            .uri("/deckmate.v1.GameService/Observe");
        if let Some(origin) = origin {
            request = request.header(header::ORIGIN, origin);
        }
        answer(origins, request.body(()).unwrap()).await
    }

    #[tokio::test]
    async fn only_requests_with_an_origin_get_cors_headers() {
        let browser = post(&CorsOrigins::Any, Some("https://anywhere.example")).await;
        assert_eq!(
            header_of(&browser, header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "*"
        );
        assert!(header_of(&browser, header::ACCESS_CONTROL_EXPOSE_HEADERS).contains("grpc-status"));
        assert!(header_of(&browser, header::VARY).contains("origin"));

        let native = post(&CorsOrigins::Any, None).await;
        assert!(native.status().is_success());
        for name in [
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            header::VARY,
        ] {
            assert_eq!(header_of(&native, name.clone()), "", "{name}");
        }
    }

    #[test]
    fn origins_parse() {
        assert_eq!(CorsOrigins::parse("*"), Ok(CorsOrigins::Any));
        assert_eq!(
            CorsOrigins::parse("https://a.example/,http://b.example:8080").unwrap(),
            CorsOrigins::List(vec![
                "https://a.example".into(),
                "http://b.example:8080".into()
            ])
        );
        for bad in [
            "",
            "a.example",
            "https://a.example/path",
            "ftp://a",
            "https://*.a",
        ] {
            assert!(CorsOrigins::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            CorsOrigins::parse("https://a.example,http://b.example")
                .unwrap()
                .to_string(),
            "https://a.example,http://b.example"
        );
    }
}
