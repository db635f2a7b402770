//! The `deckmate-server` binary: reads the configuration (flags and `DECKMATE_*` variables),
//! sets up logging, binds the listen address and serves until SIGTERM or ctrl-c.

use std::process::ExitCode;

use std::sync::Arc;

use clap::Parser;
use deckmate_server::cli::{self, Cli, Command};
use deckmate_server::config::Config;
use deckmate_server::store::instrumented::InstrumentedStore;
use deckmate_server::{app, connections, health_check, monitoring, otel, shutdown, telemetry};
use tokio::net::TcpListener;

mod allocator;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match Cli::parse() {
        Cli {
            command: Some(Command::HashKey(args)),
            ..
        } => {
            return match cli::hash_key(&args) {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("deckmate-server hash-key: {error}");
                    ExitCode::FAILURE
                }
            };
        }
        Cli {
            command: Some(Command::Health(args)),
            ..
        } => return health_check::run(&args).await,
        Cli { server, .. } => server,
    };
    // Read before logging is set up, so that a refused OTLP setting stops start-up at once.
    let traces = match otel::provider_from_env() {
        Ok(traces) => traces,
        Err(error) => {
            eprintln!("deckmate-server: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = telemetry::init(config.log_format, traces.as_ref()) {
        eprintln!("deckmate-server: cannot set up logging: {error}");
        return ExitCode::FAILURE;
    }
    let outcome = run(config).await;
    // The server has drained: export the spans still queued before the process ends.
    if let Some(traces) = traces {
        otel::shutdown(traces).await;
    }
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error}");
            eprintln!("deckmate-server: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    allocator::start();
    // Every client connection takes a file descriptor: allow as many as the hard limit does.
    match connections::raise_open_file_limit() {
        Ok(limit) => tracing::info!(
            open_file_limit = limit,
            "open-file limit raised to its hard limit"
        ),
        Err(error) => tracing::warn!(
            %error,
            open_file_limit = ?connections::open_file_limit(),
            "cannot raise the open-file limit"
        ),
    }
    // Open the store and read the TLS and API keys files before binding, so that a bad store or
    // file fails before clients can connect and before the log says the server listens. The
    // files read here are the ones served with.
    let mut store = app::open_store(&config)?;
    let files = app::StartupFiles::load(&config)?;
    if let Some(address) = config.metrics_listen {
        store = Arc::new(InstrumentedStore::new(store));
        // Bound before the API listens, so that scrapes see every call from the first.
        let bound = monitoring::install(address)
            .map_err(|error| format!("cannot serve metrics on {address}: {error}"))?;
        // The address bound, which names the port the system picked for port 0.
        tracing::info!("serving metrics on http://{bound}/metrics");
        tokio::spawn(monitoring::report_live_games(store.clone()));
        if let Some(read) = allocator::HEAP_STATS {
            tokio::spawn(monitoring::report_heap(read));
        }
    }
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|error| format!("cannot listen on {}: {error}", config.listen))?;
    let address = listener.local_addr()?;
    tracing::info!(
        store = %config.store,
        game_ttl = %humantime::format_duration(config.game_ttl),
        max_games = config.max_games,
        max_watchers = config.max_watchers,
        allow_client_seed = config.allow_client_seed,
        tls = config.tls_cert.is_some(),
        mutual_tls = config.tls_client_ca.is_some(),
        create_rate = %config.create_rate,
        max_concurrent_calls = config.max_concurrent_calls,
        "listening on {address}"
    );
    app::serve_with_files(
        config,
        store,
        files,
        listener,
        shutdown::termination_signal(),
    )
    .await?;
    Ok(())
}
