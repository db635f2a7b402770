//! [`SecretHeader`]: a secret sent as request metadata (a seat token, an API key), marked
//! sensitive so that HTTP/2 never indexes it and hidden from `Debug` output.

use std::fmt;

use tonic::metadata::AsciiMetadataValue;

use crate::Error;

/// One metadata entry whose value is a secret.
#[derive(Clone)]
pub(crate) struct SecretHeader {
    name: &'static str,
    value: AsciiMetadataValue,
}

impl SecretHeader {
    /// Prepares `value` to be sent as metadata `name`; `what` names the secret in the error
    /// when the value cannot be sent (it is never echoed: it may be a real secret).
    pub(crate) fn new(
        name: &'static str,
        value: String,
        what: &str,
    ) -> Result<SecretHeader, Error> {
        let mut value = AsciiMetadataValue::try_from(value)
            .map_err(|_| Error::invalid_request(format!("{what} must be printable ASCII")))?;
        value.set_sensitive(true);
        Ok(SecretHeader { name, value })
    }

    /// Adds the entry to `request`, replacing any earlier value.
    pub(crate) fn apply<T>(&self, request: &mut tonic::Request<T>) {
        request.metadata_mut().insert(self.name, self.value.clone());
    }
}

impl fmt::Debug for SecretHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: <redacted>", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_the_value_marked_sensitive() {
        let header = SecretHeader::new("x-api-key", "k-123".into(), "an API key").expect("ascii");
        let mut request = tonic::Request::new(());
        header.apply(&mut request);
        let value = request.metadata().get("x-api-key").expect("set");
        assert_eq!(value.to_str().expect("ascii"), "k-123");
        assert!(value.is_sensitive());
    }

    #[test]
    fn refuses_values_that_cannot_be_metadata_without_echoing_them() {
        let error =
            SecretHeader::new("x-api-key", "se\ncret".into(), "an API key").expect_err("newline");
        assert!(!error.message().contains("se"), "{error}");
        assert!(error.message().contains("an API key"), "{error}");
    }

    #[test]
    fn debug_output_names_the_header_but_not_the_value() {
        let header = SecretHeader::new("x-api-key", "k-123".into(), "an API key").expect("ascii");
        let printed = format!("{header:?}");
        assert!(
            printed.contains("x-api-key") && !printed.contains("k-123"),
            "{printed}"
        );
    }
}
