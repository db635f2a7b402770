//! [`ConnectOptions`] and [`TlsOptions`]: how [`Client::connect_with`](crate::Client::connect_with)
//! reaches the server.

use std::fmt;

use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};

use crate::{Error, Keepalive, RetryPolicy};

/// How a client connects and what it sends with every call.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ConnectOptions {
    /// An API key, sent as `x-api-key` metadata on every call (servers that require keys refuse
    /// calls without one). `Debug` output never shows it.
    pub api_key: Option<String>,
    /// TLS settings. Unset, an `https://` endpoint still uses TLS, trusting the system's
    /// certificate authorities, and an `http://` endpoint is plaintext. Set, every endpoint
    /// uses TLS: an `http://` address is reached as `https://`.
    pub tls: Option<TlsOptions>,
    /// The retry policy of every handle made from the client.
    pub retry: RetryPolicy,
    /// The pings that find a connection that died silently.
    pub keepalive: Keepalive,
}

impl ConnectOptions {
    /// Sends `api_key` as `x-api-key` on every call.
    #[must_use]
    pub fn with_api_key(mut self, api_key: impl Into<String>) -> Self {
        self.api_key = Some(api_key.into());
        self
    }

    /// Uses TLS with `tls`.
    #[must_use]
    pub fn with_tls(mut self, tls: TlsOptions) -> Self {
        self.tls = Some(tls);
        self
    }

    /// Uses `retry` as the retry policy.
    #[must_use]
    pub fn with_retry_policy(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Pings as `keepalive` says.
    #[must_use]
    pub fn with_keepalive(mut self, keepalive: Keepalive) -> Self {
        self.keepalive = keepalive;
        self
    }
}

impl fmt::Debug for ConnectOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectOptions")
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("tls", &self.tls)
            .field("retry", &self.retry)
            .field("keepalive", &self.keepalive)
            .finish()
    }
}

/// TLS settings: the server's certificate is always verified, against the system's certificate
/// authorities or, when `ca_pem` is given, against those instead.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsOptions {
    /// The certificate authorities to trust instead of the system's, PEM-encoded (a private CA,
    /// a test CA).
    pub ca_pem: Option<Vec<u8>>,
    /// The name the server's certificate must carry, when it differs from the endpoint's host
    /// (connecting by IP address to a server with a DNS-name certificate).
    pub server_name: Option<String>,
}

impl TlsOptions {
    /// Trusts the certificate authorities in `ca_pem` instead of the system's.
    #[must_use]
    pub fn with_ca_pem(mut self, ca_pem: impl Into<Vec<u8>>) -> Self {
        self.ca_pem = Some(ca_pem.into());
        self
    }

    /// Expects the server's certificate to name `server_name`.
    #[must_use]
    pub fn with_server_name(mut self, server_name: impl Into<String>) -> Self {
        self.server_name = Some(server_name.into());
        self
    }

    /// The tonic configuration for these settings.
    fn client_config(&self) -> ClientTlsConfig {
        let mut config = match &self.ca_pem {
            Some(ca_pem) => ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca_pem)),
            None => ClientTlsConfig::new().with_native_roots(),
        };
        if let Some(server_name) = &self.server_name {
            config = config.domain_name(server_name.clone());
        }
        config
    }
}

/// The endpoint for `address` with the TLS settings of `options`. An address without a scheme
/// (`host:port`, as the Python and TypeScript SDKs take it too) is plaintext, or TLS when
/// `options` has TLS settings. With TLS settings, an `http://` address is reached over TLS as
/// `https://`, as the other SDKs do: tonic would otherwise ignore the settings and send seat
/// tokens and API keys in plaintext.
pub(crate) fn endpoint(address: String, options: &ConnectOptions) -> Result<Endpoint, Error> {
    let address = match (address.strip_prefix("http://"), options.tls.is_some()) {
        (Some(rest), true) => format!("https://{rest}"),
        _ if address.contains("://") => address,
        (_, true) => format!("https://{address}"),
        (_, false) => format!("http://{address}"),
    };
    let uses_https = address.starts_with("https://");
    let endpoint = Endpoint::from_shared(address)
        .map_err(|error| Error::invalid_request(format!("bad endpoint: {error}")))?
        .http2_keep_alive_interval(options.keepalive.interval)
        .keep_alive_timeout(options.keepalive.timeout)
        .keep_alive_while_idle(false);
    let tls = match (&options.tls, uses_https) {
        (Some(tls), _) => tls.clone(),
        (None, true) => TlsOptions::default(),
        (None, false) => return Ok(endpoint),
    };
    endpoint
        .tls_config(tls.client_config())
        .map_err(|error| Error::invalid_request(format!("bad TLS settings: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_hides_the_api_key() {
        let options = ConnectOptions::default().with_api_key("very-secret-key");
        let printed = format!("{options:?}");
        assert!(!printed.contains("very-secret"), "{printed}");
        assert!(printed.contains("<redacted>"), "{printed}");
    }

    #[test]
    fn plaintext_and_tls_endpoints_are_accepted() {
        let plain = ConnectOptions::default();
        assert!(endpoint("http://127.0.0.1:50051".into(), &plain).is_ok());
        assert!(endpoint("https://games.example:443".into(), &plain).is_ok());
        let tls = plain.with_tls(TlsOptions::default().with_server_name("localhost"));
        assert!(endpoint("https://127.0.0.1:50051".into(), &tls).is_ok());
    }

    #[test]
    fn addresses_without_a_scheme_are_plaintext_unless_tls_is_set() {
        let plain = ConnectOptions::default();
        let uri = endpoint("127.0.0.1:50051".into(), &plain)
            .unwrap()
            .uri()
            .clone();
        assert_eq!(uri.to_string(), "http://127.0.0.1:50051/");
        let tls = plain.with_tls(TlsOptions::default().with_server_name("localhost"));
        let uri = endpoint("games.example:443".into(), &tls)
            .unwrap()
            .uri()
            .clone();
        assert_eq!(uri.to_string(), "https://games.example:443/");
    }

    #[test]
    fn tls_settings_turn_an_http_address_into_https() {
        let tls = ConnectOptions::default().with_tls(TlsOptions::default());
        let uri = endpoint("http://127.0.0.1:50051".into(), &tls)
            .unwrap()
            .uri()
            .clone();
        assert_eq!(uri.to_string(), "https://127.0.0.1:50051/");
        // Without TLS settings an http address stays plaintext.
        let uri = endpoint("http://127.0.0.1:50051".into(), &ConnectOptions::default())
            .unwrap()
            .uri()
            .clone();
        assert_eq!(uri.to_string(), "http://127.0.0.1:50051/");
    }

    #[test]
    fn a_malformed_address_is_an_invalid_request() {
        let error = endpoint("not a uri".into(), &ConnectOptions::default()).expect_err("bad");
        assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");
    }
}
