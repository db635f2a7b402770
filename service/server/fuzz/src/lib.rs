//! What the server's fuzz targets share: reading fuzz bytes, a runtime, fresh handlers over an
//! empty memory store, and real games dealt and played from fuzz bytes.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use deckmate_engine::{Seat, Seed, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_server::api::{ApiSettings, GameApi};
use deckmate_server::catalog;
use deckmate_server::live::LiveGame;
use deckmate_server::shutdown::Shutdown;
use deckmate_server::store::MemoryStore;

/// The largest request the handlers accept, as the server's default.
pub const MAX_MESSAGE_BYTES: usize = deckmate_server::config::DEFAULT_MAX_MESSAGE_BYTES;

/// Reads bytes off the front of the input.
pub struct Reader<'a>(pub &'a [u8]);

impl<'a> Reader<'a> {
    /// The next byte, if any.
    pub fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    /// The next `len` bytes, if there are that many.
    pub fn bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        if self.0.len() < len {
            return None;
        }
        let (taken, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(taken)
    }

    /// A length byte and that many bytes.
    pub fn chunk(&mut self) -> Option<&'a [u8]> {
        let len = self.byte()? as usize;
        self.bytes(len)
    }

    /// Whatever is left.
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// One current-thread runtime for every input.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

/// Handlers over a new, empty memory store, so that inputs do not affect each other.
pub fn fresh_api() -> GameApi {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600), 1000));
    let settings = ApiSettings {
        allow_client_seed: true,
        max_watchers: 16,
        max_message_bytes: MAX_MESSAGE_BYTES,
        store_kind: pb::StoreKind::Memory,
        records_hold_clocks: true,
    };
    GameApi::new(store, settings, Shutdown::new())
}

/// The default config of the game `index` picks among the hosted games.
pub fn default_config(index: u8) -> pb::GameConfig {
    let variants = catalog::variants();
    variants[index as usize % variants.len()]
        .default_config
        .clone()
        .expect("every variant has a default config")
}

/// A real game read from the input: a game byte, a seed byte, then up to `plies` bytes, each
/// picking a listed action of a seat to act, played through the server's own session.
pub fn play_game(input: &mut Reader<'_>, plies: usize) -> Option<Box<dyn LiveGame>> {
    let config = default_config(input.byte()?);
    let seed = Seed::from_u64(u64::from(input.byte()?));
    let mut game = catalog::new_game(&config, 0, seed).ok()?;
    for _ in 0..plies {
        let Some(pick) = input.byte() else { break };
        if game.is_over() {
            break;
        }
        let seats = game.seats();
        let chosen = (0..seats).find_map(|offset| {
            let seat = Seat(((pick as usize + offset) % seats) as u8);
            let legal = game.view(Viewer::Seat(seat)).legal_actions;
            (!legal.is_empty()).then(|| (seat, legal[pick as usize % legal.len()].clone()))
        });
        let (seat, action) = chosen?;
        game.act(seat, &action)
            .expect("a listed action is accepted by the session");
    }
    Some(game)
}
