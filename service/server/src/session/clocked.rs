//! The stored forms of a game with clocks: session format 4 and head format 3, each the format
//! before it followed by the game's [`GameClock`] (see the `session` module documentation).

use serde::{Deserialize, Serialize};

use super::stored::{
    StoredHeadWithBots, StoredHeadWithBotsRef, StoredSessionWithBots, StoredSessionWithBotsRef,
};
use crate::clocks::GameClock;
use deckmate_engine::Game;

/// The session format [`crate::live::LiveGame::encode`] writes for a game with clocks.
pub(super) const SESSION_FORMAT_CLOCKS: u32 = 4;

/// The head format [`crate::live::LiveGame::encode_head`] writes for a game with clocks.
pub(super) const HEAD_FORMAT_CLOCKS: u32 = 3;

/// A stored record of format 4: format 3's fields, then the clock.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredSessionWithClock<G: Game> {
    pub(super) with_bots: StoredSessionWithBots<G>,
    pub(super) clock: GameClock,
}

/// [`StoredSessionWithClock`] written from borrowed parts.
#[derive(Serialize)]
#[serde(bound = "")]
pub(super) struct StoredSessionWithClockRef<'a, G: Game> {
    pub(super) with_bots: StoredSessionWithBotsRef<'a, G>,
    pub(super) clock: &'a GameClock,
}

/// A head of format 3: head format 2's fields, then the clock.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredHeadWithClock<G: Game> {
    pub(super) with_bots: StoredHeadWithBots<G>,
    pub(super) clock: GameClock,
}

/// [`StoredHeadWithClock`] written from borrowed parts.
#[derive(Serialize)]
#[serde(bound = "")]
pub(super) struct StoredHeadWithClockRef<'a, G: Game> {
    pub(super) with_bots: StoredHeadWithBotsRef<'a, G>,
    pub(super) clock: &'a GameClock,
}
