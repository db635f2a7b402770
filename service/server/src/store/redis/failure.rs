//! Every Redis call runs under a deadline, and its failures become [`StoreError`]s: anything
//! that says Redis cannot answer now (connection refused or lost, no answer in time, loading its
//! data after a restart, out of memory, a failover in progress) is
//! [`StoreError::Unavailable`], which the API reports as UNAVAILABLE `STORE_UNAVAILABLE`; an
//! answer of the wrong shape is [`StoreError::Corrupt`].

use std::time::Duration;

use ::redis::{ErrorKind, RedisError, RedisResult};

use crate::store::StoreError;

/// Runs one Redis call, giving up after `timeout`.
pub(super) async fn bounded<T>(
    timeout: Duration,
    what: &str,
    call: impl Future<Output = RedisResult<T>>,
) -> Result<T, StoreError> {
    match tokio::time::timeout(timeout, call).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(classify(what, &error)),
        Err(_) => Err(StoreError::Unavailable(format!(
            "{what}: Redis did not answer within {timeout:?}"
        ))),
    }
}

/// The store error a Redis error means.
pub(super) fn classify(what: &str, error: &RedisError) -> StoreError {
    match error.kind() {
        ErrorKind::UnexpectedReturnType | ErrorKind::Parse => {
            StoreError::Corrupt(format!("{what}: unexpected answer from Redis: {error}"))
        }
        _ => StoreError::Unavailable(format!("{what}: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn slow_calls_are_unavailable() {
        let slow = async {
            tokio::time::sleep(Duration::from_secs(10)).await;
            Ok::<u32, RedisError>(1)
        };
        let error = bounded(Duration::from_secs(2), "load", slow)
            .await
            .unwrap_err();
        assert!(
            matches!(&error, StoreError::Unavailable(m) if m.contains("load") && m.contains("2s")),
            "{error:?}"
        );
        let quick = bounded(Duration::from_secs(2), "load", async {
            Ok::<u32, RedisError>(5)
        });
        assert_eq!(quick.await, Ok(5));
    }

    #[test]
    fn connection_failures_are_unavailable_and_odd_answers_corrupt() {
        let refused = RedisError::from(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert!(matches!(
            classify("commit", &refused),
            StoreError::Unavailable(m) if m.starts_with("commit: ")
        ));
        let odd = RedisError::from((ErrorKind::UnexpectedReturnType, "not a list"));
        assert!(matches!(classify("load", &odd), StoreError::Corrupt(_)));
    }
}
