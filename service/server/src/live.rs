//! [`LiveGame`]: one running game of any kind, behind an object-safe interface that speaks
//! protobuf. The generic implementation for every registered game (`session.rs`) pairs the
//! engine's `Table<G>` with the game's codec (`codec/`), so handlers and stores never match on a
//! game id.

use std::fmt;

use deckmate_engine::{GameKind, Seat, Seed, Viewer};
use deckmate_proto::v1 as pb;

use crate::error::ApiError;

/// A running game: creation parameters, the table and the action log.
///
/// The version is the number of accepted actions. Everything that happened can be rebuilt by
/// replaying the log from the seed, which is how past versions are viewed (watch resumption,
/// request-id retries, history).
pub trait LiveGame: Send + Sync + fmt::Debug {
    /// The game.
    fn kind(&self) -> GameKind;
    /// Seat count.
    fn seats(&self) -> usize;
    /// Accepted actions so far.
    fn version(&self) -> u64;
    /// Whether the game has finished.
    fn is_over(&self) -> bool;
    /// The seed (secret while the game runs).
    fn seed(&self) -> Seed;
    /// The effective config, defaults filled in.
    fn config(&self) -> pb::GameConfig;
    /// A copy to apply an action to before committing it.
    fn clone_box(&self) -> Box<dyn LiveGame>;
    /// Decodes and applies one action of `seat`; on success the version grows by one. On error
    /// nothing changes.
    fn act(&mut self, seat: Seat, action: &pb::Action) -> Result<(), ApiError>;
    /// The game as `viewer` sees it now (`game_id` left empty for the caller to fill).
    fn view(&self, viewer: Viewer) -> pb::ObserveResponse;
    /// The views of every version in `(after, current]`, in order, rebuilt by replay.
    fn views_since(&self, viewer: Viewer, after: u64)
    -> Result<Vec<pb::ObserveResponse>, ApiError>;
    /// The view of one past or current version.
    fn view_at(&self, viewer: Viewer, version: u64) -> Result<pb::ObserveResponse, ApiError>;
    /// The event log as `viewer` may know it (complete once the game is over), plus, once over,
    /// every action.
    fn history(&self, viewer: Viewer)
    -> Result<(Vec<pb::Event>, Vec<pb::HistoryAction>), ApiError>;
    /// The game serialized for a persistent store.
    fn encode(&self) -> Result<Vec<u8>, ApiError>;
}

impl Clone for Box<dyn LiveGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
