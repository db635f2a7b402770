//! Arbitrary decisions at every game's table, checked against the engine contract
//! (service/engine/src/game.rs): listed actions apply, anything else is rejected without a
//! trace, observations and event views never panic, and the table survives serialization and
//! replays from its log.
//!
//! Input layout (the seeds written by scripts/fuzz-seeds.py follow it):
//!
//! * byte 0: the game, an index into `GameKind::ALL`;
//! * byte 1: the seat count (taken modulo the game's range when outside it);
//! * byte 2: the rules edition (even: the latest, odd: the first);
//! * bytes 3..11: the seed, a little-endian u64;
//! * bytes 11..13: the length `n` of the config JSON that follows (little-endian u16; `0` or
//!   JSON that does not parse means the default config);
//! * then decisions until the input ends, each an opcode byte (modulo 5) and its operands:
//!   - `0 seat index_lo index_hi`: a listed action, picked by index, of a seat picked among
//!     those to act;
//!   - `1 seat meta`: a meta action (resign, offer, accept, decline), of any seat number;
//!   - `2 seat len bytes…`: a game action in the game's notation, played when it names a listed
//!     action of that seat;
//!   - `3 seat len bytes…`: a raw postcard-encoded game action, possibly illegal;
//!   - `4 seat len bytes…`: a raw JSON game action, possibly illegal.

#![no_main]

use deckmate_engine::{
    Edition, Game, GameKind, LoggedAction, MetaAction, Seat, Seed, Table, TableAction, TableEvent,
    Viewer, length::CappedLength, with_game,
};
use libfuzzer_sys::fuzz_target;

/// Decisions beyond this many are ignored, so that one input cannot run for minutes.
const MAX_DECISIONS: usize = 600;

const METAS: [MetaAction; 4] = [
    MetaAction::Resign,
    MetaAction::OfferDraw,
    MetaAction::AcceptDraw,
    MetaAction::DeclineDraw,
];

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let kind = GameKind::ALL[kind as usize % GameKind::ALL.len()];
    with_game!(kind, G => run::<G>(rest));
});

/// Reads bytes off the front of the input.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    fn bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        if self.0.len() < len {
            return None;
        }
        let (taken, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(taken)
    }

    /// A length byte and that many bytes.
    fn chunk(&mut self) -> Option<&'a [u8]> {
        let len = self.byte()? as usize;
        self.bytes(len)
    }
}

fn run<G: Game>(data: &[u8]) {
    let mut input = Reader(data);
    let (Some(seats), Some(edition), Some(seed)) = (input.byte(), input.byte(), input.bytes(8))
    else {
        return;
    };
    let range = G::SEATS;
    let seats = seats as usize;
    let seats = if range.contains(&seats) {
        seats
    } else {
        range.start() + seats % (range.end() - range.start() + 1)
    };
    let edition = if edition % 2 == 0 {
        Edition::LATEST
    } else {
        Edition::FIRST
    };
    let seed = Seed::from_u64(u64::from_le_bytes(seed.try_into().expect("eight bytes")));
    let config_len = match input.bytes(2) {
        Some(len) => u16::from_le_bytes([len[0], len[1]]) as usize,
        None => 0,
    };
    let config: G::Config = input
        .bytes(config_len)
        .and_then(|json| serde_json::from_slice(json).ok())
        // Whoever creates a game checks its length caps (crate::length); so does the fuzzer.
        .filter(|config: &G::Config| config.length_caps().check().is_ok())
        .unwrap_or_default();

    let Ok((mut table, setup)) = Table::<G>::new_in(&config, seats, seed, edition) else {
        return;
    };
    check_events::<G>(&table, &setup);
    check_table(&table);
    let mut log: Vec<LoggedAction<G::Action>> = Vec::new();
    for _ in 0..MAX_DECISIONS {
        let Some(op) = input.byte() else { break };
        let Some(seat) = input.byte() else { break };
        let decision = match op % 5 {
            0 => {
                let (Some(low), Some(high)) = (input.byte(), input.byte()) else {
                    break;
                };
                let to_act: Vec<Seat> = table.to_act().iter().collect();
                if to_act.is_empty() {
                    continue;
                }
                let seat = to_act[seat as usize % to_act.len()];
                let legal = table.legal_actions(seat);
                assert!(
                    !legal.is_empty(),
                    "{seat} is to act without a listed action"
                );
                let index = u16::from_le_bytes([low, high]) as usize % legal.len();
                (seat, TableAction::Game(legal[index].clone()))
            }
            1 => {
                let Some(meta) = input.byte() else { break };
                (Seat(seat % 9), TableAction::Meta(METAS[meta as usize % 4]))
            }
            2 => {
                let Some(text) = input.chunk() else { break };
                let seat = Seat(seat % 9);
                let Ok(text) = std::str::from_utf8(text) else {
                    continue;
                };
                let Some(action) = table
                    .legal_actions(seat)
                    .into_iter()
                    .find(|action| action.to_string() == text)
                else {
                    continue;
                };
                (seat, TableAction::Game(action))
            }
            3 => {
                let Some(bytes) = input.chunk() else { break };
                let Ok(action) = postcard::from_bytes::<G::Action>(bytes) else {
                    continue;
                };
                // The high bit makes it a move the server made on the seat's timeout.
                if seat & 0x80 != 0 {
                    (Seat(seat % 9), TableAction::MovedOnTimeout(action))
                } else {
                    (Seat(seat % 9), TableAction::Game(action))
                }
            }
            _ => {
                let Some(bytes) = input.chunk() else { break };
                let Ok(action) = serde_json::from_slice::<G::Action>(bytes) else {
                    continue;
                };
                (Seat(seat % 9), TableAction::Game(action))
            }
        };
        let (seat, action) = decision;
        if decide(&mut table, seat, &action) {
            log.push((seat, action));
        }
    }
    let replayed = Table::<G>::replay_in(&config, seats, seed, edition, &log)
        .unwrap_or_else(|error| panic!("the log of accepted actions does not replay: {error}"));
    assert!(
        replayed == table,
        "the replayed table differs from the live one"
    );
}

/// Whether the contract allows `action` of `seat` now.
fn is_allowed<G: Game>(table: &Table<G>, seat: Seat, action: &TableAction<G::Action>) -> bool {
    if table.is_over() || seat.index() >= table.seat_count() {
        return false;
    }
    match action {
        TableAction::Meta(meta) => table.meta_actions(seat).contains(meta),
        TableAction::Game(game_action) => {
            table.to_act().contains(seat) && table.legal_actions(seat).contains(game_action)
        }
        TableAction::TimeOut => table.clock_seats().contains(seat),
        TableAction::MovedOnTimeout(game_action) => {
            table.clock_seats().contains(seat)
                && table.to_act().contains(seat)
                && table.legal_actions(seat).contains(game_action)
        }
    }
}

/// Applies one decision and checks the contract; returns whether it was accepted.
fn decide<G: Game>(table: &mut Table<G>, seat: Seat, action: &TableAction<G::Action>) -> bool {
    let allowed = is_allowed(table, seat, action);
    let before = table.clone();
    match table.apply(seat, action) {
        Ok(events) => {
            assert!(
                allowed,
                "{action:?} of {seat} was accepted but is not listed"
            );
            check_events::<G>(table, &events);
            check_table(table);
            true
        }
        Err(error) => {
            assert!(
                !allowed,
                "{action:?} of {seat} is listed but was rejected: {error}"
            );
            assert!(
                *table == before,
                "the rejected {action:?} of {seat} changed the table"
            );
            let _ = error.to_string();
            false
        }
    }
}

fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    (0..seats)
        .map(|seat| Viewer::Seat(Seat(seat as u8)))
        .chain([Viewer::Spectator])
}

/// Every viewer's view of every event, and the revealed event, are produced without panicking.
fn check_events<G: Game>(table: &Table<G>, events: &[TableEvent<G::Event>]) {
    for event in events {
        for viewer in viewers(table.seat_count()) {
            let _ = Table::<G>::view_event(event, viewer);
        }
        let _ = Table::<G>::reveal_event(event);
        let bytes = postcard::to_allocvec(event).expect("events serialize");
        let back: TableEvent<G::Event> = postcard::from_bytes(&bytes).expect("events decode");
        assert_eq!(&back, event, "an event changed through postcard");
    }
}

/// Observations serialize for every viewer, the turn model holds, and the table round-trips.
fn check_table<G: Game>(table: &Table<G>) {
    for viewer in viewers(table.seat_count()) {
        let observation = table.observe(viewer);
        serde_json::to_vec(&observation).expect("observations serialize");
    }
    let to_act = table.to_act();
    assert_eq!(
        to_act.is_empty(),
        table.is_over(),
        "to_act is empty exactly when the game is over"
    );
    for seat in (0..table.seat_count()).map(|seat| Seat(seat as u8)) {
        assert_eq!(
            to_act.contains(seat),
            !table.legal_actions(seat).is_empty(),
            "{seat} is to act exactly when it has listed actions"
        );
    }
    let bytes = postcard::to_allocvec(table).expect("tables serialize");
    let back: Table<G> = postcard::from_bytes(&bytes).expect("tables decode");
    assert!(back == *table, "the table changed through postcard");
}
