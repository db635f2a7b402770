//! A view written straight into its protobuf bytes: the same bytes as the `pb::ObserveResponse`
//! that [`Session::build_view`] builds (with its game id filled in), written back to front in the
//! order `deckmate_proto::wire` writes the message's fields, without building the message.
//! `Act` and `Observe` answer this way (`crate::api::answers`); the server's
//! `tests/wire_encoding.rs` compares both at every ply of random games of every game.
//!
//! The parts a game owns are written by its codec ([`GameCodec::write_observation`] and
//! [`GameCodec::write_action`]); the few small, rare parts (the outcome, events, meta actions,
//! bot seats and clocks) are built as their messages and written from them.

use deckmate_engine::{Seat, SeatSet, Table, TableEvent, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::ReverseWriter;

use super::{Session, project_events};
use crate::bots::levels as bot_levels;
use crate::codec::GameCodec;
use crate::codec::common::{encode_meta_action, encode_outcome, encode_status, seat_to_u32};

/// The field numbers of `ObserveResponse` (proto/deckmate/v1/game_service.proto).
mod field {
    pub(super) const GAME_ID: u32 = 1;
    pub(super) const VARIANT: u32 = 2;
    pub(super) const VERSION: u32 = 3;
    pub(super) const STATUS: u32 = 4;
    pub(super) const OUTCOME: u32 = 5;
    pub(super) const TO_ACT: u32 = 6;
    pub(super) const SEAT: u32 = 7;
    pub(super) const LEGAL_ACTIONS: u32 = 8;
    pub(super) const OBSERVATION: u32 = 9;
    pub(super) const RECENT_EVENTS: u32 = 10;
    pub(super) const META_ACTIONS: u32 = 11;
    pub(super) const SEATS: u32 = 12;
    pub(super) const DRAW_OFFERED_BY: u32 = 13;
    pub(super) const SEAT_OPTIONS: u32 = 14;
    pub(super) const CLOCKS: u32 = 15;
}

impl<G: GameCodec> Session<G> {
    /// Writes the game at `version` (whose table and full events are given) as `viewer` sees it,
    /// as the fields of the `ObserveResponse` of game `game_id`, back to front.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_view_at(
        &self,
        table: &Table<G>,
        version: u64,
        events: &[TableEvent<G::Event>],
        actor: Option<Seat>,
        viewer: Viewer,
        game_id: &str,
        writer: &mut ReverseWriter,
    ) {
        let over = table.is_over();
        let seat = viewer.seat();
        // Only the current version's clocks are kept (docs/CLOCKS.md, "Views").
        if let Some(clock) = &self.clock
            && version == self.current_version()
        {
            for clock in clock.to_proto().iter().rev() {
                writer.message(field::CLOCKS, clock);
            }
        }
        for &(bot_seat, level) in self.bots.iter().rev() {
            writer.message(
                field::SEAT_OPTIONS,
                &pb::SeatOptions {
                    seat: seat_to_u32(bot_seat),
                    bot: bot_levels::to_proto(level).into(),
                },
            );
        }
        if let Some(offered_by) = table.draw_offer() {
            writer.varint_field(field::DRAW_OFFERED_BY, u64::from(seat_to_u32(offered_by)));
        }
        if self.seats != 0 {
            writer.varint_field(field::SEATS, self.seats as u64);
        }
        if let Some(seat) = seat {
            for action in table.meta_actions(seat).into_iter().rev() {
                writer.message(field::META_ACTIONS, &encode_meta_action(action));
            }
        }
        for event in project_events::<G>(events, version, actor, viewer, over)
            .iter()
            .rev()
        {
            writer.message(field::RECENT_EVENTS, event);
        }
        writer.nested(field::OBSERVATION, |writer| {
            G::write_observation(&table.observe(viewer), writer);
        });
        let to_act = table.to_act();
        if let Some(seat) = seat {
            if to_act.contains(seat) {
                for action in table.legal_actions(seat).iter().rev() {
                    writer.nested(field::LEGAL_ACTIONS, |writer| {
                        G::write_action(action, writer)
                    });
                }
            }
            writer.varint_field(field::SEAT, u64::from(seat_to_u32(seat)));
        }
        if !to_act.is_empty() {
            writer.packed_varints(field::TO_ACT, seats_in_reverse(to_act));
        }
        if let Some(outcome) = table.outcome() {
            writer.message(field::OUTCOME, &encode_outcome(&outcome));
        }
        writer.varint_field(field::STATUS, i64::from(encode_status(over) as i32) as u64);
        if version != 0 {
            writer.varint_field(field::VERSION, version);
        }
        writer.length_delimited(field::VARIANT, G::ID.as_bytes());
        if !game_id.is_empty() {
            writer.length_delimited(field::GAME_ID, game_id.as_bytes());
        }
    }
}

/// The seat numbers of `seats`, highest first.
fn seats_in_reverse(seats: SeatSet) -> impl Iterator<Item = u64> {
    (0..SeatSet::CAPACITY as u8)
        .rev()
        .filter(move |&seat| seats.contains(Seat(seat)))
        .map(u64::from)
}
