//! [`Session`]: the one [`LiveGame`] implementation, generic over every game with a codec.
//!
//! A session holds the creation parameters (config, seat count, seed), the current
//! [`Table`] (which knows the rules [`Edition`] the game was dealt under), the action log, and
//! the full events of the current version, so that `act` and `view` never replay. Past versions
//! (watch resumption, request-id retries, history) are rebuilt by replaying, under the game's
//! own edition, from the nearest snapshot the action log (`session/action_log.rs`) keeps every
//! 64 actions, so their cost does not grow with the game's length.
//!
//! # Stored format
//!
//! [`LiveGame::encode`] writes a postcard record whose fields are, in order:
//!
//! | # | field | type |
//! |---|---|---|
//! | 1 | `format` | `u32`, [`SESSION_FORMAT`] (3) |
//! | 2 | `game` | the game id, such as `"pigeon_chess"` |
//! | 3 | `config` | the game's `Config` |
//! | 4 | `seats` | `u32` |
//! | 5 | `seed` | 32 bytes |
//! | 6 | `log` | every accepted action: `(Seat, TableAction<Action>)` |
//! | 7 | `table` | the current `Table<G>`, edition included, so loading needs no replay |
//! | 8 | `latest_events` | the full (unprojected) events of the current version |
//! | 9 | `bots` | the bot seats: `(Seat, u8)` in seat order, the level as its `BotLevel` proto number (format 3) |
//! | 10 | `clock` | the game's clocks (`crate::clocks::GameClock`), format 4 only |
//!
//! Format 4 is written for a game with clocks only; a game without clocks is written in format
//! 3, which is format 4 without its last field, so that the release before clocks still reads
//! every game it could hold. Heads (the record without its log, [`LiveGame::encode_head`]) follow
//! the same rule: head format 3 (with the clock) for a game with clocks, else head format 2.
//!
//! Format 2 is format 3 without `bots`: a game with no bot seats. It is still read, and written
//! by [`LiveGame::encode_previous`] for replicas of the release before bots, which cannot hold
//! a game with bot seats.
//!
//! Decoding reads `format` first and rejects versions it does not know. Format 1, written by
//! the first release, has the same fields, but its `table` predates editions and later table
//! fields; it is read from its first six fields alone, and the table and latest events are
//! rebuilt by replaying the log under [`Edition::FIRST`], the rules every format-1 game was
//! dealt under. Such a game keeps those rules to its end, so its past views and history are
//! exactly what its players saw (docs/ARCHITECTURE.md §7); once it changes again it is written
//! in format 2.

use std::fmt;
use std::ops::RangeInclusive;

use deckmate_engine::bots::{self, BotLevel, Budget};
use deckmate_engine::{
    Edition, Game, GameKind, PlayError, Seat, SeatSet, Seed, Table, TableAction, TableEvent, Viewer,
};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::ReverseWriter;

use crate::bots::levels as bot_levels;
use crate::codec::GameCodec;
use crate::codec::common::{
    decode_table_action, encode_meta_action, encode_outcome, encode_status, encode_table_action,
    encode_table_event, seat_to_u32, seats_to_u32,
};
use crate::error::ApiError;
use crate::live::LiveGame;

mod action_log;
mod clocked;
mod stored;
mod written_view;

use action_log::{ActionLog, Dealt, Entry};
use clocked::{
    HEAD_FORMAT_CLOCKS, SESSION_FORMAT_CLOCKS, StoredHeadWithClock, StoredHeadWithClockRef,
    StoredSessionWithClock, StoredSessionWithClockRef,
};

use crate::clocks::GameClock;

pub use stored::HEAD_FORMAT;
use stored::{
    HEAD_CAPACITY, HEAD_FORMAT_ONE, StoredHead, StoredHeadRef, StoredHeadWithBots,
    StoredHeadWithBotsRef, StoredSession, StoredSessionRef, StoredSessionStart,
    StoredSessionWithBots, StoredSessionWithBotsRef, decode_bots, encode_bots,
};

/// The format version [`LiveGame::encode`] writes (see the module documentation).
pub const SESSION_FORMAT: u32 = 3;

/// The format before bot seats, still read and written for older replicas.
const SESSION_FORMAT_TWO: u32 = 2;

/// The first release's format, still read (see the module documentation).
const SESSION_FORMAT_ONE: u32 = 1;

/// One running game of `G`.
pub struct Session<G: GameCodec> {
    config: G::Config,
    seats: usize,
    seed: Seed,
    table: Table<G>,
    log: ActionLog<G>,
    /// The full events of the current version: the setup events at version 0, then those of
    /// the latest action.
    latest_events: Vec<TableEvent<G::Event>>,
    /// The seats the server plays, in seat order.
    bots: Vec<(Seat, BotLevel)>,
    /// The turn clocks, for a game created with them.
    clock: Option<GameClock>,
}

impl<G: GameCodec> Session<G> {
    /// Deals a new game. A bad seat count is [`ApiError::InvalidRequest`] with the engine's
    /// message; an option the engine refuses is [`ApiError::InvalidField`] naming it (see
    /// [`crate::codec::config::setup_error`]).
    pub fn new(config: G::Config, seats: usize, seed: Seed) -> Result<Self, ApiError> {
        let (table, setup_events) = Table::<G>::new(&config, seats, seed)
            .map_err(crate::codec::config::setup_error::<G>)?;
        Ok(Session {
            config,
            seats,
            seed,
            table,
            log: ActionLog::new(),
            latest_events: setup_events,
            bots: Vec::new(),
            clock: None,
        })
    }

    /// Reads a session written by [`LiveGame::encode`]. Unknown format versions, records of
    /// another game and malformed bytes are [`ApiError::Internal`]: the store is corrupt or
    /// newer than this server.
    pub fn decode(bytes: &[u8]) -> Result<Self, ApiError> {
        let (format, _) = postcard::take_from_bytes::<u32>(bytes).map_err(|error| {
            ApiError::Internal(format!("stored {} session has no format: {error}", G::ID))
        })?;
        match format {
            SESSION_FORMAT_CLOCKS => {
                let record: StoredSessionWithClock<G> =
                    postcard::from_bytes(bytes).map_err(malformed::<G>)?;
                let with_bots = record.with_bots;
                let bots = decode_bots::<G>(&with_bots.bots, with_bots.session.start.seats)?;
                let mut session = Session::from_stored(with_bots.session, bots)?;
                session.clock = Some(record.clock);
                Ok(session)
            }
            SESSION_FORMAT => {
                let record: StoredSessionWithBots<G> =
                    postcard::from_bytes(bytes).map_err(malformed::<G>)?;
                let bots = decode_bots::<G>(&record.bots, record.session.start.seats)?;
                Session::from_stored(record.session, bots)
            }
            SESSION_FORMAT_TWO => {
                let record: StoredSession<G> =
                    postcard::from_bytes(bytes).map_err(malformed::<G>)?;
                Session::from_stored(record, Vec::new())
            }
            SESSION_FORMAT_ONE => {
                let (record, _) = postcard::take_from_bytes::<StoredSessionStart<G>>(bytes)
                    .map_err(malformed::<G>)?;
                check_game::<G>(&record.game)?;
                Session::rebuild(
                    record.config,
                    record.seats as usize,
                    record.seed,
                    Edition::FIRST,
                    record.log,
                )
            }
            other => Err(ApiError::Internal(format!(
                "stored {} session has unknown format {other}",
                G::ID
            ))),
        }
    }

    /// A session from a stored record of format 2 or 3.
    fn from_stored(
        record: StoredSession<G>,
        bots: Vec<(Seat, BotLevel)>,
    ) -> Result<Self, ApiError> {
        let StoredSession {
            start,
            table,
            latest_events,
        } = record;
        check_game::<G>(&start.game)?;
        Ok(Session {
            config: start.config,
            seats: start.seats as usize,
            seed: start.seed,
            table,
            log: ActionLog::from_entries(start.log)?,
            latest_events,
            bots,
            clock: None,
        })
    }

    /// Reads a session written as [`LiveGame::encode_head`] and [`LiveGame::encode_entries`]:
    /// `entries` are its whole log when `held` is 0, else the actions after the first `held`,
    /// which `previous` (an earlier copy of the same game) holds. Without `held`, the log chunks
    /// `previous` has in common are shared too. Errors as for [`Session::decode`].
    pub fn decode_split(
        head: &[u8],
        entries: &[Vec<u8>],
        previous: Option<&Self>,
        held: u64,
    ) -> Result<Self, ApiError> {
        let log = match previous {
            _ if held == 0 => {
                ActionLog::from_encoded(entries, previous.map(|session| &session.log))?
            }
            Some(previous) if previous.log.len() == held => previous.log.extended(entries)?,
            _ => {
                return Err(ApiError::Internal(format!(
                    "a stored {} log continues a copy of {held} actions this server does not hold",
                    G::ID
                )));
            }
        };
        let (format, _) = postcard::take_from_bytes::<u32>(head).map_err(|error| {
            ApiError::Internal(format!("stored {} head has no format: {error}", G::ID))
        })?;
        let (head, bots, clock) = match format {
            HEAD_FORMAT_CLOCKS => {
                let stored: StoredHeadWithClock<G> =
                    postcard::from_bytes(head).map_err(malformed::<G>)?;
                let with_bots = stored.with_bots;
                let bots = decode_bots::<G>(&with_bots.bots, with_bots.head.seats)?;
                (with_bots.head, bots, Some(stored.clock))
            }
            HEAD_FORMAT => {
                let stored: StoredHeadWithBots<G> =
                    postcard::from_bytes(head).map_err(malformed::<G>)?;
                let bots = decode_bots::<G>(&stored.bots, stored.head.seats)?;
                (stored.head, bots, None)
            }
            HEAD_FORMAT_ONE => {
                let stored: StoredHead<G> = postcard::from_bytes(head).map_err(malformed::<G>)?;
                (stored, Vec::new(), None)
            }
            other => {
                return Err(ApiError::Internal(format!(
                    "stored {} head has unknown format {other}",
                    G::ID
                )));
            }
        };
        let StoredHead {
            format: _,
            game,
            config,
            seats,
            seed,
            table,
            latest_events,
        } = head;
        check_game::<G>(&game)?;
        Ok(Session {
            config,
            seats: seats as usize,
            seed,
            table,
            log,
            latest_events,
            bots,
            clock,
        })
    }

    /// A session rebuilt from its creation parameters and log, by replay under `edition`.
    fn rebuild(
        config: G::Config,
        seats: usize,
        seed: Seed,
        edition: Edition,
        entries: Vec<Entry<G>>,
    ) -> Result<Self, ApiError> {
        let (mut table, mut latest_events) = Table::<G>::new_in(&config, seats, seed, edition)
            .map_err(|error| {
                ApiError::Internal(format!("replaying a {} game: setup: {error}", G::ID))
            })?;
        let mut log = ActionLog::new();
        for (index, (seat, action)) in entries.into_iter().enumerate() {
            latest_events = table.apply(seat, &action).map_err(|error| {
                ApiError::Internal(format!(
                    "replaying a {} game: action {index} rejected: {error}",
                    G::ID
                ))
            })?;
            log.push((seat, action), &table)?;
        }
        Ok(Session {
            config,
            seats,
            seed,
            table,
            log,
            latest_events,
            bots: Vec::new(),
            clock: None,
        })
    }

    /// The stored record's fields before the bot seats, in `format`.
    fn stored_ref<'a>(
        &'a self,
        format: u32,
        log: &'a [(Seat, TableAction<G::Action>)],
    ) -> StoredSessionRef<'a, G> {
        StoredSessionRef {
            format,
            game: G::ID,
            config: &self.config,
            seats: self.seats as u32,
            seed: &self.seed,
            log,
            table: &self.table,
            latest_events: &self.latest_events,
        }
    }

    /// The head's fields before the bot seats, in `format`.
    fn head_ref(&self, format: u32) -> StoredHeadRef<'_, G> {
        StoredHeadRef {
            format,
            game: G::ID,
            config: &self.config,
            seats: self.seats as u32,
            seed: &self.seed,
            table: &self.table,
            latest_events: &self.latest_events,
        }
    }

    /// The formats before bot seats cannot hold a game with bot seats (nor one with clocks,
    /// which came later).
    fn refuse_previous_with_bots(&self) -> Result<(), ApiError> {
        if !self.bots.is_empty() {
            Err(ApiError::Internal(format!(
                "a {} game with bot seats cannot be written in a format without them",
                G::ID
            )))
        } else if self.clock.is_some() {
            Err(ApiError::Internal(format!(
                "a {} game with clocks cannot be written in a format without them",
                G::ID
            )))
        } else {
            Ok(())
        }
    }

    /// The current version: the number of accepted actions.
    fn current_version(&self) -> u64 {
        self.log.len()
    }

    /// The game's deal under its own edition: version 0 and its setup events.
    fn deal(&self) -> Result<Dealt<G>, ApiError> {
        Table::<G>::new_in(&self.config, self.seats, self.seed, self.table.edition()).map_err(
            |error| ApiError::Internal(format!("replaying a {} game: setup: {error}", G::ID)),
        )
    }

    /// Calls `visit(version, table, events, actor)` for every version in `first..=last` (at most
    /// the current version), in order, replaying from the nearest snapshot before `first`.
    fn replay(
        &self,
        first: u64,
        last: u64,
        mut visit: impl FnMut(u64, &Table<G>, &[TableEvent<G::Event>], Option<Seat>),
    ) -> Result<(), ApiError> {
        let deal = || self.deal();
        self.log
            .replay(first, last, deal, |version, table, events, entry| {
                visit(version, table, events, entry.map(|(seat, _)| *seat));
            })
    }

    /// Applies `seat`'s decision and logs it: the version grows by one. `Table::apply` changes
    /// nothing when it fails, so neither does this.
    fn apply_logged(&mut self, seat: Seat, action: TableAction<G::Action>) -> Result<(), ApiError> {
        let events = self.table.apply(seat, &action).map_err(play_error)?;
        self.log.push((seat, action), &self.table)?;
        self.latest_events = events;
        Ok(())
    }

    /// Rejects versions after the current one.
    fn check_version(&self, version: u64, field: &str) -> Result<(), ApiError> {
        let current = self.current_version();
        if version > current {
            return Err(ApiError::InvalidRequest(format!(
                "{field} {version} is after the game's current version {current}"
            )));
        }
        Ok(())
    }

    /// The game at `version` (whose table and full events are given) as `viewer` sees it.
    fn build_view(
        &self,
        table: &Table<G>,
        version: u64,
        events: &[TableEvent<G::Event>],
        actor: Option<Seat>,
        viewer: Viewer,
    ) -> pb::ObserveResponse {
        let over = table.is_over();
        let seat = viewer.seat();
        // Only the current version's clocks are kept (docs/CLOCKS.md, "Views").
        let clocks = match &self.clock {
            Some(clock) if version == self.current_version() => clock.to_proto(),
            _ => Vec::new(),
        };
        let to_act = table.to_act();
        let legal_actions = match seat {
            Some(seat) if to_act.contains(seat) => table
                .legal_actions(seat)
                .iter()
                .map(G::encode_action)
                .collect(),
            _ => Vec::new(),
        };
        let meta_actions = seat
            .map(|seat| {
                table
                    .meta_actions(seat)
                    .into_iter()
                    .map(encode_meta_action)
                    .collect()
            })
            .unwrap_or_default();
        pb::ObserveResponse {
            game_id: String::new(),
            variant: G::ID.to_string(),
            version,
            status: encode_status(over).into(),
            outcome: table.outcome().as_ref().map(encode_outcome),
            to_act: seats_to_u32(to_act),
            seat: seat.map(seat_to_u32),
            legal_actions,
            observation: Some(G::encode_observation(&table.observe(viewer))),
            recent_events: project_events::<G>(events, version, actor, viewer, over),
            meta_actions,
            seats: self.seats as u32,
            draw_offered_by: table.draw_offer().map(seat_to_u32),
            seat_options: self
                .bots
                .iter()
                .map(|&(seat, level)| pb::SeatOptions {
                    seat: seat_to_u32(seat),
                    bot: bot_levels::to_proto(level).into(),
                })
                .collect(),
            clocks,
        }
    }
}

/// A stored session that cannot be decoded: the store is corrupt.
fn malformed<G: Game>(error: postcard::Error) -> ApiError {
    ApiError::Internal(format!("stored {} session is malformed: {error}", G::ID))
}

/// Rejects a stored session of another game.
fn check_game<G: Game>(stored: &str) -> Result<(), ApiError> {
    if stored == G::ID {
        Ok(())
    } else {
        Err(ApiError::Internal(format!(
            "stored session is a {stored} game, not {}",
            G::ID
        )))
    }
}

/// `events` of `version` (made by `actor`) as `viewer` may know them; with `reveal` (the game
/// is over) every detail is shown.
fn project_events<G: GameCodec>(
    events: &[TableEvent<G::Event>],
    version: u64,
    actor: Option<Seat>,
    viewer: Viewer,
    reveal: bool,
) -> Vec<pb::Event> {
    events
        .iter()
        .filter_map(|event| {
            if reveal {
                Some(Table::<G>::reveal_event(event))
            } else {
                Table::<G>::view_event(event, viewer)
            }
        })
        .map(|event| encode_table_event::<G>(&event, version, actor))
        .collect()
}

/// The engine's rejection as an API error. The engine's messages are public by contract.
fn play_error(error: PlayError) -> ApiError {
    match error {
        PlayError::NotYourTurn => ApiError::NotYourTurn,
        PlayError::GameOver => ApiError::GameOver,
        PlayError::Illegal(_) => ApiError::IllegalAction(error.to_string()),
    }
}

impl<G: GameCodec> Session<G> {
    /// A copy whose latest events are `latest_events`.
    fn copy_with_events(&self, latest_events: Vec<TableEvent<G::Event>>) -> Self {
        Session {
            config: self.config.clone(),
            seats: self.seats,
            seed: self.seed,
            table: self.table.clone(),
            log: self.log.clone(),
            latest_events,
            bots: self.bots.clone(),
            clock: self.clock.clone(),
        }
    }
}

impl<G: GameCodec> Clone for Session<G> {
    fn clone(&self) -> Self {
        self.copy_with_events(self.latest_events.clone())
    }
}

impl<G: GameCodec> fmt::Debug for Session<G> {
    // Only public facts: the state, log and seed hold secrets that must not reach a log line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("game", &G::ID)
            .field("seats", &self.seats)
            .field("version", &self.current_version())
            .field("over", &self.table.is_over())
            .field("bots", &self.bots)
            .field("clock", &self.clock.is_some())
            .finish_non_exhaustive()
    }
}

impl<G: GameCodec> LiveGame for Session<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn version(&self) -> u64 {
        self.current_version()
    }

    fn is_over(&self) -> bool {
        self.table.is_over()
    }

    fn seed(&self) -> Seed {
        self.seed
    }

    fn config(&self) -> pb::GameConfig {
        G::encode_config(&self.config)
    }

    fn clone_box(&self) -> Box<dyn LiveGame> {
        Box::new(self.clone())
    }

    fn act(&mut self, seat: Seat, action: &pb::Action) -> Result<(), ApiError> {
        let action = decode_table_action::<G>(action)?;
        self.apply_logged(seat, action)
    }

    fn acted(&self, seat: Seat, action: &pb::Action) -> Result<Box<dyn LiveGame>, ApiError> {
        let action = decode_table_action::<G>(action)?;
        // The action replaces the latest events, so the copy starts without them.
        let mut next = self.copy_with_events(Vec::new());
        next.apply_logged(seat, action)?;
        Ok(Box::new(next))
    }

    fn view(&self, viewer: Viewer) -> pb::ObserveResponse {
        self.build_view(
            &self.table,
            self.current_version(),
            &self.latest_events,
            self.log.last_actor(),
            viewer,
        )
    }

    fn write_view(&self, viewer: Viewer, game_id: &str, writer: &mut ReverseWriter) {
        self.write_view_at(
            &self.table,
            self.current_version(),
            &self.latest_events,
            self.log.last_actor(),
            viewer,
            game_id,
            writer,
        );
    }

    fn views_between(
        &self,
        viewer: Viewer,
        after: u64,
        up_to: u64,
    ) -> Result<Vec<pb::ObserveResponse>, ApiError> {
        self.check_version(up_to, "version")?;
        if after >= up_to {
            return Ok(Vec::new());
        }
        let current = self.current_version();
        if after + 1 == up_to && up_to == current {
            // The common case of a watcher one version behind: no replay needed.
            return Ok(vec![self.view(viewer)]);
        }
        let mut views = Vec::with_capacity((up_to - after) as usize);
        self.replay(after + 1, up_to, |version, table, events, actor| {
            views.push(self.build_view(table, version, events, actor, viewer));
        })?;
        Ok(views)
    }

    fn made_by(&self, version: u64, seat: Seat, action: &pb::Action) -> Result<bool, ApiError> {
        let Ok(action) = decode_table_action::<G>(action) else {
            return Ok(false);
        };
        Ok(self
            .log
            .entry(version)?
            .is_some_and(|entry| entry == (seat, action)))
    }

    fn view_at(&self, viewer: Viewer, version: u64) -> Result<pb::ObserveResponse, ApiError> {
        self.check_version(version, "version")?;
        if version == self.current_version() {
            return Ok(self.view(viewer));
        }
        let mut found = None;
        self.replay(version, version, |at, table, events, actor| {
            found = Some(self.build_view(table, at, events, actor, viewer));
        })?;
        found.ok_or_else(|| {
            ApiError::Internal(format!(
                "replay of a {} game missed version {version}",
                G::ID
            ))
        })
    }

    fn history(
        &self,
        viewer: Viewer,
        versions: RangeInclusive<u64>,
    ) -> Result<(Vec<pb::Event>, Vec<pb::HistoryAction>), ApiError> {
        let (first, last) = versions.into_inner();
        self.check_version(last, "version")?;
        if first > last {
            return Ok((Vec::new(), Vec::new()));
        }
        // Secrets are revealed only once the game is over (docs/ARCHITECTURE.md §3, GetHistory).
        let reveal = self.table.is_over();
        let mut events = Vec::new();
        let mut actions = Vec::new();
        let deal = || self.deal();
        self.log
            .replay(first, last, deal, |version, _, version_events, entry| {
                let actor = entry.map(|(seat, _)| *seat);
                events.extend(project_events::<G>(
                    version_events,
                    version,
                    actor,
                    viewer,
                    reveal,
                ));
                // The actions reveal every secret: only once the game is over.
                if let (true, Some((seat, action))) = (reveal, entry) {
                    actions.push(pb::HistoryAction {
                        version,
                        seat: seat_to_u32(*seat),
                        action: (!matches!(action, TableAction::TimeOut))
                            .then(|| encode_table_action::<G>(action)),
                        timed_out: matches!(
                            action,
                            TableAction::TimeOut | TableAction::MovedOnTimeout(_)
                        ),
                    });
                }
            })?;
        Ok((events, actions))
    }

    fn encode(&self) -> Result<Vec<u8>, ApiError> {
        let log = self.log.entries()?;
        let bots = encode_bots(&self.bots);
        let encoded = match &self.clock {
            Some(clock) => postcard::to_allocvec(&StoredSessionWithClockRef::<G> {
                with_bots: StoredSessionWithBotsRef {
                    session: self.stored_ref(SESSION_FORMAT_CLOCKS, &log),
                    bots: &bots,
                },
                clock,
            }),
            None => postcard::to_allocvec(&StoredSessionWithBotsRef::<G> {
                session: self.stored_ref(SESSION_FORMAT, &log),
                bots: &bots,
            }),
        };
        encoded
            .map_err(|error| ApiError::Internal(format!("encoding a {} session: {error}", G::ID)))
    }

    fn encode_previous(&self) -> Result<Vec<u8>, ApiError> {
        self.refuse_previous_with_bots()?;
        let log = self.log.entries()?;
        postcard::to_allocvec(&self.stored_ref(SESSION_FORMAT_TWO, &log))
            .map_err(|error| ApiError::Internal(format!("encoding a {} session: {error}", G::ID)))
    }

    fn encode_head(&self) -> Result<Vec<u8>, ApiError> {
        let bots = encode_bots(&self.bots);
        // Every commit to a networked store writes the head: room for most of them at once
        // rather than a buffer grown from empty.
        let buffer = Vec::with_capacity(HEAD_CAPACITY);
        let encoded = match &self.clock {
            Some(clock) => postcard::to_extend(
                &StoredHeadWithClockRef::<G> {
                    with_bots: StoredHeadWithBotsRef {
                        head: self.head_ref(HEAD_FORMAT_CLOCKS),
                        bots: &bots,
                    },
                    clock,
                },
                buffer,
            ),
            None => postcard::to_extend(
                &StoredHeadWithBotsRef::<G> {
                    head: self.head_ref(HEAD_FORMAT),
                    bots: &bots,
                },
                buffer,
            ),
        };
        encoded.map_err(|error| ApiError::Internal(format!("encoding a {} head: {error}", G::ID)))
    }

    fn encode_head_previous(&self) -> Result<Vec<u8>, ApiError> {
        self.refuse_previous_with_bots()?;
        postcard::to_allocvec(&self.head_ref(HEAD_FORMAT_ONE))
            .map_err(|error| ApiError::Internal(format!("encoding a {} head: {error}", G::ID)))
    }

    fn encode_entries(&self, from: u64) -> Result<Vec<Vec<u8>>, ApiError> {
        self.log.encoded_entries(from)
    }

    fn bot_seats(&self) -> &[(Seat, BotLevel)] {
        &self.bots
    }

    fn set_bot_seats(&mut self, bots: Vec<(Seat, BotLevel)>) {
        self.bots = bots;
        self.bots.sort_by_key(|&(seat, _)| seat);
    }

    fn bot_action(
        &self,
        seat: Seat,
        level: BotLevel,
        budget: Budget,
        seed: Seed,
        stop: &dyn Fn() -> bool,
    ) -> Option<pb::Action> {
        bots::choose::<G>(&self.table, seat, level, budget, seed, stop)
            .map(|action| encode_table_action::<G>(&action))
    }

    fn to_act(&self) -> Vec<Seat> {
        self.table.to_act().iter().collect()
    }

    fn clock_seats(&self) -> SeatSet {
        self.table.clock_seats()
    }

    fn clock(&self) -> Option<&GameClock> {
        self.clock.as_ref()
    }

    fn clock_mut(&mut self) -> Option<&mut GameClock> {
        self.clock.as_mut()
    }

    fn set_clock(&mut self, clock: GameClock) {
        self.clock = Some(clock);
    }

    fn time_out(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.apply_logged(seat, TableAction::TimeOut)
    }

    fn moved_on_timeout(&mut self, seat: Seat, action: &pb::Action) -> Result<(), ApiError> {
        match decode_table_action::<G>(action)? {
            TableAction::Game(game_action) => {
                self.apply_logged(seat, TableAction::MovedOnTimeout(game_action))
            }
            _ => Err(ApiError::Internal(
                "a move made on timeout must be a game action".to_string(),
            )),
        }
    }

    fn may_move_on_timeout(&self, seat: Seat) -> Result<bool, ApiError> {
        // docs/CLOCKS.md, "Timeouts": only the decisions since a player's own last one count.
        // Back from the latest action to the first of those, noting whether the server moved
        // for `seat` on a timeout among them.
        let current = self.current_version();
        let mut first_by_server = current + 1;
        let mut moved_for_seat = false;
        for version in (1..=current).rev() {
            let Some((actor, action)) = self.log.entry(version)? else {
                break;
            };
            let on_timeout = matches!(action, TableAction::MovedOnTimeout(_));
            let by_server = on_timeout
                || matches!(action, TableAction::TimeOut)
                || self.bots.iter().any(|(bot, _)| *bot == actor);
            if !by_server {
                break;
            }
            first_by_server = version;
            moved_for_seat |= on_timeout && actor == seat;
        }
        if !moved_for_seat {
            return Ok(true);
        }
        // The server's moves for `seat` in the turn it is still on do not count (a turn may
        // take several actions); one in an earlier turn does, a turn after a skip included. A
        // move's turn is the one in progress before it (`Game::turn_number`).
        let now = G::turn_number(self.table.state());
        let mut turn_before = None;
        let mut earlier_turn = false;
        let deal = || self.deal();
        self.log
            .replay(first_by_server - 1, current, deal, |_, table, _, entry| {
                if let (Some(turn), Some((actor, TableAction::MovedOnTimeout(_)))) =
                    (turn_before, entry)
                {
                    earlier_turn |= *actor == seat && turn < now;
                }
                turn_before = Some(G::turn_number(table.state()));
            })?;
        Ok(!earlier_turn)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod acted_tests;

#[cfg(test)]
mod tests;
