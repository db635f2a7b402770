//! The Redis key layout (docs/ARCHITECTURE.md §4). Every key of one game carries the hash tag
//! `{<game id>}`, so the game's keys live in one Redis Cluster slot and one script may touch them
//! all.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `<ns>:{<id>}:game` | hash | `format`, `version` (decimal), `record` (the encoded record), `index_due` |
//! | `<ns>:{<id>}:events` | stream | one entry per committed version, with id `<version>-0` |
//! | `<ns>:{<id>}:requests` | sorted set | the last request keys as `<seat>:<hex>`, scored by the version each produced |
//! | `<ns>:create:{<key>}` | string | a remembered CreateGame answer, expiring with its window |
//! | `<ns>:games` | sorted set | game ids scored by when they stop counting (Unix ms), for the game limit |
//!
//! `<ns>` is the store's namespace (`deckmate` unless configured otherwise).

use deckmate_engine::Seat;

use crate::store::RequestKey;

/// The keys of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GameKeys {
    /// The record hash.
    pub(super) game: String,
    /// The stream of committed versions.
    pub(super) events: String,
    /// The request-key window.
    pub(super) requests: String,
}

/// Builds key names under one namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KeySpace {
    namespace: String,
}

impl KeySpace {
    /// Keys under `namespace`.
    pub(super) fn new(namespace: &str) -> KeySpace {
        KeySpace {
            namespace: namespace.to_string(),
        }
    }

    /// Every key of game `id`.
    pub(super) fn game(&self, id: &str) -> GameKeys {
        let prefix = format!("{}:{{{id}}}", self.namespace);
        GameKeys {
            game: format!("{prefix}:game"),
            events: format!("{prefix}:events"),
            requests: format!("{prefix}:requests"),
        }
    }

    /// The key of a remembered CreateGame answer.
    pub(super) fn create(&self, key: &str) -> String {
        format!("{}:create:{{{key}}}", self.namespace)
    }

    /// The index of live games used for the game limit.
    pub(super) fn index(&self) -> String {
        format!("{}:games", self.namespace)
    }
}

/// How a request key is written in a game's request window: `<seat>:<32 hex digits>`.
pub(super) fn request_entry(seat: Seat, key: RequestKey) -> String {
    format!("{}:{}", seat.0, hex::encode(key.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_a_game_shares_its_hash_tag() {
        let keys = KeySpace::new("deckmate").game("0af3");
        for key in [&keys.game, &keys.events, &keys.requests] {
            assert!(key.starts_with("deckmate:{0af3}:"), "{key}");
        }
        assert_ne!(keys.game, keys.events);
        assert_ne!(keys.events, keys.requests);
        let space = KeySpace::new("ns");
        assert_eq!(space.create("ab"), "ns:create:{ab}");
        assert_eq!(space.index(), "ns:games");
    }

    #[test]
    fn request_entries_name_the_seat_and_key() {
        let key = RequestKey::for_act("r1");
        let entry = request_entry(Seat(1), key);
        assert_eq!(entry, format!("1:{}", hex::encode(key.0)));
        assert_eq!(entry.len(), 2 + 32);
        assert_ne!(entry, request_entry(Seat(0), key));
    }
}
