//! Conversions every game shares: seats, outcomes, game status, meta actions and events, and the
//! `Action` / `Event` envelopes around a game's own messages.

use deckmate_engine::chess::{ChessMove, Square};
use deckmate_engine::{
    EndReason, MetaAction, MetaEvent, Outcome, Seat, SeatSet, TableAction, TableEvent,
};
use deckmate_proto::v1 as pb;

use super::GameCodec;
use super::enums::{ProtoEnum, proto_enum_map};
use crate::error::ApiError;

proto_enum_map!(pb::EndReason, EndReason, "end reason":
    Resignation, DrawAgreed, Score, PlayerEnded, NoLegalAction, OutOfCards, NoProgress, TurnCap,
    KingCaptured, Checkmate, Stalemate, Repetition, InsufficientMaterial, Timeout);
proto_enum_map!(pb::MetaActionKind, MetaAction, "meta action":
    Resign, OfferDraw, AcceptDraw, DeclineDraw);

/// A seat as it appears on the wire.
pub fn seat_to_u32(seat: Seat) -> u32 {
    u32::from(seat.0)
}

/// Reads a seat of a game with `seats` seats; any other number is
/// [`ApiError::InvalidRequest`] naming `field`.
pub fn seat_from_u32(value: u32, seats: usize, field: &str) -> Result<Seat, ApiError> {
    match u8::try_from(value) {
        Ok(seat) if usize::from(seat) < seats => Ok(Seat(seat)),
        _ => Err(ApiError::InvalidRequest(format!(
            "{field}: seat {value} does not exist in a game of {seats} seats"
        ))),
    }
}

/// A square's name, such as `e4`.
pub fn square_name(square: Square) -> String {
    square.name().to_owned()
}

/// A move in UCI notation, such as `e2e4` or `e7e8q`.
pub fn uci_text(chess_move: ChessMove) -> String {
    chess_move.notation().into()
}

/// The pieces of a chess board (indexed by [`Square::index`]) in square order, each written by
/// `write`; the list is allocated once, at its final size.
pub fn board_pieces<P: Copy, M>(board: &[Option<P>; 64], write: impl Fn(Square, P) -> M) -> Vec<M> {
    let mut pieces = Vec::with_capacity(board.iter().flatten().count());
    pieces.extend(
        Square::all().filter_map(|square| {
            board[usize::from(square.index())].map(|piece| write(square, piece))
        }),
    );
    pieces
}

/// A set of seats as a list of seat numbers in increasing order.
pub fn seats_to_u32(seats: SeatSet) -> Vec<u32> {
    seats.iter().map(seat_to_u32).collect()
}

/// Writes every item with its position (a seat, a side), in order.
pub fn indexed<T, M>(items: &[T], write: impl Fn(usize, &T) -> M) -> Vec<M> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| write(index, item))
        .collect()
}

/// `IN_PROGRESS` or `FINISHED`.
pub fn encode_status(over: bool) -> pb::GameStatus {
    if over {
        pb::GameStatus::Finished
    } else {
        pb::GameStatus::InProgress
    }
}

/// Why a game ended, on the wire.
pub fn encode_end_reason(reason: EndReason) -> pb::EndReason {
    pb::EndReason::of(reason)
}

/// The result of a finished game, with a sentence for people.
pub fn encode_outcome(outcome: &Outcome) -> pb::Outcome {
    pb::Outcome {
        winners: seats_to_u32(outcome.winners),
        draw: outcome.is_draw(),
        reason: encode_end_reason(outcome.reason).into(),
        scores: outcome.scores.clone(),
        description: describe_outcome(outcome),
    }
}

/// A sentence such as "seat 0 wins 9 to 7", "draw by agreement" or
/// "seat 1 wins by resignation".
pub fn describe_outcome(outcome: &Outcome) -> String {
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|seat| seat.0.to_string())
        .collect();
    let mut text = match winners.as_slice() {
        [] => "draw".to_string(),
        [one] => format!("seat {one} wins"),
        [first @ .., last] => format!("seats {} and {last} win", first.join(", ")),
    };
    if let Some(scores) = describe_scores(outcome) {
        text.push(' ');
        text.push_str(&scores);
    }
    if let Some(phrase) = reason_phrase(outcome.reason) {
        text.push(' ');
        text.push_str(phrase);
    }
    text
}

/// "9 to 7" for two seats (the winner's score first), "with scores 4, 9, 2 by seat" for more;
/// `None` for games that do not score.
fn describe_scores(outcome: &Outcome) -> Option<String> {
    match outcome.scores.as_slice() {
        [] => None,
        [first, second] => {
            // The winner's score comes first, so "seat 1 wins 9 to 7" reads naturally.
            let (lead, other) = if outcome.winners.contains(Seat(1)) {
                (second, first)
            } else {
                (first, second)
            };
            Some(format!("{lead} to {other}"))
        }
        scores => {
            let listed: Vec<String> = scores.iter().map(i32::to_string).collect();
            Some(format!("with scores {} by seat", listed.join(", ")))
        }
    }
}

/// How the end came about; `None` when the scores say it all.
fn reason_phrase(reason: EndReason) -> Option<&'static str> {
    match reason {
        EndReason::Resignation => Some("by resignation"),
        EndReason::DrawAgreed => Some("by agreement"),
        EndReason::Score => None,
        EndReason::PlayerEnded => Some("after a player ended the game"),
        EndReason::NoLegalAction => Some("with no legal action left"),
        EndReason::OutOfCards => Some("with the cards played out"),
        EndReason::NoProgress => Some("at the no-progress limit"),
        EndReason::TurnCap => Some("at the turn limit"),
        EndReason::KingCaptured => Some("by capturing the King"),
        EndReason::Checkmate => Some("by checkmate"),
        EndReason::Stalemate => Some("by stalemate"),
        EndReason::Repetition => Some("by repetition"),
        EndReason::InsufficientMaterial => Some("with too little material left to win"),
        EndReason::Timeout => Some("on time"),
    }
}

/// A meta action's kind on the wire.
pub fn encode_meta_action_kind(action: MetaAction) -> pb::MetaActionKind {
    pb::MetaActionKind::of(action)
}

/// A meta action on the wire.
pub fn encode_meta_action(action: MetaAction) -> pb::MetaAction {
    pb::MetaAction {
        kind: encode_meta_action_kind(action).into(),
    }
}

/// Reads a meta action kind; `UNSPECIFIED` and unknown numbers are [`ApiError::InvalidField`]
/// on `action.meta.kind`.
pub fn decode_meta_action_kind(kind: i32) -> Result<MetaAction, ApiError> {
    pb::MetaActionKind::decode_field(kind, "action.meta.kind")
}

/// Reads a meta action.
pub fn decode_meta_action(action: &pb::MetaAction) -> Result<MetaAction, ApiError> {
    decode_meta_action_kind(action.kind)
}

/// A meta event on the wire.
pub fn encode_meta_event(event: MetaEvent) -> pb::MetaEvent {
    let (kind, seat) = match event {
        MetaEvent::Resigned(seat) => (pb::MetaEventKind::Resigned, seat),
        MetaEvent::DrawOffered(seat) => (pb::MetaEventKind::DrawOffered, seat),
        MetaEvent::DrawAccepted(seat) => (pb::MetaEventKind::DrawAccepted, seat),
        MetaEvent::DrawDeclined(seat) => (pb::MetaEventKind::DrawDeclined, seat),
        MetaEvent::TimedOut(seat) => (pb::MetaEventKind::TimedOut, seat),
    };
    pb::MetaEvent {
        kind: kind.into(),
        seat: seat_to_u32(seat),
    }
}

/// Reads one decision of a seat of game `G`: a meta action or one of `G`'s own actions. An
/// action with no kind is [`ApiError::InvalidField`] on `action`.
pub fn decode_table_action<G: GameCodec>(
    action: &pb::Action,
) -> Result<TableAction<G::Action>, ApiError> {
    match &action.kind {
        None => Err(ApiError::invalid_field("action", "no action is set")),
        Some(pb::action::Kind::Meta(meta)) => decode_meta_action(meta).map(TableAction::Meta),
        Some(game) => G::decode_action(game).map(TableAction::Game),
    }
}

/// Writes one decision; [`decode_table_action`] reads back a player's. A timeout, which the
/// server enters and no player sends, has no wire action: an action with no kind, or the game
/// action the server made for the seat (a history marks both `timed_out`).
pub fn encode_table_action<G: GameCodec>(action: &TableAction<G::Action>) -> pb::Action {
    match action {
        TableAction::TimeOut => pb::Action { kind: None },
        TableAction::Meta(meta) => pb::Action {
            kind: Some(pb::action::Kind::Meta(encode_meta_action(*meta))),
        },
        TableAction::Game(game) | TableAction::MovedOnTimeout(game) => G::encode_action(game),
    }
}

/// Writes one table event (already projected for its viewer) of `version`, produced by the
/// action of `actor` (`None` for setup events).
pub fn encode_table_event<G: GameCodec>(
    event: &TableEvent<G::EventView>,
    version: u64,
    actor: Option<Seat>,
) -> pb::Event {
    let kind = match event {
        TableEvent::Game(game) => G::encode_event(game),
        TableEvent::Meta(meta) => pb::event::Kind::Meta(encode_meta_event(*meta)),
        TableEvent::Ended(outcome) => pb::event::Kind::GameEnded(pb::GameEnded {
            outcome: Some(encode_outcome(outcome)),
        }),
    };
    pb::Event {
        version,
        seat: actor.map(seat_to_u32),
        kind: Some(kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deckmate_engine::games::pigeon_chess::PigeonChess;

    #[test]
    fn seats_convert_both_ways_and_out_of_range_is_rejected() {
        assert_eq!(seat_to_u32(Seat(3)), 3);
        assert_eq!(seat_from_u32(1, 2, "seat"), Ok(Seat(1)));
        for bad in [2, 255, 256, u32::MAX] {
            let error = seat_from_u32(bad, 2, "to_act").unwrap_err();
            assert!(matches!(&error, ApiError::InvalidRequest(m) if m.contains("to_act")));
        }
        let set: SeatSet = [Seat(2), Seat(0)].into_iter().collect();
        assert_eq!(seats_to_u32(set), vec![0, 2]);
    }

    #[test]
    fn outcomes_describe_themselves() {
        let by_score = Outcome::by_scores(vec![9, 7], EndReason::Score);
        let encoded = encode_outcome(&by_score);
        assert_eq!(encoded.winners, vec![0]);
        assert!(!encoded.draw);
        assert_eq!(encoded.reason, pb::EndReason::Score as i32);
        assert_eq!(encoded.scores, vec![9, 7]);
        assert_eq!(encoded.description, "seat 0 wins 9 to 7");

        let second_wins = Outcome::by_scores(vec![4, 6], EndReason::NoProgress);
        assert_eq!(
            describe_outcome(&second_wins),
            "seat 1 wins 6 to 4 at the no-progress limit"
        );

        let agreed = encode_outcome(&Outcome::draw(EndReason::DrawAgreed));
        assert!(agreed.draw && agreed.winners.is_empty());
        assert_eq!(agreed.description, "draw by agreement");

        let tied = Outcome::by_scores(vec![5, 5], EndReason::TurnCap);
        assert_eq!(describe_outcome(&tied), "draw 5 to 5 at the turn limit");

        let resigned = Outcome::win(Seat(1), EndReason::Resignation);
        assert_eq!(describe_outcome(&resigned), "seat 1 wins by resignation");

        let team = Outcome {
            winners: [Seat(0), Seat(2)].into_iter().collect(),
            reason: EndReason::Score,
            scores: vec![8, 3, 8, 3],
        };
        assert_eq!(
            describe_outcome(&team),
            "seats 0 and 2 win with scores 8, 3, 8, 3 by seat"
        );
    }

    #[test]
    fn every_end_reason_has_its_own_wire_value() {
        let reasons = [
            EndReason::Resignation,
            EndReason::DrawAgreed,
            EndReason::Score,
            EndReason::PlayerEnded,
            EndReason::NoLegalAction,
            EndReason::OutOfCards,
            EndReason::NoProgress,
            EndReason::TurnCap,
            EndReason::KingCaptured,
        ];
        let mut wire: Vec<i32> = reasons
            .iter()
            .map(|reason| encode_end_reason(*reason) as i32)
            .collect();
        wire.sort_unstable();
        wire.dedup();
        assert_eq!(wire.len(), reasons.len());
        assert!(!wire.contains(&(pb::EndReason::Unspecified as i32)));
    }

    #[test]
    fn meta_actions_round_trip_and_bad_kinds_are_rejected() {
        for meta in [
            MetaAction::Resign,
            MetaAction::OfferDraw,
            MetaAction::AcceptDraw,
            MetaAction::DeclineDraw,
        ] {
            assert_eq!(decode_meta_action(&encode_meta_action(meta)), Ok(meta));
            let action = TableAction::Meta(meta);
            let wire = encode_table_action::<PigeonChess>(&action);
            assert_eq!(decode_table_action::<PigeonChess>(&wire), Ok(action));
        }
        for bad in [0, 5, -1] {
            let error = decode_meta_action(&pb::MetaAction { kind: bad }).unwrap_err();
            assert!(
                matches!(&error, ApiError::InvalidField { field, .. } if field == "action.meta.kind"),
                "{error:?}"
            );
        }
        let empty = decode_table_action::<PigeonChess>(&pb::Action { kind: None });
        assert!(matches!(empty, Err(ApiError::InvalidField { field, .. }) if field == "action"));
    }

    #[test]
    fn table_events_carry_version_and_actor() {
        let meta = TableEvent::Meta(MetaEvent::DrawOffered(Seat(1)));
        let event = encode_table_event::<PigeonChess>(&meta, 4, Some(Seat(1)));
        assert_eq!(event.version, 4);
        assert_eq!(event.seat, Some(1));
        assert_eq!(
            event.kind,
            Some(pb::event::Kind::Meta(pb::MetaEvent {
                kind: pb::MetaEventKind::DrawOffered as i32,
                seat: 1,
            }))
        );

        let ended = TableEvent::Ended(Outcome::draw(EndReason::DrawAgreed));
        let event = encode_table_event::<PigeonChess>(&ended, 0, None);
        assert_eq!(event.seat, None);
        match event.kind {
            Some(pb::event::Kind::GameEnded(pb::GameEnded {
                outcome: Some(outcome),
            })) => assert_eq!(outcome.description, "draw by agreement"),
            other => panic!("expected GameEnded, got {other:?}"),
        }
    }
}
