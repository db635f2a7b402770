//! The labelled series are on the page at 0 from start-up, and the recording sites count into
//! those same series.

use metrics_exporter_prometheus::PrometheusRecorder;

use super::*;
use crate::clocks::TimeoutPolicy;

/// The RPC names the API handlers give `rpc_answered`, written out here to check what start-up
/// reads from the descriptors.
const METHODS: [&str; 7] = [
    "CreateGame",
    "Act",
    "Observe",
    "Watch",
    "GetHistory",
    "ListVariants",
    "GetServerInfo",
];

/// A recorder with the server's buckets, after `then` ran against it.
fn page_after(then: impl FnOnce()) -> String {
    let recorder: PrometheusRecorder = builder().expect("valid buckets").build_recorder();
    let handle = recorder.handle();
    metrics::with_local_recorder(&recorder, then);
    handle.render()
}

/// The series of `metric` on `page` (its sample lines with labels).
fn series<'a>(page: &'a str, metric: &str) -> Vec<&'a str> {
    let prefix = format!("{metric}{{");
    page.lines()
        .filter(|line| line.starts_with(&prefix))
        .collect()
}

/// Asserts that `line` is on `page` as a whole line.
fn assert_line(page: &str, line: &str) {
    assert!(page.lines().any(|l| l == line), "no `{line}` in:\n{page}");
}

#[test]
fn every_rpc_method_and_code_starts_at_zero() {
    let page = page_after(start_at_zero);
    for line in [
        r#"deckmate_rpc_requests_total{method="Act",code="OK"} 0"#,
        r#"deckmate_rpc_requests_total{method="Act",code="FAILED_PRECONDITION"} 0"#,
        r#"deckmate_rpc_requests_total{method="CreateGame",code="RESOURCE_EXHAUSTED"} 0"#,
        r#"deckmate_rpc_requests_total{method="Watch",code="UNAVAILABLE"} 0"#,
        r#"deckmate_rpc_requests_total{method="GetServerInfo",code="UNAUTHENTICATED"} 0"#,
    ] {
        assert_line(&page, line);
    }
    let codes = known::codes().count();
    assert_eq!(codes, 17, "gRPC has 17 codes");
    let rpc = series(&page, RPC_REQUESTS);
    assert_eq!(rpc.len(), METHODS.len() * codes, "{rpc:#?}");
    for method in METHODS {
        let label = format!(r#"{{method="{method}","#);
        assert_eq!(
            rpc.iter().filter(|line| line.contains(&label)).count(),
            codes,
            "{method}"
        );
    }
}

#[test]
fn unary_rpc_durations_and_the_other_histograms_start_at_zero() {
    let page = page_after(start_at_zero);
    for method in METHODS.iter().filter(|&&method| method != "Watch") {
        assert_line(
            &page,
            &format!(r#"deckmate_rpc_duration_seconds_count{{method="{method}"}} 0"#),
        );
    }
    assert!(
        !page.contains(r#"deckmate_rpc_duration_seconds_count{method="Watch"}"#),
        "a stream's lifetime is no latency:\n{page}"
    );
    for op in StoreOp::ALL {
        assert_line(
            &page,
            &format!(
                r#"deckmate_store_duration_seconds_count{{op="{}"}} 0"#,
                op.label()
            ),
        );
    }
    assert_line(
        &page,
        r#"deckmate_store_duration_seconds_count{op="load_for_update"} 0"#,
    );
    assert_line(&page, "deckmate_watch_stream_seconds_count 0");
    assert_line(&page, "deckmate_bot_think_seconds_count 0");
    // With the server's buckets, not a summary's quantiles.
    assert_line(
        &page,
        r#"deckmate_rpc_duration_seconds_bucket{method="Act",le="10"} 0"#,
    );
}

#[test]
fn every_variant_with_every_reason_level_and_policy_starts_at_zero() {
    let page = page_after(start_at_zero);
    for line in [
        r#"deckmate_games_finished_total{variant="pigeon_chess",reason="checkmate"} 0"#,
        r#"deckmate_games_finished_total{variant="pigeon_chess",reason="timeout"} 0"#,
        r#"deckmate_games_finished_total{variant="pigeon_chess",reason="unspecified"} 0"#,
        r#"deckmate_bot_moves_total{variant="pigeon_chess",level="search"} 0"#,
        r#"deckmate_clock_timeouts_total{variant="pigeon_chess",policy="forfeit"} 0"#,
        r#"deckmate_clock_timeouts_total{variant="pigeon_chess",policy="bot_move"} 0"#,
    ] {
        assert_line(&page, line);
    }
    let variants = GameKind::ALL.len();
    // The end reasons are numbered without gaps, so counting up finds them all.
    let reasons = (0..)
        .map_while(|value| pb::EndReason::try_from(value).ok())
        .count();
    assert_eq!(
        series(&page, GAMES_FINISHED).len(),
        variants * reasons,
        "{page}"
    );
    assert_eq!(
        series(&page, BOT_MOVES).len(),
        variants * BotLevel::ALL.len()
    );
    assert_eq!(series(&page, CLOCK_TIMEOUTS).len(), variants * 2);
}

#[test]
fn counts_after_start_up_go_to_the_series_it_registered() {
    let before = page_after(start_at_zero);
    let after = page_after(|| {
        start_at_zero();
        // What `rpc_answered` records once the exporter is installed.
        rpc_requests("Act", Code::Ok).increment(1);
        rpc_duration("Act").record(0.001);
        game_finished("pigeon_chess", pb::EndReason::Checkmate);
        bot_moved("pigeon_chess", levels::label(BotLevel::Greedy));
        clock_timeout("pigeon_chess", TimeoutPolicy::BotMove.label());
    });
    for line in [
        r#"deckmate_rpc_requests_total{method="Act",code="OK"} 1"#,
        r#"deckmate_rpc_duration_seconds_count{method="Act"} 1"#,
        r#"deckmate_games_finished_total{variant="pigeon_chess",reason="checkmate"} 1"#,
        r#"deckmate_bot_moves_total{variant="pigeon_chess",level="greedy"} 1"#,
        r#"deckmate_clock_timeouts_total{variant="pigeon_chess",policy="bot_move"} 1"#,
    ] {
        assert_line(&after, line);
        // The zero it replaced is gone: one series, not a second one beside it.
        let zero = format!("{} 0", line.strip_suffix(" 1").expect("a count of 1"));
        assert!(!after.lines().any(|l| l == zero), "{zero} still there");
    }
    for metric in [
        RPC_REQUESTS,
        GAMES_FINISHED,
        BOT_MOVES,
        CLOCK_TIMEOUTS,
        "deckmate_rpc_duration_seconds_count",
    ] {
        assert_eq!(
            series(&after, metric).len(),
            series(&before, metric).len(),
            "{metric}"
        );
    }
}
