//! The `Watch` stream as the client hands it out: one observation per version, resumed from
//! the last version received when the connection fails for a temporary reason.

use futures::Stream;

use crate::access::GameAccess;
use crate::{Error, pb};

/// Where a watch stands between two items.
struct WatchState {
    access: GameAccess,
    /// The last version delivered; a resumed call starts after it, so no version is delivered
    /// twice or skipped.
    last_version: u64,
    /// The open call, if any.
    stream: Option<tonic::Streaming<pb::ObserveResponse>>,
    /// Failures since the last item arrived.
    failures: u32,
    /// Set after a final error has been delivered.
    finished: bool,
}

/// The stream of every version after `from_version`. It ends when the server ends the call
/// (after the game's final version) and after delivering an error that retries did not cure.
pub(crate) fn resuming_watch(
    access: GameAccess,
    from_version: u64,
) -> impl Stream<Item = Result<pb::ObserveResponse, Error>> + Send + Unpin + 'static {
    let state = WatchState {
        access,
        last_version: from_version,
        stream: None,
        failures: 0,
        finished: false,
    };
    // Boxed so that callers can poll it without pinning it themselves.
    Box::pin(futures::stream::unfold(state, |mut state| async move {
        if state.finished {
            return None;
        }
        let outcome = next_item(&mut state).await;
        if let Some(Err(_)) = outcome {
            state.finished = true;
        }
        outcome.map(|item| (item, state))
    }))
}

/// The next item: an observation, a final error, or `None` when the server ended the stream.
async fn next_item(state: &mut WatchState) -> Option<Result<pb::ObserveResponse, Error>> {
    loop {
        let mut stream = match state.stream.take() {
            Some(stream) => stream,
            None => match state.access.open_watch(state.last_version).await {
                Ok(stream) => stream,
                Err(error) => {
                    if retry_after(state, &error).await {
                        continue;
                    }
                    return Some(Err(error));
                }
            },
        };
        match stream.message().await {
            Ok(Some(observation)) => {
                state.stream = Some(stream);
                if !is_new(state.last_version, &observation) {
                    continue;
                }
                state.last_version = observation.version;
                state.failures = 0;
                return Some(Ok(observation));
            }
            Ok(None) => return None,
            Err(status) => {
                let error = Error::from(status);
                if retry_after(state, &error).await {
                    continue;
                }
                return Some(Err(error));
            }
        }
    }
}

/// Whether `observation` comes after the last version delivered. A resumed call may repeat
/// versions the previous one already delivered (a server or proxy that replays from an older
/// point); the caller must see each version once, in order.
fn is_new(last_version: u64, observation: &pb::ObserveResponse) -> bool {
    observation.version > last_version
}

/// Counts a failure and, when the retry policy allows another attempt, waits before it (at
/// least as long as the server asked, within the policy's maximum).
async fn retry_after(state: &mut WatchState, error: &Error) -> bool {
    state.failures += 1;
    let policy = *state.access.retry();
    if !policy.allows_retry(state.failures, error) {
        return false;
    }
    tokio::time::sleep(policy.pause(state.failures, error.retry_delay())).await;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(version: u64) -> pb::ObserveResponse {
        pb::ObserveResponse {
            version,
            ..Default::default()
        }
    }

    #[test]
    fn only_versions_after_the_last_delivered_are_new() {
        assert!(is_new(3, &at(4)));
        assert!(!is_new(3, &at(3)), "the last delivered version again");
        assert!(!is_new(3, &at(1)), "an older version");
        assert!(is_new(0, &at(1)));
    }
}
