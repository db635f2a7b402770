//! The scenarios, each a pair of worker functions run by [`crate::phase::run_phase`].

pub(crate) mod act;
pub(crate) mod baseline;
pub(crate) mod play;
#[cfg(test)]
mod test_phase;
pub(crate) mod watch;

use std::time::Duration;

/// How long a worker waits after a failure before going on, so that a broken server is not
/// hammered in a tight loop (and the error limit is not reached in a blink).
const ERROR_PAUSE: Duration = Duration::from_millis(10);

/// Waits [`ERROR_PAUSE`].
pub(crate) async fn pause_after_error() {
    tokio::time::sleep(ERROR_PAUSE).await;
}
