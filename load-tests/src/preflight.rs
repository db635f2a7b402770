//! What each server says about itself (`GetServerInfo`), checked against the run before any
//! load: a server that refuses client seeds under `--game-seeds`, or that requires an API key
//! when the run has none, would refuse every `CreateGame`, and one whose per-caller quotas are
//! below what the run opens at once would refuse its first games ([`crate::game_quotas`]); the
//! run then stops at once with what to change instead of failing a hundred calls the same way.
//!
//! A server older than `GetServerInfo` answers `UNIMPLEMENTED`; it is not checked here, and the
//! run recognises a refused seed by its first refusal instead ([`crate::client_seeds`]).

use deckmate::{Client, pb};
use tonic::Code;

use crate::SetupError;
use crate::game_quotas::{self, Opening};

/// What the run needs of the servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Needs {
    /// The run sends client seeds (`--game-seeds`, the arena): what to tell the user when the
    /// server refuses them.
    pub(crate) client_seeds: Option<&'static str>,
    /// The run sends an API key.
    pub(crate) has_api_key: bool,
    /// What the run opens at once on each server, checked against its quotas; `None` when the
    /// run expects `LIMIT_REACHED` or waits out the quotas.
    pub(crate) opening: Option<Opening>,
}

/// Asks the server at `target` (through `client`) for its features and limits and checks them
/// against `needs`; `Ok` too when the server cannot say. Returns the server's limits when it
/// reported them.
pub(crate) async fn check(
    client: &Client,
    target: &str,
    needs: Needs,
) -> Result<Option<pb::ServerLimits>, SetupError> {
    let info = match client.server_info().await {
        Ok(info) => info,
        Err(deckmate::Error::Other { status, .. }) if status.code() == Code::Unimplemented => {
            return Ok(None);
        }
        Err(error) => {
            return Err(SetupError::Server(format!(
                "GetServerInfo failed on {target}: {error}"
            )));
        }
    };
    if let Some(problem) = refusal(info.features.unwrap_or_default(), needs) {
        return Err(SetupError::Server(format!("{target}: {problem}")));
    }
    if let (Some(limits), Some(opening)) = (&info.limits, needs.opening)
        && let Some(problem) = game_quotas::opening_refusal(limits, opening)
    {
        return Err(SetupError::Server(format!("{target}: {problem}")));
    }
    Ok(info.limits)
}

/// What stops a run with `needs` on a server with `features`, if anything.
fn refusal(features: pb::ServerFeatures, needs: Needs) -> Option<&'static str> {
    if let Some(hint) = needs.client_seeds
        && !features.client_seeds
    {
        return Some(hint);
    }
    if features.api_keys && !needs.has_api_key {
        return Some(
            "the server requires an API key to create games (it runs with `--api-keys-file`): \
             give `--api-key KEY`, or set DECKMATE_API_KEY",
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(client_seeds: bool, api_keys: bool) -> pb::ServerFeatures {
        pb::ServerFeatures {
            client_seeds,
            api_keys,
            ..pb::ServerFeatures::default()
        }
    }

    #[test]
    fn seeds_are_refused_only_when_the_run_sends_them() {
        let seeded = Needs {
            client_seeds: Some(crate::client_seeds::GAME_SEEDS_HINT),
            has_api_key: false,
            opening: None,
        };
        let problem = refusal(features(false, false), seeded).expect("refused");
        assert!(problem.contains("`--allow-client-seed`"), "{problem}");
        assert_eq!(refusal(features(true, false), seeded), None);
        let unseeded = Needs {
            client_seeds: None,
            ..seeded
        };
        assert_eq!(refusal(features(false, false), unseeded), None);
    }

    #[test]
    fn a_keyed_server_needs_a_key() {
        let keyless = Needs {
            client_seeds: None,
            has_api_key: false,
            opening: None,
        };
        let problem = refusal(features(false, true), keyless).expect("refused");
        assert!(problem.contains("--api-key"), "{problem}");
        let keyed = Needs {
            has_api_key: true,
            ..keyless
        };
        assert_eq!(refusal(features(false, true), keyed), None);
        // A key sent to a server without keys is ignored there.
        assert_eq!(refusal(features(false, false), keyed), None);
    }
}
