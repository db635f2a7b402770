//! Card Chess on the wire (proto/deckmate/v1/games/card_chess.proto).
//!
//! Spots travel as their names ("red castle 3"), cards as a `CardChessCard` (rank and suit),
//! and the board as the 25 spots rank by rank from "red castle 1" to "black castle 5". A base
//! card is encoded only when the engine's observation holds it, that is once it has been face up.

use deckmate_engine::SetupError;
use deckmate_engine::cards::{Card, Colour, Rank, Suit};
use deckmate_engine::games::card_chess::{
    AceCapture, Action, CardChess, Config, EventView, Observation, Phase, PlayerView, Spot,
    SpotView,
};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::ReverseWriter;
use pb::card_chess_action::Kind as ActionKind;
use pb::card_chess_event::Kind as EventKind;

use super::common::{indexed, seat_to_u32};
use super::enums::{ProtoEnum, proto_enum_map};
use super::written;
use super::{GameCodec, oneof_members};
use crate::error::ApiError;

proto_enum_map!(pb::CardChessAceCapture, AceCapture, "Ace capture rule": OnlyAces, AsFaceCard);
proto_enum_map!(pb::CardChessSuit, Suit, "suit": Clubs, Diamonds, Hearts, Spades);
proto_enum_map!(pb::CardChessPhase, Phase, "phase": Play, Replacement, Finished);
proto_enum_map!(pb::CardChessColour, Colour, "colour": Red, Black);

super::config::validate_without_seats!(Config);

/// The number of Card Chess's member of the `Observation` oneof.
const OBSERVATION_MEMBER: u32 = 2;

/// The number of Card Chess's member of the `Action` oneof.
const ACTION_MEMBER: u32 = 3;

impl GameCodec for CardChess {
    oneof_members!(CardChess, pb::CardChessConfig, pb::CardChessAction);

    /// Unset fields keep the rule file's defaults (§8.2, §9, §12).
    fn read_config(message: &pb::CardChessConfig) -> Result<Config, SetupError> {
        let defaults = Config::default();
        Ok(Config {
            ace_capture: pb::CardChessAceCapture::read_option(
                message.ace_capture,
                defaults.ace_capture,
                "ace_capture",
            )?,
            no_progress_turns: message
                .no_progress_turns
                .unwrap_or(defaults.no_progress_turns),
            max_turns: message.max_turns.unwrap_or(defaults.max_turns),
        })
    }

    fn config_message(config: &Config) -> pb::CardChessConfig {
        pb::CardChessConfig {
            ace_capture: Some(pb::CardChessAceCapture::encode(config.ace_capture)),
            no_progress_turns: Some(config.no_progress_turns),
            max_turns: Some(config.max_turns),
        }
    }

    /// Reads one Card Chess action; field paths in messages start at `action.card_chess`.
    fn read_action(message: &pb::CardChessAction) -> Result<Action, ApiError> {
        let Some(kind) = &message.kind else {
            return Err(ApiError::invalid_field(
                "action.card_chess",
                "no action is set",
            ));
        };
        Ok(match kind {
            ActionKind::PlayIn(play_in) => Action::PlayIn {
                card: decode_card(play_in.card.as_ref(), "action.card_chess.play_in.card")?,
                spot: decode_spot(&play_in.spot, "action.card_chess.play_in.spot")?,
            },
            ActionKind::Exchange(_) => Action::Exchange,
            ActionKind::Move(step) => Action::Move {
                from: decode_spot(&step.from, "action.card_chess.move.from")?,
                to: decode_spot(&step.to, "action.card_chess.move.to")?,
            },
            ActionKind::Replace(replace) => Action::Replace {
                card: decode_card(replace.card.as_ref(), "action.card_chess.replace.card")?,
            },
            ActionKind::KeepRevealed(_) => Action::KeepRevealed,
        })
    }

    fn action_message(action: &Action) -> pb::CardChessAction {
        let kind = match *action {
            Action::PlayIn { card, spot } => ActionKind::PlayIn(pb::CardChessPlayIn {
                card: Some(encode_card(card)),
                spot: spot_name(spot),
            }),
            Action::Exchange => ActionKind::Exchange(pb::CardChessExchange {}),
            Action::Move { from, to } => ActionKind::Move(pb::CardChessMove {
                from: spot_name(from),
                to: spot_name(to),
            }),
            Action::Replace { card } => ActionKind::Replace(pb::CardChessReplace {
                card: Some(encode_card(card)),
            }),
            Action::KeepRevealed => ActionKind::KeepRevealed(pb::CardChessKeepRevealed {}),
        };
        pb::CardChessAction { kind: Some(kind) }
    }

    fn encode_observation(observation: &Observation) -> pb::Observation {
        let board = Spot::all()
            .zip(observation.board.iter())
            .map(|(spot, view)| spot_message(spot, view))
            .collect();
        let players = indexed(&observation.players, player_message);
        pb::Observation {
            game: Some(pb::observation::Game::CardChess(pb::CardChessObservation {
                phase: pb::CardChessPhase::of(observation.phase).into(),
                board,
                players,
                hand: encode_cards(&observation.hand),
                draw_count: observation.draw_count,
                discard: encode_cards(&observation.discard),
                current_player: observation.current_player.map(seat_to_u32),
                replacement_spot: observation.replacement_spot.map(spot_name),
                turn: observation.turn,
                turns_without_progress: observation.turns_without_progress,
                config: Some(Self::config_message(&observation.config)),
            })),
        }
    }

    /// `CardChessObservation` fields by number (proto/deckmate/v1/games/card_chess.proto),
    /// highest first; the bytes of [`GameCodec::encode_observation`]'s message.
    fn write_observation(observation: &Observation, writer: &mut ReverseWriter) {
        writer.nested(OBSERVATION_MEMBER, |writer| {
            writer.message(11, &Self::config_message(&observation.config));
            written::uint(writer, 10, observation.turns_without_progress);
            written::uint(writer, 9, observation.turn);
            if let Some(spot) = observation.replacement_spot {
                writer.length_delimited(8, spot.name().as_bytes());
            }
            written::optional_uint(writer, 7, observation.current_player.map(seat_to_u32));
            write_cards(writer, 6, &observation.discard);
            written::uint(writer, 5, observation.draw_count);
            write_cards(writer, 4, &observation.hand);
            for (seat, player) in observation.players.iter().enumerate().rev() {
                writer.nested(3, |writer| write_player(writer, seat, player));
            }
            for (index, view) in observation.board.iter().enumerate().rev() {
                let spot = Spot::from_index(index).expect("the board holds every spot");
                writer.nested(2, |writer| write_spot(writer, spot, view));
            }
            written::enumeration(writer, 1, pb::CardChessPhase::of(observation.phase).into());
        });
    }

    /// `CardChessAction` fields by number, highest first; the bytes of
    /// [`GameCodec::encode_action`]'s message.
    fn write_action(action: &Action, writer: &mut ReverseWriter) {
        writer.nested(ACTION_MEMBER, |writer| match *action {
            Action::PlayIn { card, spot } => writer.nested(1, |writer| {
                writer.length_delimited(2, spot.name().as_bytes());
                writer.nested(1, |writer| write_card(writer, card));
            }),
            Action::Exchange => writer.nested(2, |_| {}),
            Action::Move { from, to } => writer.nested(3, |writer| {
                writer.length_delimited(2, to.name().as_bytes());
                writer.length_delimited(1, from.name().as_bytes());
            }),
            Action::Replace { card } => writer.nested(4, |writer| {
                writer.nested(1, |writer| write_card(writer, card));
            }),
            Action::KeepRevealed => writer.nested(5, |_| {}),
        });
    }

    fn encode_event(event: &EventView) -> pb::event::Kind {
        pb::event::Kind::CardChess(pb::CardChessEvent {
            kind: Some(event_kind(event)),
        })
    }
}

/// The `CardChessEvent` kind of one event view.
fn event_kind(event: &EventView) -> EventKind {
    match event {
        EventView::DeckShuffled { cards } => {
            EventKind::DeckShuffled(pb::CardChessDeckShuffled { cards: *cards })
        }
        EventView::BoardDealt { spots } => {
            EventKind::BoardDealt(pb::CardChessBoardDealt { spots: *spots })
        }
        EventView::CardsDrawn { seat, count, cards } => {
            EventKind::CardsDrawn(pb::CardChessCardsDrawn {
                seat: seat_to_u32(*seat),
                count: *count,
                cards: cards.as_deref().map(encode_cards).unwrap_or_default(),
            })
        }
        EventView::DiscardReshuffled { cards } => {
            EventKind::DiscardReshuffled(pb::CardChessDiscardReshuffled { cards: *cards })
        }
        EventView::PlayedIn { seat, card, spot } => EventKind::PlayedIn(pb::CardChessPlayedIn {
            seat: seat_to_u32(*seat),
            card: Some(encode_card(*card)),
            spot: spot_name(*spot),
        }),
        EventView::Exchanged { seat, cards } => EventKind::Exchanged(pb::CardChessExchanged {
            seat: seat_to_u32(*seat),
            cards: encode_cards(cards),
        }),
        EventView::Moved {
            seat,
            from,
            to,
            piece,
            jump,
        } => EventKind::Moved(pb::CardChessMoved {
            seat: seat_to_u32(*seat),
            from: spot_name(*from),
            to: spot_name(*to),
            piece: Some(encode_card(*piece)),
            jump: *jump,
        }),
        EventView::Captured {
            seat,
            from,
            to,
            piece,
            captured,
            revealed,
        } => EventKind::Captured(pb::CardChessCaptured {
            seat: seat_to_u32(*seat),
            from: spot_name(*from),
            to: spot_name(*to),
            piece: Some(encode_card(*piece)),
            captured: Some(encode_card(*captured)),
            revealed: Some(encode_card(*revealed)),
        }),
        EventView::Replaced {
            seat,
            spot,
            card,
            discarded,
        } => EventKind::Replaced(pb::CardChessReplaced {
            seat: seat_to_u32(*seat),
            spot: spot_name(*spot),
            card: Some(encode_card(*card)),
            discarded: Some(encode_card(*discarded)),
        }),
        EventView::RevealedKept { seat, spot } => {
            EventKind::RevealedKept(pb::CardChessRevealedKept {
                seat: seat_to_u32(*seat),
                spot: spot_name(*spot),
            })
        }
        EventView::Checked { seat, spot, piece } => EventKind::Checked(pb::CardChessChecked {
            seat: seat_to_u32(*seat),
            spot: spot_name(*spot),
            piece: Some(encode_card(*piece)),
        }),
        EventView::NoLegalAction {
            seat,
            hands,
            opponent_could_act,
        } => EventKind::NoLegalAction(pb::CardChessNoLegalAction {
            seat: seat_to_u32(*seat),
            hands: hands
                .iter()
                .enumerate()
                .map(|(seat, cards)| pb::CardChessSeatHand {
                    seat: seat as u32,
                    cards: encode_cards(cards),
                })
                .collect(),
            opponent_could_act: *opponent_could_act,
        }),
    }
}

/// Reads a spot name such as "red castle 3".
fn decode_spot(name: &str, field: &str) -> Result<Spot, ApiError> {
    name.parse()
        .map_err(|error| ApiError::invalid_field(field, format!("{name:?} is {error}")))
}

/// Reads a card; a missing card, rank or suit and unknown numbers are invalid.
fn decode_card(card: Option<&pb::CardChessCard>, field: &str) -> Result<Card, ApiError> {
    let Some(card) = card else {
        return Err(ApiError::invalid_field(field, "must be set"));
    };
    let rank = pb::CardChessRank::try_from(card.rank)
        .ok()
        .filter(|rank| *rank != pb::CardChessRank::Unspecified)
        .and_then(|rank| Rank::from_value(rank as i32 as u8))
        .ok_or_else(|| {
            ApiError::invalid_field(
                format!("{field}.rank"),
                format!("not a rank ({})", card.rank),
            )
        })?;
    let suit = pb::CardChessSuit::decode_field(card.suit, format_args!("{field}.suit"))?;
    Ok(Card::new(rank, suit))
}

/// A card on the wire; the rank's number is its usual value (Ace 1, King 13).
fn encode_card(card: Card) -> pb::CardChessCard {
    pb::CardChessCard {
        rank: i32::from(card.rank.value()),
        suit: pb::CardChessSuit::encode(card.suit),
    }
}

/// The fields of [`encode_card`]'s message, highest first.
fn write_card(writer: &mut ReverseWriter, card: Card) {
    written::enumeration(writer, 2, pb::CardChessSuit::encode(card.suit));
    written::int(writer, 1, i32::from(card.rank.value()));
}

/// A repeated `CardChessCard` field holding `cards`, as [`encode_cards`] lists them.
fn write_cards(writer: &mut ReverseWriter, number: u32, cards: &[Card]) {
    for &card in cards.iter().rev() {
        writer.nested(number, |writer| write_card(writer, card));
    }
}

/// The fields of [`spot_message`]'s message, highest first.
fn write_spot(writer: &mut ReverseWriter, spot: Spot, view: &SpotView) {
    if let Some(base) = view.base {
        writer.nested(5, |writer| write_card(writer, base));
    }
    written::boolean(writer, 4, view.in_check);
    written::optional_uint(writer, 3, view.owner.map(seat_to_u32));
    if let Some(piece) = view.piece {
        writer.nested(2, |writer| write_card(writer, piece));
    }
    writer.length_delimited(1, spot.name().as_bytes());
}

/// The fields of [`player_message`]'s message, highest first.
fn write_player(writer: &mut ReverseWriter, seat: usize, player: &PlayerView) {
    if let Some(shown) = &player.shown_hand {
        write_cards(writer, 8, shown);
    }
    written::boolean(writer, 7, player.shown_hand.is_some());
    written::boolean(writer, 6, player.exchanged_last_turn);
    written::uint(writer, 5, player.checks);
    written::uint(writer, 4, player.pieces_in_play);
    written::uint(writer, 3, player.hand_count);
    written::enumeration(writer, 2, pb::CardChessColour::of(player.colour).into());
    written::uint(writer, 1, seat as u64);
}

fn encode_cards(cards: &[Card]) -> Vec<pb::CardChessCard> {
    cards.iter().copied().map(encode_card).collect()
}

/// A spot's name, such as `red castle 3` (docs/rules/card_chess.md §1).
fn spot_name(spot: Spot) -> String {
    spot.name().to_owned()
}

fn spot_message(spot: Spot, view: &SpotView) -> pb::CardChessSpot {
    pb::CardChessSpot {
        name: spot_name(spot),
        piece: view.piece.map(encode_card),
        owner: view.owner.map(seat_to_u32),
        in_check: view.in_check,
        base: view.base.map(encode_card),
    }
}

fn player_message(seat: usize, player: &PlayerView) -> pb::CardChessPlayer {
    pb::CardChessPlayer {
        seat: seat as u32,
        colour: pb::CardChessColour::of(player.colour).into(),
        hand_count: player.hand_count,
        pieces_in_play: player.pieces_in_play,
        checks: player.checks,
        exchanged_last_turn: player.exchanged_last_turn,
        hand_shown: player.shown_hand.is_some(),
        shown_hand: player
            .shown_hand
            .as_deref()
            .map(encode_cards)
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{Picker, invalid_field};
    use deckmate_engine::{Seat, Seed, Table, TableAction, Viewer};

    fn config_of(message: pb::CardChessConfig) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(pb::game_config::Game::CardChess(message)),
        }
    }

    fn action_of(kind: ActionKind) -> pb::action::Kind {
        pb::action::Kind::CardChess(pb::CardChessAction { kind: Some(kind) })
    }

    fn card(rank: pb::CardChessRank, suit: pb::CardChessSuit) -> pb::CardChessCard {
        pb::CardChessCard {
            rank: rank.into(),
            suit: suit.into(),
        }
    }

    #[test]
    fn every_card_round_trips() {
        for card in deckmate_engine::cards::standard_decks(1) {
            assert_eq!(decode_card(Some(&encode_card(card)), "card"), Ok(card));
        }
        let ace = encode_card(Card::new(Rank::Ace, Suit::Spades));
        assert_eq!(ace.rank, pb::CardChessRank::Ace as i32);
        let king = encode_card(Card::new(Rank::King, Suit::Hearts));
        assert_eq!(
            (king.rank, king.suit),
            (
                pb::CardChessRank::King as i32,
                pb::CardChessSuit::Hearts as i32
            )
        );
    }

    #[test]
    fn malformed_actions_are_invalid_fields_naming_their_path() {
        use pb::{CardChessRank as R, CardChessSuit as S};
        let decode = |kind: ActionKind| CardChess::decode_action(&action_of(kind));
        invalid_field(
            decode(ActionKind::PlayIn(pb::CardChessPlayIn {
                card: None,
                spot: "red castle 1".into(),
            })),
            "action.card_chess.play_in.card",
        );
        invalid_field(
            decode(ActionKind::PlayIn(pb::CardChessPlayIn {
                card: Some(card(R::Unspecified, S::Hearts)),
                spot: "red castle 1".into(),
            })),
            "action.card_chess.play_in.card.rank",
        );
        invalid_field(
            decode(ActionKind::PlayIn(pb::CardChessPlayIn {
                card: Some(pb::CardChessCard { rank: 14, suit: 3 }),
                spot: "red castle 1".into(),
            })),
            "action.card_chess.play_in.card.rank",
        );
        invalid_field(
            decode(ActionKind::PlayIn(pb::CardChessPlayIn {
                card: Some(card(R::Two, S::Unspecified)),
                spot: "red castle 1".into(),
            })),
            "action.card_chess.play_in.card.suit",
        );
        invalid_field(
            decode(ActionKind::PlayIn(pb::CardChessPlayIn {
                card: Some(card(R::Two, S::Hearts)),
                spot: "red castle 6".into(),
            })),
            "action.card_chess.play_in.spot",
        );
        invalid_field(
            decode(ActionKind::Move(pb::CardChessMove {
                from: String::new(),
                to: "middle 1".into(),
            })),
            "action.card_chess.move.from",
        );
        invalid_field(
            decode(ActionKind::Move(pb::CardChessMove {
                from: "middle 1".into(),
                to: "a1".into(),
            })),
            "action.card_chess.move.to",
        );
        invalid_field(
            decode(ActionKind::Replace(pb::CardChessReplace {
                card: Some(pb::CardChessCard { rank: 5, suit: 9 }),
            })),
            "action.card_chess.replace.card.suit",
        );
        invalid_field(
            CardChess::decode_action(&pb::action::Kind::CardChess(pb::CardChessAction {
                kind: None,
            })),
            "action.card_chess",
        );
        // Spot names are read in either spelling of the rule file.
        assert_eq!(
            decode(ActionKind::Move(pb::CardChessMove {
                from: "BLACK_CASTLE 1".into(),
                to: "black kingdom 1".into(),
            })),
            Ok(Action::Move {
                from: "black castle 1".parse().unwrap(),
                to: "black kingdom 1".parse().unwrap(),
            })
        );
    }

    #[test]
    fn config_defaults_fill_unset_fields_and_encode_sets_every_field() {
        let Some(pb::game_config::Game::CardChess(message)) =
            CardChess::encode_config(&Config::default()).game
        else {
            panic!("not a card chess config");
        };
        assert_eq!(
            message,
            pb::CardChessConfig {
                ace_capture: Some(pb::CardChessAceCapture::OnlyAces.into()),
                no_progress_turns: Some(100),
                max_turns: Some(1000),
            }
        );
        let partial = config_of(pb::CardChessConfig {
            max_turns: Some(50),
            ..Default::default()
        });
        let decoded = CardChess::decode_config(&partial).unwrap();
        assert_eq!(
            (
                decoded.ace_capture,
                decoded.no_progress_turns,
                decoded.max_turns
            ),
            (AceCapture::OnlyAces, 100, 50)
        );
    }

    #[test]
    fn out_of_range_configs_are_invalid_fields_naming_their_path() {
        let decode = |message| CardChess::decode_config(&config_of(message));
        invalid_field(
            decode(pb::CardChessConfig {
                max_turns: Some(0),
                ..Default::default()
            }),
            "config.card_chess.max_turns",
        );
        invalid_field(
            decode(pb::CardChessConfig {
                ace_capture: Some(0),
                ..Default::default()
            }),
            "config.card_chess.ace_capture",
        );
        invalid_field(
            decode(pb::CardChessConfig {
                ace_capture: Some(7),
                ..Default::default()
            }),
            "config.card_chess.ace_capture",
        );
        // The edges of the ranges are accepted: one turn, and no no-progress limit at all or
        // the largest one.
        for (no_progress_turns, max_turns) in [(0, 1), (1_000, 10_000)] {
            let decoded = decode(pb::CardChessConfig {
                no_progress_turns: Some(no_progress_turns),
                max_turns: Some(max_turns),
                ..Default::default()
            })
            .expect("an accepted config");
            assert_eq!(
                (decoded.no_progress_turns, decoded.max_turns),
                (no_progress_turns, max_turns)
            );
        }
    }

    fn observe(table: &Table<CardChess>, viewer: Viewer) -> pb::CardChessObservation {
        match CardChess::encode_observation(&table.observe(viewer)).game {
            Some(pb::observation::Game::CardChess(observation)) => observation,
            other => panic!("not a card chess observation: {other:?}"),
        }
    }

    #[test]
    fn observation_lists_every_spot_by_name_and_shows_only_the_viewers_hand() {
        let (table, _) = Table::<CardChess>::new(&Config::default(), 2, Seed::from_u64(5)).unwrap();
        let own = observe(&table, Viewer::Seat(Seat(0)));
        let names: Vec<&str> = own.board.iter().map(|spot| spot.name.as_str()).collect();
        assert_eq!(names.len(), 25);
        assert_eq!(names[0], "red castle 1");
        assert_eq!(names[7], "red kingdom 3");
        assert_eq!(names[12], "middle 3");
        assert_eq!(names[24], "black castle 5");
        assert!(own.board.iter().all(|spot| spot.piece.is_none()
            && spot.owner.is_none()
            && spot.base.is_none()
            && !spot.in_check));
        assert_eq!(own.phase, pb::CardChessPhase::Play as i32);
        assert_eq!(own.hand.len(), 5);
        assert_eq!(own.draw_count, 69);
        assert_eq!(own.current_player, Some(0));
        assert_eq!(own.players.len(), 2);
        assert_eq!(own.players[1].colour, pb::CardChessColour::Black as i32);
        assert_eq!(own.players[1].hand_count, 5);
        assert!(!own.players[1].hand_shown && own.players[1].shown_hand.is_empty());
        assert_eq!(
            own.config,
            Some(CardChess::config_message(&Config::default()))
        );
        assert!(observe(&table, Viewer::Spectator).hand.is_empty());
        assert_ne!(observe(&table, Viewer::Seat(Seat(1))).hand, own.hand);
    }

    #[test]
    fn known_base_cards_and_pieces_are_encoded_after_a_capture() {
        // Play random games until a capture has flipped a card, then compare the wire view with
        // the engine view.
        for seed in 0..20u64 {
            let (mut table, _) =
                Table::<CardChess>::new(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
            let mut picker = Picker::new(seed);
            while !table.is_over() {
                let seat = table.to_act().iter().next().unwrap();
                let legal = table.legal_actions(seat);
                let action = legal[picker.below(legal.len())];
                table.apply(seat, &TableAction::Game(action)).unwrap();
                let engine = table.observe(Viewer::Spectator);
                if engine.board.iter().all(|spot| spot.base.is_none()) {
                    continue;
                }
                let wire = observe(&table, Viewer::Spectator);
                for (view, spot) in engine.board.iter().zip(&wire.board) {
                    assert_eq!(spot.base, view.base.map(encode_card));
                    assert_eq!(spot.piece, view.piece.map(encode_card));
                    assert_eq!(spot.owner, view.owner.map(seat_to_u32));
                    assert_eq!(spot.in_check, view.in_check);
                }
                return;
            }
        }
        panic!("no capture in 20 random games");
    }

    #[test]
    fn event_views_leave_hidden_cards_unset() {
        let drawn = EventView::CardsDrawn {
            seat: Seat(1),
            count: 5,
            cards: None,
        };
        match CardChess::encode_event(&drawn) {
            pb::event::Kind::CardChess(pb::CardChessEvent {
                kind: Some(EventKind::CardsDrawn(message)),
            }) => {
                assert_eq!((message.seat, message.count), (1, 5));
                assert!(message.cards.is_empty());
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

    impl Samples for CardChess {
        const GAMES: u64 = 40;
        const ACTION_KINDS: usize = 5;
        const EVENT_KINDS: usize = 12;

        fn setups() -> Vec<(Self::Config, usize)> {
            vec![(Self::Config::default(), 2)]
        }

        fn custom_config() -> Self::Config {
            Self::Config {
                ace_capture: deckmate_engine::games::card_chess::AceCapture::AsFaceCard,
                no_progress_turns: 0,
                max_turns: 7,
            }
        }

        fn check_tables() {
            check_table::<pb::CardChessAceCapture>();
            check_table::<pb::CardChessSuit>();
            check_table::<pb::CardChessPhase>();
            check_table::<pb::CardChessColour>();
        }

        fn unspecified_action() -> Option<(Self::ActionMessage, &'static str)> {
            let replace = pb::CardChessReplace {
                card: Some(pb::CardChessCard { rank: 5, suit: 0 }),
            };
            Some((
                pb::CardChessAction {
                    kind: Some(pb::card_chess_action::Kind::Replace(replace)),
                },
                "action.card_chess.replace.card.suit",
            ))
        }
    }
}
