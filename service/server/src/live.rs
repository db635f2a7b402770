//! [`LiveGame`]: one running game of any kind, behind an object-safe interface that speaks
//! protobuf. The generic implementation for every registered game (`session.rs`) pairs the
//! engine's `Table<G>` with the game's codec (`codec/`), so handlers and stores never match on a
//! game id.

use std::fmt;

use deckmate_engine::bots::{BotLevel, Budget};
use deckmate_engine::{GameKind, Seat, SeatSet, Seed, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::{ReverseWriter, WireEncode};

use crate::clocks::GameClock;
use crate::error::ApiError;

/// A running game: creation parameters, the table and the action log.
///
/// The version is the number of accepted actions. Everything that happened can be rebuilt by
/// replaying the log, which is how past versions are viewed (watch resumption, request-id
/// retries, history); implementations keep snapshots so that such a view costs the same early
/// and late in a game.
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
    /// A copy to apply an action to before committing it. Its cost does not grow with the
    /// game's length (the log is shared, not copied).
    fn clone_box(&self) -> Box<dyn LiveGame>;
    /// Decodes and applies one action of `seat`; on success the version grows by one. On error
    /// nothing changes.
    fn act(&mut self, seat: Seat, action: &pb::Action) -> Result<(), ApiError>;
    /// A copy with one action of `seat` applied, leaving `self` as it is: [`LiveGame::act`] on
    /// a [`LiveGame::clone_box`]. A game may do it cheaper (the session decodes the action
    /// before copying anything and does not copy the events the action replaces).
    fn acted(&self, seat: Seat, action: &pb::Action) -> Result<Box<dyn LiveGame>, ApiError> {
        let mut next = self.clone_box();
        next.act(seat, action)?;
        Ok(next)
    }
    /// The game as `viewer` sees it now (`game_id` left empty for the caller to fill).
    fn view(&self, viewer: Viewer) -> pb::ObserveResponse;
    /// Writes the game as `viewer` sees it now, with `game_id` filled in, back to front: the
    /// bytes of [`LiveGame::view`]'s message with that id, written without building it where
    /// the game can.
    fn write_view(&self, viewer: Viewer, game_id: &str, writer: &mut ReverseWriter) {
        let mut view = self.view(viewer);
        view.game_id = game_id.to_string();
        view.write_reverse(writer);
    }
    /// The views of every version in `(after, up_to]`, in order (`up_to` at most the current
    /// version). Callers page long ranges, so that no caller holds a whole game's views at once.
    fn views_between(
        &self,
        viewer: Viewer,
        after: u64,
        up_to: u64,
    ) -> Result<Vec<pb::ObserveResponse>, ApiError>;
    /// Whether the action that made `version` was `seat`'s `action` (false for version 0, a
    /// version not reached, or an action that does not decode), so that a retried request can
    /// be told from a different request under the same request id.
    fn made_by(&self, version: u64, seat: Seat, action: &pb::Action) -> Result<bool, ApiError>;
    /// The view of one past or current version.
    fn view_at(&self, viewer: Viewer, version: u64) -> Result<pb::ObserveResponse, ApiError>;
    /// The events of the versions in `versions` (inclusive, within `0..=current`) as `viewer`
    /// may know them (complete once the game is over), plus, once over, the actions that
    /// produced those versions.
    fn history(
        &self,
        viewer: Viewer,
        versions: std::ops::RangeInclusive<u64>,
    ) -> Result<(Vec<pb::Event>, Vec<pb::HistoryAction>), ApiError>;
    /// The game serialized for a persistent store.
    fn encode(&self) -> Result<Vec<u8>, ApiError>;
    /// The game without its action log, for a store that keeps the log apart and appends to
    /// it: together with [`LiveGame::encode_entries`] from 0 it holds what
    /// [`LiveGame::encode`] does. Its size does not grow with the game's length.
    fn encode_head(&self) -> Result<Vec<u8>, ApiError>;
    /// [`LiveGame::encode`] in session format 2, which the release before bot seats reads (for
    /// `--write-record-format 1`). A game with bot seats cannot be written so:
    /// [`ApiError::Internal`] (CreateGame refuses such games under an older record format).
    fn encode_previous(&self) -> Result<Vec<u8>, ApiError>;
    /// [`LiveGame::encode_head`] in head format 1, which the release before bot seats reads (for
    /// `--write-record-format 2`); fails for a game with bot seats as
    /// [`LiveGame::encode_previous`] does.
    fn encode_head_previous(&self) -> Result<Vec<u8>, ApiError>;
    /// The actions that made the versions after `from`, in order, one encoded item per action
    /// (the steady state of a store that appends: the one action after the version it holds).
    fn encode_entries(&self, from: u64) -> Result<Vec<Vec<u8>>, ApiError>;
    /// The game as [`std::any::Any`], so that a copy read back from a store can share what it
    /// has in common with an earlier copy of the same game (its log's frozen chunks and their
    /// snapshots).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The seats the server plays and their levels, in seat order (empty when people play every
    /// seat).
    fn bot_seats(&self) -> &[(Seat, BotLevel)];
    /// Makes `bots` the game's bot seats; called once, when the game is created (the caller has
    /// checked that each seat exists and is named once).
    fn set_bot_seats(&mut self, bots: Vec<(Seat, BotLevel)>);
    /// The action the bot of `level` takes for `seat` now, as the wire format (`None` when the
    /// seat may not act). Searching levels poll `stop` and answer with the best action so far
    /// once it says so. Deterministic in the game and `seed`.
    fn bot_action(
        &self,
        seat: Seat,
        level: BotLevel,
        budget: Budget,
        seed: Seed,
        stop: &dyn Fn() -> bool,
    ) -> Option<pb::Action>;
    /// The seats in `to_act` now (empty once the game is over).
    fn to_act(&self) -> Vec<Seat>;
    /// The seats whose clock runs now: those whose turn it is (docs/rules/conventions.md,
    /// clocks), empty once the game is over.
    fn clock_seats(&self) -> SeatSet;
    /// The game's turn clocks, for a game created with them.
    fn clock(&self) -> Option<&GameClock>;
    /// The game's turn clocks, to charge them at a commit.
    fn clock_mut(&mut self) -> Option<&mut GameClock>;
    /// Gives the game its clocks; called once, when the game is created.
    fn set_clock(&mut self, clock: GameClock);
    /// Enters the timeout of `seat`, whose clock ran out: the version grows by one. A seat whose
    /// clock does not run is [`ApiError::NotYourTurn`], a finished game [`ApiError::GameOver`];
    /// on error nothing changes.
    fn time_out(&mut self, seat: Seat) -> Result<(), ApiError>;
    /// Enters `seat`'s timeout together with `action`, the game action the server made for it
    /// (`BOT_MOVE`, docs/rules/conventions.md §8 item 7): announced as a timeout, logged with
    /// the move, and applied as the seat's own action would be.
    fn moved_on_timeout(&mut self, seat: Seat, action: &pb::Action) -> Result<(), ApiError>;
    /// Whether the server may move for `seat` on its timeout under `BOT_MOVE`: yes unless it
    /// moved for `seat` on a timeout in an earlier turn and no player (a seat the server does
    /// not play) has decided anything itself since (docs/CLOCKS.md, "Timeouts"), so that the
    /// server never plays on a game nobody plays.
    fn may_move_on_timeout(&self, seat: Seat) -> Result<bool, ApiError>;
}

impl Clone for Box<dyn LiveGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
