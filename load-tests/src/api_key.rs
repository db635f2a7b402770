//! [`ApiKey`]: the key a run sends as `x-api-key` (`--api-key`, or `DECKMATE_API_KEY`), to load
//! a server started with `--api-keys-file`.
//!
//! The key goes on every call of every phase, the baseline's health `Check` included. The
//! server checks it only on `CreateGame` and ignores it on every other call (docs/OPERATIONS.md,
//! "API keys"), so sending it there changes nothing on the server's side; but it keeps the
//! baseline's requests the same shape as the scenario's, so that the ratios compare the RPCs and
//! not their headers, and it passes a proxy in front of the server that asks for the key on
//! every call.
//!
//! The key is a secret: it is marked sensitive (HTTP/2 never indexes it in its header tables),
//! `Debug` shows it redacted, and no error, progress line or report (table or JSON) prints it.
//! The report says only whether a key was sent.

use std::ffi::OsStr;
use std::fmt;

use tonic::Status;
use tonic::metadata::AsciiMetadataValue;
use tonic::service::Interceptor;

/// The metadata key of the API key, as the server reads it.
pub(crate) const API_KEY_HEADER: &str = "x-api-key";

/// Why a key cannot be sent, without the key.
const NOT_PRINTABLE: &str =
    "the API key must be printable ASCII without spaces (the value is not shown)";

/// An API key, ready to be sent as `x-api-key` metadata.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    value: AsciiMetadataValue,
}

impl ApiKey {
    /// The key `key` (surrounding whitespace removed, as the server does); fails when it is empty
    /// or not printable ASCII without spaces, as every key `deckmate-server hash-key` makes is.
    /// The message never repeats the key.
    pub fn new(key: &str) -> Result<ApiKey, String> {
        let key = key.trim();
        if key.is_empty() {
            return Err("the API key is empty".to_string());
        }
        let unsendable = || NOT_PRINTABLE.to_string();
        if !key.bytes().all(|byte| byte.is_ascii_graphic()) {
            return Err(unsendable());
        }
        let mut value = AsciiMetadataValue::try_from(key).map_err(|_| unsendable())?;
        value.set_sensitive(true);
        Ok(ApiKey { value })
    }

    /// The key itself, for the SDK client that sends it.
    pub(crate) fn expose(&self) -> &str {
        self.value
            .to_str()
            .expect("the key was checked to be printable ASCII")
    }

    /// Adds the key to `request`, replacing any earlier value.
    pub(crate) fn apply<T>(&self, request: &mut tonic::Request<T>) {
        request
            .metadata_mut()
            .insert(API_KEY_HEADER, self.value.clone());
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Sends the run's API key, if it has one, on every call of a generated client (the health
/// client, and the raw `GameService` client the `Watch` calls and the arena use).
#[derive(Clone, Debug, Default)]
pub(crate) struct SendApiKey(pub(crate) Option<ApiKey>);

impl Interceptor for SendApiKey {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, Status> {
        if let Some(key) = &self.0 {
            key.apply(&mut request);
        }
        Ok(request)
    }
}

/// Reads `--api-key` for clap. Unlike a plain value parser, its error never repeats the value:
/// clap would otherwise print the rejected key in its message.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ApiKeyParser;

impl clap::builder::TypedValueParser for ApiKeyParser {
    type Value = ApiKey;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<ApiKey, clap::Error> {
        let problem = match value.to_str() {
            Some(key) => match ApiKey::new(key) {
                Ok(key) => return Ok(key),
                Err(problem) => problem,
            },
            None => NOT_PRINTABLE.to_string(),
        };
        let option = arg.map_or_else(|| "--api-key".to_string(), ToString::to_string);
        Err(clap::Error::raw(
            clap::error::ErrorKind::ValueValidation,
            format!("invalid value for '{option}': {problem}\n"),
        )
        .with_cmd(command))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_trimmed_sent_sensitive_and_never_shown() {
        let key = ApiKey::new("  dmk_secret-123\n").unwrap();
        assert_eq!(key.expose(), "dmk_secret-123");
        let printed = format!("{key:?} {:?}", SendApiKey(Some(key.clone())));
        assert!(!printed.contains("secret"), "{printed}");
        let mut request = tonic::Request::new(());
        key.apply(&mut request);
        let sent = request
            .metadata()
            .get(API_KEY_HEADER)
            .expect("the key is sent");
        assert_eq!(sent, "dmk_secret-123");
        assert!(sent.is_sensitive());
    }

    #[test]
    fn the_interceptor_adds_the_key_only_when_there_is_one() {
        let key = ApiKey::new("dmk_abc").unwrap();
        let sent = SendApiKey(Some(key)).call(tonic::Request::new(())).unwrap();
        assert_eq!(sent.metadata().get(API_KEY_HEADER).unwrap(), "dmk_abc");
        let bare = SendApiKey(None).call(tonic::Request::new(())).unwrap();
        assert!(bare.metadata().get(API_KEY_HEADER).is_none());
    }

    #[test]
    fn bad_keys_are_refused_without_repeating_them() {
        assert!(ApiKey::new("  ").is_err());
        let error = ApiKey::new("dmk_se\ncret").unwrap_err();
        assert!(!error.contains("cret"), "{error}");
        for bad in [
            "dmk_sécret",
            "dmk_se cret",
            "dmk_se\tcret",
            "dmk_se\u{7f}cret",
        ] {
            let error = ApiKey::new(bad).unwrap_err();
            assert!(!error.contains("cret"), "{error}");
        }
    }
}
