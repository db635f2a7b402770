//! The `deckmate-load` binary: parses the command line, runs the scenario against the server,
//! prints the report (a table, or JSON with `--json`) and exits with 0 when the run passed,
//! 1 when it saw unexpected errors, and 2 when it could not run. `arena` prints the score line
//! instead.

use std::process::ExitCode;

use clap::Parser;
use deckmate_load::StopSignal;
use deckmate_load::arena::ArenaOptions;
use deckmate_load::cli::{Cli, Command};

/// The generator shares the machine's cores with the server it measures, so its allocator is
/// the cheaper one the server uses too.
#[cfg(feature = "jemalloc")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Arena(args) = cli.command {
        return arena(args.into_options()).await;
    }
    let invocation = match cli.into_invocation() {
        Ok(invocation) => invocation,
        Err(message) => {
            eprintln!("deckmate-load: {message}");
            return ExitCode::from(2);
        }
    };
    let stop = StopSignal::new();
    {
        let stop = stop.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("\ndeckmate-load: interrupted; finishing the calls in flight");
                stop.trigger();
            }
        });
    }
    let report = match deckmate_load::run(&invocation.scenario, &invocation.options, &stop).await {
        Ok(report) => report,
        Err(error) => {
            eprintln!("deckmate-load: {error}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &invocation.json_file
        && let Err(error) = std::fs::write(path, report.to_json())
    {
        eprintln!("deckmate-load: cannot write {}: {error}", path.display());
        return ExitCode::from(2);
    }
    if invocation.json {
        println!("{}", report.to_json());
    } else {
        print!("{report}");
    }
    if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Plays the arena, printing its score as the last line (0 when every game was played, 2 when
/// the run failed).
async fn arena(options: ArenaOptions) -> ExitCode {
    match deckmate_load::arena::run(&options).await {
        Ok(score) => {
            println!("{score}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("deckmate-load arena: {error}");
            ExitCode::from(2)
        }
    }
}
