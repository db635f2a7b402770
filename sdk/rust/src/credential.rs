//! [`Credential`]: a seat token ready to be sent as `authorization: Bearer <token>` metadata.

use std::fmt;

use crate::Error;
use crate::secret_header::SecretHeader;

/// A secret seat token and its prepared metadata entry. Its `Debug` output never shows the
/// token, so handles holding one can be logged.
#[derive(Clone)]
pub(crate) struct Credential {
    token: String,
    header: SecretHeader,
}

impl Credential {
    /// Prepares `token`; fails when it cannot be sent as a metadata value (tokens from the
    /// server always can).
    pub(crate) fn new(token: impl Into<String>) -> Result<Credential, Error> {
        let token = token.into();
        let header = SecretHeader::new(
            deckmate_proto::AUTHORIZATION_HEADER,
            format!("Bearer {token}"),
            "a seat token",
        )?;
        Ok(Credential { token, header })
    }

    /// The token itself.
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// Adds the `authorization` metadata to `request`.
    pub(crate) fn authorize<T>(&self, request: &mut tonic::Request<T>) {
        self.header.apply(request);
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Credential(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_the_token_as_a_bearer_authorization() {
        let credential = Credential::new("abc-123").expect("valid token");
        let mut request = tonic::Request::new(());
        credential.authorize(&mut request);
        let value = request
            .metadata()
            .get("authorization")
            .expect("authorization metadata");
        assert_eq!(value.to_str().expect("ascii"), "Bearer abc-123");
        assert_eq!(credential.token(), "abc-123");
    }

    #[test]
    fn debug_output_hides_the_token() {
        let credential = Credential::new("very-secret-token").expect("valid token");
        assert!(!format!("{credential:?}").contains("very-secret"));
    }

    #[test]
    fn rejects_tokens_that_cannot_be_metadata_without_echoing_them() {
        let error = Credential::new("line\nbreak").expect_err("newline is not allowed");
        assert!(
            matches!(&error, Error::InvalidRequest(details) if !details.message.contains("line"))
        );
    }
}
