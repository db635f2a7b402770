//! [`Connection`]: what every call of one client shares: the channel, the retry policy and the
//! API key.

use tonic::transport::Channel;

use crate::RetryPolicy;
use crate::credential::Credential;
use crate::pb::game_service_client::GameServiceClient;
use crate::secret_header::SecretHeader;

/// The metadata key of the API key.
pub(crate) const API_KEY_HEADER: &str = "x-api-key";

/// One client's connection and call settings. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Connection {
    rpc: GameServiceClient<Channel>,
    retry: RetryPolicy,
    api_key: Option<SecretHeader>,
}

impl Connection {
    /// A connection over `channel`.
    pub(crate) fn new(channel: Channel, retry: RetryPolicy, api_key: Option<SecretHeader>) -> Self {
        Connection {
            rpc: GameServiceClient::new(channel),
            retry,
            api_key,
        }
    }

    /// The generated client (a cheap clone sharing the channel).
    pub(crate) fn rpc(&self) -> GameServiceClient<Channel> {
        self.rpc.clone()
    }

    /// The retry policy.
    pub(crate) fn retry(&self) -> &RetryPolicy {
        &self.retry
    }

    /// Replaces the retry policy.
    pub(crate) fn set_retry(&mut self, retry: RetryPolicy) {
        self.retry = retry;
    }

    /// `message` as a request carrying the API key and, for a seat, its credential.
    pub(crate) fn request<T>(
        &self,
        message: T,
        credential: Option<&Credential>,
    ) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        if let Some(api_key) = &self.api_key {
            api_key.apply(&mut request);
        }
        if let Some(credential) = credential {
            credential.authorize(&mut request);
        }
        request
    }
}
