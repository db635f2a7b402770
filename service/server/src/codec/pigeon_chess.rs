//! Pigeon Chess on the wire (proto/deckmate/v1/games/pigeon_chess.proto).
//!
//! Spots travel as their names ("a1" … "c4"), pieces as `PigeonChessPiece`, and the board as the
//! 12 spots in the order a1, b1, c1, a2, …, c4. An option out of range or an action field that
//! cannot be read is [`ApiError::InvalidField`] with the field's proto path (§9, §10), so that a
//! client can show the error next to the field at fault.

use deckmate_engine::SetupError;
use deckmate_engine::chess::Role;
use deckmate_engine::games::pigeon_chess::{
    Action, Config, EventView, Observation, Phase, PigeonChess, PlayerView, RowSide, Spot, SpotView,
};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::ReverseWriter;
use pb::pigeon_chess_action::Kind as ActionKind;
use pb::pigeon_chess_event::Kind as EventKind;

use super::common::{indexed, seat_to_u32};
use super::config::narrow;
use super::enums::{ProtoEnum, proto_enum_map};
use super::written;
use super::{GameCodec, oneof_members};
use crate::error::ApiError;

proto_enum_map!(pb::PigeonChessPiece, Role, "piece": Pawn, Knight, Bishop, Rook, Queen, King);
proto_enum_map!(pb::PigeonChessPhase, Phase, "phase": FrontRow, BackRow, FirstPlayer, Play, Finished);
proto_enum_map!(pb::PigeonChessRowSide, RowSide, "row side": Front, Back);

super::config::validate_without_seats!(Config);

/// The number of Pigeon Chess's member of the `Observation` oneof.
const OBSERVATION_MEMBER: u32 = 4;

/// The number of Pigeon Chess's member of the `Action` oneof.
const ACTION_MEMBER: u32 = 5;

impl GameCodec for PigeonChess {
    oneof_members!(PigeonChess, pb::PigeonChessConfig, pb::PigeonChessAction);

    /// Unset fields keep the rule file's defaults (§1, §5(e), §5(f), §7.1).
    fn read_config(message: &pb::PigeonChessConfig) -> Result<Config, SetupError> {
        let defaults = Config::default();
        // In the order of `Role::ALL`, which indexes the deck.
        let counts = [
            ("pawns", message.pawns),
            ("knights", message.knights),
            ("bishops", message.bishops),
            ("rooks", message.rooks),
            ("queens", message.queens),
            ("kings", message.kings),
        ];
        let mut deck = defaults.deck;
        for (slot, (field, value)) in deck.iter_mut().zip(counts) {
            *slot = narrow(value, *slot, field)?;
        }
        Ok(Config {
            deck,
            no_progress_turns: message
                .no_progress_turns
                .unwrap_or(defaults.no_progress_turns),
            max_turns: message.max_turns.unwrap_or(defaults.max_turns),
        })
    }

    fn config_message(config: &Config) -> pb::PigeonChessConfig {
        let count = |piece: Role| Some(u32::from(config.count(piece)));
        pb::PigeonChessConfig {
            pawns: count(Role::Pawn),
            knights: count(Role::Knight),
            bishops: count(Role::Bishop),
            rooks: count(Role::Rook),
            queens: count(Role::Queen),
            kings: count(Role::King),
            no_progress_turns: Some(config.no_progress_turns),
            max_turns: Some(config.max_turns),
        }
    }

    /// Reads one Pigeon Chess action. A missing or unreadable field is [`ApiError::InvalidField`]
    /// naming its proto field path, which starts at `action.pigeon_chess`.
    fn read_action(message: &pb::PigeonChessAction) -> Result<Action, ApiError> {
        let Some(kind) = &message.kind else {
            return Err(ApiError::invalid_field(
                "action.pigeon_chess",
                "no action is set",
            ));
        };
        Ok(match kind {
            ActionKind::PlaceFrontRow(row) => {
                Action::PlaceFrontRow(decode_row(row, "action.pigeon_chess.place_front_row")?)
            }
            ActionKind::PlaceBackRow(row) => {
                Action::PlaceBackRow(decode_row(row, "action.pigeon_chess.place_back_row")?)
            }
            ActionKind::RevealForFirst(reveal) => {
                Action::RevealForFirst(pb::PigeonChessPiece::decode_field(
                    reveal.piece,
                    "action.pigeon_chess.reveal_for_first.piece",
                )?)
            }
            ActionKind::Move(step) => Action::Move {
                from: decode_spot(&step.from, "action.pigeon_chess.move.from")?,
                to: decode_spot(&step.to, "action.pigeon_chess.move.to")?,
            },
            ActionKind::Place(place) => Action::Place {
                piece: pb::PigeonChessPiece::decode_field(
                    place.piece,
                    "action.pigeon_chess.place.piece",
                )?,
                spot: decode_spot(&place.spot, "action.pigeon_chess.place.spot")?,
            },
            ActionKind::EndGame(_) => Action::EndGame,
            ActionKind::Pass(_) => Action::Pass,
        })
    }

    fn action_message(action: &Action) -> pb::PigeonChessAction {
        let kind = match *action {
            Action::PlaceFrontRow(pieces) => ActionKind::PlaceFrontRow(row_message(&pieces)),
            Action::PlaceBackRow(pieces) => ActionKind::PlaceBackRow(row_message(&pieces)),
            Action::RevealForFirst(piece) => {
                ActionKind::RevealForFirst(pb::PigeonChessRevealForFirst {
                    piece: pb::PigeonChessPiece::encode(piece),
                })
            }
            Action::Move { from, to } => ActionKind::Move(pb::PigeonChessMove {
                from: spot_name(from),
                to: spot_name(to),
            }),
            Action::Place { piece, spot } => ActionKind::Place(pb::PigeonChessPlace {
                piece: pb::PigeonChessPiece::encode(piece),
                spot: spot_name(spot),
            }),
            Action::EndGame => ActionKind::EndGame(pb::PigeonChessEndGame {}),
            Action::Pass => ActionKind::Pass(pb::PigeonChessPass {}),
        };
        pb::PigeonChessAction { kind: Some(kind) }
    }

    fn encode_observation(observation: &Observation) -> pb::Observation {
        let board = Spot::all()
            .zip(observation.board.iter())
            .map(|(spot, view)| spot_message(spot, view))
            .collect();
        let players = indexed(&observation.players, player_message);
        pb::Observation {
            game: Some(pb::observation::Game::PigeonChess(
                pb::PigeonChessObservation {
                    phase: pb::PigeonChessPhase::of(observation.phase).into(),
                    board,
                    players,
                    hand: encode_pieces(&observation.hand),
                    group_discard: encode_pieces(&observation.group_discard),
                    first_player: observation.first_player.map(seat_to_u32),
                    current_player: observation.current_player.map(seat_to_u32),
                    turn: observation.turn,
                    turns_without_progress: observation.turns_without_progress,
                    config: Some(Self::config_message(&observation.config)),
                },
            )),
        }
    }

    /// `PigeonChessObservation` fields by number (proto/deckmate/v1/games/pigeon_chess.proto),
    /// highest first; the bytes of [`GameCodec::encode_observation`]'s message.
    fn write_observation(observation: &Observation, writer: &mut ReverseWriter) {
        writer.nested(OBSERVATION_MEMBER, |writer| {
            writer.message(10, &Self::config_message(&observation.config));
            written::uint(writer, 9, observation.turns_without_progress);
            written::uint(writer, 8, observation.turn);
            written::optional_uint(writer, 7, observation.current_player.map(seat_to_u32));
            written::optional_uint(writer, 6, observation.first_player.map(seat_to_u32));
            write_pieces(writer, 5, &observation.group_discard);
            write_pieces(writer, 4, &observation.hand);
            for (seat, player) in observation.players.iter().enumerate().rev() {
                writer.nested(3, |writer| write_player(writer, seat, player));
            }
            for (spot, view) in Spot::all().zip(observation.board.iter()).rev() {
                writer.nested(2, |writer| {
                    written::optional_enumeration(
                        writer,
                        4,
                        view.piece.map(pb::PigeonChessPiece::encode),
                    );
                    written::boolean(writer, 3, view.face_down);
                    written::optional_uint(writer, 2, view.owner.map(seat_to_u32));
                    writer.length_delimited(1, spot.name().as_bytes());
                });
            }
            written::enumeration(
                writer,
                1,
                pb::PigeonChessPhase::of(observation.phase).into(),
            );
        });
    }

    /// `PigeonChessAction` fields by number, highest first; the bytes of
    /// [`GameCodec::encode_action`]'s message.
    fn write_action(action: &Action, writer: &mut ReverseWriter) {
        writer.nested(ACTION_MEMBER, |writer| match *action {
            Action::PlaceFrontRow(pieces) => writer.nested(1, |writer| {
                write_pieces(writer, 1, &pieces);
            }),
            Action::PlaceBackRow(pieces) => writer.nested(2, |writer| {
                write_pieces(writer, 1, &pieces);
            }),
            Action::RevealForFirst(piece) => writer.nested(3, |writer| {
                written::enumeration(writer, 1, pb::PigeonChessPiece::encode(piece));
            }),
            Action::Move { from, to } => writer.nested(4, |writer| {
                writer.length_delimited(2, to.name().as_bytes());
                writer.length_delimited(1, from.name().as_bytes());
            }),
            Action::Place { piece, spot } => writer.nested(5, |writer| {
                writer.length_delimited(2, spot.name().as_bytes());
                written::enumeration(writer, 1, pb::PigeonChessPiece::encode(piece));
            }),
            Action::EndGame => writer.nested(6, |_| {}),
            Action::Pass => writer.nested(7, |_| {}),
        });
    }

    fn encode_event(event: &EventView) -> pb::event::Kind {
        let kind = match event {
            EventView::DeckShuffled { seat } => {
                EventKind::DeckShuffled(pb::PigeonChessDeckShuffled {
                    seat: seat_to_u32(*seat),
                })
            }
            EventView::CardsDrawn {
                seat,
                count,
                pieces,
            } => EventKind::CardsDrawn(pb::PigeonChessCardsDrawn {
                seat: seat_to_u32(*seat),
                count: *count,
                pieces: pieces.as_deref().map(encode_pieces).unwrap_or_default(),
            }),
            EventView::RowCommitted { seat, side, pieces } => {
                EventKind::RowCommitted(pb::PigeonChessRowCommitted {
                    seat: seat_to_u32(*seat),
                    side: pb::PigeonChessRowSide::of(*side).into(),
                    pieces: pieces
                        .as_ref()
                        .map(|row| encode_pieces(row))
                        .unwrap_or_default(),
                })
            }
            EventView::RowsRevealed { side, rows } => {
                EventKind::RowsRevealed(pb::PigeonChessRowsRevealed {
                    side: pb::PigeonChessRowSide::of(*side).into(),
                    rows: rows
                        .iter()
                        .enumerate()
                        .map(|(seat, row)| seat_row_message(seat, row))
                        .collect(),
                })
            }
            EventView::FirstPlayerPicked { seat, piece } => {
                EventKind::FirstPlayerPicked(pb::PigeonChessFirstPlayerPicked {
                    seat: seat_to_u32(*seat),
                    piece: piece.map(pb::PigeonChessPiece::encode),
                })
            }
            EventView::FirstPlayerChosen {
                reveals,
                first_player,
                decided_by_arrival,
            } => EventKind::FirstPlayerChosen(pb::PigeonChessFirstPlayerChosen {
                reveals: reveals
                    .iter()
                    .enumerate()
                    .map(|(seat, pieces)| seat_row_message(seat, pieces))
                    .collect(),
                first_player: seat_to_u32(*first_player),
                decided_by_arrival: *decided_by_arrival,
            }),
            EventView::TurnStarted { seat, turn } => {
                EventKind::TurnStarted(pb::PigeonChessTurnStarted {
                    seat: seat_to_u32(*seat),
                    turn: *turn,
                })
            }
            EventView::Flipped { seat, spot, piece } => {
                EventKind::Flipped(pb::PigeonChessFlipped {
                    seat: seat_to_u32(*seat),
                    spot: spot_name(*spot),
                    piece: pb::PigeonChessPiece::encode(*piece),
                })
            }
            EventView::Moved {
                seat,
                from,
                to,
                piece,
                captured,
                captured_scored,
                pawn_scored,
            } => EventKind::Moved(pb::PigeonChessMoved {
                seat: seat_to_u32(*seat),
                from: spot_name(*from),
                to: spot_name(*to),
                piece: pb::PigeonChessPiece::encode(*piece),
                captured: captured.map(pb::PigeonChessPiece::encode),
                captured_scored: *captured_scored,
                pawn_scored: *pawn_scored,
            }),
            EventView::Placed { seat, spot, piece } => EventKind::Placed(pb::PigeonChessPlaced {
                seat: seat_to_u32(*seat),
                spot: spot_name(*spot),
                piece: piece.map(pb::PigeonChessPiece::encode),
            }),
            EventView::Passed { seat } => EventKind::Passed(pb::PigeonChessPassed {
                seat: seat_to_u32(*seat),
                by_choice: false,
            }),
            EventView::PassedByChoice { seat } => EventKind::Passed(pb::PigeonChessPassed {
                seat: seat_to_u32(*seat),
                by_choice: true,
            }),
        };
        pb::event::Kind::PigeonChess(pb::PigeonChessEvent { kind: Some(kind) })
    }
}

/// Reads a setup row: exactly three pieces, for columns a, b and c (§2.2, §2.3).
fn decode_row(row: &pb::PigeonChessRow, field: &str) -> Result<[Role; 3], ApiError> {
    match row.pieces.as_slice() {
        [a, b, c] => Ok([
            pb::PigeonChessPiece::decode_field(*a, format_args!("{field}.pieces[0]"))?,
            pb::PigeonChessPiece::decode_field(*b, format_args!("{field}.pieces[1]"))?,
            pb::PigeonChessPiece::decode_field(*c, format_args!("{field}.pieces[2]"))?,
        ]),
        pieces => Err(ApiError::invalid_field(
            format!("{field}.pieces"),
            format!("a row holds exactly 3 pieces, not {}", pieces.len()),
        )),
    }
}

/// Reads a spot name ("a1" … "c4").
fn decode_spot(name: &str, field: &str) -> Result<Spot, ApiError> {
    if name.is_empty() {
        return Err(ApiError::invalid_field(field, "must be set"));
    }
    name.parse()
        .map_err(|_| ApiError::invalid_field(field, "not a spot name (a1 to c4)"))
}

/// Pieces on the wire, in the same order.
/// A packed `repeated PigeonChessPiece` field holding `pieces`, as [`encode_pieces`] lists them.
fn write_pieces(writer: &mut ReverseWriter, number: u32, pieces: &[Role]) {
    written::packed_enums(writer, number, pieces, pb::PigeonChessPiece::encode);
}

/// The fields of [`player_message`]'s message, highest first.
fn write_player(writer: &mut ReverseWriter, seat: usize, player: &PlayerView) {
    write_pieces(writer, 8, &player.first_player_reveals);
    written::boolean(writer, 7, player.committed);
    written::uint(writer, 6, player.score);
    written::boolean(writer, 5, player.king_alive);
    write_pieces(writer, 4, &player.point_pile);
    written::uint(writer, 3, player.deck_count);
    written::uint(writer, 2, player.hand_count);
    written::uint(writer, 1, seat as u64);
}

fn encode_pieces(pieces: &[Role]) -> Vec<i32> {
    pieces
        .iter()
        .copied()
        .map(pb::PigeonChessPiece::encode)
        .collect()
}

fn row_message(pieces: &[Role; 3]) -> pb::PigeonChessRow {
    pb::PigeonChessRow {
        pieces: encode_pieces(pieces),
    }
}

fn seat_row_message(seat: usize, pieces: &[Role]) -> pb::PigeonChessSeatRow {
    pb::PigeonChessSeatRow {
        seat: seat as u32,
        pieces: encode_pieces(pieces),
    }
}

/// A spot's name, such as `b3`.
fn spot_name(spot: Spot) -> String {
    spot.name().to_owned()
}

fn spot_message(spot: Spot, view: &SpotView) -> pb::PigeonChessSpot {
    pb::PigeonChessSpot {
        name: spot_name(spot),
        owner: view.owner.map(seat_to_u32),
        face_down: view.face_down,
        piece: view.piece.map(pb::PigeonChessPiece::encode),
    }
}

fn player_message(seat: usize, player: &PlayerView) -> pb::PigeonChessPlayer {
    pb::PigeonChessPlayer {
        seat: seat as u32,
        hand_count: player.hand_count,
        deck_count: player.deck_count,
        point_pile: encode_pieces(&player.point_pile),
        king_alive: player.king_alive,
        score: player.score,
        committed: player.committed,
        first_player_reveals: encode_pieces(&player.first_player_reveals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{invalid, invalid_field_saying};
    use deckmate_engine::games::pigeon_chess::{MAX_DECK, MIN_DECK};
    use deckmate_engine::{Seat, Seed, Table, TableAction, Viewer};

    fn config_of(message: pb::PigeonChessConfig) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(pb::game_config::Game::PigeonChess(message)),
        }
    }

    fn action_of(kind: ActionKind) -> pb::action::Kind {
        pb::action::Kind::PigeonChess(pb::PigeonChessAction { kind: Some(kind) })
    }

    #[test]
    fn end_game_and_pass_round_trip() {
        for action in [Action::EndGame, Action::Pass] {
            let wire = PigeonChess::encode_action(&action);
            assert_eq!(
                PigeonChess::decode_action(wire.kind.as_ref().unwrap()),
                Ok(action)
            );
        }
        assert_eq!(
            PigeonChess::decode_action(&action_of(ActionKind::Pass(pb::PigeonChessPass {}))),
            Ok(Action::Pass)
        );
    }

    #[test]
    fn passes_travel_as_passed_events_that_say_whether_they_were_chosen() {
        for (view, by_choice) in [
            (EventView::Passed { seat: Seat(1) }, false),
            (EventView::PassedByChoice { seat: Seat(1) }, true),
        ] {
            match PigeonChess::encode_event(&view) {
                pb::event::Kind::PigeonChess(pb::PigeonChessEvent {
                    kind: Some(EventKind::Passed(message)),
                }) => assert_eq!(message, pb::PigeonChessPassed { seat: 1, by_choice }),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn malformed_actions_are_field_violations_naming_the_proto_field() {
        use pb::PigeonChessPiece as P;
        let row = |pieces: Vec<P>| pb::PigeonChessRow {
            pieces: pieces.into_iter().map(i32::from).collect(),
        };
        let decode = |kind: ActionKind| PigeonChess::decode_action(&action_of(kind));
        let cases = [
            (
                decode(ActionKind::PlaceFrontRow(row(vec![P::Pawn, P::Pawn]))),
                "action.pigeon_chess.place_front_row.pieces",
                "exactly 3 pieces, not 2",
            ),
            (
                decode(ActionKind::PlaceBackRow(row(vec![P::Pawn; 4]))),
                "action.pigeon_chess.place_back_row.pieces",
                "not 4",
            ),
            (
                decode(ActionKind::PlaceFrontRow(row(vec![
                    P::Pawn,
                    P::Unspecified,
                    P::Rook,
                ]))),
                "action.pigeon_chess.place_front_row.pieces[1]",
                "must be set",
            ),
            (
                decode(ActionKind::PlaceFrontRow(pb::PigeonChessRow {
                    pieces: vec![1, 2, 42],
                })),
                "action.pigeon_chess.place_front_row.pieces[2]",
                "unknown piece 42",
            ),
            (
                decode(ActionKind::RevealForFirst(pb::PigeonChessRevealForFirst {
                    piece: 0,
                })),
                "action.pigeon_chess.reveal_for_first.piece",
                "must be set",
            ),
            (
                decode(ActionKind::Move(pb::PigeonChessMove {
                    from: "a1".into(),
                    to: "d2".into(),
                })),
                "action.pigeon_chess.move.to",
                "not a spot name",
            ),
            (
                decode(ActionKind::Move(pb::PigeonChessMove {
                    from: String::new(),
                    to: "a2".into(),
                })),
                "action.pigeon_chess.move.from",
                "must be set",
            ),
            (
                decode(ActionKind::Place(pb::PigeonChessPlace {
                    piece: P::Queen.into(),
                    spot: "A1".into(),
                })),
                "action.pigeon_chess.place.spot",
                "not a spot name",
            ),
            (
                decode(ActionKind::Place(pb::PigeonChessPlace {
                    piece: -3,
                    spot: "a1".into(),
                })),
                "action.pigeon_chess.place.piece",
                "unknown piece -3",
            ),
            (
                PigeonChess::decode_action(&pb::action::Kind::PigeonChess(pb::PigeonChessAction {
                    kind: None,
                })),
                "action.pigeon_chess",
                "no action is set",
            ),
        ];
        for (result, field, needle) in cases {
            invalid_field_saying(result, field, needle);
        }
        // Another game's action, or a meta action, is no field of ours to blame.
        invalid(
            PigeonChess::decode_action(&pb::action::Kind::Meta(pb::MetaAction {
                kind: pb::MetaActionKind::Resign.into(),
            })),
            "meta",
        );
    }

    #[test]
    fn config_defaults_fill_unset_fields_and_encode_sets_every_field() {
        let encoded = PigeonChess::encode_config(&Config::default());
        let Some(pb::game_config::Game::PigeonChess(message)) = encoded.game else {
            panic!("not a pigeon chess config");
        };
        assert_eq!(
            message,
            pb::PigeonChessConfig {
                pawns: Some(8),
                knights: Some(2),
                bishops: Some(2),
                rooks: Some(2),
                queens: Some(1),
                kings: Some(1),
                no_progress_turns: Some(20),
                max_turns: Some(300),
            }
        );

        let partial = config_of(pb::PigeonChessConfig {
            pawns: Some(10),
            max_turns: Some(50),
            ..Default::default()
        });
        let decoded = PigeonChess::decode_config(&partial).unwrap();
        assert_eq!(decoded.deck, [10, 2, 2, 2, 1, 1]);
        assert_eq!(decoded.max_turns, 50);
        assert_eq!(decoded.no_progress_turns, 20);
    }

    #[test]
    fn out_of_range_configs_are_field_violations_naming_the_proto_field() {
        let decode = |message| PigeonChess::decode_config(&config_of(message));
        invalid_field_saying(
            decode(pb::PigeonChessConfig {
                kings: Some(2),
                ..Default::default()
            }),
            "config.pigeon_chess.kings",
            "0 or 1 King, not 2",
        );
        invalid_field_saying(
            decode(pb::PigeonChessConfig {
                rooks: Some(65),
                ..Default::default()
            }),
            "config.pigeon_chess.rooks",
            "at most 64 cards, not 65",
        );
        invalid_field_saying(
            decode(pb::PigeonChessConfig {
                rooks: Some(300),
                ..Default::default()
            }),
            "config.pigeon_chess.rooks",
            "300 is far out of range",
        );
        invalid_field_saying(
            decode(pb::PigeonChessConfig {
                max_turns: Some(0),
                ..Default::default()
            }),
            "config.pigeon_chess.max_turns",
            "1 to 3000",
        );
        invalid_field_saying(
            decode(pb::PigeonChessConfig {
                pawns: Some(0),
                knights: Some(0),
                ..Default::default()
            }),
            "config.pigeon_chess",
            "8 to 64 cards per deck, not 6",
        );
        invalid_field_saying(
            decode(pb::PigeonChessConfig {
                pawns: Some(60),
                ..Default::default()
            }),
            "config.pigeon_chess",
            "not 68",
        );
        // The edges of every range are accepted.
        let edges = decode(pb::PigeonChessConfig {
            pawns: Some(2),
            knights: Some(2),
            bishops: Some(2),
            rooks: Some(1),
            queens: Some(1),
            kings: Some(0),
            no_progress_turns: Some(0),
            max_turns: Some(1),
        })
        .expect("an eight-card deck without a King, no limit, one turn");
        assert_eq!(edges.deck_size(), MIN_DECK);
        let largest = decode(pb::PigeonChessConfig {
            pawns: Some(56),
            max_turns: Some(3_000),
            no_progress_turns: Some(200),
            ..Default::default()
        })
        .expect("a 64-card deck");
        assert_eq!(largest.deck_size(), MAX_DECK);
    }

    #[test]
    fn observation_lists_the_board_in_order_and_hides_face_down_cards() {
        let (mut table, _) =
            Table::<PigeonChess>::new(&Config::default(), 2, Seed::from_u64(5)).unwrap();
        // Seat 0 commits its front row: face down, visible to seat 0 only.
        let row = table.legal_actions(Seat(0))[0];
        table.apply(Seat(0), &TableAction::Game(row)).unwrap();

        let observe = |viewer| match PigeonChess::encode_observation(&table.observe(viewer)).game {
            Some(pb::observation::Game::PigeonChess(observation)) => observation,
            other => panic!("not a pigeon chess observation: {other:?}"),
        };
        let own = observe(Viewer::Seat(Seat(0)));
        let names: Vec<&str> = own.board.iter().map(|spot| spot.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3", "a4", "b4", "c4"
            ]
        );
        assert_eq!(own.phase, pb::PigeonChessPhase::FrontRow as i32);
        let front: Vec<_> = own.board[3..6].iter().collect();
        assert!(
            front
                .iter()
                .all(|spot| spot.owner == Some(0) && spot.face_down)
        );
        assert!(front.iter().all(|spot| spot.piece.is_some()));
        assert_eq!(own.hand.len(), 2);
        assert_eq!(own.players.len(), 2);
        assert!(own.players[0].committed && !own.players[1].committed);
        assert_eq!(
            own.config,
            Some(PigeonChess::config_message(&Config::default()))
        );

        let other = observe(Viewer::Seat(Seat(1)));
        assert!(
            other.board[3..6]
                .iter()
                .all(|spot| spot.face_down && spot.piece.is_none())
        );
        assert_eq!(other.hand.len(), 5);
        let spectator = observe(Viewer::Spectator);
        assert!(spectator.hand.is_empty());
        assert!(
            spectator.board[3..6]
                .iter()
                .all(|spot| spot.piece.is_none())
        );
    }

    #[test]
    fn event_views_leave_hidden_fields_unset() {
        let drawn = EventView::CardsDrawn {
            seat: Seat(1),
            count: 5,
            pieces: None,
        };
        match PigeonChess::encode_event(&drawn) {
            pb::event::Kind::PigeonChess(pb::PigeonChessEvent {
                kind: Some(EventKind::CardsDrawn(message)),
            }) => {
                assert_eq!((message.seat, message.count), (1, 5));
                assert!(message.pieces.is_empty());
            }
            other => panic!("unexpected {other:?}"),
        }
        let placed = EventView::Placed {
            seat: Seat(0),
            spot: "b1".parse().unwrap(),
            piece: None,
        };
        match PigeonChess::encode_event(&placed) {
            pb::event::Kind::PigeonChess(pb::PigeonChessEvent {
                kind: Some(EventKind::Placed(message)),
            }) => {
                assert_eq!(message.spot, "b1");
                assert_eq!(message.piece, None);
            }
            other => panic!("unexpected {other:?}"),
        }
        let revealed = EventView::RowsRevealed {
            side: RowSide::Back,
            rows: [
                [Role::King, Role::Pawn, Role::Rook],
                [Role::Queen, Role::Bishop, Role::Knight],
            ],
        };
        match PigeonChess::encode_event(&revealed) {
            pb::event::Kind::PigeonChess(pb::PigeonChessEvent {
                kind: Some(EventKind::RowsRevealed(message)),
            }) => {
                assert_eq!(message.side, pb::PigeonChessRowSide::Back as i32);
                assert_eq!(message.rows.len(), 2);
                assert_eq!(message.rows[1].seat, 1);
                assert_eq!(
                    message.rows[1].pieces,
                    vec![
                        pb::PigeonChessPiece::Queen as i32,
                        pb::PigeonChessPiece::Bishop as i32,
                        pb::PigeonChessPiece::Knight as i32,
                    ]
                );
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// What the generic codec test (`codec/conformance.rs`) plays and checks of this game.
#[cfg(test)]
mod samples {
    use super::*;
    use crate::codec::conformance::Samples;
    use crate::codec::enums::tests::check_table;

    impl Samples for PigeonChess {
        const GAMES: u64 = 60;
        const ACTION_KINDS: usize = 7;
        const EVENT_KINDS: usize = 11;

        fn setups() -> Vec<(Self::Config, usize)> {
            vec![(Self::Config::default(), 2)]
        }

        fn custom_config() -> Self::Config {
            Self::Config {
                deck: [4, 1, 1, 3, 0, 0],
                no_progress_turns: 0,
                max_turns: 1,
            }
        }

        fn check_tables() {
            check_table::<pb::PigeonChessPiece>();
            check_table::<pb::PigeonChessPhase>();
            check_table::<pb::PigeonChessRowSide>();
        }

        fn unspecified_action() -> Option<(Self::ActionMessage, &'static str)> {
            let reveal = pb::PigeonChessRevealForFirst { piece: 0 };
            Some((
                pb::PigeonChessAction {
                    kind: Some(pb::pigeon_chess_action::Kind::RevealForFirst(reveal)),
                },
                "action.pigeon_chess.reveal_for_first.piece",
            ))
        }
    }
}
