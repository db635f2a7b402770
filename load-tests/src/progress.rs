//! The progress line a run prints to stderr while it runs: the phase, how far it is, and the
//! live totals with their rates over the last interval. On a terminal the line is redrawn in
//! place; otherwise one line is printed per interval.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crate::clock::Window;
use crate::recorder::Shared;

/// The live totals at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Snapshot {
    calls: u64,
    actions: u64,
    games: u64,
    deliveries: u64,
    errors: u64,
    unexpected: u64,
}

impl Snapshot {
    fn take(shared: &Shared) -> Snapshot {
        let live = &shared.live;
        Snapshot {
            calls: live.calls.load(Ordering::Relaxed),
            actions: live.actions.load(Ordering::Relaxed),
            games: live.games.load(Ordering::Relaxed),
            deliveries: live.deliveries.load(Ordering::Relaxed),
            errors: live.errors.load(Ordering::Relaxed),
            unexpected: live.unexpected_errors.load(Ordering::Relaxed),
        }
    }
}

/// Prints the progress of phase `name` every `interval` until `done`.
pub(crate) async fn print_until_done(
    name: &'static str,
    window: Window,
    shared: Arc<Shared>,
    interval: Duration,
    mut done: watch::Receiver<bool>,
) {
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last = Snapshot::default();
    let mut ticks = tokio::time::interval_at(started + interval, interval);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = done.wait_for(|done| *done) => break,
        }
        let now = Snapshot::take(&shared);
        let line = progress_line(name, &window, Instant::now(), now, last, interval);
        last = now;
        let mut stderr = std::io::stderr().lock();
        // A failed write to stderr leaves nothing better to do than to go on measuring.
        let _ = if terminal {
            write!(stderr, "\r{line}\x1b[K")
        } else {
            writeln!(stderr, "{line}")
        };
        let _ = stderr.flush();
    }
    if terminal && Instant::now() >= started + interval {
        let _ = writeln!(std::io::stderr());
    }
}

/// One progress line.
fn progress_line(
    name: &str,
    window: &Window,
    now: Instant,
    current: Snapshot,
    last: Snapshot,
    interval: Duration,
) -> String {
    let seconds = interval.as_secs_f64().max(f64::EPSILON);
    let rate = |now: u64, before: u64| now.saturating_sub(before) as f64 / seconds;
    let stage = if window.is_warming_up(now) {
        let left = window.opens.saturating_duration_since(now);
        format!("warm-up {:.0}s left", left.as_secs_f64().ceil())
    } else {
        let elapsed = (now - window.opens).as_secs_f64();
        match window.closes {
            Some(closes) => format!(
                "measuring {elapsed:.0}s/{:.0}s",
                (closes - window.opens).as_secs_f64()
            ),
            None => format!("measuring {elapsed:.0}s"),
        }
    };
    let mut line = format!(
        "[{name}] {stage} | calls {} ({:.0}/s)",
        current.calls,
        rate(current.calls, last.calls)
    );
    if current.actions > 0 {
        line.push_str(&format!(
            " | actions {} ({:.0}/s)",
            current.actions,
            rate(current.actions, last.actions)
        ));
    }
    if current.games > 0 {
        line.push_str(&format!(
            " | games {} ({:.1}/s)",
            current.games,
            rate(current.games, last.games)
        ));
    }
    if current.deliveries > 0 {
        line.push_str(&format!(
            " | deliveries {} ({:.0}/s)",
            current.deliveries,
            rate(current.deliveries, last.deliveries)
        ));
    }
    line.push_str(&format!(
        " | errors {} ({} unexpected)",
        current.errors, current.unexpected
    ));
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_the_stage_totals_and_rates() {
        let start = Instant::now();
        let window = Window::new(start, Duration::from_secs(2), Some(Duration::from_secs(20)));
        let last = Snapshot {
            calls: 100,
            actions: 40,
            ..Snapshot::default()
        };
        let now = Snapshot {
            calls: 300,
            actions: 140,
            games: 3,
            errors: 1,
            unexpected: 1,
            ..Snapshot::default()
        };
        let measuring = progress_line(
            "play",
            &window,
            start + Duration::from_secs(7),
            now,
            last,
            Duration::from_secs(2),
        );
        assert_eq!(
            measuring,
            "[play] measuring 5s/20s | calls 300 (100/s) | actions 140 (50/s) | games 3 (1.5/s) | errors 1 (1 unexpected)"
        );
        let warming = progress_line(
            "baseline",
            &window,
            start + Duration::from_millis(500),
            Snapshot::default(),
            Snapshot::default(),
            Duration::from_secs(1),
        );
        assert_eq!(
            warming,
            "[baseline] warm-up 2s left | calls 0 (0/s) | errors 0 (0 unexpected)"
        );
    }
}
