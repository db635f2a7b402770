//! CHUNO on the wire (proto/deckmate/v1/games/chuno.proto).
//!
//! Cards travel as a kind and an optional colour (unset for the wild kinds) with their notation
//! ("R2", "W+4") filled in for people; chess moves and squares as UCI strings ("e7e8q", "e4").
//! Every encoded action also carries its notation ("play W G", "e2e4", "chuno"), and an action
//! whose `kind` is unset is read from that notation.

use std::sync::OnceLock;

use deckmate_engine::SetupError;
use deckmate_engine::chess::{Color, Piece, Role, Square};
use deckmate_engine::games::chuno::{
    Action, Card, ChessMove, Chuno, Colour, Config, DrawReason, EventView, Kind, MoveRecord,
    Observation, Stage,
};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::{self, ReverseWriter};
use pb::chuno_action::Kind as ActionKind;
use pb::chuno_event::Kind as EventKind;

use super::common::{board_pieces, seat_to_u32, square_name, uci_text};
use super::config::narrow;
use super::enums::{ProtoEnum, proto_enum_map};
use super::written;
use super::{GameCodec, oneof_members};
use crate::error::ApiError;

proto_enum_map!(pb::ChunoCardKind, Kind, "card kind":
    Zero, One, Two, Skip, Reverse, DrawTwo, Wild, WildDrawFour);
proto_enum_map!(pb::ChunoColour, Colour, "colour": Red, Yellow, Green, Blue);
proto_enum_map!(pb::ChunoRole, Role, "role": Pawn, Knight, Bishop, Rook, Queen, King);
proto_enum_map!(pb::ChunoSide, Color, "side": White, Black);
proto_enum_map!(pb::ChunoStage, Stage, "stage":
    Start, Moves, WildMove, AfterReverse, Finished);
proto_enum_map!(pb::ChunoDrawReason, DrawReason, "draw reason":
    Deal, Draw, DrawTwo, WildDrawFour, Penalty);

super::config::validate_without_seats!(Config);

/// The number of CHUNO's member of the `Observation` oneof.
const OBSERVATION_MEMBER: u32 = 3;

/// The number of CHUNO's member of the `Action` oneof.
const ACTION_MEMBER: u32 = 4;

impl GameCodec for Chuno {
    oneof_members!(Chuno, pb::ChunoConfig, pb::ChunoAction);

    /// Unset fields keep the rule file's defaults (§1, §9.1, §9.2, §9.4, §10, §13).
    fn read_config(message: &pb::ChunoConfig) -> Result<Config, SetupError> {
        let defaults = Config::default();
        // In the order of `Kind::ALL`, which indexes the deck.
        let counts = [
            ("zeros", message.zeros),
            ("ones", message.ones),
            ("twos", message.twos),
            ("skips", message.skips),
            ("reverses", message.reverses),
            ("draw_twos", message.draw_twos),
            ("wilds", message.wilds),
            ("wild_draw_fours", message.wild_draw_fours),
        ];
        let mut deck = defaults.deck;
        for (slot, (field, value)) in deck.iter_mut().zip(counts) {
            *slot = narrow(value, *slot, field)?;
        }
        Ok(Config {
            deck,
            colours: narrow(message.colours, defaults.colours, "colours")?,
            strict_castling: message.strict_castling.unwrap_or(defaults.strict_castling),
            no_progress_moves: message
                .no_progress_moves
                .unwrap_or(defaults.no_progress_moves),
            max_turns: message.max_turns.unwrap_or(defaults.max_turns),
        })
    }

    fn config_message(config: &Config) -> pb::ChunoConfig {
        let count = |kind: Kind| Some(u32::from(config.count(kind)));
        pb::ChunoConfig {
            zeros: count(Kind::Zero),
            ones: count(Kind::One),
            twos: count(Kind::Two),
            skips: count(Kind::Skip),
            reverses: count(Kind::Reverse),
            draw_twos: count(Kind::DrawTwo),
            wilds: count(Kind::Wild),
            wild_draw_fours: count(Kind::WildDrawFour),
            colours: Some(u32::from(config.colours)),
            strict_castling: Some(config.strict_castling),
            no_progress_moves: Some(config.no_progress_moves),
            max_turns: Some(config.max_turns),
        }
    }

    /// Reads one CHUNO action: its `kind`, or when that is unset its `notation`.
    fn read_action(message: &pb::ChunoAction) -> Result<Action, ApiError> {
        const FIELD: &str = "action.chuno";
        let Some(kind) = &message.kind else {
            if message.notation.trim().is_empty() {
                return Err(ApiError::invalid_field(
                    FIELD,
                    "no action is set (neither kind nor notation)",
                ));
            }
            return message.notation.parse::<Action>().map_err(|error| {
                ApiError::invalid_field("action.chuno.notation", error.to_string())
            });
        };
        Ok(match kind {
            ActionKind::Play(play) => {
                let card = play.card.as_ref().ok_or_else(|| {
                    ApiError::invalid_field("action.chuno.play.card", "must be set")
                })?;
                let colour = play
                    .colour
                    .map(|value| pb::ChunoColour::decode_field(value, "action.chuno.play.colour"))
                    .transpose()?;
                Action::Play {
                    card: decode_card(card, "action.chuno.play.card")?,
                    colour,
                }
            }
            ActionKind::Move(step) => {
                Action::Move(decode_move(&step.uci, "action.chuno.move.uci")?)
            }
            ActionKind::EndTurn(_) => Action::EndTurn,
            ActionKind::Draw(_) => Action::Draw,
            ActionKind::CallChuno(_) => Action::CallChuno,
        })
    }

    fn action_message(action: &Action) -> pb::ChunoAction {
        let kind = match *action {
            Action::Play { card, colour } => ActionKind::Play(pb::ChunoPlay {
                card: Some(encode_card(card)),
                colour: colour.map(pb::ChunoColour::encode),
            }),
            Action::Move(chess_move) => ActionKind::Move(pb::ChunoMove {
                uci: uci_text(chess_move),
            }),
            Action::EndTurn => ActionKind::EndTurn(pb::ChunoEndTurn {}),
            Action::Draw => ActionKind::Draw(pb::ChunoDraw {}),
            Action::CallChuno => ActionKind::CallChuno(pb::ChunoCallChuno {}),
        };
        pb::ChunoAction {
            kind: Some(kind),
            notation: action.notation().into(),
        }
    }

    fn encode_observation(observation: &Observation) -> pb::Observation {
        let board = board_pieces(&observation.board, piece_message);
        pb::Observation {
            game: Some(pb::observation::Game::Chuno(pb::ChunoObservation {
                board,
                fen: observation.fen.clone(),
                hand: encode_cards(&observation.hand),
                hand_counts: observation.hand_counts.clone(),
                deck_count: observation.deck_count,
                discard: encode_cards(&observation.discard),
                top_card: Some(encode_card(observation.top_card)),
                active_colour: pb::ChunoColour::encode(observation.active_colour),
                current_player: seat_to_u32(observation.current_player),
                stage: pb::ChunoStage::of(observation.stage).into(),
                moves_left: observation.moves_left,
                cards_played_this_turn: observation.cards_played_this_turn,
                skips: observation.skips.clone(),
                chuno_pending: observation.chuno_pending.map(seat_to_u32),
                draw_offered_by: observation.draw_offered_by.map(seat_to_u32),
                en_passant: observation.en_passant.map(square_name),
                turn: observation.turn,
                quiet_moves: observation.quiet_moves,
                config: Some(Self::config_message(&observation.config)),
            })),
        }
    }

    /// `ChunoObservation` fields by number (proto/deckmate/v1/games/chuno.proto), highest
    /// first; the bytes of [`GameCodec::encode_observation`]'s message.
    fn write_observation(observation: &Observation, writer: &mut ReverseWriter) {
        writer.nested(OBSERVATION_MEMBER, |writer| {
            writer.message(19, &Self::config_message(&observation.config));
            written::uint(writer, 18, observation.quiet_moves);
            written::uint(writer, 17, observation.turn);
            if let Some(square) = observation.en_passant {
                writer.length_delimited(16, square.name().as_bytes());
            }
            written::optional_uint(writer, 15, observation.draw_offered_by.map(seat_to_u32));
            written::optional_uint(writer, 14, observation.chuno_pending.map(seat_to_u32));
            written::packed_uints(writer, 13, &observation.skips);
            written::uint(writer, 12, observation.cards_played_this_turn);
            written::uint(writer, 11, observation.moves_left);
            written::enumeration(writer, 10, pb::ChunoStage::of(observation.stage).into());
            written::uint(writer, 9, seat_to_u32(observation.current_player));
            written::enumeration(
                writer,
                8,
                pb::ChunoColour::encode(observation.active_colour),
            );
            write_card_field(writer, 7, observation.top_card);
            write_cards(writer, 6, &observation.discard);
            written::uint(writer, 5, observation.deck_count);
            written::packed_uints(writer, 4, &observation.hand_counts);
            write_cards(writer, 3, &observation.hand);
            written::text(writer, 2, &observation.fen);
            written::board(writer, 1, &observation.board, |writer, square, piece| {
                written::enumeration(writer, 3, pb::ChunoRole::encode(piece.role));
                written::enumeration(writer, 2, pb::ChunoSide::encode(piece.color));
                writer.length_delimited(1, square.name().as_bytes());
            });
        });
    }

    /// `ChunoAction` fields by number, highest first; the bytes of
    /// [`GameCodec::encode_action`]'s message.
    fn write_action(action: &Action, writer: &mut ReverseWriter) {
        writer.nested(ACTION_MEMBER, |writer| {
            written::notation(writer, 6, &action.notation());
            match *action {
                Action::Play { card, colour } => writer.nested(1, |writer| {
                    written::optional_enumeration(writer, 2, colour.map(pb::ChunoColour::encode));
                    write_card_field(writer, 1, card);
                }),
                Action::Move(chess_move) => writer.nested(2, |writer| {
                    written::notation(writer, 1, &chess_move.notation());
                }),
                Action::EndTurn => writer.nested(3, |_| {}),
                Action::Draw => writer.nested(4, |_| {}),
                Action::CallChuno => writer.nested(5, |_| {}),
            }
        });
    }

    fn encode_event(event: &EventView) -> pb::event::Kind {
        let seat = |seat: &deckmate_engine::Seat| seat_to_u32(*seat);
        let kind = match event {
            EventView::DeckShuffled { cards } => {
                EventKind::DeckShuffled(pb::ChunoDeckShuffled { cards: *cards })
            }
            EventView::CardsDrawn {
                seat: drawer,
                count,
                cards,
                reason,
            } => EventKind::CardsDrawn(pb::ChunoCardsDrawn {
                seat: seat(drawer),
                count: *count,
                cards: cards.as_deref().map(encode_cards).unwrap_or_default(),
                reason: pb::ChunoDrawReason::of(*reason).into(),
            }),
            EventView::StarterReburied { card } => {
                EventKind::StarterReburied(pb::ChunoStarterReburied {
                    card: Some(encode_card(*card)),
                })
            }
            EventView::StarterTurned { card } => EventKind::StarterTurned(pb::ChunoStarterTurned {
                card: Some(encode_card(*card)),
            }),
            EventView::TurnStarted { seat: player, turn } => {
                EventKind::TurnStarted(pb::ChunoTurnStarted {
                    seat: seat(player),
                    turn: *turn,
                })
            }
            EventView::TurnSkipped {
                seat: skipped,
                remaining,
            } => EventKind::TurnSkipped(pb::ChunoTurnSkipped {
                seat: seat(skipped),
                remaining: *remaining,
            }),
            EventView::CardPlayed {
                seat: player,
                card,
                active_colour,
            } => EventKind::CardPlayed(pb::ChunoCardPlayed {
                seat: seat(player),
                card: Some(encode_card(*card)),
                active_colour: pb::ChunoColour::encode(*active_colour),
            }),
            EventView::SkipAdded {
                seat: skipped,
                counter,
            } => EventKind::SkipAdded(pb::ChunoSkipAdded {
                seat: seat(skipped),
                counter: *counter,
            }),
            EventView::Moved(record) => EventKind::Moved(moved_message(record)),
            EventView::NoMovePossible { seat: player } => {
                EventKind::NoMovePossible(pb::ChunoNoMovePossible { seat: seat(player) })
            }
            EventView::Reshuffled { cards } => {
                EventKind::Reshuffled(pb::ChunoReshuffled { cards: *cards })
            }
            EventView::ChunoObliged { seat: player } => {
                EventKind::ChunoObliged(pb::ChunoObliged { seat: seat(player) })
            }
            EventView::ChunoCalled { seat: player } => {
                EventKind::ChunoCalled(pb::ChunoCalled { seat: seat(player) })
            }
            EventView::ChunoMissed { seat: player } => {
                EventKind::ChunoMissed(pb::ChunoMissed { seat: seat(player) })
            }
        };
        pb::event::Kind::Chuno(pb::ChunoEvent { kind: Some(kind) })
    }
}

/// Reads a chess move in UCI.
fn decode_move(text: &str, field: &str) -> Result<ChessMove, ApiError> {
    if text.is_empty() {
        return Err(ApiError::invalid_field(field, "must be set"));
    }
    text.parse()
        .map_err(|_| ApiError::invalid_field(field, "not a move in UCI such as e2e4 or e7e8q"))
}

/// Reads a card: a kind, and a colour exactly when the kind is not wild. The notation is
/// ignored.
fn decode_card(card: &pb::ChunoCard, field: &str) -> Result<Card, ApiError> {
    let kind = pb::ChunoCardKind::decode_field(card.kind, format_args!("{field}.kind"))?;
    let colour = card
        .colour
        .map(|value| pb::ChunoColour::decode_field(value, format_args!("{field}.colour")))
        .transpose()?;
    match (kind.is_wild(), colour) {
        (true, None) => Ok(Card { kind, colour: None }),
        (false, Some(colour)) => Ok(Card::coloured(colour, kind)),
        (true, Some(_)) => Err(ApiError::invalid_field(
            format!("{field}.colour"),
            format!("a {} has no colour", kind.name()),
        )),
        (false, None) => Err(ApiError::invalid_field(
            format!("{field}.colour"),
            format!("must be set for a {} card", kind.name()),
        )),
    }
}

/// A card on the wire, with its notation.
fn encode_card(card: Card) -> pb::ChunoCard {
    pb::ChunoCard {
        kind: pb::ChunoCardKind::encode(card.kind),
        colour: card.colour.map(pb::ChunoColour::encode),
        notation: card.name().to_owned(),
    }
}

/// The fields of [`encode_card`]'s message, highest first.
fn write_card(writer: &mut ReverseWriter, card: Card) {
    written::text(writer, 3, card.name());
    written::optional_enumeration(writer, 2, card.colour.map(pb::ChunoColour::encode));
    written::enumeration(writer, 1, pb::ChunoCardKind::encode(card.kind));
}

/// [`encode_card`]'s message for `card`, as bytes. A view lists every card of the hand and of
/// the discard pile, a hundred or more late in a game, and there are only 40 kinds and colours
/// of card: each is written once, when first needed, and copied whole after that rather than
/// field by field.
fn encoded_card(card: Card) -> &'static [u8] {
    static MESSAGES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let messages = MESSAGES.get_or_init(|| {
        (0..Card::INDICES)
            .map(|index| wire::encode_with(|writer| write_card(writer, Card::from_index(index))))
            .collect()
    });
    &messages[card.index()]
}

/// A `ChunoCard` field `number` holding `card`.
fn write_card_field(writer: &mut ReverseWriter, number: u32, card: Card) {
    writer.length_delimited(number, encoded_card(card));
}

/// A repeated `ChunoCard` field holding `cards`, as [`encode_cards`] lists them.
fn write_cards(writer: &mut ReverseWriter, number: u32, cards: &[Card]) {
    for &card in cards.iter().rev() {
        write_card_field(writer, number, card);
    }
}

fn encode_cards(cards: &[Card]) -> Vec<pb::ChunoCard> {
    cards.iter().copied().map(encode_card).collect()
}

fn piece_message(square: Square, piece: Piece) -> pb::ChunoPiece {
    pb::ChunoPiece {
        square: square_name(square),
        side: pb::ChunoSide::encode(piece.color),
        role: pb::ChunoRole::encode(piece.role),
    }
}

fn moved_message(record: &MoveRecord) -> pb::ChunoMoved {
    pb::ChunoMoved {
        seat: seat_to_u32(record.seat),
        uci: uci_text(record.chess_move),
        role: pb::ChunoRole::encode(record.role),
        captured: record.captured.map(pb::ChunoRole::encode),
        promotion: record.chess_move.promotion.map(pb::ChunoRole::encode),
        castle: record.castle,
        en_passant: record.en_passant,
        king_captured: record.king_captured,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{invalid_field, invalid_field_saying};
    use deckmate_engine::{Seat, Seed, Table, Viewer};

    #[test]
    fn every_cards_message_is_the_card_encoded() {
        use prost::Message;
        let mut cards: Vec<Card> = Kind::ALL
            .iter()
            .filter(|kind| kind.is_wild())
            .map(|&kind| Card { kind, colour: None })
            .collect();
        for colour in Colour::ALL {
            for kind in Kind::ALL.into_iter().filter(|kind| !kind.is_wild()) {
                cards.push(Card::coloured(colour, kind));
            }
        }
        for card in cards {
            assert_eq!(
                encoded_card(card),
                encode_card(card).encode_to_vec(),
                "{card:?}"
            );
        }
    }

    fn config_of(message: pb::ChunoConfig) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(pb::game_config::Game::Chuno(message)),
        }
    }

    fn action_of(kind: ActionKind) -> pb::action::Kind {
        pb::action::Kind::Chuno(pb::ChunoAction {
            kind: Some(kind),
            notation: String::new(),
        })
    }

    fn notation_only(text: &str) -> pb::action::Kind {
        pb::action::Kind::Chuno(pb::ChunoAction {
            kind: None,
            notation: text.to_string(),
        })
    }

    fn card_message(kind: pb::ChunoCardKind, colour: Option<pb::ChunoColour>) -> pb::ChunoCard {
        pb::ChunoCard {
            kind: kind.into(),
            colour: colour.map(i32::from),
            notation: String::new(),
        }
    }

    #[test]
    fn malformed_actions_are_invalid_fields_naming_their_path() {
        use pb::ChunoCardKind as K;
        use pb::ChunoColour as C;
        let decode = |kind: ActionKind| Chuno::decode_action(&action_of(kind));
        let play = |card: Option<pb::ChunoCard>, colour: Option<i32>| {
            ActionKind::Play(pb::ChunoPlay { card, colour })
        };
        invalid_field(decode(play(None, None)), "action.chuno.play.card");
        invalid_field(
            decode(play(Some(card_message(K::Unspecified, Some(C::Red))), None)),
            "action.chuno.play.card.kind",
        );
        invalid_field(
            decode(play(Some(card_message(K::Two, None)), None)),
            "action.chuno.play.card.colour",
        );
        invalid_field(
            decode(play(Some(card_message(K::Wild, Some(C::Red))), None)),
            "action.chuno.play.card.colour",
        );
        invalid_field(
            decode(play(
                Some(pb::ChunoCard {
                    kind: 42,
                    colour: None,
                    notation: String::new(),
                }),
                None,
            )),
            "action.chuno.play.card.kind",
        );
        invalid_field(
            decode(play(Some(card_message(K::Wild, None)), Some(0))),
            "action.chuno.play.colour",
        );
        invalid_field(
            decode(play(Some(card_message(K::Wild, None)), Some(9))),
            "action.chuno.play.colour",
        );
        invalid_field(
            decode(ActionKind::Move(pb::ChunoMove { uci: "e2e9".into() })),
            "action.chuno.move.uci",
        );
        invalid_field(
            decode(ActionKind::Move(pb::ChunoMove { uci: String::new() })),
            "action.chuno.move.uci",
        );
        invalid_field(Chuno::decode_action(&notation_only("")), "action.chuno");
        invalid_field(
            Chuno::decode_action(&notation_only("play X7")),
            "action.chuno.notation",
        );
        // A well-formed card and colour decode; legality is the engine's business.
        assert_eq!(
            decode(play(
                Some(card_message(K::WildDrawFour, None)),
                Some(C::Blue.into())
            )),
            Ok(Action::Play {
                card: Card::WILD_DRAW_FOUR,
                colour: Some(Colour::Blue),
            })
        );
    }

    #[test]
    fn config_defaults_fill_unset_fields_and_encode_sets_every_field() {
        let Some(pb::game_config::Game::Chuno(message)) =
            Chuno::encode_config(&Config::default()).game
        else {
            panic!("not a chuno config");
        };
        assert_eq!(
            message,
            pb::ChunoConfig {
                zeros: Some(6),
                ones: Some(30),
                twos: Some(20),
                skips: Some(8),
                reverses: Some(8),
                draw_twos: Some(8),
                wilds: Some(10),
                wild_draw_fours: Some(6),
                colours: Some(4),
                strict_castling: Some(false),
                no_progress_moves: Some(150),
                max_turns: Some(500),
            }
        );
        let partial = config_of(pb::ChunoConfig {
            wilds: Some(4),
            strict_castling: Some(true),
            ..Default::default()
        });
        let decoded = Chuno::decode_config(&partial).unwrap();
        assert_eq!(decoded.count(Kind::Wild), 4);
        assert!(decoded.strict_castling);
        assert_eq!(decoded.max_turns, 500);
    }

    #[test]
    fn out_of_range_configs_are_field_violations_naming_the_field() {
        let decode = |message| Chuno::decode_config(&config_of(message));
        invalid_field_saying(
            decode(pb::ChunoConfig {
                ones: Some(201),
                ..Default::default()
            }),
            "config.chuno.ones",
            "at most 200",
        );
        invalid_field_saying(
            decode(pb::ChunoConfig {
                wild_draw_fours: Some(70_000),
                ..Default::default()
            }),
            "config.chuno.wild_draw_fours",
            "70000 is far out of range",
        );
        invalid_field_saying(
            decode(pb::ChunoConfig {
                colours: Some(5),
                ..Default::default()
            }),
            "config.chuno.colours",
            "1 to 4",
        );
        invalid_field_saying(
            decode(pb::ChunoConfig {
                colours: Some(0),
                ..Default::default()
            }),
            "config.chuno.colours",
            "1 to 4",
        );
        invalid_field_saying(
            decode(pb::ChunoConfig {
                max_turns: Some(0),
                ..Default::default()
            }),
            "config.chuno.max_turns",
            "1 to 5000",
        );
        invalid_field_saying(
            decode(pb::ChunoConfig {
                zeros: Some(0),
                ones: Some(5),
                twos: Some(0),
                skips: Some(0),
                reverses: Some(0),
                draw_twos: Some(0),
                ..Default::default()
            }),
            "config.chuno",
            "at least 15 coloured cards",
        );
        // The bounds themselves are accepted: 200 of a kind, 1 colour, a cap of 1 turn, no
        // no-progress limit, and exactly 15 coloured cards.
        let edge = decode(pb::ChunoConfig {
            zeros: Some(0),
            ones: Some(15),
            twos: Some(0),
            skips: Some(0),
            reverses: Some(0),
            draw_twos: Some(0),
            wilds: Some(200),
            colours: Some(1),
            max_turns: Some(1),
            no_progress_moves: Some(0),
            ..Default::default()
        })
        .expect("the bounds are allowed");
        assert_eq!(edge.coloured_cards(), 15);
        assert_eq!(edge.count(Kind::Wild), 200);
    }

    fn chuno_view(observation: &Observation) -> pb::ChunoObservation {
        match Chuno::encode_observation(observation).game {
            Some(pb::observation::Game::Chuno(message)) => message,
            other => panic!("not a chuno observation: {other:?}"),
        }
    }

    #[test]
    fn observations_show_the_board_and_only_the_viewers_hand() {
        let (table, _) = Table::<Chuno>::new(&Config::default(), 2, Seed::from_u64(5)).unwrap();
        let own = chuno_view(&table.observe(Viewer::Seat(Seat(0))));
        assert_eq!(own.board.len(), 32);
        assert_eq!(own.board[0].square, "a1");
        assert_eq!(own.board[0].role, pb::ChunoRole::Rook as i32);
        assert_eq!(own.board[0].side, pb::ChunoSide::White as i32);
        assert_eq!(own.board[31].square, "h8");
        assert_eq!(own.board[31].side, pb::ChunoSide::Black as i32);
        assert_eq!(
            own.fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(own.hand.len(), 7);
        assert!(own.hand.iter().all(|card| !card.notation.is_empty()));
        assert_eq!(own.hand_counts, vec![7, 7]);
        assert_eq!(own.deck_count, 81);
        assert_eq!(own.discard.len(), 1);
        assert_eq!(own.top_card.as_ref(), own.discard.last());
        assert_eq!(own.stage, pb::ChunoStage::Start as i32);
        assert_eq!((own.current_player, own.turn), (0, 1));
        assert_eq!(own.skips, vec![0, 0]);
        assert_eq!(own.chuno_pending, None);
        assert_eq!(own.en_passant, None);
        assert_eq!(own.config, Some(Chuno::config_message(&Config::default())));

        let other = chuno_view(&table.observe(Viewer::Seat(Seat(1))));
        assert_ne!(other.hand, own.hand);
        let spectator = chuno_view(&table.observe(Viewer::Spectator));
        assert!(spectator.hand.is_empty());
        assert_eq!(spectator.board, own.board);
    }

    #[test]
    fn drawn_cards_reach_only_those_who_may_see_them() {
        let hidden = EventView::CardsDrawn {
            seat: Seat(1),
            count: 2,
            cards: None,
            reason: DrawReason::DrawTwo,
        };
        let shown = EventView::CardsDrawn {
            seat: Seat(1),
            count: 2,
            cards: Some(vec![Card::WILD, Card::coloured(Colour::Red, Kind::Two)]),
            reason: DrawReason::DrawTwo,
        };
        let drawn = |view: &EventView| match Chuno::encode_event(view) {
            pb::event::Kind::Chuno(pb::ChunoEvent {
                kind: Some(EventKind::CardsDrawn(message)),
            }) => message,
            other => panic!("not a draw: {other:?}"),
        };
        let message = drawn(&hidden);
        assert_eq!((message.seat, message.count), (1, 2));
        assert_eq!(message.reason, pb::ChunoDrawReason::DrawTwo as i32);
        assert!(message.cards.is_empty());
        let notations: Vec<String> = drawn(&shown)
            .cards
            .into_iter()
            .map(|c| c.notation)
            .collect();
        assert_eq!(notations, ["W", "R2"]);
    }
}

/// What the generic codec test (`codec/conformance.rs`) plays and checks of this game.
#[cfg(test)]
mod samples {
    use super::*;
    use crate::codec::conformance::Samples;
    use crate::codec::enums::tests::check_table;

    impl Samples for Chuno {
        const GAMES: u64 = 15;
        const ACTION_KINDS: usize = 5;
        const EVENT_KINDS: usize = 12;

        fn setups() -> Vec<(Self::Config, usize)> {
            vec![
                (Config::default(), 2),
                (
                    Config {
                        colours: 2,
                        strict_castling: true,
                        ..Config::default()
                    },
                    2,
                ),
            ]
        }

        fn custom_config() -> Self::Config {
            Config {
                deck: [1, 20, 0, 2, 2, 2, 0, 1],
                colours: 2,
                strict_castling: true,
                no_progress_moves: 0,
                max_turns: 7,
            }
        }

        fn check_tables() {
            check_table::<pb::ChunoCardKind>();
            check_table::<pb::ChunoColour>();
            check_table::<pb::ChunoRole>();
            check_table::<pb::ChunoSide>();
            check_table::<pb::ChunoStage>();
            check_table::<pb::ChunoDrawReason>();
        }

        fn unspecified_action() -> Option<(Self::ActionMessage, &'static str)> {
            let play = pb::ChunoPlay {
                card: Some(pb::ChunoCard {
                    kind: pb::ChunoCardKind::Wild.into(),
                    colour: None,
                    notation: String::new(),
                }),
                colour: Some(0),
            };
            Some((
                pb::ChunoAction {
                    kind: Some(pb::chuno_action::Kind::Play(play)),
                    notation: String::new(),
                },
                "action.chuno.play.colour",
            ))
        }

        /// Every action carries its notation, and reads back from the notation alone.
        fn check_action(action: &Self::Action, wire: &Self::ActionMessage) {
            assert_eq!(wire.notation, action.to_string());
            let notation_only = pb::ChunoAction {
                kind: None,
                notation: wire.notation.clone(),
            };
            assert_eq!(Chuno::read_action(&notation_only).as_ref(), Ok(action));
        }
    }
}
