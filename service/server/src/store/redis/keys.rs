//! The Redis key layout (docs/ARCHITECTURE.md §4). Every key of one game carries the hash tag
//! `{<game id>}`, so the game's keys live in one Redis Cluster slot and one script may touch them
//! all.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `<ns>:{<id>}:game` | hash | `format`, `version` (decimal), `record` (the encoded record), `index_due`, `tail` (`<version>:<last log item>`, written by every commit that writes the log, and as `0:` when a game is created; absent, or behind `version`, after a commit by an older release) |
//! | `<ns>:{<id>}:events` | stream | one entry per committed version, with id `<version>-0` |
//! | `<ns>:{<id>}:requests` | sorted set | the last request keys as `<seat>:<hex>`, scored by the version each produced |
//! | `<ns>:{<id>}:log` | list | record format 2: one encoded action per version, in order (absent in format 1) |
//! | `<ns>:create:{<key>}` | string | a remembered CreateGame answer, expiring with its window |
//! | `<ns>:games` | sorted set | game ids scored by when they stop counting (Unix ms), for the game limit (one Redis server) |
//! | `<ns>:games:{<n>}` | sorted set | the same for the games of index shard `n` of [`CLUSTER_INDEX_SHARDS`] (Redis Cluster) |
//! | `<ns>:{<id>}:watch` | shard channel | on a Redis Cluster, each committed version of the game (`SPUBLISH`) |
//! | `<ns>:due` | sorted set | game ids scored by when the clock scheduler should next look at them (Unix ms by Redis `TIME`): deadlines, bot-turn backstops, leases (one Redis server) |
//! | `<ns>:due:{<n>}` | sorted set | the same for the games of index shard `n` (Redis Cluster) |
//! | `<ns>:epoch` | string | when the data set began: `<random hex>:<Unix ms>`, written once with `SET NX`, never expiring (`redis/epoch.rs`) |
//!
//! `<ns>` is the store's namespace (`deckmate` unless configured otherwise).
//!
//! On a Redis Cluster one sorted set would put every create in one slot, so the game index is
//! split into shards, each in a slot of its own (hash tag `{<n>}`), each holding its part of the
//! game limit; a game's shard follows from its id.

use std::fmt::Write as _;

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
    /// The action log (record format 2): one item per action.
    pub(super) log: String,
}

/// How many shards the game index has on a Redis Cluster.
pub(super) const CLUSTER_INDEX_SHARDS: u32 = 16;

/// Builds key names under one namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KeySpace {
    namespace: String,
    /// 0 for the one unsharded index of a single server, else the number of index shards.
    index_shards: u32,
}

impl KeySpace {
    /// Keys under `namespace` with one game index (a single Redis server).
    pub(super) fn new(namespace: &str) -> KeySpace {
        KeySpace {
            namespace: namespace.to_string(),
            index_shards: 0,
        }
    }

    /// Keys under `namespace` with the game index split into [`CLUSTER_INDEX_SHARDS`] shards
    /// (a Redis Cluster).
    pub(super) fn sharded(namespace: &str) -> KeySpace {
        KeySpace {
            namespace: namespace.to_string(),
            index_shards: CLUSTER_INDEX_SHARDS,
        }
    }

    /// Every key of game `id`.
    pub(super) fn game(&self, id: &str) -> GameKeys {
        // Every call of the store builds these: concatenated rather than formatted, which
        // costs several times less.
        let key = |suffix: &str| {
            let mut key = String::with_capacity(self.namespace.len() + id.len() + suffix.len() + 3);
            key.push_str(&self.namespace);
            key.push_str(":{");
            key.push_str(id);
            key.push('}');
            key.push_str(suffix);
            key
        };
        GameKeys {
            game: key(":game"),
            events: key(":events"),
            requests: key(":requests"),
            log: key(":log"),
        }
    }

    /// The key of a remembered CreateGame answer.
    pub(super) fn create(&self, key: &str) -> String {
        format!("{}:create:{{{key}}}", self.namespace)
    }

    /// The epoch marker: when the data set began (`redis/epoch.rs`).
    pub(super) fn epoch(&self) -> String {
        format!("{}:epoch", self.namespace)
    }

    /// The shard-channel a cluster store publishes game `id`'s versions on; it shares the
    /// game's hash tag, so it lives in the game's slot.
    pub(super) fn channel(&self, id: &str) -> String {
        format!("{}:{{{id}}}:watch", self.namespace)
    }

    /// The index entry of game `id`: the key of its index shard and that shard's part of a
    /// limit of `max_games` (at least one game per shard).
    pub(super) fn index_for(&self, id: &str, max_games: usize) -> (String, usize) {
        if self.index_shards == 0 {
            return (self.unsharded_index(), max_games);
        }
        let shard = shard_of(id, self.index_shards);
        (
            self.index_shard(shard),
            shard_limit(max_games, self.index_shards),
        )
    }

    /// Every index key (one per shard).
    pub(super) fn indexes(&self) -> Vec<String> {
        if self.index_shards == 0 {
            return vec![self.unsharded_index()];
        }
        (0..self.index_shards)
            .map(|shard| self.index_shard(shard))
            .collect()
    }

    /// The due-index key of game `id`: sharded as the game index is, so that a cluster spreads
    /// the scheduler's writes over slots too.
    pub(super) fn due_for(&self, id: &str) -> String {
        if self.index_shards == 0 {
            return self.unsharded_due();
        }
        self.due_shard(shard_of(id, self.index_shards))
    }

    /// Every due-index key (one per shard).
    pub(super) fn dues(&self) -> Vec<String> {
        if self.index_shards == 0 {
            return vec![self.unsharded_due()];
        }
        (0..self.index_shards)
            .map(|shard| self.due_shard(shard))
            .collect()
    }

    fn unsharded_due(&self) -> String {
        format!("{}:due", self.namespace)
    }

    fn due_shard(&self, shard: u32) -> String {
        format!("{}:due:{{{shard}}}", self.namespace)
    }

    fn unsharded_index(&self) -> String {
        format!("{}:games", self.namespace)
    }

    fn index_shard(&self, shard: u32) -> String {
        format!("{}:games:{{{shard}}}", self.namespace)
    }
}

/// The index shard of game `id` among `shards`: FNV-1a of the id, so that every replica agrees
/// and random ids spread evenly.
fn shard_of(id: &str, shards: u32) -> u32 {
    let hash = id.bytes().fold(0x811c_9dc5_u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    });
    hash % shards
}

/// One shard's part of the game limit: the limit divided evenly, rounded up, so the shards
/// together hold at least `max_games` (and at most `shards - 1` more).
fn shard_limit(max_games: usize, shards: u32) -> usize {
    max_games.div_ceil(shards as usize).max(1)
}

/// How a request key is written in a game's request window: `<seat>:<32 hex digits>`.
pub(super) fn request_entry(seat: Seat, key: RequestKey) -> String {
    // Written into one buffer: `hex::encode` collects its digits one `char` at a time, and this
    // runs on every Act that carries a request id.
    let mut digits = [0u8; 2 * std::mem::size_of::<RequestKey>()];
    let mut entry = String::with_capacity(4 + digits.len());
    let _ = write!(entry, "{}:", seat.0);
    if hex::encode_to_slice(key.0, &mut digits).is_ok()
        && let Ok(digits) = std::str::from_utf8(&digits)
    {
        entry.push_str(digits);
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_a_game_shares_its_hash_tag() {
        let keys = KeySpace::new("deckmate").game("0af3");
        let all = [&keys.game, &keys.events, &keys.requests, &keys.log];
        for key in all {
            assert!(key.starts_with("deckmate:{0af3}:"), "{key}");
        }
        let distinct: std::collections::HashSet<_> = all.into_iter().collect();
        assert_eq!(distinct.len(), 4);
        let space = KeySpace::new("ns");
        assert_eq!(space.create("ab"), "ns:create:{ab}");
        assert_eq!(space.index_for("0af3", 10), ("ns:games".to_string(), 10));
        assert_eq!(space.indexes(), vec!["ns:games".to_string()]);
        assert_eq!(space.channel("0af3"), "ns:{0af3}:watch");
    }

    #[test]
    fn a_cluster_index_is_split_into_slots_of_their_own() {
        let space = KeySpace::sharded("ns");
        let indexes = space.indexes();
        assert_eq!(indexes.len(), CLUSTER_INDEX_SHARDS as usize);
        assert_eq!(indexes[3], "ns:games:{3}");
        let slots: std::collections::HashSet<_> = indexes
            .iter()
            .map(::redis::cluster_routing::Slot::for_key)
            .collect();
        assert_eq!(slots.len(), indexes.len(), "every shard in its own slot");
        let (key, limit) = space.index_for("0af3", 100_000);
        assert!(indexes.contains(&key));
        assert_eq!(limit, 6_250);
        // The same id always lands in the same shard.
        assert_eq!(space.index_for("0af3", 100_000).0, key);
    }

    #[test]
    fn shards_share_the_limit_and_spread_random_ids() {
        assert_eq!(shard_limit(100_000, 16), 6_250);
        assert_eq!(shard_limit(17, 16), 2);
        assert_eq!(shard_limit(2, 16), 1);
        let mut counts = [0usize; CLUSTER_INDEX_SHARDS as usize];
        for n in 0..16_000u32 {
            let id = hex::encode(n.wrapping_mul(2_654_435_761).to_be_bytes());
            counts[shard_of(&id, CLUSTER_INDEX_SHARDS) as usize] += 1;
        }
        // 1,000 expected per shard; every shard well within a third of it.
        assert!(
            counts.iter().all(|&count| (667..=1333).contains(&count)),
            "{counts:?}"
        );
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
