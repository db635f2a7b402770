//! The files a server reads before it serves: its TLS certificate and key (`--tls-*`) and its API
//! keys (`--api-keys-file`).
//!
//! They are read once, by [`StartupFiles::load`], and the server serves with what was read: the
//! binary loads them before it logs that it is listening, so that a bad file stops start-up
//! with its error alone, and the copy checked is the copy used (a file changed in between cannot
//! pass the check and then fail, or differ, when served). SIGHUP reloads them later.

use crate::config::Config;
use crate::protection::Protection;
use crate::tls::ServerTls;

use super::ServeError;

/// The TLS settings and the API keys (with the handler limits) of one server, as read at
/// start-up.
#[derive(Debug)]
pub struct StartupFiles {
    /// The TLS settings, `None` when TLS is off.
    pub(super) tls: Option<ServerTls>,
    /// The API keys, when `--api-keys-file` is set, and the per-caller and per-game limits.
    pub(super) protection: Protection,
}

impl StartupFiles {
    /// Reads and checks the files `config` names; fails with the first one missing or unusable.
    pub fn load(config: &Config) -> Result<StartupFiles, ServeError> {
        Ok(StartupFiles {
            tls: ServerTls::from_config(config)?,
            protection: Protection::from_config(config)?,
        })
    }
}
