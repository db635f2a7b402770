//! Arbitrary bytes through the Redis store's record decoder (formats 1 and 2) and its
//! CreateGame answer decoder: errors only, never a panic.
//!
//! The first byte chooses how the rest is read:
//!
//! * even: raw fields: a format byte (0 to 3: both formats and unknown ones), a version byte,
//!   a record (a length byte and its bytes), then log items (each a length byte and its bytes),
//!   also decoded as a stored CreateGame answer;
//! * odd: a real game (see `play_game`), stored in the format the next byte picks, then
//!   mutated: each further pair of bytes is a position and a mask XORed into the record, or,
//!   when the position falls past it, into a log item. Unmutated, the record must load back
//!   as the same game.

#![no_main]

use deckmate_server::auth::TokenHash;
use deckmate_server::store::GameRecord;
use deckmate_server::store::redis::{
    RECORD_FORMATS, decode_stored_create, decode_stored_record, encode_stored_record,
};
use deckmate_server_fuzz::{Reader, play_game};
use libfuzzer_sys::fuzz_target;

/// The id of every decoded game.
const GAME_ID: &str = "fuzz";

fuzz_target!(|data: &[u8]| {
    let mut input = Reader(data);
    let Some(mode) = input.byte() else { return };
    if mode % 2 == 0 {
        raw(input);
    } else {
        mutated(input);
    }
});

fn raw(mut input: Reader<'_>) {
    let (Some(format), Some(version), Some(record)) = (input.byte(), input.byte(), input.chunk())
    else {
        return;
    };
    let _ = decode_stored_create(record);
    let mut log = Vec::new();
    while let Some(item) = input.chunk() {
        log.push(item.to_vec());
    }
    let _ = decode_stored_record(
        GAME_ID,
        u32::from(format % 4),
        u64::from(version),
        record,
        &log,
    );
}

fn mutated(mut input: Reader<'_>) {
    let Some(format) = input.byte() else { return };
    let format = if format % 2 == 0 {
        *RECORD_FORMATS.start()
    } else {
        *RECORD_FORMATS.end()
    };
    let Some(game) = play_game(&mut input, 48) else {
        return;
    };
    let seats = game.seats();
    let record = GameRecord {
        id: GAME_ID.to_string(),
        game,
        token_hashes: (0..seats).map(|seat| TokenHash([seat as u8; 32])).collect(),
        spectators_allowed: true,
        seed_commitment: [7; 32],
        created_at: 1,
        updated_at: 2,
    };
    let version = record.version();
    let (mut bytes, mut log) = encode_stored_record(&record, format).expect("a game encodes");
    let mut changed = false;
    while let (Some(low), Some(high), Some(mask)) = (input.byte(), input.byte(), input.byte()) {
        let mut position = usize::from(u16::from_le_bytes([low, high]));
        if position < bytes.len() {
            bytes[position] ^= mask;
            changed |= mask != 0;
            continue;
        }
        position -= bytes.len();
        let items = log.len().max(1);
        if let Some(item) = log.get_mut(position % items) {
            if !item.is_empty() {
                let at = position % item.len();
                item[at] ^= mask;
                changed |= mask != 0;
            }
        }
    }
    let decoded = decode_stored_record(GAME_ID, format, version, &bytes, &log);
    if !changed {
        let decoded = decoded.expect("an unmutated record loads");
        assert_eq!(decoded.version(), version);
        let again = encode_stored_record(&decoded, format).expect("a loaded game encodes");
        assert_eq!(
            again,
            (bytes, log),
            "the record changed through a store round trip"
        );
    }
}
