//! The command line of the `deckmate-server` binary: serving (the default, with every flag of
//! [`Config`]) or one of the helper subcommands beside it.

use clap::{Args, Parser, Subcommand};

use crate::config::Config;
use crate::protection::api_keys;

/// What the binary was asked to do.
#[derive(Debug, Parser)]
#[command(
    name = "deckmate-server",
    version,
    about = "Deckmate game server: the deckmate.v1.GameService gRPC API (with gRPC-Web, health and reflection).",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    /// A helper to run instead of the server; without one, the server runs.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The server's configuration (used when no subcommand is given).
    #[command(flatten)]
    pub server: Config,
}

/// The subcommands beside serving.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Prints a new random API key for a client, and the line that admits it for the
    /// `--api-keys-file`. The key is shown once: the server keeps only its hash.
    HashKey(HashKeyArgs),
    /// Asks a running server for its gRPC health status: prints one line and exits 0 only
    /// when it reports SERVING (for container health checks). Speaks plaintext only.
    Health(crate::health_check::HealthArgs),
}

/// The options of `hash-key`.
#[derive(Debug, Args)]
pub struct HashKeyArgs {
    /// The key's name, as logs and quotas will show it: letters, digits, `-`, `_` or `.`.
    #[arg(long, default_value = "client")]
    pub name: String,
}

/// The text `hash-key` prints: comments, the key, and the file line.
pub fn hash_key(args: &HashKeyArgs) -> Result<String, String> {
    let new = api_keys::new_key(&args.name)?;
    Ok(format!(
        "# API key for the client (send it as x-api-key; it is shown only now):\n{}\n\
         # Line for the --api-keys-file (then send the server SIGHUP):\n{}\n",
        new.key, new.line
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        let command = Cli::command().mut_args(|arg| arg.env(None));
        let matches = command.try_get_matches_from(args)?;
        Cli::from_arg_matches(&matches)
    }

    #[test]
    fn no_subcommand_runs_the_server_with_its_flags() {
        let cli = parse(&["deckmate-server", "--max-games", "3"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.server.max_games, 3);
        let cli = parse(&["deckmate-server"]).unwrap();
        assert_eq!(cli.server, Config::default());
    }

    #[test]
    fn hash_key_takes_a_name_and_prints_a_key_and_its_line() {
        let cli = parse(&["deckmate-server", "hash-key", "--name", "web"]).unwrap();
        let Some(Command::HashKey(args)) = cli.command else {
            panic!("not hash-key");
        };
        let text = hash_key(&args).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 2, "{text}");
        let hash = hex::encode(api_keys::hash_key(lines[0]));
        assert_eq!(lines[1], format!("web:{hash}"));
        assert!(hash_key(&HashKeyArgs { name: "a b".into() }).is_err());
    }

    #[test]
    fn health_takes_an_address_a_service_and_a_timeout() {
        let cli = parse(&["deckmate-server", "health"]).unwrap();
        let Some(Command::Health(args)) = cli.command else {
            panic!("not health");
        };
        assert_eq!(args.addr, None);
        assert_eq!(args.service, "");
        assert_eq!(args.timeout, std::time::Duration::from_secs(3));
        let cli = parse(&[
            "deckmate-server",
            "health",
            "--addr",
            "10.0.0.1:7000",
            "--service",
            "deckmate.v1.GameService",
            "--timeout",
            "500ms",
        ])
        .unwrap();
        let Some(Command::Health(args)) = cli.command else {
            panic!("not health");
        };
        assert_eq!(args.addr, Some("10.0.0.1:7000".parse().unwrap()));
        assert_eq!(args.service, "deckmate.v1.GameService");
        assert_eq!(args.timeout, std::time::Duration::from_millis(500));
        assert!(parse(&["deckmate-server", "health", "--addr", "nowhere"]).is_err());
    }

    #[test]
    fn server_flags_do_not_mix_with_a_subcommand() {
        assert!(parse(&["deckmate-server", "--max-games", "3", "hash-key"]).is_err());
    }
}
