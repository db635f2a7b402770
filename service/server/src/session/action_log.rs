//! [`ActionLog`]: a session's accepted actions, cheap to copy and with snapshots, so that
//! neither an `Act` nor a past view costs more as the game grows (docs/PERFORMANCE.md, "Cost
//! independent of game length").
//!
//! The log is cut into chunks of [`CHUNK`] actions. A full chunk is frozen: its actions are
//! kept postcard-encoded behind an `Arc`, shared by every copy of the session, next to a
//! snapshot of the table at the chunk's first version (postcard too, so a finished long game
//! stays small in memory). Copying the log — which `Act` does, to apply an action to a copy
//! that a failed commit can drop — copies one pointer per frozen chunk and at most
//! `CHUNK - 1` unfrozen actions, whatever the game's length.
//!
//! A snapshot is taken when a chunk fills during play. A log read back from a stored record
//! (which holds the flat action list, not the snapshots: stored records stay small) starts
//! without them; the first past view that needs one replays from the nearest earlier snapshot
//! (at worst from the seed) and keeps every snapshot it passes, for every copy of the log.
//! Version 0 never needs one: it is the deal, rebuilt from the seed.

use std::sync::{Arc, OnceLock};

use deckmate_engine::{Game, Seat, Table, TableAction, TableEvent};

use crate::error::ApiError;

/// Actions per chunk: a past view replays at most this many actions from its snapshot. Each
/// frozen chunk costs one table snapshot (a few hundred bytes) in memory.
pub(super) const CHUNK: usize = 64;

/// One accepted action: the seat that took it and the action.
pub(super) type Entry<G> = (Seat, TableAction<<G as Game>::Action>);

/// A table snapshot, postcard-encoded, filled at most once (eagerly in play, lazily after
/// decoding) and shared by every copy of the log.
type Snapshot = Arc<OnceLock<Box<[u8]>>>;

/// A full chunk of [`CHUNK`] actions.
struct FrozenChunk {
    /// The table at the chunk's first version (before its first action).
    start: Snapshot,
    /// The chunk's actions, a postcard `Vec<Entry<G>>`.
    actions: Box<[u8]>,
}

/// The accepted actions of one game, in order (see the module documentation).
pub(super) struct ActionLog<G: Game> {
    frozen: Vec<Arc<FrozenChunk>>,
    /// The actions after the last frozen chunk (fewer than [`CHUNK`]).
    tail: Vec<Entry<G>>,
    /// The table at the tail's first version.
    tail_start: Snapshot,
    /// The seat of the last action (the actor of the current version).
    last_seat: Option<Seat>,
}

impl<G: Game> Clone for ActionLog<G> {
    fn clone(&self) -> Self {
        ActionLog {
            frozen: self.frozen.clone(),
            tail: self.tail.clone(),
            tail_start: self.tail_start.clone(),
            last_seat: self.last_seat,
        }
    }
}

impl<G: Game> ActionLog<G> {
    /// An empty log.
    pub(super) fn new() -> Self {
        ActionLog {
            frozen: Vec::new(),
            tail: Vec::new(),
            tail_start: Snapshot::default(),
            last_seat: None,
        }
    }

    /// A log of `entries` with no snapshots yet (they are rebuilt when first needed).
    pub(super) fn from_entries(entries: Vec<Entry<G>>) -> Result<Self, ApiError> {
        let mut log = ActionLog::new();
        log.last_seat = entries.last().map(|(seat, _)| *seat);
        let mut entries = entries.into_iter();
        loop {
            let chunk: Vec<Entry<G>> = entries.by_ref().take(CHUNK).collect();
            if chunk.len() < CHUNK {
                log.tail = chunk;
                return Ok(log);
            }
            log.frozen.push(Arc::new(FrozenChunk {
                start: Snapshot::default(),
                actions: encode::<G, _>(&chunk)?,
            }));
        }
    }

    /// A log of entries each encoded on its own (as [`ActionLog::encoded_entries`] writes
    /// them). Full chunks are assembled from the bytes as they are (postcard writes a sequence as
    /// its length then its items), so reading a long game's log decodes only its last, unfrozen
    /// actions; the chunks `previous` (an earlier copy of the same log) holds with the same bytes,
    /// from the first on, are shared instead, with their snapshots. Snapshots of other chunks are rebuilt when needed.
    pub(super) fn from_encoded(
        entries: &[Vec<u8>],
        previous: Option<&ActionLog<G>>,
    ) -> Result<Self, ApiError> {
        let mut log = ActionLog::new();
        let frozen = entries.len() / CHUNK;
        let length = encode::<G, _>(&CHUNK)?;
        // A snapshot stands for every action before it, so chunks are shared only while every
        // earlier one was too.
        let mut sharing = previous.is_some();
        for (index, chunk) in entries.chunks_exact(CHUNK).enumerate() {
            let earlier = previous.and_then(|previous| previous.frozen.get(index));
            if sharing
                && let Some(earlier) = earlier
                && holds_exactly(&earlier.actions, &length, chunk)
            {
                log.frozen.push(earlier.clone());
                continue;
            }
            sharing = false;
            let mut actions =
                Vec::with_capacity(length.len() + chunk.iter().map(Vec::len).sum::<usize>());
            actions.extend_from_slice(&length);
            for entry in chunk {
                actions.extend_from_slice(entry);
            }
            log.frozen.push(Arc::new(FrozenChunk {
                start: Snapshot::default(),
                actions: actions.into_boxed_slice(),
            }));
        }
        // The tail's snapshot is shared too when the earlier copy has as many frozen chunks
        // (then every frozen chunk was the same).
        if let Some(previous) = previous
            && previous.frozen.len() == frozen
            && log
                .frozen
                .iter()
                .zip(&previous.frozen)
                .all(|(mine, theirs)| Arc::ptr_eq(mine, theirs))
        {
            log.tail_start = previous.tail_start.clone();
        }
        log.tail = entries[frozen * CHUNK..]
            .iter()
            .map(|entry| decode::<G, Entry<G>>(entry))
            .collect::<Result<_, _>>()?;
        log.last_seat = match (log.tail.last(), entries.last()) {
            (Some((seat, _)), _) => Some(*seat),
            (None, Some(last)) => Some(decode::<G, Entry<G>>(last)?.0),
            (None, None) => None,
        };
        Ok(log)
    }

    /// This log followed by `entries`, each encoded on its own (the actions after this log's
    /// last, as a store that already sent this log sends the rest). The frozen chunks and
    /// snapshots are shared; chunks that fill get their snapshots when first needed.
    pub(super) fn extended(&self, entries: &[Vec<u8>]) -> Result<Self, ApiError> {
        let mut log = self.clone();
        for entry in entries {
            let entry = decode::<G, Entry<G>>(entry)?;
            log.last_seat = Some(entry.0);
            log.tail.push(entry);
            if log.tail.len() == CHUNK {
                let actions = encode::<G, _>(&log.tail)?;
                let start = std::mem::take(&mut log.tail_start);
                log.frozen.push(Arc::new(FrozenChunk { start, actions }));
                log.tail.clear();
            }
        }
        Ok(log)
    }

    /// The actions after version `from`, each encoded on its own.
    pub(super) fn encoded_entries(&self, from: u64) -> Result<Vec<Vec<u8>>, ApiError> {
        let frozen_actions = (self.frozen.len() * CHUNK) as u64;
        let encode_each = |entries: &[Entry<G>]| -> Result<Vec<Vec<u8>>, ApiError> {
            entries
                .iter()
                .map(|entry| encode::<G, _>(entry).map(Vec::from))
                .collect()
        };
        if from >= frozen_actions {
            let skip = usize::try_from(from - frozen_actions).unwrap_or(usize::MAX);
            return encode_each(self.tail.get(skip..).unwrap_or_default());
        }
        let entries = self.entries()?;
        encode_each(entries.get(from as usize..).unwrap_or_default())
    }

    /// The number of actions.
    pub(super) fn len(&self) -> u64 {
        (self.frozen.len() * CHUNK + self.tail.len()) as u64
    }

    /// Appends the action that made `table` (the table after it). When this fills the tail, the
    /// tail is frozen and `table` becomes the next chunk's snapshot.
    pub(super) fn push(&mut self, entry: Entry<G>, table: &Table<G>) -> Result<(), ApiError> {
        self.last_seat = Some(entry.0);
        self.tail.push(entry);
        if self.tail.len() == CHUNK {
            let actions = encode::<G, _>(&self.tail)?;
            let snapshot = encode::<G, _>(table)?;
            let start = std::mem::take(&mut self.tail_start);
            self.frozen.push(Arc::new(FrozenChunk { start, actions }));
            self.tail.clear();
            self.tail_start = Arc::new(OnceLock::from(snapshot));
        }
        Ok(())
    }

    /// Every action, in order (decoding the frozen chunks).
    pub(super) fn entries(&self) -> Result<Vec<Entry<G>>, ApiError> {
        let mut entries = Vec::with_capacity(self.len() as usize);
        for chunk in &self.frozen {
            entries.extend(decode::<G, Vec<Entry<G>>>(&chunk.actions)?);
        }
        entries.extend(self.tail.iter().cloned());
        Ok(entries)
    }

    /// The actions of chunk `index` (the tail when `index` is the frozen count).
    fn chunk_entries(&self, index: usize) -> Result<Vec<Entry<G>>, ApiError> {
        match self.frozen.get(index) {
            Some(chunk) => decode::<G, Vec<Entry<G>>>(&chunk.actions),
            None => Ok(self.tail.clone()),
        }
    }

    /// The snapshot cell of chunk `index` (the tail's when `index` is the frozen count).
    fn start_cell(&self, index: usize) -> &Snapshot {
        match self.frozen.get(index) {
            Some(chunk) => &chunk.start,
            None => &self.tail_start,
        }
    }

    /// Replays the versions `first..=last` (`last` at most [`ActionLog::len`]): calls
    /// `visit(version, table, events, entry)` (`entry` is the action that made the version) for
    /// each, in order, starting from the nearest
    /// snapshot before `first` (`deal` builds version 0 and its setup events). Snapshots missing
    /// on the way are kept. A rejected action means the stored game is corrupt.
    pub(super) fn replay(
        &self,
        first: u64,
        last: u64,
        deal: impl FnOnce() -> Result<Dealt<G>, ApiError>,
        mut visit: impl FnMut(u64, &Table<G>, &[TableEvent<G::Event>], Option<&Entry<G>>),
    ) -> Result<(), ApiError> {
        debug_assert!(first <= last && last <= self.len());
        if first == 0 {
            let (table, events) = deal()?;
            visit(0, &table, &events, None);
            return self.replay_from(table, 0, last, 1, visit);
        }
        // The table at version `first - 1`: from the chunk that holds that version.
        let chunk = (first as usize - 1) / CHUNK;
        let table = self.snapshot(chunk, deal)?;
        self.replay_from(table, chunk, last, first, visit)
    }

    /// Applies the actions from the start of chunk `chunk` (whose table is `table`) up to
    /// version `last`, visiting versions from `first` on.
    fn replay_from(
        &self,
        mut table: Table<G>,
        chunk: usize,
        last: u64,
        first: u64,
        mut visit: impl FnMut(u64, &Table<G>, &[TableEvent<G::Event>], Option<&Entry<G>>),
    ) -> Result<(), ApiError> {
        let mut version = (chunk * CHUNK) as u64;
        let mut index = chunk;
        while version < last {
            for entry in self.chunk_entries(index)? {
                version += 1;
                let (seat, action) = &entry;
                let events = table.apply(*seat, action).map_err(|error| {
                    ApiError::Internal(format!(
                        "replaying a {} game: action {version} rejected: {error}",
                        G::ID
                    ))
                })?;
                if version >= first {
                    visit(version, &table, &events, Some(&entry));
                }
                if version == last {
                    return Ok(());
                }
            }
            index += 1;
            // Keep the snapshot this replay just passed, for later views.
            if index <= self.frozen.len() && self.start_cell(index).get().is_none() {
                let _ = self.start_cell(index).set(encode::<G, _>(&table)?);
            }
        }
        Ok(())
    }

    /// The table at the start of chunk `index`, from its snapshot or rebuilt from the nearest
    /// earlier one (keeping each snapshot rebuilt on the way).
    fn snapshot(
        &self,
        index: usize,
        deal: impl FnOnce() -> Result<Dealt<G>, ApiError>,
    ) -> Result<Table<G>, ApiError> {
        let known = (1..=index)
            .rev()
            .find(|&candidate| self.start_cell(candidate).get().is_some());
        let (mut table, from) = match known {
            Some(candidate) => {
                let bytes = self.start_cell(candidate).get().map(|bytes| &bytes[..]);
                (decode::<G, Table<G>>(bytes.unwrap_or_default())?, candidate)
            }
            None => (deal()?.0, 0),
        };
        for chunk in from..index {
            for (seat, action) in self.chunk_entries(chunk)? {
                table.apply(seat, &action).map_err(|error| {
                    ApiError::Internal(format!(
                        "replaying a {} game: chunk {chunk} rejected an action: {error}",
                        G::ID
                    ))
                })?;
            }
            let _ = self.start_cell(chunk + 1).set(encode::<G, _>(&table)?);
        }
        Ok(table)
    }

    /// The seat whose action made the current version (`None` at version 0).
    pub(super) fn last_actor(&self) -> Option<Seat> {
        self.last_seat
    }

    /// The action that made `version` (`None` for version 0 and versions past the last).
    pub(super) fn entry(&self, version: u64) -> Result<Option<Entry<G>>, ApiError> {
        let Some(index) = version.checked_sub(1) else {
            return Ok(None);
        };
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        let (chunk, offset) = (index / CHUNK, index % CHUNK);
        if chunk >= self.frozen.len() {
            return Ok(self.tail.get(index - self.frozen.len() * CHUNK).cloned());
        }
        Ok(self.chunk_entries(chunk)?.get(offset).cloned())
    }

    /// The seat whose action made `version` (`None` for version 0).
    #[cfg(test)]
    fn actor(&self, version: u64) -> Result<Option<Seat>, ApiError> {
        Ok(self.entry(version)?.map(|(seat, _)| seat))
    }

    /// Whether snapshot `index` is present (tests).
    #[cfg(test)]
    fn has_snapshot(&self, index: usize) -> bool {
        self.start_cell(index).get().is_some()
    }
}

/// Whether `chunk` is `length` followed by `entries`, byte for byte.
fn holds_exactly(chunk: &[u8], length: &[u8], entries: &[Vec<u8>]) -> bool {
    let Some(mut rest) = chunk.strip_prefix(length) else {
        return false;
    };
    for entry in entries {
        match rest.strip_prefix(entry.as_slice()) {
            Some(after) => rest = after,
            None => return false,
        }
    }
    rest.is_empty()
}

/// A freshly dealt table and its setup events.
pub(super) type Dealt<G> = (Table<G>, Vec<TableEvent<<G as Game>::Event>>);

fn encode<G: Game, T: serde::Serialize + ?Sized>(value: &T) -> Result<Box<[u8]>, ApiError> {
    postcard::to_allocvec(value)
        .map(Vec::into_boxed_slice)
        .map_err(|error| ApiError::Internal(format!("encoding a {} log chunk: {error}", G::ID)))
}

fn decode<G: Game, T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    postcard::from_bytes(bytes)
        .map_err(|error| ApiError::Internal(format!("decoding a {} log chunk: {error}", G::ID)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::Picker;
    use deckmate_engine::games::raindrop_chess::{Config, RaindropChess};
    use deckmate_engine::{Edition, Seed};

    type Game = RaindropChess;

    fn deal() -> Result<Dealt<Game>, ApiError> {
        Table::<Game>::new_in(&Config::default(), 2, Seed([3; 32]), Edition::LATEST)
            .map_err(|error| ApiError::Internal(error.to_string()))
    }

    /// A played game: its log, and every table and event list by version.
    #[allow(clippy::type_complexity)]
    fn played(
        actions: usize,
    ) -> (
        ActionLog<Game>,
        Vec<(
            Table<Game>,
            Vec<TableEvent<<Game as deckmate_engine::Game>::Event>>,
        )>,
    ) {
        let (mut table, events) = deal().unwrap();
        let mut tables = vec![(table.clone(), events)];
        let mut log = ActionLog::new();
        let mut picker = Picker::new(5);
        while tables.len() <= actions && !table.is_over() {
            let seats: Vec<Seat> = table.to_act().iter().collect();
            let seat = seats[picker.below(seats.len())];
            let legal = table.legal_actions(seat);
            let action = TableAction::Game(legal[picker.below(legal.len())]);
            let events = table.apply(seat, &action).unwrap();
            log.push((seat, action), &table).unwrap();
            tables.push((table.clone(), events));
        }
        (log, tables)
    }

    fn replayed(
        log: &ActionLog<Game>,
        first: u64,
        last: u64,
    ) -> Vec<(u64, Table<Game>, Option<Seat>)> {
        let mut seen = Vec::new();
        log.replay(first, last, deal, |version, table, _, entry| {
            seen.push((version, table.clone(), entry.map(|(seat, _)| *seat)));
        })
        .unwrap();
        seen
    }

    #[test]
    fn any_range_replays_exactly_from_snapshots_or_the_seed() {
        let (log, tables) = played(3 * CHUNK + 10);
        let current = log.len();
        assert!(current > 2 * CHUNK as u64, "the game must span chunks");
        let decoded = ActionLog::<Game>::from_entries(log.entries().unwrap()).unwrap();
        assert!(
            !decoded.has_snapshot(1),
            "a decoded log starts without snapshots"
        );
        for source in [&log, &decoded] {
            for (first, last) in [
                (0, 0),
                (0, 3),
                (1, 1),
                (60, 70),
                (64, 64),
                (65, 129),
                (current - 2, current),
                (current, current),
            ] {
                let seen = replayed(source, first, last);
                let versions: Vec<u64> = seen.iter().map(|(version, _, _)| *version).collect();
                assert_eq!(versions, (first..=last).collect::<Vec<_>>());
                for (version, table, actor) in seen {
                    assert_eq!(
                        table, tables[version as usize].0,
                        "table at version {version}"
                    );
                    assert_eq!(actor, source.actor(version).unwrap());
                }
            }
        }
        assert!(
            decoded.has_snapshot(1) && decoded.has_snapshot(2),
            "replays keep snapshots"
        );
        assert_eq!(decoded.entries().unwrap().len() as u64, current);
    }

    #[test]
    fn entries_encoded_one_by_one_read_back_as_the_same_log() {
        let (log, _) = played(2 * CHUNK + 5);
        let all = log.encoded_entries(0).unwrap();
        assert_eq!(all.len() as u64, log.len());
        let read = ActionLog::<Game>::from_encoded(&all, None).unwrap();
        assert_eq!(read.entries().unwrap(), log.entries().unwrap());
        assert_eq!(read.last_actor(), log.last_actor());
        assert_eq!(read.frozen.len(), 2);
        assert_eq!(read.frozen[1].actions, log.frozen[1].actions);
        assert_eq!(
            log.encoded_entries(log.len() - 1).unwrap(),
            all[all.len() - 1..]
        );
        assert_eq!(log.encoded_entries(3).unwrap(), all[3..]);
        assert!(log.encoded_entries(log.len()).unwrap().is_empty());
        let whole_chunks = ActionLog::<Game>::from_encoded(&all[..2 * CHUNK], None).unwrap();
        assert_eq!(
            whole_chunks.last_actor(),
            log.actor(2 * CHUNK as u64).unwrap()
        );
        assert!(
            ActionLog::<Game>::from_encoded(&[], None)
                .unwrap()
                .last_actor()
                .is_none()
        );
        // Read again beside the first copy: the chunks both hold are shared, snapshots and all.
        read.replay(CHUNK as u64 + 3, CHUNK as u64 + 3, deal, |_, _, _, _| {})
            .unwrap();
        assert!(read.has_snapshot(1));
        let again = ActionLog::<Game>::from_encoded(&all, Some(&read)).unwrap();
        assert!(Arc::ptr_eq(&again.frozen[0], &read.frozen[0]));
        assert!(again.has_snapshot(1));
        assert_eq!(again.entries().unwrap(), log.entries().unwrap());
        // A chunk that differs is not shared, nor any after it (their snapshots would be wrong).
        let mut changed = all.clone();
        changed.swap(3, 4);
        if changed[3] != changed[4] {
            let mixed = ActionLog::<Game>::from_encoded(&changed, Some(&read)).unwrap();
            assert!(!Arc::ptr_eq(&mixed.frozen[0], &read.frozen[0]));
            assert!(!Arc::ptr_eq(&mixed.frozen[1], &read.frozen[1]));
            assert!(!mixed.has_snapshot(1));
        }
    }

    #[test]
    fn a_log_extended_by_encoded_entries_is_the_longer_log() {
        let (log, tables) = played(2 * CHUNK + 9);
        let all = log.encoded_entries(0).unwrap();
        for held in [0, 5, CHUNK - 1, CHUNK, CHUNK + 7] {
            let start = ActionLog::<Game>::from_encoded(&all[..held], None).unwrap();
            let longer = start.extended(&all[held..]).unwrap();
            assert_eq!(
                longer.entries().unwrap(),
                log.entries().unwrap(),
                "held {held}"
            );
            assert_eq!(longer.last_actor(), log.last_actor());
            let last = longer.len();
            let seen = replayed(&longer, last - 70, last);
            for (version, table, _) in seen {
                assert_eq!(
                    table, tables[version as usize].0,
                    "table at version {version}"
                );
            }
        }
    }

    #[test]
    fn copies_share_frozen_chunks() {
        let (log, _) = played(2 * CHUNK + 3);
        let copy = log.clone();
        assert!(Arc::ptr_eq(&log.frozen[0], &copy.frozen[0]));
        assert_eq!(copy.len(), log.len());
        assert!(copy.tail.len() < CHUNK);
    }
}
