//! A short run of every scenario against an in-process server on a free loopback port, over
//! every variant the server hosts: no unexpected error, every variant finishes games, and the
//! counts agree with each other. Nothing here depends on how fast the machine is.

use std::time::Duration;

use deckmate_load::{
    ActScenario, LoadOptions, Method, PlayScenario, RunReport, Scenario, StopSignal,
    VariantSelection, WatchScenario, errors::ExpectedErrors,
};
use deckmate_server::Config;

mod common;

use common::InProcessServer;

/// A server running in this process until dropped.
struct Server {
    address: String,
    running: InProcessServer,
}

impl Server {
    async fn start() -> Server {
        Server::start_with(Config {
            // For `--game-seeds` runs.
            allow_client_seed: true,
            ..quota_free()
        })
        .await
    }

    async fn start_with(config: Config) -> Server {
        let running = InProcessServer::start(config).await;
        Server {
            address: running.address.clone(),
            running,
        }
    }

    /// The ids of the hosted variants.
    async fn variant_ids(&self) -> Vec<String> {
        let client = deckmate::Client::connect(self.address.clone())
            .await
            .expect("connect");
        client
            .list_variants()
            .await
            .expect("ListVariants")
            .into_iter()
            .map(|variant| variant.id)
            .collect()
    }

    async fn stop(self) {
        self.running.stop().await;
    }
}

/// The load generator is one client creating many games: no per-caller quotas.
fn quota_free() -> Config {
    Config {
        create_rate: deckmate_server::protection::rate::Rate::Off,
        max_games_per_client: usize::MAX,
        ..Config::default()
    }
}

/// Small, quiet options against `server`.
fn options(server: &Server) -> LoadOptions {
    LoadOptions {
        targets: vec![server.address.clone()],
        connections: 2,
        in_flight: 4,
        duration: None,
        warmup: Duration::ZERO,
        baseline_duration: Duration::ZERO,
        seed: 7,
        game_seeds: false,
        api_key: None,
        expected: ExpectedErrors::none(),
        max_errors: 10,
        progress: None,
        server_pids: Vec::new(),
        redis_urls: Vec::new(),
        rate: None,
    }
}

/// Runs `scenario` and checks that it passed without any error.
async fn run_clean(scenario: Scenario, options: &LoadOptions) -> RunReport {
    let report = deckmate_load::run(&scenario, options, &StopSignal::new())
        .await
        .expect("the run starts");
    assert!(report.passed, "{report}");
    assert_eq!(report.unexpected_errors, 0, "{report}");
    assert!(report.result.errors.is_empty(), "{report}");
    assert!(!report.stopped_early, "{report}");
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixed_game_seeds_deal_the_same_games_in_every_run() {
    let server = Server::start().await;
    let games = server.variant_ids().await.len() as u64 * 2;
    let options = LoadOptions {
        in_flight: 1,
        game_seeds: true,
        ..options(&server)
    };
    let scenario = Scenario::Play(PlayScenario {
        variants: VariantSelection::All,
        seats: 0,
        games: Some(games),
    });
    let plies = |report: &RunReport| {
        report
            .result
            .variants
            .iter()
            .map(|variant| (variant.id.clone(), variant.actions))
            .collect::<Vec<_>>()
    };
    let first = run_clean(scenario.clone(), &options).await;
    let second = run_clean(scenario, &options).await;
    // The same deals and the same client choices: every game runs to the same length.
    assert_eq!(plies(&first), plies(&second));
    assert_eq!(first.result.calls, second.result.calls);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_finishes_games_of_every_variant_and_compares_with_the_baseline() {
    let server = Server::start().await;
    let hosted = server.variant_ids().await;
    assert!(!hosted.is_empty());
    // One game per variant, all at once: the variants take turns, so each gets exactly one.
    let games = hosted.len() as u64;
    let options = LoadOptions {
        baseline_duration: Duration::from_millis(300),
        in_flight: hosted.len(),
        ..options(&server)
    };
    let scenario = Scenario::Play(PlayScenario {
        variants: VariantSelection::All,
        seats: 0,
        games: Some(games),
    });
    let report = run_clean(scenario, &options).await;

    let played: Vec<&str> = report
        .settings
        .variants
        .iter()
        .map(|v| v.id.as_str())
        .collect();
    assert_eq!(
        played,
        hosted.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let result = &report.result;
    assert_eq!(result.games_finished, games, "{report}");
    for variant in &result.variants {
        assert_eq!(
            variant.games_finished, 1,
            "{} did not finish its game",
            variant.id
        );
        assert!(variant.actions >= variant.games_finished, "{report}");
    }
    let acts = result.method(Method::Act).expect("Act was measured");
    assert_eq!(acts.latency.count, result.actions);
    let creates = result
        .method(Method::CreateGame)
        .expect("CreateGame measured");
    assert_eq!(creates.latency.count, games);

    let baseline = report.baseline.as_ref().expect("a baseline phase ran");
    assert!(
        baseline.calls > 0 && baseline.unexpected_errors == 0,
        "{report}"
    );
    assert!(baseline.method(Method::Check).is_some());
    let ratios = report.ratios.as_ref().expect("ratios to the baseline");
    assert!(
        ratios.calls_per_s > 0.0 && ratios.act_p99.is_some(),
        "{report}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_receive_every_version_of_every_game() {
    let server = Server::start().await;
    let hosted = server.variant_ids().await;
    let games = hosted.len() as u64;
    let scenario = Scenario::Watch(WatchScenario {
        variants: VariantSelection::All,
        seats: 0,
        games: Some(games),
        watchers: 2,
    });
    let options = LoadOptions {
        in_flight: hosted.len(),
        ..options(&server)
    };
    let report = run_clean(scenario, &options).await;
    let result = &report.result;
    assert_eq!(result.games_finished, games, "{report}");
    assert!(
        result.variants.iter().all(|v| v.games_finished == 1),
        "{report}"
    );
    assert!(result.actions > 0);
    // Each action makes one version, delivered once to each of the two watchers.
    assert_eq!(result.deliveries, 2 * result.actions, "{report}");
    let delay = result
        .delivery_delay
        .as_ref()
        .expect("delays were measured");
    assert_eq!(delay.count, result.deliveries);
    assert_eq!(
        result
            .method(Method::Watch)
            .map(|watch| watch.latency.count),
        Some(2 * games)
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn act_plays_pre_created_games_for_a_short_time() {
    let server = Server::start().await;
    let options = LoadOptions {
        duration: Some(Duration::from_millis(800)),
        in_flight: 2,
        ..options(&server)
    };
    let scenario = Scenario::Act(ActScenario {
        variants: VariantSelection::All,
        seats: 0,
        games_per_worker: 2,
    });
    let report = run_clean(scenario, &options).await;
    let result = &report.result;
    assert!(result.actions > 0, "{report}");
    assert!(report.baseline.is_none() && report.ratios.is_none());
    // Without a warm-up, every accepted action of the window is a measured Act call.
    let acts = result.method(Method::Act).expect("Act was measured");
    assert_eq!(acts.latency.count, result.actions, "{report}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_loop_run_never_calls_faster_than_its_rate() {
    let server = Server::start().await;
    const RATE: u32 = 40;
    let window = Duration::from_secs(2);
    let options = LoadOptions {
        duration: Some(window),
        in_flight: 8,
        rate: Some(RATE),
        ..options(&server)
    };
    let scenario = Scenario::Act(ActScenario {
        variants: VariantSelection::All,
        seats: 0,
        games_per_worker: 1,
    });
    let report = run_clean(scenario, &options).await;
    let calls = report.result.calls;
    // The schedule starts with the window (no warm-up): at most one call per slot in it, plus
    // the calls of the slot at its edge.
    let slots = u64::from(RATE) * window.as_secs() + 1;
    assert!(
        calls <= slots,
        "{calls} calls in {window:?} at {RATE}/s: {report}"
    );
    assert!(calls > 0, "{report}");
    assert_eq!(report.settings.rate_per_s, Some(RATE));
    assert!(
        report.to_string().contains("open loop: 40 calls/s"),
        "{report}"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_variant_is_refused_before_any_load() {
    let server = Server::start().await;
    let scenario = Scenario::Play(PlayScenario {
        variants: VariantSelection::Only(vec!["no_such_game".into()]),
        seats: 0,
        games: Some(1),
    });
    let error = deckmate_load::run(&scenario, &options(&server), &StopSignal::new())
        .await
        .expect_err("the variant does not exist");
    assert!(error.to_string().contains("no_such_game"), "{error}");
    server.stop().await;
}

#[tokio::test]
async fn game_seeds_on_a_server_that_refuses_them_stop_before_any_load() {
    let server = Server::start_with(quota_free()).await;
    let scenario = Scenario::Play(PlayScenario {
        variants: VariantSelection::All,
        seats: 0,
        games: Some(5),
    });
    let options = LoadOptions {
        game_seeds: true,
        baseline_duration: Duration::from_secs(5),
        ..options(&server)
    };
    let error = deckmate_load::run(&scenario, &options, &StopSignal::new())
        .await
        .expect_err("the server refuses client seeds");
    let message = error.to_string();
    assert!(message.contains(&server.address), "{message}");
    assert!(
        message.contains("start it with `--allow-client-seed`"),
        "{message}"
    );
    // Without `--game-seeds` the same server is fine.
    let options = LoadOptions {
        game_seeds: false,
        ..options
    };
    run_clean(scenario, &options).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_opening_beyond_the_servers_quotas_stops_before_any_load() {
    // The defaults: 60 games a minute in bursts of 20. The run would create 8 × 4 at once.
    let server = Server::start_with(Config::default()).await;
    let scenario = Scenario::Act(ActScenario::default());
    let options = LoadOptions {
        in_flight: 8,
        baseline_duration: Duration::from_secs(5),
        duration: Some(Duration::from_millis(300)),
        ..options(&server)
    };
    let error = deckmate_load::run(&scenario, &options, &StopSignal::new())
        .await
        .expect_err("the opening exceeds the burst");
    let message = error.to_string();
    for words in [
        server.address.as_str(),
        "creates 32 games at once",
        "lets one caller create 20",
        "60 games a minute in bursts of 20",
        "`--create-rate off --max-games-per-client 1000000`",
        "`--expect LIMIT_REACHED`",
    ] {
        assert!(message.contains(words), "{words} in {message}");
    }
    // Nothing was created: the whole burst is still there.
    let client = deckmate::Client::connect(server.address.clone())
        .await
        .expect("connect");
    let variant = client
        .list_variants()
        .await
        .expect("ListVariants")
        .remove(0);
    let config = variant.default_config.expect("a default config");
    for _ in 0..20 {
        client
            .create_game(config.clone(), variant.min_seats, Default::default())
            .await
            .expect("within the burst");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quota_refusal_during_the_run_names_the_servers_quotas() {
    // Paced creations are not an opening burst: the run starts, and its third game is refused.
    let server = Server::start_with(Config {
        create_rate: deckmate_server::protection::rate::Rate::Limit {
            count: std::num::NonZeroU32::new(1).expect("non-zero"),
            period: Duration::from_secs(3600),
        },
        create_burst: 2,
        ..quota_free()
    })
    .await;
    let scenario = Scenario::Play(PlayScenario::default());
    let options = LoadOptions {
        rate: Some(1000),
        duration: Some(Duration::from_secs(60)),
        ..options(&server)
    };
    let report = deckmate_load::run(&scenario, &options, &StopSignal::new())
        .await
        .expect("the run starts");
    assert!(report.stopped_early, "{report}");
    let reason = report.result.stop_reason.as_deref().expect("a stop reason");
    for words in [
        "refused a CreateGame with LIMIT_REACHED",
        "this one allows 1 game an hour in bursts of 2 and no limit on the games held",
        "`--expect LIMIT_REACHED`",
    ] {
        assert!(reason.contains(words), "{words} in {reason}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_every_call_failed_as_expected_fails() {
    // A caller may hold no game: every CreateGame is LIMIT_REACHED.
    let server = Server::start_with(Config {
        max_games_per_client: 0,
        ..quota_free()
    })
    .await;
    let scenario = Scenario::Play(PlayScenario {
        variants: VariantSelection::All,
        seats: 0,
        games: None,
    });
    let options = LoadOptions {
        duration: Some(Duration::from_millis(300)),
        expected: ExpectedErrors::reasons(&["LIMIT_REACHED"]).unwrap(),
        ..options(&server)
    };
    let report = deckmate_load::run(&scenario, &options, &StopSignal::new())
        .await
        .expect("the run starts");
    assert_eq!(report.unexpected_errors, 0, "{report}");
    assert_eq!(report.result.calls, 0, "{report}");
    assert!(!report.passed, "{report}");
    let failure = report.failure.as_deref().expect("a failure");
    assert!(
        failure.contains("no successful play call")
            && failure.contains("RESOURCE_EXHAUSTED LIMIT_REACHED x")
            && failure.contains("(expected)"),
        "{failure}"
    );
    assert!(
        report
            .to_string()
            .contains(&format!("result: FAIL ({failure})")),
        "{report}"
    );
    server.stop().await;
}
