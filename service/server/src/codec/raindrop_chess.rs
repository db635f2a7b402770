//! Raindropchess on the wire (proto/deckmate/v1/games/raindrop_chess.proto).
//!
//! Squares and chess moves travel as strings ("e4", "e7e8q"); cards, roles, sides and stages
//! as enums. Observations carry no deck order: only counts, flipped and returned cards.

use deckmate_engine::SetupError;
use deckmate_engine::chess::{Color, Piece, Role, Square};
use deckmate_engine::games::raindrop_chess::{
    Action, Card, ChessMove, Config, EventView as Event, JokerEffect, Observation, RaindropChess,
    SideView, Stage,
};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::ReverseWriter;
use pb::raindrop_chess_action::Kind as ActionKind;
use pb::raindrop_chess_event::Kind as EventKind;

use super::common::{board_pieces, seat_to_u32, square_name, uci_text};
use super::config::narrow;
use super::enums::{ProtoEnum, proto_enum_map};
use super::written;
use super::{GameCodec, oneof_members};
use crate::error::ApiError;

/// The number of Raindropchess's member of the `Observation` oneof.
const OBSERVATION_MEMBER: u32 = 5;

/// The number of Raindropchess's member of the `Action` oneof.
const ACTION_MEMBER: u32 = 6;

proto_enum_map!(pb::RaindropChessJokerEffect, JokerEffect, "joker effect": ExtraTurn, RemovePiece);
proto_enum_map!(pb::RaindropChessCard, Card, "card":
    Pawn, Knight, Bishop, LightBishop, DarkBishop, Rook, Queen, King, Joker);
proto_enum_map!(pb::RaindropChessRole, Role, "role": Pawn, Knight, Bishop, Rook, Queen, King);
proto_enum_map!(pb::RaindropChessSide, Color, "side": White, Black);

super::config::validate_without_seats!(Config);

impl GameCodec for RaindropChess {
    oneof_members!(
        RaindropChess,
        pb::RaindropChessConfig,
        pb::RaindropChessAction
    );

    /// Unset fields keep the defaults (docs/rules/raindrop_chess.md §12).
    fn read_config(message: &pb::RaindropChessConfig) -> Result<Config, SetupError> {
        let defaults = Config::default();
        Ok(Config {
            jokers_per_deck: narrow(
                message.jokers_per_deck,
                defaults.jokers_per_deck,
                "jokers_per_deck",
            )?,
            joker_effect: pb::RaindropChessJokerEffect::read_option(
                message.joker_effect,
                defaults.joker_effect,
                "joker_effect",
            )?,
            captured_promotion_returns: message
                .captured_promotion_returns
                .unwrap_or(defaults.captured_promotion_returns),
            bishop_card_fixes_square_colour: message
                .bishop_card_fixes_square_colour
                .unwrap_or(defaults.bishop_card_fixes_square_colour),
            no_progress_plies: message
                .no_progress_plies
                .unwrap_or(defaults.no_progress_plies),
            repetitions: message.repetitions.unwrap_or(defaults.repetitions),
            max_plies: message.max_plies.unwrap_or(defaults.max_plies),
        })
    }

    fn config_message(config: &Config) -> pb::RaindropChessConfig {
        pb::RaindropChessConfig {
            jokers_per_deck: Some(u32::from(config.jokers_per_deck)),
            joker_effect: Some(pb::RaindropChessJokerEffect::encode(config.joker_effect)),
            captured_promotion_returns: Some(config.captured_promotion_returns),
            bishop_card_fixes_square_colour: Some(config.bishop_card_fixes_square_colour),
            no_progress_plies: Some(config.no_progress_plies),
            repetitions: Some(config.repetitions),
            max_plies: Some(config.max_plies),
        }
    }

    /// Reads one action.
    fn read_action(message: &pb::RaindropChessAction) -> Result<Action, ApiError> {
        let Some(kind) = &message.kind else {
            return Err(ApiError::invalid_field(
                "action.raindrop_chess",
                "no action is set",
            ));
        };
        Ok(match kind {
            ActionKind::Flip(_) => Action::Flip,
            ActionKind::Place(place) => Action::Place(decode_square(
                &place.square,
                "action.raindrop_chess.place.square",
            )?),
            ActionKind::Remove(remove) => Action::Remove(decode_square(
                &remove.square,
                "action.raindrop_chess.remove.square",
            )?),
            ActionKind::Move(step) => Action::Move(decode_move(&step.uci)?),
        })
    }

    fn action_message(action: &Action) -> pb::RaindropChessAction {
        let kind = match *action {
            Action::Flip => ActionKind::Flip(pb::RaindropChessFlip {}),
            Action::Place(square) => ActionKind::Place(pb::RaindropChessPlace {
                square: square_name(square),
            }),
            Action::Remove(square) => ActionKind::Remove(pb::RaindropChessRemove {
                square: square_name(square),
            }),
            Action::Move(chess_move) => ActionKind::Move(pb::RaindropChessMove {
                uci: uci_text(chess_move),
            }),
        };
        pb::RaindropChessAction { kind: Some(kind) }
    }

    fn encode_observation(observation: &Observation) -> pb::Observation {
        let board = board_pieces(&observation.board, piece_message);
        let pending_card = match observation.stage {
            Stage::Place(card) => Some(pb::RaindropChessCard::encode(card)),
            _ => None,
        };
        pb::Observation {
            game: Some(pb::observation::Game::RaindropChess(
                pb::RaindropChessObservation {
                    board,
                    sides: observation.sides.iter().map(side_message).collect(),
                    current_player: seat_to_u32(observation.current_player),
                    stage: encode_stage(observation.stage).into(),
                    pending_card,
                    plies: observation.plies,
                    quiet_plies: observation.quiet_plies,
                    config: Some(Self::config_message(&observation.config)),
                },
            )),
        }
    }

    /// `RaindropChessObservation` fields by number
    /// (proto/deckmate/v1/games/raindrop_chess.proto), highest first; the bytes of
    /// [`GameCodec::encode_observation`]'s message.
    fn write_observation(observation: &Observation, writer: &mut ReverseWriter) {
        writer.nested(OBSERVATION_MEMBER, |writer| {
            writer.message(8, &Self::config_message(&observation.config));
            written::uint(writer, 7, observation.quiet_plies);
            written::uint(writer, 6, observation.plies);
            if let Stage::Place(card) = observation.stage {
                writer.varint_field(5, i64::from(pb::RaindropChessCard::encode(card)) as u64);
            }
            written::enumeration(writer, 4, encode_stage(observation.stage).into());
            written::uint(writer, 3, seat_to_u32(observation.current_player));
            for side in observation.sides.iter().rev() {
                writer.nested(2, |writer| write_side(writer, side));
            }
            written::board(writer, 1, &observation.board, |writer, square, piece| {
                written::enumeration(writer, 3, pb::RaindropChessRole::encode(piece.role));
                written::enumeration(writer, 2, pb::RaindropChessSide::encode(piece.color));
                writer.length_delimited(1, square.name().as_bytes());
            });
        });
    }

    /// `RaindropChessAction` fields by number, highest first; the bytes of
    /// [`GameCodec::encode_action`]'s message.
    fn write_action(action: &Action, writer: &mut ReverseWriter) {
        writer.nested(ACTION_MEMBER, |writer| match *action {
            Action::Flip => writer.nested(1, |_| {}),
            Action::Place(square) => writer.nested(2, |writer| {
                writer.length_delimited(1, square.name().as_bytes());
            }),
            Action::Remove(square) => writer.nested(3, |writer| {
                writer.length_delimited(1, square.name().as_bytes());
            }),
            Action::Move(chess_move) => writer.nested(4, |writer| {
                written::notation(writer, 1, &chess_move.notation());
            }),
        });
    }

    fn encode_event(event: &Event) -> pb::event::Kind {
        let seat = |seat: &deckmate_engine::Seat| seat_to_u32(*seat);
        let kind = match event {
            Event::DeckShuffled {
                seat: owner,
                cards,
                order,
            } => EventKind::DeckShuffled(pb::RaindropChessDeckShuffled {
                seat: seat(owner),
                cards: *cards,
                order: order
                    .as_deref()
                    .unwrap_or_default()
                    .iter()
                    .copied()
                    .map(pb::RaindropChessCard::encode)
                    .collect(),
            }),
            Event::Flipped {
                seat: flipper,
                card,
            } => EventKind::Flipped(pb::RaindropChessFlipped {
                seat: seat(flipper),
                card: pb::RaindropChessCard::encode(*card),
            }),
            Event::Placed {
                seat: placer,
                role,
                square,
                check,
            } => EventKind::Placed(pb::RaindropChessPlaced {
                seat: seat(placer),
                role: pb::RaindropChessRole::encode(*role),
                square: square_name(*square),
                check: *check,
            }),
            Event::CardReturned { seat: owner, card } => {
                EventKind::CardReturned(pb::RaindropChessCardReturned {
                    seat: seat(owner),
                    card: pb::RaindropChessCard::encode(*card),
                })
            }
            Event::ExtraTurn { seat: player } => {
                EventKind::ExtraTurn(pb::RaindropChessSeatEvent { seat: seat(player) })
            }
            Event::PieceRemoved {
                seat: remover,
                role,
                square,
            } => EventKind::PieceRemoved(pb::RaindropChessPieceRemoved {
                seat: seat(remover),
                role: pb::RaindropChessRole::encode(*role),
                square: square_name(*square),
            }),
            Event::JokerUnused { seat: player } => {
                EventKind::JokerUnused(pb::RaindropChessSeatEvent { seat: seat(player) })
            }
            Event::Moved {
                seat: mover,
                chess_move,
                role,
                captured,
                check,
            } => EventKind::Moved(pb::RaindropChessMoved {
                seat: seat(mover),
                uci: uci_text(*chess_move),
                role: pb::RaindropChessRole::encode(*role),
                captured: captured.map(pb::RaindropChessRole::encode),
                check: *check,
            }),
            Event::FlipFailed { seat: loser } => {
                EventKind::FlipFailed(pb::RaindropChessSeatEvent { seat: seat(loser) })
            }
        };
        pb::event::Kind::RaindropChess(pb::RaindropChessEvent { kind: Some(kind) })
    }
}

/// Reads a square name; anything else is an [`ApiError::InvalidField`] naming `field`.
fn decode_square(text: &str, field: &str) -> Result<Square, ApiError> {
    text.parse().map_err(|_| ApiError::InvalidField {
        field: field.to_string(),
        description: "not a square such as e4".into(),
    })
}

/// Reads a chess move in UCI; anything else is an [`ApiError::InvalidField`].
fn decode_move(text: &str) -> Result<ChessMove, ApiError> {
    match text.parse::<Action>() {
        Ok(Action::Move(chess_move)) => Ok(chess_move),
        _ => Err(ApiError::InvalidField {
            field: "action.raindrop_chess.move.uci".into(),
            description: "not a move in UCI such as e2e3 or e7e8q".into(),
        }),
    }
}

fn piece_message(square: Square, piece: Piece) -> pb::RaindropChessPiece {
    pb::RaindropChessPiece {
        square: square_name(square),
        side: pb::RaindropChessSide::encode(piece.color),
        role: pb::RaindropChessRole::encode(piece.role),
    }
}

fn side_message(side: &SideView) -> pb::RaindropChessSideView {
    pb::RaindropChessSideView {
        deck_count: side.deck_count,
        flipped: side
            .flipped
            .iter()
            .copied()
            .map(pb::RaindropChessCard::encode)
            .collect(),
        returned: side
            .returned
            .iter()
            .copied()
            .map(pb::RaindropChessCard::encode)
            .collect(),
        king_placed: side.king_placed,
        in_check: side.in_check,
        promotion_pool: side
            .promotion_pool
            .iter()
            .copied()
            .map(pb::RaindropChessRole::encode)
            .collect(),
    }
}

/// The fields of [`side_message`]'s message, highest first.
fn write_side(writer: &mut ReverseWriter, side: &SideView) {
    written::packed_enums(
        writer,
        6,
        &side.promotion_pool,
        pb::RaindropChessRole::encode,
    );
    written::boolean(writer, 5, side.in_check);
    written::boolean(writer, 4, side.king_placed);
    written::packed_enums(writer, 3, &side.returned, pb::RaindropChessCard::encode);
    written::packed_enums(writer, 2, &side.flipped, pb::RaindropChessCard::encode);
    written::uint(writer, 1, side.deck_count);
}

fn encode_stage(stage: Stage) -> pb::RaindropChessStage {
    match stage {
        Stage::Turn => pb::RaindropChessStage::Turn,
        Stage::Place(_) => pb::RaindropChessStage::Place,
        Stage::Remove => pb::RaindropChessStage::Remove,
        Stage::Finished => pb::RaindropChessStage::Finished,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::invalid_field;
    use deckmate_engine::Seed;
    use deckmate_engine::{Game, Seat, Viewer};

    fn config_of(message: pb::RaindropChessConfig) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(pb::game_config::Game::RaindropChess(message)),
        }
    }

    fn action_of(kind: Option<ActionKind>) -> pb::action::Kind {
        pb::action::Kind::RaindropChess(pb::RaindropChessAction { kind })
    }

    #[test]
    fn malformed_actions_are_invalid_fields_naming_their_path() {
        let decode = |kind: Option<ActionKind>| RaindropChess::decode_action(&action_of(kind));
        invalid_field(decode(None), "action.raindrop_chess");
        invalid_field(
            decode(Some(ActionKind::Place(pb::RaindropChessPlace {
                square: "z9".into(),
            }))),
            "action.raindrop_chess.place.square",
        );
        invalid_field(
            decode(Some(ActionKind::Remove(pb::RaindropChessRemove {
                square: String::new(),
            }))),
            "action.raindrop_chess.remove.square",
        );
        for uci in ["", "e2", "e7e8k", "flip", "e2e9"] {
            invalid_field(
                decode(Some(ActionKind::Move(pb::RaindropChessMove {
                    uci: uci.into(),
                }))),
                "action.raindrop_chess.move.uci",
            );
        }
    }

    #[test]
    fn bad_config_values_name_the_field() {
        for jokers in [3, 256] {
            invalid_field(
                RaindropChess::decode_config(&config_of(pb::RaindropChessConfig {
                    jokers_per_deck: Some(jokers),
                    ..Default::default()
                })),
                "config.raindrop_chess.jokers_per_deck",
            );
        }
        for effect in [0, 3] {
            invalid_field(
                RaindropChess::decode_config(&config_of(pb::RaindropChessConfig {
                    joker_effect: Some(effect),
                    ..Default::default()
                })),
                "config.raindrop_chess.joker_effect",
            );
        }
        invalid_field(
            RaindropChess::decode_config(&config_of(pb::RaindropChessConfig {
                max_plies: Some(0),
                ..Default::default()
            })),
            "config.raindrop_chess.max_plies",
        );
        invalid_field(
            RaindropChess::decode_config(&config_of(pb::RaindropChessConfig {
                repetitions: Some(1),
                ..Default::default()
            })),
            "config.raindrop_chess.repetitions",
        );
        // The edges of every range are accepted.
        for (jokers, repetitions, max_plies, no_progress) in [(0, 0, 1, 0), (2, 2, 10_000, 1_500)] {
            let decoded = RaindropChess::decode_config(&config_of(pb::RaindropChessConfig {
                jokers_per_deck: Some(jokers),
                repetitions: Some(repetitions),
                max_plies: Some(max_plies),
                no_progress_plies: Some(no_progress),
                ..Default::default()
            }))
            .expect("in range");
            assert_eq!(
                (
                    u32::from(decoded.jokers_per_deck),
                    decoded.repetitions,
                    decoded.max_plies,
                    decoded.no_progress_plies
                ),
                (jokers, repetitions, max_plies, no_progress)
            );
        }
    }

    #[test]
    fn observations_and_events_never_carry_deck_order_while_running() {
        let (state, events) =
            RaindropChess::new_game(&Config::default(), 2, Seed::from_u64(3)).unwrap();
        for event in &events {
            let view = RaindropChess::view_event(event, Viewer::Seat(Seat(0))).unwrap();
            let pb::event::Kind::RaindropChess(pb::RaindropChessEvent {
                kind: Some(EventKind::DeckShuffled(shuffle)),
            }) = RaindropChess::encode_event(&view)
            else {
                panic!("a shuffle");
            };
            assert_eq!(shuffle.cards, 16);
            assert!(shuffle.order.is_empty());
            let revealed = RaindropChess::encode_event(&RaindropChess::reveal_event(event));
            let pb::event::Kind::RaindropChess(pb::RaindropChessEvent {
                kind: Some(EventKind::DeckShuffled(shuffle)),
            }) = revealed
            else {
                panic!("a shuffle");
            };
            assert_eq!(shuffle.order.len(), 16);
        }
        let observation = RaindropChess::observe(&state, Viewer::Seat(Seat(0)));
        let Some(pb::observation::Game::RaindropChess(view)) =
            RaindropChess::encode_observation(&observation).game
        else {
            panic!("a Raindropchess observation");
        };
        assert!(view.board.is_empty());
        assert_eq!(view.sides.len(), 2);
        assert!(view.sides.iter().all(|side| side.deck_count == 16
            && side.flipped.is_empty()
            && side.promotion_pool.len() == 4
            && !side.king_placed));
        assert_eq!(view.stage(), pb::RaindropChessStage::Turn);
        assert_eq!(view.pending_card, None);
    }
}

/// What the generic codec test (`codec/conformance.rs`) plays and checks of this game.
#[cfg(test)]
mod samples {
    use super::*;
    use crate::codec::conformance::Samples;
    use crate::codec::enums::tests::check_table;

    impl Samples for RaindropChess {
        const GAMES: u64 = 6;
        const ACTION_KINDS: usize = 4;
        const EVENT_KINDS: usize = 7;

        fn setups() -> Vec<(Self::Config, usize)> {
            vec![
                (Config::default(), 2),
                (
                    Config {
                        jokers_per_deck: 2,
                        joker_effect: JokerEffect::RemovePiece,
                        ..Config::default()
                    },
                    2,
                ),
            ]
        }

        fn custom_config() -> Self::Config {
            Config {
                jokers_per_deck: 1,
                joker_effect: JokerEffect::RemovePiece,
                captured_promotion_returns: true,
                bishop_card_fixes_square_colour: true,
                no_progress_plies: 0,
                repetitions: 3,
                max_plies: 77,
            }
        }

        fn check_tables() {
            check_table::<pb::RaindropChessJokerEffect>();
            check_table::<pb::RaindropChessCard>();
            check_table::<pb::RaindropChessRole>();
            check_table::<pb::RaindropChessSide>();
        }

        fn unspecified_action() -> Option<(Self::ActionMessage, &'static str)> {
            None
        }
    }
}
