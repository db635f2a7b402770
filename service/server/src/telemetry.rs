//! Logging and tracing (docs/ARCHITECTURE.md §5): a `tracing` subscriber writing text or JSON,
//! filtered by `RUST_LOG` (default `info`), and the span every RPC runs in.
//!
//! Spans carry the method, the game id and the game kind. Tokens, seeds and request ids are
//! never recorded: handlers only ever pass hashes of them around.

use std::io::IsTerminal;

use tracing::Span;
use tracing_subscriber::EnvFilter;

use crate::auth;
use crate::config::LogFormat;

/// Installs the global subscriber. Fails if one is already installed.
pub fn init(format: LogFormat) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for people at a terminal, never in files or collectors.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal());
    match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    }
}

/// The span of one RPC. `game_id` is what the client sent; it is recorded only when shaped like
/// a game id, so clients cannot write arbitrary text into the logs. The game kind is recorded
/// later with [`record_kind`], once the game is loaded.
pub fn rpc_span(method: &'static str, game_id: &str) -> Span {
    let span = tracing::info_span!(
        "rpc",
        method,
        game_id = tracing::field::Empty,
        kind = tracing::field::Empty,
        // The name of the caller's API key (CreateGame with keys on); never the key.
        api_key = tracing::field::Empty
    );
    if auth::is_game_id(game_id) {
        span.record("game_id", game_id);
    }
    span
}

/// Records the game id on the current RPC span (for CreateGame, once the game exists).
pub fn record_game_id(game_id: &str) {
    if auth::is_game_id(game_id) {
        Span::current().record("game_id", game_id);
    }
}

/// Records the game kind on the current RPC span.
pub fn record_kind(kind: deckmate_engine::GameKind) {
    Span::current().record("kind", kind.id());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// Collects everything the subscriber writes.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn log_inside(method: &'static str, game_id: &str) -> String {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .with_current_span(true)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let _entered = rpc_span(method, game_id).entered();
            record_kind(deckmate_engine::GameKind::PigeonChess);
            tracing::info!("handled");
        });
        String::from_utf8(captured.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn spans_carry_method_game_id_and_kind() {
        let id = auth::new_game_id().unwrap();
        let line = log_inside("Observe", &id);
        assert!(line.contains(r#""method":"Observe""#), "{line}");
        assert!(line.contains(&format!(r#""game_id":"{id}""#)), "{line}");
        assert!(line.contains(r#""kind":"pigeon_chess""#), "{line}");
    }

    #[test]
    fn malformed_game_ids_are_not_logged() {
        let line = log_inside("Act", "forged\nline");
        assert!(!line.contains("forged"), "{line}");
        assert!(!line.contains("game_id"), "{line}");
    }
}
