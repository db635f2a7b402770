//! The report as a table for people: one block per phase, then the errors, the ratios to the
//! baseline and the verdict.

use std::fmt::{self, Display, Formatter};

use super::{LatencySummary, PhaseReport, Ratios, RunReport};

impl Display for RunReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let settings = &self.settings;
        writeln!(
            f,
            "deckmate-load {} -> {} | {} connections, {} in flight | seed {}",
            self.scenario,
            settings.targets.join(", "),
            settings.connections,
            settings.in_flight,
            settings.seed
        )?;
        if let Some(rate) = settings.rate_per_s {
            writeln!(
                f,
                "open loop: {rate} calls/s (latency from each call's scheduled start)"
            )?;
        }
        if !settings.server_pids.is_empty() {
            let pids: Vec<String> = settings.server_pids.iter().map(u32::to_string).collect();
            writeln!(f, "server processes: {}", pids.join(", "))?;
        }
        if !settings.redis_nodes.is_empty() {
            writeln!(f, "Redis nodes: {}", settings.redis_nodes.join(", "))?;
        }
        if !settings.variants.is_empty() {
            let variants: Vec<String> = settings
                .variants
                .iter()
                .map(|variant| format!("{} ({} seats)", variant.id, variant.seats))
                .collect();
            writeln!(f, "variants: {}", variants.join(", "))?;
        }
        if let Some(watchers) = settings.watchers_per_game {
            writeln!(f, "watchers per game: {watchers}")?;
        }
        if let Some(games) = settings.games_per_worker {
            writeln!(f, "games per worker: {games}")?;
        }
        if settings.api_key_sent {
            writeln!(f, "API key: sent as x-api-key on every call (not shown)")?;
        }
        if !settings.expected_errors.is_empty() {
            writeln!(
                f,
                "expected errors: {}",
                settings.expected_errors.join(", ")
            )?;
        }
        if let Some(baseline) = &self.baseline {
            writeln!(f)?;
            write_phase(f, baseline, settings.warmup_s)?;
        }
        writeln!(f)?;
        write_phase(f, &self.result, settings.warmup_s)?;
        writeln!(f)?;
        write_errors(f, self)?;
        match (&self.ratios, &self.baseline) {
            (Some(ratios), _) => write_ratios(f, ratios)?,
            (None, Some(_)) => writeln!(f, "ratio to baseline: the baseline measured nothing")?,
            (None, None) => {}
        }
        let mut reasons = self.stop_reasons().peekable();
        if reasons.peek().is_some() {
            for reason in reasons {
                writeln!(f, "stopped early: {reason}")?;
            }
        } else if self.stopped_early {
            writeln!(
                f,
                "stopped early (interrupted, or the error limit was reached)"
            )?;
        }
        match &self.failure {
            None => writeln!(f, "result: PASS (no unexpected errors)"),
            Some(failure) => writeln!(f, "result: FAIL ({failure})"),
        }
    }
}

/// Column headers of the latency table.
const LATENCY_HEADER: &str =
    "    calls     per s    mean µs     p50 µs     p90 µs     p99 µs   p99.9 µs     max µs";

/// One phase: its latency table, its totals and its CPU time.
fn write_phase(f: &mut Formatter<'_>, phase: &PhaseReport, warmup_s: f64) -> fmt::Result {
    writeln!(
        f,
        "{}: {:.1} s measured after {:.1} s warm-up",
        phase.name, phase.measured_s, warmup_s
    )?;
    writeln!(f, "  {:<12}{LATENCY_HEADER}", "")?;
    for method in &phase.methods {
        write_latency_row(f, method.method, method.calls_per_s, &method.latency)?;
    }
    if let Some(delay) = &phase.delivery_delay {
        write_latency_row(f, "delivery", phase.deliveries_per_s, delay)?;
    }
    if phase.actions > 0 || phase.games_finished > 0 {
        writeln!(
            f,
            "  games finished {} ({:.1}/s) | actions {} ({:.1}/s)",
            phase.games_finished, phase.games_per_s, phase.actions, phase.actions_per_s
        )?;
    }
    if !phase.variants.is_empty() {
        writeln!(
            f,
            "  {:<20}{:>10}{:>10}{:>12}{:>12}",
            "variant", "games", "games/s", "actions", "actions/s"
        )?;
        for variant in &phase.variants {
            writeln!(
                f,
                "  {:<20}{:>10}{:>10.1}{:>12}{:>12.1}",
                variant.id,
                variant.games_finished,
                variant.games_per_s,
                variant.actions,
                variant.actions_per_s
            )?;
        }
    }
    writeln!(
        f,
        "  all calls {} ({:.1}/s) | client CPU {:.2} s ({:.2} cores, {:.1} µs/call)",
        phase.calls,
        phase.calls_per_s,
        phase.client_cpu_s,
        phase.client_cpu_cores,
        phase.client_cpu_us_per_call
    )?;
    write_external(f, phase)
}

/// The server processes' CPU time and the Redis nodes' usage, when measured.
fn write_external(f: &mut Formatter<'_>, phase: &PhaseReport) -> fmt::Result {
    if let (Some(cpu), Some(per_call)) = (phase.server_cpu_s, phase.server_cpu_us_per_call) {
        let cores = if phase.measured_s > 0.0 {
            cpu / phase.measured_s
        } else {
            0.0
        };
        writeln!(
            f,
            "  server CPU {cpu:.2} s ({cores:.2} cores, {per_call:.1} µs/call)"
        )?;
    }
    if let (Some(cpu), Some(cpu_per_call), Some(bytes), Some(bytes_per_call)) = (
        phase.redis_cpu_s,
        phase.redis_cpu_us_per_call,
        phase.redis_bytes,
        phase.redis_bytes_per_call,
    ) {
        writeln!(
            f,
            "  Redis commands {cpu:.3} s ({cpu_per_call:.1} µs/call) | Redis traffic {bytes} \
             bytes ({bytes_per_call:.0} bytes/call)"
        )?;
    }
    for error in &phase.measurement_errors {
        writeln!(f, "  not measured: {error}")?;
    }
    Ok(())
}

/// One row of the latency table.
fn write_latency_row(
    f: &mut Formatter<'_>,
    name: &str,
    per_second: f64,
    latency: &LatencySummary,
) -> fmt::Result {
    writeln!(
        f,
        "  {:<12}{:>9}{:>10.1}{:>11.1}{:>11.1}{:>11.1}{:>11.1}{:>11.1}{:>11.1}",
        name,
        latency.count,
        per_second,
        latency.mean_us,
        latency.p50_us,
        latency.p90_us,
        latency.p99_us,
        latency.p999_us,
        latency.max_us
    )
}

/// The errors of every phase.
fn write_errors(f: &mut Formatter<'_>, report: &RunReport) -> fmt::Result {
    let phases = report
        .baseline
        .iter()
        .chain(std::iter::once(&report.result));
    let rows: Vec<_> = phases
        .flat_map(|phase| phase.errors.iter().map(move |error| (&phase.name, error)))
        .collect();
    if rows.is_empty() {
        return writeln!(f, "errors: none");
    }
    writeln!(
        f,
        "errors:\n  {:<10}{:<22}{:<22}{:>8}  expected",
        "phase", "code", "reason", "count"
    )?;
    for (phase, error) in rows {
        let reason = if error.reason.is_empty() {
            "-"
        } else {
            error.reason
        };
        writeln!(
            f,
            "  {:<10}{:<22}{:<22}{:>8}  {}",
            phase,
            error.code,
            reason,
            error.count,
            if error.expected { "yes" } else { "no" }
        )?;
    }
    Ok(())
}

/// The ratios to the baseline.
fn write_ratios(f: &mut Formatter<'_>, ratios: &Ratios) -> fmt::Result {
    let mut parts = vec![
        format!("calls/s {:.2}x", ratios.calls_per_s),
        format!("actions/s {:.2}x", ratios.actions_per_s),
    ];
    if let Some(act) = ratios.act_calls_per_s {
        parts.push(format!("Act calls/s {act:.2}x"));
    }
    if let Some(p50) = ratios.act_p50 {
        parts.push(format!("Act p50 {p50:.2}x"));
    }
    if let Some(p99) = ratios.act_p99 {
        parts.push(format!("Act p99 {p99:.2}x"));
    }
    if let Some(server_cpu) = ratios.server_cpu {
        parts.push(format!("server CPU/call {server_cpu:.2}x"));
    }
    writeln!(f, "ratio to baseline: {}", parts.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::super::{ErrorReport, MethodReport, PlayedVariant, Settings, VariantReport};
    use super::*;

    fn latency(p99_us: f64) -> LatencySummary {
        LatencySummary {
            count: 10,
            mean_us: 50.0,
            p50_us: 40.0,
            p90_us: 60.0,
            p99_us,
            p999_us: p99_us + 10.0,
            max_us: p99_us + 20.0,
        }
    }

    fn phase(name: &str, method: &'static str, p99_us: f64) -> PhaseReport {
        PhaseReport {
            name: name.into(),
            measured_s: 2.0,
            calls: 10,
            calls_per_s: 5.0,
            actions: 0,
            actions_per_s: 0.0,
            games_finished: 0,
            games_per_s: 0.0,
            deliveries: 0,
            deliveries_per_s: 0.0,
            methods: vec![MethodReport {
                method,
                calls_per_s: 5.0,
                latency: latency(p99_us),
            }],
            delivery_delay: None,
            variants: Vec::new(),
            errors: Vec::new(),
            unexpected_errors: 0,
            client_cpu_s: 0.5,
            client_cpu_cores: 0.25,
            client_cpu_us_per_call: 50_000.0,
            server_cpu_s: None,
            server_cpu_us_per_call: None,
            redis_cpu_s: None,
            redis_cpu_us_per_call: None,
            redis_bytes: None,
            redis_bytes_per_call: None,
            measurement_errors: Vec::new(),
            stop_reason: None,
        }
    }

    fn report() -> RunReport {
        let mut result = phase("play", "Act", 300.0);
        result.actions = 10;
        result.actions_per_s = 5.0;
        result.games_finished = 1;
        result.games_per_s = 0.5;
        result.variants = vec![VariantReport {
            id: "pigeon_chess".into(),
            games_finished: 1,
            games_per_s: 0.5,
            actions: 10,
            actions_per_s: 5.0,
        }];
        let baseline = phase("baseline", "Check", 100.0);
        let ratios = Ratios::between(&result, &baseline);
        RunReport {
            scenario: "play",
            settings: Settings {
                target: "http://127.0.0.1:50051".into(),
                targets: vec!["http://127.0.0.1:50051".into()],
                connections: 2,
                in_flight: 8,
                rate_per_s: None,
                warmup_s: 1.0,
                duration_s: Some(2.0),
                baseline_duration_s: 2.0,
                seed: 1,
                variants: vec![PlayedVariant {
                    id: "pigeon_chess".into(),
                    seats: 2,
                }],
                games: None,
                watchers_per_game: None,
                games_per_worker: None,
                expected_errors: Vec::new(),
                api_key_sent: false,
                server_pids: Vec::new(),
                redis_nodes: Vec::new(),
            },
            baseline: Some(baseline),
            result,
            ratios,
            stopped_early: false,
            unexpected_errors: 0,
            passed: true,
            failure: None,
        }
    }

    #[test]
    fn the_table_shows_phases_ratios_and_the_verdict() {
        let text = report().to_string();
        assert!(text.starts_with("deckmate-load play -> http://127.0.0.1:50051"));
        assert!(text.contains("variants: pigeon_chess (2 seats)"), "{text}");
        assert!(text.contains("baseline: 2.0 s measured after 1.0 s warm-up"));
        let act_row = text
            .lines()
            .find(|line| line.trim_start().starts_with("Act "))
            .expect("an Act row");
        assert!(act_row.contains("300.0"), "{act_row}");
        assert!(
            text.contains("  pigeon_chess                 1       0.5"),
            "{text}"
        );
        assert!(text.contains("errors: none"));
        assert!(text.contains("Act p99 3.00x"), "{text}");
        assert!(
            text.trim_end()
                .ends_with("result: PASS (no unexpected errors)")
        );
    }

    #[test]
    fn several_targets_and_the_external_meters_are_shown() {
        let mut report = report();
        report.settings.targets = vec![
            "http://127.0.0.1:50051".into(),
            "http://127.0.0.1:50052".into(),
        ];
        report.settings.server_pids = vec![11, 12];
        report.settings.redis_nodes = vec!["redis://127.0.0.1:6379".into()];
        for phase in [&mut report.result, report.baseline.as_mut().unwrap()] {
            phase.server_cpu_s = Some(0.5);
            phase.server_cpu_us_per_call = Some(if phase.name == "play" { 300.0 } else { 100.0 });
            phase.redis_cpu_s = Some(0.012);
            phase.redis_cpu_us_per_call = Some(1200.0);
            phase.redis_bytes = Some(40_000);
            phase.redis_bytes_per_call = Some(4000.0);
        }
        report.result.measurement_errors = vec!["Redis: INFO stats failed".into()];
        report.ratios = Ratios::between(&report.result, report.baseline.as_ref().unwrap());
        let text = report.to_string();
        assert!(
            text.starts_with(
                "deckmate-load play -> http://127.0.0.1:50051, http://127.0.0.1:50052 |"
            ),
            "{text}"
        );
        assert!(text.contains("server processes: 11, 12"), "{text}");
        assert!(
            text.contains("Redis nodes: redis://127.0.0.1:6379"),
            "{text}"
        );
        assert!(
            text.contains("  server CPU 0.50 s (0.25 cores, 300.0 µs/call)"),
            "{text}"
        );
        assert!(
            text.contains(
                "  Redis commands 0.012 s (1200.0 µs/call) | Redis traffic 40000 bytes (4000 bytes/call)"
            ),
            "{text}"
        );
        assert!(
            text.contains("  not measured: Redis: INFO stats failed"),
            "{text}"
        );
        assert!(text.contains("server CPU/call 3.00x"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["settings"]["target"], "http://127.0.0.1:50051");
        assert_eq!(json["settings"]["targets"][1], "http://127.0.0.1:50052");
        assert_eq!(json["result"]["server_cpu_us_per_call"], 300.0);
        assert_eq!(json["result"]["redis_bytes_per_call"], 4000.0);
        assert_eq!(json["ratios"]["server_cpu"], 3.0);
    }

    #[test]
    fn failures_are_listed_and_fail_the_run() {
        let mut report = report();
        report.result.errors.push(ErrorReport {
            code: "ABORTED",
            reason: "STALE_VERSION",
            count: 3,
            expected: false,
        });
        report.unexpected_errors = 3;
        (report.passed, report.failure) = RunReport::verdict(&report.result, 3);
        let text = report.to_string();
        assert!(text.contains("STALE_VERSION"), "{text}");
        assert!(
            text.trim_end()
                .ends_with("result: FAIL (3 unexpected errors)")
        );
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["result"]["errors"][0]["reason"], "STALE_VERSION");
        assert_eq!(json["passed"], false);
        assert_eq!(json["failure"], "3 unexpected errors");
        assert!(json["ratios"]["act_p99"].as_f64().is_some());
    }

    #[test]
    fn a_run_without_a_successful_call_fails_and_says_why_it_stopped() {
        let mut report = report();
        report.result.calls = 0;
        report.result.methods.clear();
        report.result.errors.push(ErrorReport {
            code: "INVALID_ARGUMENT",
            reason: "INVALID_REQUEST",
            count: 4,
            expected: true,
        });
        report.result.stop_reason = Some("the server refuses client seeds".into());
        report.stopped_early = true;
        report.settings.api_key_sent = true;
        (report.passed, report.failure) = RunReport::verdict(&report.result, 0);
        assert!(!report.passed);
        let text = report.to_string();
        assert!(
            text.contains("API key: sent as x-api-key on every call (not shown)"),
            "{text}"
        );
        assert!(
            text.contains("stopped early: the server refuses client seeds\n"),
            "{text}"
        );
        assert!(
            text.trim_end().ends_with(
                "result: FAIL (no successful play call in the measured window; every call \
                 failed: INVALID_ARGUMENT INVALID_REQUEST x4 (expected))"
            ),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["settings"]["api_key_sent"], true);
        assert_eq!(
            json["result"]["stop_reason"],
            "the server refuses client seeds"
        );
        assert_eq!(json["passed"], false);
        assert!(json["failure"].as_str().unwrap().contains("x4 (expected)"));
        assert_eq!(report.stop_reasons().count(), 1);
    }
}
