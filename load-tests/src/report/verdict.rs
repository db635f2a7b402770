//! Whether a run passed, and why not in words. A run fails on any unexpected error, and also
//! when its scenario phase completed no successful call in its measured window, whatever
//! `--expect` tolerates: a run whose every call failed with an expected reason (every
//! `CreateGame` shed as `OVERLOADED`, say) measured nothing, and its figures would read as a
//! server doing nothing very fast.

use super::PhaseReport;

/// Why the run whose scenario phase is `result`, with `unexpected_errors` in all its phases,
/// failed; `None` when it passed.
pub(crate) fn failure(result: &PhaseReport, unexpected_errors: u64) -> Option<String> {
    let mut reasons = Vec::new();
    if unexpected_errors > 0 {
        reasons.push(format!("{unexpected_errors} unexpected errors"));
    }
    if result.calls == 0 {
        reasons.push(no_calls(result));
    }
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// Why the phase `result`, which completed no call, measured nothing: the failures it saw
/// instead, by reason and count.
fn no_calls(result: &PhaseReport) -> String {
    let name = &result.name;
    if result.errors.is_empty() {
        return format!(
            "no successful {name} call in the measured window, and no error: the window \
             closed, or the run was stopped, before a call completed"
        );
    }
    let counts: Vec<String> = result
        .errors
        .iter()
        .map(|error| {
            let kind = if error.reason.is_empty() {
                error.code.to_string()
            } else {
                format!("{} {}", error.code, error.reason)
            };
            let expected = if error.expected {
                "expected"
            } else {
                "unexpected"
            };
            format!("{kind} x{} ({expected})", error.count)
        })
        .collect();
    format!(
        "no successful {name} call in the measured window; every call failed: {}",
        counts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::super::ErrorReport;
    use super::*;
    use crate::errors::ExpectedErrors;
    use crate::phase::PhaseResult;
    use crate::recorder::Tally;

    fn empty_phase() -> PhaseReport {
        let result = PhaseResult {
            tally: Tally::default(),
            measured: std::time::Duration::from_secs(1),
            cpu: std::time::Duration::ZERO,
            external: Default::default(),
            stop_reason: None,
        };
        PhaseReport::new("play", &result, &[], &ExpectedErrors::none())
    }

    fn error(code: &'static str, reason: &'static str, count: u64, expected: bool) -> ErrorReport {
        ErrorReport {
            code,
            reason,
            count,
            expected,
        }
    }

    #[test]
    fn a_phase_of_expected_failures_only_fails_and_names_them() {
        let mut shed = empty_phase();
        shed.errors = vec![
            error("RESOURCE_EXHAUSTED", "LIMIT_REACHED", 3, true),
            error("UNAVAILABLE", "OVERLOADED", 812, true),
        ];
        let failure = failure(&shed, 0).expect("nothing succeeded");
        assert_eq!(
            failure,
            "no successful play call in the measured window; every call failed: \
             RESOURCE_EXHAUSTED LIMIT_REACHED x3 (expected), UNAVAILABLE OVERLOADED x812 \
             (expected)"
        );
    }

    #[test]
    fn unexpected_errors_and_an_empty_window_both_count() {
        let mut broken = empty_phase();
        broken.errors = vec![error("CANCELLED", "", 2, false)];
        assert_eq!(
            failure(&broken, 2).as_deref(),
            Some(
                "2 unexpected errors; no successful play call in the measured window; every \
                 call failed: CANCELLED x2 (unexpected)"
            )
        );
        let idle = failure(&empty_phase(), 0).expect("nothing measured");
        assert!(idle.contains("and no error"), "{idle}");
    }

    #[test]
    fn a_phase_with_calls_passes_unless_an_error_was_unexpected() {
        let mut busy = empty_phase();
        busy.calls = 10;
        busy.errors = vec![error("UNAVAILABLE", "OVERLOADED", 5, true)];
        assert_eq!(failure(&busy, 0), None);
        assert_eq!(failure(&busy, 1).as_deref(), Some("1 unexpected errors"));
    }
}
