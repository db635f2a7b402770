//! When a phase measures: a warm-up whose results are dropped, then the measured window; and
//! the [`StopSignal`] that ends a run early (ctrl-c, or too many unexpected errors).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// The measured window of one phase: it opens when the warm-up ends and closes after the
/// duration (or never, when the phase ends by a game count instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// The end of the warm-up.
    pub(crate) opens: Instant,
    /// The end of the measured window, if the phase has a duration.
    pub(crate) closes: Option<Instant>,
}

impl Window {
    /// The window of a phase starting at `start`.
    pub(crate) fn new(start: Instant, warmup: Duration, duration: Option<Duration>) -> Window {
        let opens = start + warmup;
        Window {
            opens,
            closes: duration.map(|duration| opens + duration),
        }
    }

    /// Whether `at` falls inside the window (the bounds included).
    pub(crate) fn contains(&self, at: Instant) -> bool {
        at >= self.opens && self.closes.is_none_or(|closes| at <= closes)
    }

    /// Whether the window has closed at `now`: no new work may start.
    pub(crate) fn has_closed(&self, now: Instant) -> bool {
        self.closes.is_some_and(|closes| now >= closes)
    }

    /// Whether `now` is still in the warm-up.
    pub(crate) fn is_warming_up(&self, now: Instant) -> bool {
        now < self.opens
    }
}

/// Ends a run early: workers stop starting new work once it has been triggered. Cheap to clone;
/// clones share the signal.
#[derive(Clone, Debug)]
pub struct StopSignal {
    sender: Arc<watch::Sender<bool>>,
}

impl Default for StopSignal {
    fn default() -> Self {
        StopSignal::new()
    }
}

impl StopSignal {
    /// A signal that has not been triggered.
    pub fn new() -> StopSignal {
        StopSignal {
            sender: Arc::new(watch::Sender::new(false)),
        }
    }

    /// Asks every worker to stop; calls already sent still finish and are counted.
    pub fn trigger(&self) {
        self.sender.send_replace(true);
    }

    /// Whether the signal has been triggered.
    pub fn is_triggered(&self) -> bool {
        *self.sender.borrow()
    }

    /// Completes once the signal has been triggered.
    pub async fn triggered(&self) {
        let mut receiver = self.sender.subscribe();
        // The sender lives as long as `self`, so waiting cannot fail.
        let _ = receiver.wait_for(|stopped| *stopped).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_spans_the_duration_after_the_warmup() {
        let start = Instant::now();
        let window = Window::new(start, Duration::from_secs(2), Some(Duration::from_secs(10)));
        assert!(window.is_warming_up(start + Duration::from_secs(1)));
        assert!(!window.contains(start + Duration::from_secs(1)));
        assert!(window.contains(start + Duration::from_secs(2)));
        assert!(window.contains(start + Duration::from_secs(12)));
        assert!(!window.contains(start + Duration::from_secs(13)));
        assert!(!window.has_closed(start + Duration::from_secs(11)));
        assert!(window.has_closed(start + Duration::from_secs(12)));
    }

    #[test]
    fn a_window_without_duration_never_closes() {
        let start = Instant::now();
        let window = Window::new(start, Duration::ZERO, None);
        let much_later = start + Duration::from_secs(1_000_000);
        assert!(window.contains(much_later));
        assert!(!window.has_closed(much_later));
        assert!(!window.is_warming_up(start));
    }

    #[tokio::test]
    async fn the_stop_signal_wakes_waiters_and_stays_triggered() {
        let stop = StopSignal::new();
        assert!(!stop.is_triggered());
        let waiter = {
            let stop = stop.clone();
            tokio::spawn(async move { stop.triggered().await })
        };
        stop.trigger();
        waiter.await.expect("the waiter finishes");
        assert!(stop.is_triggered());
        // Waiting after the trigger returns at once.
        stop.triggered().await;
    }
}
