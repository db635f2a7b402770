//! The `deckmate-load` binary: parses the command line, runs the scenario against the server,
//! prints the report (a table, or JSON with `--json`) and exits with 0 when the run passed,
//! 1 when it failed (unexpected errors, or no successful call), and 2 when it could not run.
//! `arena` prints the score line instead, or the partial score when it stops early.

use std::fs::File;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
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
    let stop = StopSignal::new();
    {
        let stop = stop.clone();
        let what_now = match cli.command {
            Command::Arena(_) => "abandoning the games in play",
            _ => "finishing the calls in flight",
        };
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("\ndeckmate-load: interrupted; {what_now}");
                stop.trigger();
            }
        });
    }
    if let Command::Arena(args) = cli.command {
        return arena(args.into_options(), &stop).await;
    }
    let invocation = match cli.into_invocation() {
        Ok(invocation) => invocation,
        Err(message) => {
            eprintln!("deckmate-load: {message}");
            return ExitCode::from(2);
        }
    };
    // The report file is opened before the run, so that a bad path fails at start-up rather
    // than after a run whose report it then could not keep.
    let mut json_file = match &invocation.json_file {
        Some(path) => match JsonFile::open(path) {
            Ok(file) => Some(file),
            Err(error) => {
                eprintln!("deckmate-load: cannot write {}: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let report = match deckmate_load::run(&invocation.scenario, &invocation.options, &stop).await {
        Ok(report) => report,
        Err(error) => {
            eprintln!("deckmate-load: {error}");
            if let Some(file) = json_file.take() {
                file.discard();
            }
            return ExitCode::from(2);
        }
    };
    // Written out once, for the terminal and the file alike.
    let json = (invocation.json || json_file.is_some()).then(|| report.to_json());
    // The report is printed first, so that a file failing now (a full disk) loses no run.
    match &json {
        Some(json) if invocation.json => {
            println!("{json}");
            // The table says why the run stopped or failed; with JSON on stdout, stderr does.
            for reason in report.stop_reasons() {
                eprintln!("deckmate-load: stopped early: {reason}");
            }
            if let Some(failure) = &report.failure {
                eprintln!("deckmate-load: FAIL: {failure}");
            }
        }
        _ => print!("{report}"),
    }
    if let (Some(file), Some(json)) = (&mut json_file, &json)
        && let Err(error) = file.write(json)
    {
        eprintln!(
            "deckmate-load: cannot write {}: {error}",
            file.path.display()
        );
        return ExitCode::from(2);
    }
    if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Plays the arena, printing its score as the last line (0 when every game was played, 2 when
/// the run failed or was interrupted). A run that stops early prints the score of the games it
/// finished to stderr, so that stdout's last line is only ever a full run's result.
async fn arena(options: ArenaOptions, stop: &StopSignal) -> ExitCode {
    match deckmate_load::arena::run(&options, stop).await {
        Ok(score) => {
            println!("{score}");
            ExitCode::SUCCESS
        }
        Err(stopped) => {
            eprintln!("deckmate-load arena: {}", stopped.error);
            if let Some(partial) = &stopped.partial {
                eprintln!(
                    "deckmate-load arena: partial score, {} of {} games: {partial}",
                    partial.games(),
                    options.games
                );
            }
            ExitCode::from(2)
        }
    }
}

/// The `--json-file` report file, opened at start-up and written once the run has ended.
struct JsonFile {
    file: File,
    path: PathBuf,
    /// Whether opening it created it, so that a run that never started leaves no empty file.
    created: bool,
}

impl JsonFile {
    /// Opens (or creates) the file at `path` for writing, keeping what it holds until
    /// [`JsonFile::write`]: a run that cannot start leaves an earlier report in place.
    fn open(path: &Path) -> std::io::Result<JsonFile> {
        let created = !path.exists();
        let file = File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        Ok(JsonFile {
            file,
            path: path.to_path_buf(),
            created,
        })
    }

    /// Replaces the file's content with `json`.
    fn write(&mut self, json: &str) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.file.write_all(json.as_bytes())?;
        self.file.flush()
    }

    /// Closes the file unwritten, removing it when it did not exist before.
    fn discard(self) {
        if self.created {
            drop(self.file);
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
