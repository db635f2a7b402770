//! The stored forms of a session without clocks (see the `session` module documentation): the
//! records of session formats 1 to 3, the heads of head formats 1 and 2, and the bot seats they
//! carry. `clocked.rs` extends the latest of each with the game's clocks.

use deckmate_engine::bots::BotLevel;
use deckmate_engine::{Game, Seat, Seed, Table, TableAction, TableEvent};
use serde::{Deserialize, Serialize};

use crate::bots::levels as bot_levels;
use crate::error::ApiError;

/// The format [`LiveGame::encode_head`] writes: a `StoredHead`, the stored session's fields but
/// its log, followed by the bot seats (as in session format 3).
///
/// [`LiveGame::encode_head`]: crate::live::LiveGame::encode_head
pub const HEAD_FORMAT: u32 = 2;

/// The room [`LiveGame::encode_head`] starts with: more than most games' heads take (their
/// tables are 130 to 440 bytes on average, docs/PERFORMANCE.md "Engine").
///
/// [`LiveGame::encode_head`]: crate::live::LiveGame::encode_head
pub(super) const HEAD_CAPACITY: usize = 1024;

/// The head format before bot seats: a `StoredHead` alone, still read and written by
/// [`LiveGame::encode_head_previous`](crate::live::LiveGame::encode_head_previous).
pub(super) const HEAD_FORMAT_ONE: u32 = 1;

/// A bot seat as stored: the seat and its level's `BotLevel` proto number.
pub(super) type StoredBot = (Seat, u8);

/// The stored form of `bots`.
pub(super) fn encode_bots(bots: &[(Seat, BotLevel)]) -> Vec<StoredBot> {
    bots.iter()
        .map(|&(seat, level)| (seat, bot_levels::to_code(level)))
        .collect()
}

/// Bot seats read back: each level known and each seat a seat of the game, in increasing order.
pub(super) fn decode_bots<G: Game>(
    stored: &[StoredBot],
    seats: u32,
) -> Result<Vec<(Seat, BotLevel)>, ApiError> {
    let mut bots: Vec<(Seat, BotLevel)> = Vec::with_capacity(stored.len());
    for &(seat, code) in stored {
        let level = bot_levels::from_code(code).ok_or_else(|| {
            ApiError::Internal(format!(
                "stored {} session has unknown bot level {code}",
                G::ID
            ))
        })?;
        let ordered = bots.last().is_none_or(|&(last, _)| last < seat);
        if u32::from(seat.0) >= seats || !ordered {
            return Err(ApiError::Internal(format!(
                "stored {} session has a bad bot seat {}",
                G::ID,
                seat.0
            )));
        }
        bots.push((seat, level));
    }
    Ok(bots)
}

/// A head of format 2: format 1's fields, then the bot seats.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredHeadWithBots<G: Game> {
    pub(super) head: StoredHead<G>,
    pub(super) bots: Vec<StoredBot>,
}

/// [`StoredHeadWithBots`] written from borrowed parts.
#[derive(Serialize)]
#[serde(bound = "")]
pub(super) struct StoredHeadWithBotsRef<'a, G: Game> {
    pub(super) head: StoredHeadRef<'a, G>,
    pub(super) bots: &'a [StoredBot],
}

/// A stored record of format 3: format 2's fields, then the bot seats.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredSessionWithBots<G: Game> {
    pub(super) session: StoredSession<G>,
    pub(super) bots: Vec<StoredBot>,
}

/// [`StoredSessionWithBots`] written from borrowed parts.
#[derive(Serialize)]
#[serde(bound = "")]
pub(super) struct StoredSessionWithBotsRef<'a, G: Game> {
    pub(super) session: StoredSessionRef<'a, G>,
    pub(super) bots: &'a [StoredBot],
}

/// A session without its log (see [`LiveGame::encode_head`]): the stored record's fields but
/// `log`, in the same order.
///
/// [`LiveGame::encode_head`]: crate::live::LiveGame::encode_head
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredHead<G: Game> {
    pub(super) format: u32,
    pub(super) game: String,
    pub(super) config: G::Config,
    pub(super) seats: u32,
    pub(super) seed: Seed,
    pub(super) table: Table<G>,
    pub(super) latest_events: Vec<TableEvent<G::Event>>,
}

/// [`StoredHead`] written from borrowed parts.
#[derive(Serialize)]
#[serde(bound = "")]
pub(super) struct StoredHeadRef<'a, G: Game> {
    pub(super) format: u32,
    pub(super) game: &'a str,
    pub(super) config: &'a G::Config,
    pub(super) seats: u32,
    pub(super) seed: &'a Seed,
    pub(super) table: &'a Table<G>,
    pub(super) latest_events: &'a [TableEvent<G::Event>],
}

/// The stored record, written from borrowed parts (see the module documentation).
#[derive(Serialize)]
#[serde(bound = "")]
pub(super) struct StoredSessionRef<'a, G: Game> {
    pub(super) format: u32,
    pub(super) game: &'a str,
    pub(super) config: &'a G::Config,
    pub(super) seats: u32,
    pub(super) seed: &'a Seed,
    pub(super) log: &'a [(Seat, TableAction<G::Action>)],
    pub(super) table: &'a Table<G>,
    pub(super) latest_events: &'a [TableEvent<G::Event>],
}

/// The first six fields of a stored record, which every format shares: all that is read of a
/// format-1 record.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredSessionStart<G: Game> {
    #[allow(dead_code)] // Checked before the record is decoded.
    pub(super) format: u32,
    pub(super) game: String,
    pub(super) config: G::Config,
    pub(super) seats: u32,
    pub(super) seed: Seed,
    pub(super) log: Vec<(Seat, TableAction<G::Action>)>,
}

/// The stored record, read back; field for field the same as [`StoredSessionRef`] (postcard
/// lays out a nested struct as its fields in order, so `start` reads the first six).
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct StoredSession<G: Game> {
    pub(super) start: StoredSessionStart<G>,
    pub(super) table: Table<G>,
    pub(super) latest_events: Vec<TableEvent<G::Event>>,
}
