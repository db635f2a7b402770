//! Session storage (docs/ARCHITECTURE.md §4): the [`SessionStore`] trait every store implements,
//! and the records it keeps.
//!
//! A store holds [`GameRecord`]s by game id and guarantees, for every implementation:
//!
//! * **No lost updates.** [`SessionStore::commit`] replaces a record only if the stored version
//!   is still the one the caller read (optimistic concurrency); otherwise nothing changes.
//! * **Idempotent requests within a bounded window.** A commit may carry the acting seat's
//!   request key; the store remembers the version it produced, so a retry is answered from
//!   [`SessionStore::find_request`] or reported as [`CommitOutcome::Duplicate`] instead of
//!   being applied twice. Keys are scoped by (game, seat), and only the last
//!   [`REQUEST_WINDOW`] keys of a game are kept.
//! * **Idle expiry.** A game with no create or commit for the store's TTL disappears; loading it
//!   afterwards finds nothing. Reads do not extend a game's life.
//! * **Resumable watching.** [`SessionStore::watch`] yields committed versions; a watcher that
//!   reloads the record after each one (and replays what it missed from the record's log) sees
//!   every version in order.
//!
//! # Implementing a store elsewhere (Redis)
//!
//! Every method may fail with [`StoreError::Unavailable`] when the backend cannot be reached;
//! the API then answers UNAVAILABLE `STORE_UNAVAILABLE` and nothing is half-applied. A
//! networked store serializes the record with [`crate::live::LiveGame::encode`] (restored by
//! `catalog::restore`) next to the other [`GameRecord`] fields and a format version, keeps each
//! game's keys under the hash tag `{<game id>}`, and performs `commit` as one atomic script:
//! compare the version, check and append the request key (trimming to [`REQUEST_WINDOW`]),
//! write the record, refresh the TTL and append the new version to the game's stream, which
//! backs `watch`.

pub mod due_index;
pub mod instrumented;
pub mod memory;
pub mod redis;
pub mod traced;

use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use deckmate_engine::Seat;
use futures::Stream;
use sha2::{Digest, Sha256};

use crate::auth::TokenHash;
use crate::error::ApiError;
use crate::live::LiveGame;

pub use memory::MemoryStore;

/// How many request keys a store remembers per game (across its seats). A retry older than the
/// last 64 accepted actions of its game is treated as a new request.
pub const REQUEST_WINDOW: usize = 64;

/// How long a CreateGame `request_id` is remembered.
pub const CREATE_WINDOW: Duration = Duration::from_secs(10 * 60);

/// One game as stored: the live game plus what the server needs around it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game id (32 lowercase hex digits).
    pub id: String,
    /// The game itself: config, seed, state and action log.
    pub game: Box<dyn LiveGame>,
    /// SHA-256 of each seat's token, by seat.
    pub token_hashes: Vec<TokenHash>,
    /// Whether callers without a token may observe.
    pub spectators_allowed: bool,
    /// SHA-256 of the seed, announced at creation.
    pub seed_commitment: [u8; 32],
    /// Creation time, Unix milliseconds.
    pub created_at: u64,
    /// Time of the last accepted action (or creation), Unix milliseconds.
    pub updated_at: u64,
}

impl GameRecord {
    /// The game's version: the number of accepted actions.
    pub fn version(&self) -> u64 {
        self.game.version()
    }

    /// A record of `game` for unit tests: the seats' token hashes `[1; 32]` and `[2; 32]`,
    /// spectators allowed, and zero for the seed commitment and both times. Tests that need
    /// other values change the fields they are about.
    #[cfg(test)]
    pub(crate) fn for_test(id: &str, game: Box<dyn LiveGame>) -> GameRecord {
        GameRecord {
            id: id.to_string(),
            game,
            token_hashes: vec![TokenHash([1; 32]), TokenHash([2; 32])],
            spectators_allowed: true,
            seed_commitment: [0; 32],
            created_at: 0,
            updated_at: 0,
        }
    }
}

/// A request id as the store keeps it: a digest, so stores never hold the client's text and
/// every key has the same small size whatever the client sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RequestKey(pub [u8; 16]);

impl RequestKey {
    /// The key of an Act `request_id`: the first 16 bytes of SHA-256("deckmate act " + id).
    pub fn for_act(request_id: &str) -> RequestKey {
        let digest = Sha256::new()
            .chain_update(b"deckmate act ")
            .chain_update(request_id.as_bytes())
            .finalize();
        let mut key = [0u8; 16];
        key.copy_from_slice(&digest[..16]);
        RequestKey(key)
    }
}

/// The result of [`SessionStore::create`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreateOutcome {
    /// The record is stored.
    Created,
    /// A game with this id exists; nothing changed.
    AlreadyExists,
}

/// A record to write over the version the caller read.
#[derive(Clone, Debug)]
pub struct Commit {
    /// The game id.
    pub id: String,
    /// The version the caller read; the commit applies only if the store still holds it.
    pub expected_version: u64,
    /// The new record (its version is greater than `expected_version`).
    pub record: GameRecord,
    /// The acting seat and its request key, remembered with the version this commit produces.
    pub request: Option<SeatRequest>,
}

/// A request as the store remembers it: the acting seat and its request key (keys are scoped by
/// seat, so the same key from two seats names two requests).
pub type SeatRequest = (Seat, RequestKey);

/// The result of [`SessionStore::commit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommitOutcome {
    /// The record is stored at this version.
    Committed {
        /// The new version.
        version: u64,
    },
    /// The stored version is not the expected one; nothing changed.
    Conflict {
        /// The stored version.
        current_version: u64,
    },
    /// The request key was already committed for this seat; nothing changed.
    Duplicate {
        /// The version that request produced.
        version: u64,
    },
    /// No such game (or it expired).
    NotFound,
}

/// The remembered answer to a CreateGame request: the game id, and the response sealed under a
/// key derived from the request id, so the store holds neither tokens nor request ids in plain
/// text.
#[derive(Clone, PartialEq, Eq)]
pub struct SealedCreate {
    /// The game the request created.
    pub game_id: String,
    /// The AEAD nonce.
    pub nonce: [u8; 12],
    /// The sealed response (with its authentication tag).
    pub ciphertext: Vec<u8>,
}

impl std::fmt::Debug for SealedCreate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SealedCreate")
            .field("game_id", &self.game_id)
            .field("ciphertext_len", &self.ciphertext.len())
            .finish_non_exhaustive()
    }
}

/// The result of [`SessionStore::put_create`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PutCreateOutcome {
    /// The entry is stored.
    Stored,
    /// Another request with the same key got there first; its entry is returned and nothing
    /// changed.
    Existing(SealedCreate),
}

/// A stream of newly committed versions of one game. Versions arrive in increasing order but may
/// be coalesced (a watcher may see 3 then 7); the stream ends when the game is gone.
pub type VersionStream = Pin<Box<dyn Stream<Item = Result<u64, StoreError>> + Send>>;

/// A store failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The backend cannot be reached; the operation did not happen (or did entirely, for a
    /// commit whose answer was lost — callers retry with the same request key).
    #[error("session store unavailable: {0}")]
    Unavailable(String),
    /// A stored record cannot be read back.
    #[error("stored record is corrupt: {0}")]
    Corrupt(String),
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::Unavailable(detail) => {
                tracing::warn!(detail = %detail, "session store unavailable");
                ApiError::StoreUnavailable
            }
            StoreError::Corrupt(detail) => ApiError::Internal(detail),
        }
    }
}

/// Where games live. See the module documentation for the guarantees.
#[async_trait]
pub trait SessionStore: Send + Sync + 'static {
    /// Stores a new game unless its id is taken. Counts against the store's game limit
    /// ([`ApiError::LimitReached`] through [`CreateError`]).
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError>;

    /// The game with this id, unless it does not exist or expired.
    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError>;

    /// The game with this id, as [`SessionStore::load`] gives it, for a look in the background
    /// (the game-count prune): a store that keeps copies of the games it serves does not keep
    /// one of a game it only peeked at, so such looks never push out the games being played.
    /// (Required rather than provided, so that a store wrapping another cannot forget to pass
    /// it on and turn peeks into loads.)
    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError>;

    /// The game with this id for an update: a store may answer from a copy it kept of the
    /// record it last loaded or committed, which can be stale (another replica committed since).
    /// A stale copy is harmless because [`SessionStore::commit`] checks the version it was read
    /// at; callers reload with [`SessionStore::reload`] before telling a client anything that
    /// depends on the state being current (an illegal action, a stale version).
    async fn load_for_update(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.load(id).await
    }

    /// The game with this id, as [`SessionStore::load`] gives it, read again because the caller
    /// found the copy it had out of date or in doubt (a lost commit, another expected version,
    /// an action its copy refused, a newer version announced to a watcher). A store that first
    /// asks whether its own copy is current, which is cheaper than a read when the answer is
    /// yes, skips that question here, where the answer is most often no.
    async fn reload(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        self.load(id).await
    }

    /// Replaces the record if the stored version equals `commit.expected_version`, remembering
    /// `commit.request` with the new version; atomic. A request key already remembered for the
    /// same seat gives [`CommitOutcome::Duplicate`] before the version is compared.
    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError>;

    /// The version a remembered request produced.
    async fn find_request(&self, id: &str, request: SeatRequest)
    -> Result<Option<u64>, StoreError>;

    /// Removes a game (a no-op when absent); its watchers' streams end.
    async fn remove(&self, id: &str) -> Result<(), StoreError>;

    /// The remembered answer to a CreateGame request key, unless it expired.
    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError>;

    /// Remembers the answer to a CreateGame request key for `window`, unless the key is taken.
    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError>;

    /// Newly committed versions of a game, from the moment of the call. Subscribe before loading
    /// the record, so that no commit falls between the load and the subscription. For an unknown
    /// game the stream ends at once.
    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError>;

    /// Whether the backend answers.
    async fn health(&self) -> bool;

    /// When the data this store holds began to be kept, Unix milliseconds: the start of the
    /// process for a memory store; for a networked store, when its backend first held the
    /// store's epoch marker (created once, and again only when the backend lost its data). A
    /// game created before it that is missing while younger than [`SessionStore::game_ttl`]
    /// was lost, not expired (`GAME_LOST`).
    async fn epoch(&self) -> Result<u64, StoreError>;

    /// How long a game is kept after its last create or commit.
    fn game_ttl(&self) -> Duration;

    /// How many games count against the game limit now: the store's live games. Store-wide:
    /// every replica sharing a Redis store sees the same number (an expired Redis game may
    /// count for up to half a TTL more, as it does for the limit).
    async fn live_games(&self) -> Result<u64, StoreError>;

    /// The store's clock, Unix milliseconds: what turn clocks are measured by. Every replica of
    /// a shared store reads the same clock (Redis `TIME`), never its own.
    async fn now_ms(&self) -> Result<u64, StoreError>;

    /// Files game `id` in the due index as due at `due_ms` (the store's clock), replacing any
    /// earlier entry of the game, or takes it out (`None`). Store-wide, like the games.
    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError>;

    /// Claims up to `limit` games due at `now_ms`: each is filed again at `now_ms + lease_ms`
    /// before it is returned, so no other claim returns it until then. The claimer looks at
    /// each and files it anew (or takes it out); a claimer that is lost leaves the entry to come
    /// due again when its lease ends.
    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError>;
}

/// Why [`SessionStore::create`] failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// The backend failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store holds as many games as it may.
    #[error("the server holds its maximum of {0} games; try again later")]
    GameLimit(usize),
}

impl From<CreateError> for ApiError {
    fn from(error: CreateError) -> ApiError {
        match error {
            CreateError::Store(error) => error.into(),
            limit @ CreateError::GameLimit(_) => ApiError::LimitReached(limit.to_string()),
        }
    }
}

/// Now, as Unix milliseconds (for record timestamps; expiry uses the store's own clock).
pub fn unix_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_keys_are_stable_and_distinct() {
        assert_eq!(RequestKey::for_act("a"), RequestKey::for_act("a"));
        assert_ne!(RequestKey::for_act("a"), RequestKey::for_act("b"));
    }

    #[test]
    fn store_errors_map_to_api_errors() {
        let unavailable: ApiError = StoreError::Unavailable("connection refused".into()).into();
        assert_eq!(unavailable, ApiError::StoreUnavailable);
        let limit: ApiError = CreateError::GameLimit(3).into();
        assert_eq!(limit.reason(), "LIMIT_REACHED");
        assert!(limit.to_string().contains('3'));
        let corrupt: ApiError = StoreError::Corrupt("bad bytes".into()).into();
        assert_eq!(corrupt.reason(), "INTERNAL");
    }
}
