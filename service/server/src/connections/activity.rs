//! [`Activity`]: what one connection is doing (requests in flight, whether it has sent one
//! yet), and [`Activity::until_close`], which says when `--idle-timeout` or
//! `--handshake-timeout` closes it.
//!
//! Every request passes here twice (it starts, it ends), so that part is a short lock and
//! nothing else: the waiter in [`Activity::until_close`] is not woken by requests. It sleeps
//! until the deadline the state it last read gives, and reads the state again then: a connection
//! that turned busy meanwhile is found busy (and looked at again one idle timeout later), one
//! that turned idle is closed at its own deadline, which is always later than the look that
//! found it busy. Only the connection's end wakes the waiter at once.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

/// The timeouts that close a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// With no request in flight for this long, the connection is closed gracefully.
    pub idle: Duration,
    /// Without a first request this long after the accept, the connection is closed.
    pub handshake: Duration,
}

/// Why a connection is to be closed, or that it closed by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Close {
    /// No request came within the handshake timeout.
    Handshake,
    /// No request was in flight for the idle timeout.
    Idle,
    /// The connection is gone already (the client or the server closed it).
    Gone,
}

/// The activity of one connection; cheap to clone, clones share it.
#[derive(Clone, Debug)]
pub struct Activity {
    accepted_at: Instant,
    shared: Arc<Shared>,
}

/// What the clones of one [`Activity`] share.
#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Notified when the connection is gone.
    gone: Notify,
}

#[derive(Clone, Copy, Debug)]
struct State {
    in_flight: usize,
    requests: u64,
    /// When the last request in flight ended (the accept, before any request).
    idle_since: Instant,
    open: bool,
}

impl Activity {
    /// A connection accepted at `accepted_at`, with no request yet.
    pub fn new(accepted_at: Instant) -> Activity {
        let state = State {
            in_flight: 0,
            requests: 0,
            idle_since: accepted_at,
            open: true,
        };
        Activity {
            accepted_at,
            shared: Arc::new(Shared {
                state: Mutex::new(state),
                gone: Notify::new(),
            }),
        }
    }

    /// A request started; it is in flight until the returned guard is dropped (for a stream,
    /// with its response body).
    pub fn request_started(&self) -> InFlight {
        {
            let mut state = self.lock();
            state.in_flight += 1;
            state.requests += 1;
        }
        InFlight {
            activity: self.clone(),
        }
    }

    /// The connection is gone: [`Activity::until_close`] answers [`Close::Gone`].
    pub fn connection_closed(&self) {
        self.lock().open = false;
        self.shared.gone.notify_waiters();
    }

    /// Waits until a timeout says to close the connection, or it is gone.
    pub async fn until_close(&self, timeouts: Timeouts) -> Close {
        loop {
            // Registered before the state is read, so that a close between the two still wakes
            // this wait.
            let gone = self.shared.gone.notified();
            tokio::pin!(gone);
            gone.as_mut().enable();
            let state = *self.lock();
            if !state.open {
                return Close::Gone;
            }
            let look_again_at = match self.due(state, timeouts) {
                Some((at, close)) if at <= Instant::now() => return close,
                Some((at, _)) => at,
                // Busy: it cannot be idle for long enough before one idle timeout from now.
                None => Instant::now() + timeouts.idle,
            };
            tokio::select! {
                () = gone => {}
                () = tokio::time::sleep_until(look_again_at) => {}
            }
        }
    }

    /// When `state` is to be closed and why, or `None` while a request is in flight.
    fn due(&self, state: State, timeouts: Timeouts) -> Option<(Instant, Close)> {
        if state.in_flight > 0 {
            return None;
        }
        let idle = (state.idle_since + timeouts.idle, Close::Idle);
        if state.requests > 0 {
            return Some(idle);
        }
        let handshake = (self.accepted_at + timeouts.handshake, Close::Handshake);
        Some(if handshake.0 <= idle.0 {
            handshake
        } else {
            idle
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every update is a few plain assignments: a panic elsewhere leaves the state usable.
        self.shared
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One request in flight on a connection, until dropped.
#[derive(Debug)]
pub struct InFlight {
    activity: Activity,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut state = self.activity.lock();
        state.in_flight -= 1;
        if state.in_flight == 0 {
            state.idle_since = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUTS: Timeouts = Timeouts {
        idle: Duration::from_secs(300),
        handshake: Duration::from_secs(10),
    };

    /// `until_close`, or `None` if it has not answered after `within` (of paused time).
    async fn close_within(activity: &Activity, within: Duration) -> Option<Close> {
        tokio::time::timeout(within, activity.until_close(TIMEOUTS))
            .await
            .ok()
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_without_a_request_closes_at_the_handshake_timeout() {
        let start = Instant::now();
        let activity = Activity::new(start);
        assert_eq!(close_within(&activity, Duration::from_secs(9)).await, None);
        assert_eq!(activity.until_close(TIMEOUTS).await, Close::Handshake);
        assert_eq!(start.elapsed(), TIMEOUTS.handshake);
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_in_flight_keeps_the_connection_and_idleness_counts_from_its_end() {
        let activity = Activity::new(Instant::now());
        let call = activity.request_started();
        // A Watch open for an hour: no timeout closes the connection.
        assert_eq!(
            close_within(&activity, Duration::from_secs(3600)).await,
            None
        );
        drop(call);
        let idle_from = Instant::now();
        assert_eq!(
            close_within(&activity, TIMEOUTS.idle - Duration::from_secs(1)).await,
            None
        );
        // A second request restarts the idle clock when it ends.
        drop(activity.request_started());
        let restarted = Instant::now();
        assert_eq!(activity.until_close(TIMEOUTS).await, Close::Idle);
        assert_eq!(restarted.elapsed(), TIMEOUTS.idle);
        assert!(idle_from.elapsed() > TIMEOUTS.idle);
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_arriving_while_waiting_ends_the_handshake_timeout() {
        let activity = Activity::new(Instant::now());
        let waiting = tokio::spawn({
            let activity = activity.clone();
            async move { activity.until_close(TIMEOUTS).await }
        });
        tokio::time::sleep(Duration::from_secs(5)).await;
        let call = activity.request_started();
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!waiting.is_finished(), "closed with a request in flight");
        drop(call);
        assert_eq!(waiting.await.unwrap(), Close::Idle);
    }

    #[tokio::test(start_paused = true)]
    async fn overlapping_requests_keep_the_connection_until_the_last_one_ends() {
        let activity = Activity::new(Instant::now());
        let waiting = tokio::spawn({
            let activity = activity.clone();
            async move { activity.until_close(TIMEOUTS).await }
        });
        let first = activity.request_started();
        let second = activity.request_started();
        tokio::time::sleep(Duration::from_secs(5)).await;
        // Ends while the second is in flight: nothing the waiter acts on changes.
        drop(first);
        tokio::time::sleep(TIMEOUTS.idle * 2).await;
        assert!(!waiting.is_finished(), "closed with a request in flight");
        let third = activity.request_started();
        drop(second);
        tokio::time::sleep(TIMEOUTS.idle * 2).await;
        assert!(!waiting.is_finished(), "closed with a request in flight");
        drop(third);
        let last_ended = Instant::now();
        assert_eq!(waiting.await.unwrap(), Close::Idle);
        assert_eq!(last_ended.elapsed(), TIMEOUTS.idle);
    }

    #[tokio::test(start_paused = true)]
    async fn a_closed_connection_is_gone_at_once() {
        let activity = Activity::new(Instant::now());
        let waiting = tokio::spawn({
            let activity = activity.clone();
            async move { activity.until_close(TIMEOUTS).await }
        });
        tokio::task::yield_now().await;
        activity.connection_closed();
        assert_eq!(waiting.await.unwrap(), Close::Gone);
        assert_eq!(activity.until_close(TIMEOUTS).await, Close::Gone);
    }
}
