//! The stored forms of a [`GameRecord`] and of a remembered CreateGame answer, each with a
//! format version (docs/ARCHITECTURE.md §7: a record written by an older release must still load).
//!
//! A game's hash holds `format` next to the `record` bytes.
//!
//! * Format 1 (the first release): the bytes are a postcard [`StoredRecord`]: the game kind, the
//!   token hashes, the spectator policy, the seed commitment, the timestamps and the game's own
//!   [`LiveGame::encode`](crate::live::LiveGame::encode) bytes, action log included. Every
//!   commit rewrites all of it.
//! * Format 2: the bytes are a postcard [`StoredRecord`], the same fields with the game's
//!   [`LiveGame::encode_head`](crate::live::LiveGame::encode_head) (everything but the log) in
//!   place of the whole game; the log is the game's `log` list, one
//!   [`LiveGame::encode_entries`](crate::live::LiveGame::encode_entries) item per action, so a
//!   commit appends one item and rewrites only a record whose size does not grow with the game.
//!   The head is in head format 1 (no bot seats), which the release before bots reads.
//! * Format 3: format 2 with the head in head format 2, which ends with the game's bot seats
//!   (`session.rs`, "Stored format").
//! * Format 4: format 3, where the head of a game with turn clocks is in head format 3, which
//!   ends with the clocks (a game without clocks has the same bytes as in format 3).
//!
//! Format 4 is written unless the server runs with `--write-record-format 3` (a rolling upgrade
//! from the release before clocks), `2` (from the release before bots) or `1` (from the first
//! release); every format is read. Under an older format a game with clocks (or, before 3, with
//! bot seats) cannot be written, so CreateGame refuses them. A CreateGame answer is one byte of
//! format followed by a postcard [`CreateEntryV1`].
//!
//! Decoding dispatches on the format: a later release that changes a layout adds a new format
//! number and keeps the decoder of every older one.

use deckmate_engine::GameKind;
use serde::{Deserialize, Serialize};

use crate::auth::TokenHash;
use crate::catalog;
use crate::store::{GameRecord, SealedCreate, StoreError};

/// The game record format this release writes unless told to write an older one.
pub(super) const RECORD_FORMAT: u32 = 4;

/// The first record format that holds turn clocks.
pub const CLOCK_RECORD_FORMAT: u32 = 4;

/// The first record format that holds bot seats.
pub const BOT_RECORD_FORMAT: u32 = 3;

/// The record format of the release before clocks: format 4 without clocked heads.
pub(super) const RECORD_FORMAT_THREE: u32 = 3;

/// The record format of the release before bots: format 3 with a head in head format 1.
pub(super) const RECORD_FORMAT_TWO: u32 = 2;

/// The first release's record format: the whole game in the hash.
pub(super) const RECORD_FORMAT_ONE: u32 = 1;

/// Every record format this release reads, and may be told to write.
pub const RECORD_FORMATS: std::ops::RangeInclusive<u32> = RECORD_FORMAT_ONE..=RECORD_FORMAT;

/// The CreateGame answer format this release writes.
pub(super) const CREATE_FORMAT: u8 = 1;

/// The record of every format: the same fields in the same layout, where `game` is the whole
/// game ([`LiveGame::encode_previous`](crate::live::LiveGame::encode_previous)) in format 1 and
/// its head in formats 2
/// ([`LiveGame::encode_head_previous`](crate::live::LiveGame::encode_head_previous)) and 3
/// ([`LiveGame::encode_head`](crate::live::LiveGame::encode_head)).
#[derive(Debug, Serialize, Deserialize)]
struct StoredRecord {
    /// The game kind's stable id, such as `pigeon_chess`.
    kind: String,
    token_hashes: Vec<[u8; 32]>,
    spectators_allowed: bool,
    seed_commitment: [u8; 32],
    created_at: u64,
    updated_at: u64,
    /// As bytes, not as a sequence of `u8`: the same postcard encoding (a length, then the
    /// bytes), written in one copy instead of one call per byte.
    #[serde(with = "serde_bytes")]
    game: Vec<u8>,
}

/// Items of a game's log list as read: those after the first `held` (which the reader's copy of
/// the game holds).
#[derive(Clone, Copy, Debug)]
pub(super) struct LogItems<'a> {
    /// How many items come before `items` (0: `items` is the whole list).
    pub(super) held: u64,
    /// The items read.
    pub(super) items: &'a [Vec<u8>],
}

impl<'a> LogItems<'a> {
    /// The whole list.
    pub(super) fn all(items: &'a [Vec<u8>]) -> LogItems<'a> {
        LogItems { held: 0, items }
    }
}

/// CreateGame answer format 1.
#[derive(Debug, Serialize, Deserialize)]
struct CreateEntryV1 {
    game_id: String,
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
}

/// The record bytes of `record` in `format` (one of [`RECORD_FORMATS`]).
pub(super) fn encode_record(record: &GameRecord, format: u32) -> Result<Vec<u8>, StoreError> {
    let failed =
        |error: String| StoreError::Corrupt(format!("encoding game {}: {error}", record.id));
    let game = match format {
        RECORD_FORMAT_ONE => record.game.encode_previous(),
        RECORD_FORMAT_TWO => record.game.encode_head_previous(),
        RECORD_FORMAT_THREE if record.game.clock().is_some() => {
            Err(crate::error::ApiError::Internal(
                "a game with clocks cannot be written in a record format without them".to_string(),
            ))
        }
        _ => record.game.encode_head(),
    }
    .map_err(|error| failed(format!("{error:?}")))?;
    let stored = StoredRecord {
        kind: record.game.kind().id().to_string(),
        token_hashes: record.token_hashes.iter().map(|hash| hash.0).collect(),
        spectators_allowed: record.spectators_allowed,
        seed_commitment: record.seed_commitment,
        created_at: record.created_at,
        updated_at: record.updated_at,
        game,
    };
    // Sized once: the fixed fields take at most about 100 bytes besides the hashes and the game.
    let capacity = stored.game.len() + 32 * stored.token_hashes.len() + stored.kind.len() + 128;
    postcard::to_extend(&stored, Vec::with_capacity(capacity))
        .map_err(|error| failed(error.to_string()))
}

/// Reads the record of game `id` stored in `format`; `version` is the hash's version field,
/// which must agree with the game, and `log` the game's log list (format 2; empty in format 1)
/// after its first `log.held` items, which `previous` (this replica's earlier copy of the game)
/// holds. `previous` also lends the log chunks both hold (see [`catalog::restore_split`]).
pub(super) fn decode_record(
    id: &str,
    format: u32,
    version: u64,
    bytes: &[u8],
    log: LogItems<'_>,
    previous: Option<&GameRecord>,
) -> Result<GameRecord, StoreError> {
    if !RECORD_FORMATS.contains(&format) {
        return Err(StoreError::Corrupt(format!(
            "game {id} is stored in record format {format}, which this release cannot read \
             (it reads formats 1 to {RECORD_FORMAT})"
        )));
    }
    let stored: StoredRecord = postcard::from_bytes(bytes)
        .map_err(|error| StoreError::Corrupt(format!("game {id}: malformed record: {error}")))?;
    let kind = GameKind::from_id(&stored.kind).ok_or_else(|| {
        StoreError::Corrupt(format!("game {id}: unknown game kind {:?}", stored.kind))
    })?;
    let game = if format == RECORD_FORMAT_ONE {
        catalog::restore(kind, &stored.game)
    } else {
        let previous = previous
            .filter(|previous| previous.id == id)
            .map(|previous| previous.game.as_ref());
        catalog::restore_split(kind, &stored.game, log.items, previous, log.held)
    }
    .map_err(|error| StoreError::Corrupt(format!("game {id}: {error:?}")))?;
    let record = GameRecord {
        id: id.to_string(),
        game,
        token_hashes: stored.token_hashes.into_iter().map(TokenHash).collect(),
        spectators_allowed: stored.spectators_allowed,
        seed_commitment: stored.seed_commitment,
        created_at: stored.created_at,
        updated_at: stored.updated_at,
    };
    if record.version() != version {
        return Err(StoreError::Corrupt(format!(
            "game {id} is stored as version {version} but its game is at version {}",
            record.version()
        )));
    }
    Ok(record)
}

/// The stored bytes of a CreateGame answer, in [`CREATE_FORMAT`].
pub(super) fn encode_create(sealed: &SealedCreate) -> Result<Vec<u8>, StoreError> {
    let stored = CreateEntryV1 {
        game_id: sealed.game_id.clone(),
        nonce: sealed.nonce,
        ciphertext: sealed.ciphertext.clone(),
    };
    let mut bytes = vec![CREATE_FORMAT];
    let body = postcard::to_allocvec(&stored)
        .map_err(|error| StoreError::Corrupt(format!("encoding a create entry: {error}")))?;
    bytes.extend_from_slice(&body);
    Ok(bytes)
}

/// Reads a stored CreateGame answer.
pub(super) fn decode_create(bytes: &[u8]) -> Result<SealedCreate, StoreError> {
    match bytes.split_first() {
        Some((1, body)) => {
            let stored: CreateEntryV1 = postcard::from_bytes(body)
                .map_err(|error| StoreError::Corrupt(format!("malformed create entry: {error}")))?;
            Ok(SealedCreate {
                game_id: stored.game_id,
                nonce: stored.nonce,
                ciphertext: stored.ciphertext,
            })
        }
        Some((format, _)) => Err(StoreError::Corrupt(format!(
            "create entry in format {format}, which this release cannot read"
        ))),
        None => Err(StoreError::Corrupt("empty create entry".to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::LiveGame;
    use deckmate_engine::bots::BotLevel;
    use deckmate_engine::{Seat, Seed, Viewer};

    fn pigeon_chess(seed: u64) -> Box<dyn LiveGame> {
        catalog::test_game(seed)
    }

    /// The record's layout with `game` as a plain sequence of `u8`, as releases before wrote it.
    #[derive(Serialize)]
    struct RecordAsSequence<'a> {
        kind: &'a str,
        token_hashes: &'a [[u8; 32]],
        spectators_allowed: bool,
        seed_commitment: [u8; 32],
        created_at: u64,
        updated_at: u64,
        game: &'a Vec<u8>,
    }

    #[test]
    fn the_game_bytes_encode_as_the_sequence_they_were() {
        let record = record(pigeon_chess(5));
        let encoded = encode_record(&record, RECORD_FORMAT).unwrap();
        let stored: StoredRecord = postcard::from_bytes(&encoded).unwrap();
        let as_sequence = postcard::to_allocvec(&RecordAsSequence {
            kind: &stored.kind,
            token_hashes: &stored.token_hashes,
            spectators_allowed: stored.spectators_allowed,
            seed_commitment: stored.seed_commitment,
            created_at: stored.created_at,
            updated_at: stored.updated_at,
            game: &stored.game,
        })
        .unwrap();
        assert!(stored.game.len() > 100);
        assert_eq!(encoded, as_sequence);
    }

    /// A record whose every field differs from its default, so that a round trip shows each.
    fn record(game: Box<dyn LiveGame>) -> GameRecord {
        GameRecord {
            spectators_allowed: false,
            seed_commitment: [7; 32],
            created_at: 1_700_000_000_000,
            updated_at: 1_700_000_000_500,
            ..GameRecord::for_test("00112233445566778899aabbccddeeff", game)
        }
    }

    #[test]
    fn records_round_trip() {
        let mut game = pigeon_chess(5);
        let action = game.view(Viewer::Seat(Seat(0))).legal_actions[0].clone();
        game.act(Seat(0), &action).unwrap();
        let original = record(game);
        let log = original.game.encode_entries(0).unwrap();
        for (format, log) in [
            (RECORD_FORMAT, &log[..]),
            (RECORD_FORMAT_TWO, &log[..]),
            (RECORD_FORMAT_ONE, &[][..]),
        ] {
            let bytes = encode_record(&original, format).unwrap();
            let loaded =
                decode_record(&original.id, format, 1, &bytes, LogItems::all(log), None).unwrap();
            same_record(&loaded, &original);
        }
        // A log that does not match the record's version is corrupt.
        let bytes = encode_record(&original, RECORD_FORMAT).unwrap();
        assert!(matches!(
            decode_record(&original.id, RECORD_FORMAT, 1, &bytes, LogItems::all(&[]), None),
            Err(StoreError::Corrupt(m)) if m.contains("version 1")
        ));
    }

    #[test]
    fn bot_seats_need_format_three() {
        let mut game = pigeon_chess(6);
        game.set_bot_seats(vec![(Seat(1), BotLevel::Greedy)]);
        let original = record(game);
        let log = original.game.encode_entries(0).unwrap();
        let bytes = encode_record(&original, RECORD_FORMAT).unwrap();
        let loaded = decode_record(
            &original.id,
            RECORD_FORMAT,
            0,
            &bytes,
            LogItems::all(&log),
            None,
        )
        .unwrap();
        assert_eq!(loaded.game.bot_seats(), &[(Seat(1), BotLevel::Greedy)]);
        // The formats of older releases cannot say that a seat is a bot.
        for format in [RECORD_FORMAT_ONE, RECORD_FORMAT_TWO] {
            assert!(matches!(
                encode_record(&original, format),
                Err(StoreError::Corrupt(m)) if m.contains("bot seats")
            ));
        }
    }

    #[test]
    fn clocks_need_format_four_and_games_without_stay_as_in_three() {
        use crate::clocks::{ClockKind, ClockSpec, GameClock, TimeoutPolicy};
        let plain = record(pigeon_chess(8));
        assert_eq!(
            encode_record(&plain, RECORD_FORMAT).unwrap(),
            encode_record(&plain, RECORD_FORMAT_THREE).unwrap(),
            "a game without clocks is written as the release before clocks wrote it"
        );
        let mut game = pigeon_chess(8);
        let spec = ClockSpec {
            kind: ClockKind::Fischer {
                base_ms: 60_000,
                increment_ms: 1_000,
            },
            on_timeout: TimeoutPolicy::Forfeit,
        };
        let clock = GameClock::start(spec, 2, deckmate_engine::SeatSet::first(2), 1_000);
        game.set_clock(clock.clone());
        let original = record(game);
        let bytes = encode_record(&original, RECORD_FORMAT).unwrap();
        let loaded = decode_record(
            &original.id,
            RECORD_FORMAT,
            0,
            &bytes,
            LogItems::all(&[]),
            None,
        )
        .unwrap();
        assert_eq!(loaded.game.clock(), Some(&clock));
        for format in [RECORD_FORMAT_ONE, RECORD_FORMAT_TWO, RECORD_FORMAT_THREE] {
            assert!(matches!(
                encode_record(&original, format),
                Err(StoreError::Corrupt(m)) if m.contains("clocks")
            ));
        }
    }

    fn same_record(loaded: &GameRecord, original: &GameRecord) {
        assert_eq!(loaded.id, original.id);
        assert_eq!(loaded.version(), 1);
        assert_eq!(loaded.token_hashes, original.token_hashes);
        assert!(!loaded.spectators_allowed);
        assert_eq!(loaded.seed_commitment, original.seed_commitment);
        assert_eq!(
            (loaded.created_at, loaded.updated_at),
            (original.created_at, original.updated_at)
        );
        assert_eq!(loaded.game.encode(), original.game.encode());
        assert_eq!(
            loaded.game.view(Viewer::Spectator),
            original.game.view(Viewer::Spectator)
        );
    }

    /// A record in format 1, as the first release wrote it (Pigeon Chess, seed 11, after seat
    /// 0 played its first listed action). Every later release must keep loading it.
    const FORMAT_ONE_RECORD: &[&str] = &[
        "0c706967656f6e5f636865737302010101010101010101010101010101010101010101010101010101010101",
        "0101020202020202020202020202020202020202020202020202020202020202020200070707070707070707",
        "070707070707070707070707070707070707070707070780d095ffbc31f4d395ffbc31bf01010c706967656f",
        "6e5f636865737308020202010114ac02020b0000000000000000000000000000000000000000000000000000",
        "00000000000100010004030308020202010114ac020b00000000000000000000000000000000000000000000",
        "00000000000000000000040b00000102000501020000000b0003000102000500000001020000000000020001",
        "0101000000000100040101000301010003010000000000000000000000000000000000000000000000000000",
        "0100020000040303",
    ];

    #[test]
    fn format_one_records_keep_loading() {
        let bytes = hex::decode(FORMAT_ONE_RECORD.concat()).unwrap();
        let loaded = decode_record("g", 1, 1, &bytes, LogItems::all(&[]), None).unwrap();
        assert_eq!(loaded.version(), 1);
        assert_eq!(
            loaded.token_hashes,
            vec![TokenHash([1; 32]), TokenHash([2; 32])]
        );
        assert!(!loaded.spectators_allowed);
        assert_eq!(loaded.seed_commitment, [7; 32]);
        assert_eq!(
            (loaded.created_at, loaded.updated_at),
            (1_700_000_000_000, 1_700_000_000_500)
        );
        assert_eq!(loaded.game.seed(), Seed::from_u64(11));
        // The same game rebuilt today is the one stored.
        let mut game = pigeon_chess(11);
        let action = game.view(Viewer::Seat(Seat(0))).legal_actions[0].clone();
        game.act(Seat(0), &action).unwrap();
        for viewer in [
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ] {
            assert_eq!(loaded.game.view(viewer), game.view(viewer));
        }
    }

    #[test]
    fn unreadable_records_are_corrupt_not_panics() {
        for format in RECORD_FORMATS {
            let bytes = encode_record(&record(pigeon_chess(1)), format).unwrap();
            let future = decode_record("g", 99, 0, &bytes, LogItems::all(&[]), None).unwrap_err();
            assert!(matches!(&future, StoreError::Corrupt(m) if m.contains("format 99")));
            let wrong_version =
                decode_record("g", format, 4, &bytes, LogItems::all(&[]), None).unwrap_err();
            assert!(matches!(&wrong_version, StoreError::Corrupt(m) if m.contains("version 4")));
            let truncated =
                decode_record("g", format, 0, &bytes[..20], LogItems::all(&[]), None).unwrap_err();
            assert!(matches!(truncated, StoreError::Corrupt(_)));
            let mut unknown_kind = bytes.clone();
            unknown_kind[1..13].copy_from_slice(b"queen_chess!");
            assert!(matches!(
                decode_record("g", format, 0, &unknown_kind, LogItems::all(&[]), None),
                Err(StoreError::Corrupt(m)) if m.contains("unknown game kind")
            ));
        }
    }

    #[test]
    fn create_entries_round_trip_with_their_format() {
        let sealed = SealedCreate {
            game_id: "abc".to_string(),
            nonce: [3; 12],
            ciphertext: vec![9; 50],
        };
        let bytes = encode_create(&sealed).unwrap();
        assert_eq!(bytes[0], CREATE_FORMAT);
        assert_eq!(decode_create(&bytes).unwrap(), sealed);
        let mut future = bytes.clone();
        future[0] = 2;
        assert!(matches!(
            decode_create(&future),
            Err(StoreError::Corrupt(_))
        ));
        assert!(matches!(decode_create(&[]), Err(StoreError::Corrupt(_))));
        assert!(matches!(
            decode_create(&[1, 0xFF]),
            Err(StoreError::Corrupt(_))
        ));
    }
}
