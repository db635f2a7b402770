//! Pile Chess on the wire (proto/deckmate/v1/games/pile_chess.proto; docs/rules/pile_chess.md §9
//! the actions, §10 the options, §11 the observation).
//!
//! Piles are named by their owner's seat, captured piles by their side index, pieces travel as
//! `PileChessPiece` and cards as `PileChessCard` (owner and piece). Seat numbers in actions are
//! checked for form only (a seat a game could have); whether that seat has a pile now is the
//! engine's decision.

use deckmate_engine::chess::Role;
use deckmate_engine::games::pile_chess::{
    Action, CapturedCard, CapturedPileView, Card, Config, EventView, MAX_SEATS, MIN_SEATS,
    Observation, OutReason, Pending, PileChess, PileSource, PileView, PlayerView, PublicEvent,
    SideTotal, Step,
};
use deckmate_engine::{Seat, SetupError};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::ReverseWriter;
use pb::pile_chess_action::Kind as ActionKind;
use pb::pile_chess_event::Kind as EventKind;

use super::common::{indexed, seat_to_u32};
use super::enums::{ProtoEnum, proto_enum_map};
use super::written;
use super::{GameCodec, ValidateConfig, oneof_members};
use crate::error::ApiError;

/// The number of Pile Chess's member of the `Observation` oneof.
const OBSERVATION_MEMBER: u32 = 1;

/// The number of Pile Chess's member of the `Action` oneof.
const ACTION_MEMBER: u32 = 2;

proto_enum_map!(pb::PileChessPiece, Role, "piece": Pawn, Knight, Bishop, Rook, Queen, King);
proto_enum_map!(pb::PileChessStep, Step, "step": Play, Gift, Promotion, Finished);
proto_enum_map!(pb::PileChessPileSource, PileSource, "pile source": DeckTop, RandomFromHand);
proto_enum_map!(pb::PileChessOutReason, OutReason, "reason": KingCaptured, Resigned, TimedOut);

impl GameCodec for PileChess {
    oneof_members!(PileChess, pb::PileChessConfig, pb::PileChessAction);

    /// Unset fields keep the rule file's defaults (§1, §5, §7.6, §8, §10).
    fn read_config(message: &pb::PileChessConfig) -> Result<Config, SetupError> {
        let defaults = Config::default();
        // In the order of `Role::ALL`, which indexes the values.
        let values = [
            message.pawn_value,
            message.knight_value,
            message.bishop_value,
            message.rook_value,
            message.queen_value,
            message.king_value,
        ];
        let mut config = Config {
            values: defaults.values,
            teams: read_teams(&message.teams)?,
            max_rounds: message.max_rounds.unwrap_or(defaults.max_rounds),
            max_reshuffles: message.max_reshuffles.unwrap_or(defaults.max_reshuffles),
            en_passant_per_round: message
                .en_passant_per_round
                .unwrap_or(defaults.en_passant_per_round),
            eliminated_captures_count: message
                .eliminated_captures_count
                .unwrap_or(defaults.eliminated_captures_count),
        };
        for (slot, value) in config.values.iter_mut().zip(values) {
            *slot = value.unwrap_or(*slot);
        }
        Ok(config)
    }

    fn config_message(config: &Config) -> pb::PileChessConfig {
        let value = |piece: Role| Some(config.value(piece));
        pb::PileChessConfig {
            pawn_value: value(Role::Pawn),
            knight_value: value(Role::Knight),
            bishop_value: value(Role::Bishop),
            rook_value: value(Role::Rook),
            queen_value: value(Role::Queen),
            king_value: value(Role::King),
            teams: config
                .teams
                .iter()
                .map(|team| pb::PileChessTeam {
                    seats: team.iter().map(|seat| u32::from(*seat)).collect(),
                })
                .collect(),
            max_rounds: Some(config.max_rounds),
            max_reshuffles: Some(config.max_reshuffles),
            en_passant_per_round: Some(config.en_passant_per_round),
            eliminated_captures_count: Some(config.eliminated_captures_count),
        }
    }

    /// Reads one Pile Chess action; field paths in messages start at `action.pile_chess`.
    fn read_action(message: &pb::PileChessAction) -> Result<Action, ApiError> {
        let Some(kind) = &message.kind else {
            return Err(ApiError::invalid_field(
                "action.pile_chess",
                "no action is set",
            ));
        };
        Ok(match kind {
            ActionKind::Play(play) => Action::Play {
                piece: pb::PileChessPiece::decode_field(
                    play.piece,
                    "action.pile_chess.play.piece",
                )?,
                pile: decode_seat(play.pile, "action.pile_chess.play.pile")?,
            },
            ActionKind::Pass(_) => Action::Pass,
            ActionKind::Castle(_) => Action::Castle,
            ActionKind::EnPassant(step) => Action::EnPassant {
                from: decode_seat(step.from_pile, "action.pile_chess.en_passant.from_pile")?,
                to: decode_seat(step.to_pile, "action.pile_chess.en_passant.to_pile")?,
                pawns: match u8::try_from(step.pawns) {
                    Ok(pawns) if pawns > 0 => pawns,
                    _ => {
                        return Err(ApiError::invalid_field(
                            "action.pile_chess.en_passant.pawns",
                            format!("move 1 to 255 Pawns, not {}", step.pawns),
                        ));
                    }
                },
            },
            ActionKind::Gift(gift) => {
                if gift.pieces.len() > 2 {
                    return Err(ApiError::invalid_field(
                        "action.pile_chess.gift.pieces",
                        format!("a gift holds at most 2 cards, not {}", gift.pieces.len()),
                    ));
                }
                let pieces = gift
                    .pieces
                    .iter()
                    .enumerate()
                    .map(|(index, piece)| {
                        pb::PileChessPiece::decode_field(
                            *piece,
                            format_args!("action.pile_chess.gift.pieces[{index}]"),
                        )
                    })
                    .collect::<Result<Vec<Role>, ApiError>>()?;
                Action::Gift {
                    to: decode_seat(gift.to, "action.pile_chess.gift.to")?,
                    pieces,
                }
            }
            ActionKind::Promote(promote) => Action::Promote {
                captured_pile: decode_seat(
                    promote.captured_pile,
                    "action.pile_chess.promote.captured_pile",
                )?
                .0,
                piece: pb::PileChessPiece::decode_field(
                    promote.piece,
                    "action.pile_chess.promote.piece",
                )?,
            },
            ActionKind::DeclinePromotion(_) => Action::DeclinePromotion,
        })
    }

    fn action_message(action: &Action) -> pb::PileChessAction {
        let kind = match action {
            Action::Play { piece, pile } => ActionKind::Play(pb::PileChessPlay {
                piece: pb::PileChessPiece::encode(*piece),
                pile: seat_to_u32(*pile),
            }),
            Action::Pass => ActionKind::Pass(pb::PileChessPass {}),
            Action::Castle => ActionKind::Castle(pb::PileChessCastle {}),
            Action::EnPassant { from, to, pawns } => {
                ActionKind::EnPassant(pb::PileChessEnPassant {
                    from_pile: seat_to_u32(*from),
                    to_pile: seat_to_u32(*to),
                    pawns: u32::from(*pawns),
                })
            }
            Action::Gift { to, pieces } => ActionKind::Gift(pb::PileChessGift {
                to: seat_to_u32(*to),
                pieces: encode_pieces(pieces),
            }),
            Action::Promote {
                captured_pile,
                piece,
            } => ActionKind::Promote(pb::PileChessPromote {
                captured_pile: u32::from(*captured_pile),
                piece: pb::PileChessPiece::encode(*piece),
            }),
            Action::DeclinePromotion => {
                ActionKind::DeclinePromotion(pb::PileChessDeclinePromotion {})
            }
        };
        pb::PileChessAction { kind: Some(kind) }
    }

    fn encode_observation(observation: &Observation) -> pb::Observation {
        pb::Observation {
            game: Some(pb::observation::Game::PileChess(pb::PileChessObservation {
                step: pb::PileChessStep::of(observation.step).into(),
                round: observation.round,
                first_player: seat_to_u32(observation.first_player),
                current_player: observation.current_player.map(seat_to_u32),
                to_act: observation
                    .to_act
                    .iter()
                    .copied()
                    .map(seat_to_u32)
                    .collect(),
                last_player: observation.last_player.map(seat_to_u32),
                piles: observation.piles.iter().map(pile_message).collect(),
                players: indexed(&observation.players, player_message),
                captured_piles: indexed(&observation.captured_piles, captured_pile_message),
                removed: encode_cards(&observation.removed),
                hand: encode_pieces(&observation.hand),
                pending: observation.pending.iter().map(pending_message).collect(),
                config: Some(Self::config_message(&observation.config)),
            })),
        }
    }

    /// `PileChessObservation` fields by number (proto/deckmate/v1/games/pile_chess.proto),
    /// highest first; the bytes of [`GameCodec::encode_observation`]'s message.
    fn write_observation(observation: &Observation, writer: &mut ReverseWriter) {
        writer.nested(OBSERVATION_MEMBER, |writer| {
            writer.nested(13, |writer| write_config(writer, &observation.config));
            for pending in observation.pending.iter().rev() {
                writer.nested(12, |writer| write_pending(writer, pending));
            }
            write_pieces(writer, 11, &observation.hand);
            write_cards(writer, 10, &observation.removed);
            for (index, pile) in observation.captured_piles.iter().enumerate().rev() {
                writer.nested(9, |writer| {
                    written::uint(writer, 4, pile.value);
                    write_cards(writer, 3, &pile.cards);
                    write_seats(writer, 2, &pile.seats);
                    written::uint(writer, 1, index as u64);
                });
            }
            for (seat, player) in observation.players.iter().enumerate().rev() {
                writer.nested(8, |writer| write_player(writer, seat, player));
            }
            for pile in observation.piles.iter().rev() {
                writer.nested(7, |writer| {
                    written::enumeration(
                        writer,
                        3,
                        pb::PileChessPileSource::of(pile.source).into(),
                    );
                    write_cards(writer, 2, &pile.cards);
                    written::uint(writer, 1, seat_to_u32(pile.owner));
                });
            }
            written::optional_uint(writer, 6, observation.last_player.map(seat_to_u32));
            write_seats(writer, 5, &observation.to_act);
            written::optional_uint(writer, 4, observation.current_player.map(seat_to_u32));
            written::uint(writer, 3, seat_to_u32(observation.first_player));
            written::uint(writer, 2, observation.round);
            written::enumeration(writer, 1, pb::PileChessStep::of(observation.step).into());
        });
    }

    /// `PileChessAction` fields by number, highest first; the bytes of
    /// [`GameCodec::encode_action`]'s message.
    fn write_action(action: &Action, writer: &mut ReverseWriter) {
        writer.nested(ACTION_MEMBER, |writer| match action {
            Action::Play { piece, pile } => writer.nested(1, |writer| {
                written::uint(writer, 2, seat_to_u32(*pile));
                written::enumeration(writer, 1, pb::PileChessPiece::encode(*piece));
            }),
            Action::Pass => writer.nested(2, |_| {}),
            Action::Castle => writer.nested(3, |_| {}),
            Action::EnPassant { from, to, pawns } => writer.nested(4, |writer| {
                written::uint(writer, 3, *pawns);
                written::uint(writer, 2, seat_to_u32(*to));
                written::uint(writer, 1, seat_to_u32(*from));
            }),
            Action::Gift { to, pieces } => writer.nested(5, |writer| {
                write_pieces(writer, 2, pieces);
                written::uint(writer, 1, seat_to_u32(*to));
            }),
            Action::Promote {
                captured_pile,
                piece,
            } => writer.nested(6, |writer| {
                written::enumeration(writer, 2, pb::PileChessPiece::encode(*piece));
                written::uint(writer, 1, *captured_pile);
            }),
            Action::DeclinePromotion => writer.nested(7, |_| {}),
        });
    }

    fn encode_event(event: &EventView) -> pb::event::Kind {
        let kind = match event {
            EventView::CardsDrawn {
                seat,
                count,
                pieces,
            } => EventKind::CardsDrawn(pb::PileChessCardsDrawn {
                seat: seat_to_u32(*seat),
                count: *count,
                pieces: pieces.as_deref().map(encode_pieces).unwrap_or_default(),
            }),
            EventView::Public(public) => public_event(public),
        };
        pb::event::Kind::PileChess(pb::PileChessEvent { kind: Some(kind) })
    }
}

impl ValidateConfig for Config {
    /// §5, §7.12: the team list must split exactly the game's seats. Before the seat count is
    /// known, the list is checked as a split of the seats it names: seats 0 to the highest one
    /// listed, at least [`MIN_SEATS`] and at most [`MAX_SEATS`] (so a seat beyond that is
    /// refused as no seat of any game).
    fn validate_for(&self, seats: Option<usize>) -> Result<(), SetupError> {
        let seats = seats.unwrap_or_else(|| {
            let named = self.teams.iter().flatten().max();
            named
                .map_or(0, |seat| usize::from(*seat) + 1)
                .clamp(MIN_SEATS, MAX_SEATS)
        });
        self.validate(seats)
    }
}

/// A public event on the wire.
fn public_event(event: &PublicEvent) -> EventKind {
    match event {
        PublicEvent::DeckShuffled { seat } => EventKind::DeckShuffled(pb::PileChessDeckShuffled {
            seat: seat_to_u32(*seat),
        }),
        PublicEvent::RoundStarted {
            round,
            first_player,
        } => EventKind::RoundStarted(pb::PileChessRoundStarted {
            round: *round,
            first_player: seat_to_u32(*first_player),
        }),
        PublicEvent::PileOpened {
            seat,
            piece,
            source,
        } => EventKind::PileOpened(pb::PileChessPileOpened {
            seat: seat_to_u32(*seat),
            piece: pb::PileChessPiece::encode(*piece),
            source: pb::PileChessPileSource::of(*source).into(),
        }),
        PublicEvent::NoPile { seat } => EventKind::NoPile(pb::PileChessNoPile {
            seat: seat_to_u32(*seat),
        }),
        PublicEvent::Played { seat, piece, pile } => EventKind::Played(pb::PileChessPlayed {
            seat: seat_to_u32(*seat),
            piece: pb::PileChessPiece::encode(*piece),
            pile: seat_to_u32(*pile),
        }),
        PublicEvent::Passed { seat } => EventKind::Passed(pb::PileChessPassed {
            seat: seat_to_u32(*seat),
        }),
        PublicEvent::Castled { seat } => EventKind::Castled(pb::PileChessCastled {
            seat: seat_to_u32(*seat),
        }),
        PublicEvent::EnPassant {
            seat,
            from,
            to,
            pawns,
        } => EventKind::EnPassant(pb::PileChessMovedEnPassant {
            seat: seat_to_u32(*seat),
            from_pile: seat_to_u32(*from),
            to_pile: seat_to_u32(*to),
            pawns: u32::from(*pawns),
        }),
        PublicEvent::RoundEnded { round } => {
            EventKind::RoundEnded(pb::PileChessRoundEnded { round: *round })
        }
        PublicEvent::PileResolved {
            pile,
            totals,
            winner,
            returned,
            captured,
        } => EventKind::PileResolved(pb::PileChessPileResolved {
            pile: seat_to_u32(*pile),
            totals: totals.iter().map(side_total_message).collect(),
            winner: winner.map(u32::from),
            returned: encode_cards(returned),
            captured: captured.iter().map(captured_card_message).collect(),
        }),
        PublicEvent::SeatOut { seat, reason } => EventKind::SeatOut(pb::PileChessSeatOut {
            seat: seat_to_u32(*seat),
            reason: pb::PileChessOutReason::of(*reason).into(),
        }),
        PublicEvent::Gifted { seat, to, pieces } => EventKind::Gifted(pb::PileChessGifted {
            seat: seat_to_u32(*seat),
            to: seat_to_u32(*to),
            pieces: encode_pieces(pieces),
        }),
        PublicEvent::CardsLeftGame { seat, cards } => {
            EventKind::CardsLeftGame(pb::PileChessCardsLeftGame {
                seat: seat_to_u32(*seat),
                cards: encode_cards(cards),
            })
        }
        PublicEvent::Promoted {
            seat,
            pile,
            captured_pile,
            piece,
        } => EventKind::Promoted(pb::PileChessPromoted {
            seat: seat_to_u32(*seat),
            pile: seat_to_u32(*pile),
            captured_pile: u32::from(*captured_pile),
            piece: pb::PileChessPiece::encode(*piece),
        }),
        PublicEvent::PromotionDeclined { seat, pile } => {
            EventKind::PromotionDeclined(pb::PileChessPromotionDeclined {
                seat: seat_to_u32(*seat),
                pile: seat_to_u32(*pile),
            })
        }
        PublicEvent::Shortfall {
            seat,
            drawn,
            hand_size,
            reshuffles,
            ends_game,
        } => EventKind::Shortfall(pb::PileChessShortfall {
            seat: seat_to_u32(*seat),
            drawn: *drawn,
            hand_size: *hand_size,
            reshuffles: *reshuffles,
            ends_game: *ends_game,
        }),
    }
}

/// Reads the team list (§5, §7.12): a seat number too large for any game is refused on the
/// team that lists it; every other check is the engine's.
fn read_teams(teams: &[pb::PileChessTeam]) -> Result<Vec<Vec<u8>>, SetupError> {
    teams
        .iter()
        .enumerate()
        .map(|(index, team)| {
            team.seats
                .iter()
                .map(|seat| {
                    u8::try_from(*seat).map_err(|_| {
                        SetupError::invalid_config(
                            format!("teams[{index}]"),
                            format!(
                                "seat {seat} is not a Pile Chess seat: games have at most \
                                 {MAX_SEATS} seats, 0 to {}",
                                MAX_SEATS - 1
                            ),
                        )
                    })
                })
                .collect()
        })
        .collect()
}

/// Reads a seat (or pile) number some Pile Chess game could have (§1: at most [`MAX_SEATS`]);
/// whether this game has it is the engine's decision.
fn decode_seat(value: u32, field: &str) -> Result<Seat, ApiError> {
    match u8::try_from(value) {
        Ok(seat) if usize::from(seat) < MAX_SEATS => Ok(Seat(seat)),
        _ => Err(ApiError::invalid_field(
            field,
            format!(
                "{value} is not a Pile Chess seat: games have at most {MAX_SEATS} seats, 0 to {}",
                MAX_SEATS - 1
            ),
        )),
    }
}

/// Pieces on the wire, in the same order.
/// A packed `repeated PileChessPiece` field holding `pieces`, as [`encode_pieces`] lists them.
fn write_pieces(writer: &mut ReverseWriter, number: u32, pieces: &[Role]) {
    written::packed_enums(writer, number, pieces, pb::PileChessPiece::encode);
}

/// A packed `repeated uint32` field holding seat numbers.
fn write_seats(writer: &mut ReverseWriter, number: u32, seats: &[Seat]) {
    if !seats.is_empty() {
        writer.packed_varints(
            number,
            seats.iter().rev().map(|&seat| u64::from(seat_to_u32(seat))),
        );
    }
}

/// A repeated `PileChessCard` field holding `cards`, as [`encode_cards`] lists them.
fn write_cards(writer: &mut ReverseWriter, number: u32, cards: &[Card]) {
    for card in cards.iter().rev() {
        writer.nested(number, |writer| {
            written::enumeration(writer, 2, pb::PileChessPiece::encode(card.piece));
            written::uint(writer, 1, seat_to_u32(card.owner));
        });
    }
}

/// The fields of [`GameCodec::config_message`]'s message, highest first.
fn write_config(writer: &mut ReverseWriter, config: &Config) {
    writer.varint_field(11, u64::from(config.eliminated_captures_count));
    writer.varint_field(10, u64::from(config.en_passant_per_round));
    writer.varint_field(9, u64::from(config.max_reshuffles));
    writer.varint_field(8, u64::from(config.max_rounds));
    for team in config.teams.iter().rev() {
        writer.nested(7, |writer| {
            if !team.is_empty() {
                writer.packed_varints(1, team.iter().rev().map(|&seat| u64::from(seat)));
            }
        });
    }
    // Numbers 6 (King) down to 1 (Pawn): `Role::ALL` backwards.
    for (number, piece) in (1..=6).rev().zip(Role::ALL.iter().rev()) {
        writer.varint_field(number, u64::from(config.value(*piece)));
    }
}

/// The fields of [`player_message`]'s message, highest first.
fn write_player(writer: &mut ReverseWriter, seat: usize, player: &PlayerView) {
    written::uint(writer, 14, player.en_passant_used);
    written::boolean(writer, 13, player.pawns_only);
    written::uint(writer, 12, player.plays);
    written::boolean(writer, 11, player.passed);
    written::boolean(writer, 10, player.acted);
    written::boolean(writer, 9, player.castled);
    written::uint(writer, 8, player.reshuffles);
    write_pieces(writer, 7, &player.reuse_pile);
    written::uint(writer, 6, player.hand_count);
    written::uint(writer, 5, player.deck_count);
    written::boolean(writer, 4, player.resigned);
    written::boolean(writer, 3, player.out);
    written::uint(writer, 2, player.captured_pile);
    written::uint(writer, 1, seat as u64);
}

/// The fields of [`pending_message`]'s message, highest first.
fn write_pending(writer: &mut ReverseWriter, pending: &Pending) {
    match *pending {
        Pending::Gift { seat } => {
            written::uint(writer, 2, seat_to_u32(seat));
            written::enumeration(writer, 1, pb::PileChessPendingKind::Gift.into());
        }
        Pending::Promotion { seat, pile } => {
            writer.varint_field(3, u64::from(seat_to_u32(pile)));
            written::uint(writer, 2, seat_to_u32(seat));
            written::enumeration(writer, 1, pb::PileChessPendingKind::Promotion.into());
        }
    }
}

fn encode_pieces(pieces: &[Role]) -> Vec<i32> {
    pieces
        .iter()
        .copied()
        .map(pb::PileChessPiece::encode)
        .collect()
}

fn card_message(card: &Card) -> pb::PileChessCard {
    pb::PileChessCard {
        owner: seat_to_u32(card.owner),
        piece: pb::PileChessPiece::encode(card.piece),
    }
}

/// Cards on the wire, in the same order.
fn encode_cards(cards: &[Card]) -> Vec<pb::PileChessCard> {
    cards.iter().map(card_message).collect()
}

fn pile_message(pile: &PileView) -> pb::PileChessPile {
    pb::PileChessPile {
        owner: seat_to_u32(pile.owner),
        cards: encode_cards(&pile.cards),
        source: pb::PileChessPileSource::of(pile.source).into(),
    }
}

fn player_message(seat: usize, player: &PlayerView) -> pb::PileChessPlayer {
    pb::PileChessPlayer {
        seat: seat as u32,
        captured_pile: u32::from(player.captured_pile),
        out: player.out,
        resigned: player.resigned,
        deck_count: player.deck_count,
        hand_count: player.hand_count,
        reuse_pile: encode_pieces(&player.reuse_pile),
        reshuffles: player.reshuffles,
        castled: player.castled,
        acted: player.acted,
        passed: player.passed,
        plays: player.plays,
        pawns_only: player.pawns_only,
        en_passant_used: player.en_passant_used,
    }
}

fn captured_pile_message(index: usize, pile: &CapturedPileView) -> pb::PileChessCapturedPile {
    pb::PileChessCapturedPile {
        index: index as u32,
        seats: pile.seats.iter().copied().map(seat_to_u32).collect(),
        cards: encode_cards(&pile.cards),
        value: pile.value,
    }
}

fn pending_message(pending: &Pending) -> pb::PileChessPending {
    match *pending {
        Pending::Gift { seat } => pb::PileChessPending {
            kind: pb::PileChessPendingKind::Gift.into(),
            seat: seat_to_u32(seat),
            pile: None,
        },
        Pending::Promotion { seat, pile } => pb::PileChessPending {
            kind: pb::PileChessPendingKind::Promotion.into(),
            seat: seat_to_u32(seat),
            pile: Some(seat_to_u32(pile)),
        },
    }
}

fn side_total_message(total: &SideTotal) -> pb::PileChessSideTotal {
    pb::PileChessSideTotal {
        side: u32::from(total.side),
        total: total.total,
    }
}

fn captured_card_message(captured: &CapturedCard) -> pb::PileChessCapturedCard {
    pb::PileChessCapturedCard {
        captured_pile: u32::from(captured.side),
        card: Some(card_message(&captured.card)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::test_support::{invalid_field, invalid_field_saying};
    use deckmate_engine::games::pile_chess::{MAX_EN_PASSANT, MAX_RESHUFFLES, MAX_VALUE};
    use deckmate_engine::{Seed, Table, Viewer};

    fn config_of(message: pb::PileChessConfig) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(pb::game_config::Game::PileChess(message)),
        }
    }

    fn action_of(kind: ActionKind) -> pb::action::Kind {
        pb::action::Kind::PileChess(pb::PileChessAction { kind: Some(kind) })
    }

    #[test]
    fn castling_round_trips() {
        let wire = PileChess::encode_action(&Action::Castle);
        assert_eq!(
            PileChess::decode_action(wire.kind.as_ref().unwrap()),
            Ok(Action::Castle)
        );
    }

    #[test]
    fn malformed_actions_are_invalid_fields_naming_their_path() {
        use pb::PileChessPiece as P;
        let decode = |kind: ActionKind| PileChess::decode_action(&action_of(kind));
        invalid_field(
            decode(ActionKind::Play(pb::PileChessPlay {
                piece: P::Unspecified.into(),
                pile: 0,
            })),
            "action.pile_chess.play.piece",
        );
        invalid_field(
            decode(ActionKind::Play(pb::PileChessPlay { piece: 42, pile: 0 })),
            "action.pile_chess.play.piece",
        );
        invalid_field(
            decode(ActionKind::Play(pb::PileChessPlay {
                piece: P::Rook.into(),
                pile: 300,
            })),
            "action.pile_chess.play.pile",
        );
        invalid_field(
            decode(ActionKind::EnPassant(pb::PileChessEnPassant {
                from_pile: 0,
                to_pile: 1,
                pawns: 0,
            })),
            "action.pile_chess.en_passant.pawns",
        );
        invalid_field(
            decode(ActionKind::EnPassant(pb::PileChessEnPassant {
                from_pile: 9,
                to_pile: 1,
                pawns: 1,
            })),
            "action.pile_chess.en_passant.from_pile",
        );
        invalid_field(
            decode(ActionKind::Gift(pb::PileChessGift {
                to: 2,
                pieces: vec![P::Pawn.into(); 3],
            })),
            "action.pile_chess.gift.pieces",
        );
        invalid_field(
            decode(ActionKind::Gift(pb::PileChessGift {
                to: 2,
                pieces: vec![P::Queen.into(), 0],
            })),
            "action.pile_chess.gift.pieces[1]",
        );
        invalid_field(
            decode(ActionKind::Promote(pb::PileChessPromote {
                captured_pile: 1,
                piece: -1,
            })),
            "action.pile_chess.promote.piece",
        );
        invalid_field(
            decode(ActionKind::Promote(pb::PileChessPromote {
                captured_pile: 1 << 20,
                piece: P::Queen.into(),
            })),
            "action.pile_chess.promote.captured_pile",
        );
        invalid_field(
            PileChess::decode_action(&pb::action::Kind::PileChess(pb::PileChessAction {
                kind: None,
            })),
            "action.pile_chess",
        );
        // §1: no Pile Chess game has a fifth seat, so pile 4 is malformed in every game; pile 3
        // is well formed (whether this game has it is the engine's decision).
        invalid_field(
            decode(ActionKind::Play(pb::PileChessPlay {
                piece: P::Rook.into(),
                pile: MAX_SEATS as u32,
            })),
            "action.pile_chess.play.pile",
        );
        invalid_field(
            decode(ActionKind::Gift(pb::PileChessGift {
                to: 7,
                pieces: vec![P::Pawn.into()],
            })),
            "action.pile_chess.gift.to",
        );
        assert_eq!(
            decode(ActionKind::Play(pb::PileChessPlay {
                piece: P::Rook.into(),
                pile: MAX_SEATS as u32 - 1,
            })),
            Ok(Action::Play {
                piece: Role::Rook,
                pile: Seat(MAX_SEATS as u8 - 1),
            })
        );
    }

    #[test]
    fn config_defaults_fill_unset_fields_and_encode_sets_every_field() {
        let Some(pb::game_config::Game::PileChess(message)) =
            PileChess::encode_config(&Config::default()).game
        else {
            panic!("not a pile chess config");
        };
        assert_eq!(
            message,
            pb::PileChessConfig {
                pawn_value: Some(1),
                knight_value: Some(3),
                bishop_value: Some(3),
                rook_value: Some(5),
                queen_value: Some(9),
                king_value: Some(4),
                teams: Vec::new(),
                max_rounds: Some(100),
                max_reshuffles: Some(2),
                en_passant_per_round: Some(1),
                eliminated_captures_count: Some(false),
            }
        );

        let partial = config_of(pb::PileChessConfig {
            king_value: Some(12),
            max_rounds: Some(50),
            ..Default::default()
        });
        let decoded = PileChess::decode_config(&partial).unwrap();
        assert_eq!(decoded.values, [1, 3, 3, 5, 9, 12]);
        assert_eq!(decoded.max_rounds, 50);
        assert!(decoded.teams.is_empty());
    }

    #[test]
    fn out_of_range_configs_name_the_field() {
        let decode = |message| PileChess::decode_config(&config_of(message));
        invalid_field_saying(
            decode(pb::PileChessConfig {
                queen_value: Some(MAX_VALUE + 1),
                ..Default::default()
            }),
            "config.pile_chess.queen_value",
            "at most 1000",
        );
        invalid_field_saying(
            decode(pb::PileChessConfig {
                max_rounds: Some(0),
                ..Default::default()
            }),
            "config.pile_chess.max_rounds",
            "1 to 1000",
        );
        invalid_field_saying(
            decode(pb::PileChessConfig {
                max_reshuffles: Some(MAX_RESHUFFLES + 1),
                ..Default::default()
            }),
            "config.pile_chess.max_reshuffles",
            "at most 100",
        );
        invalid_field_saying(
            decode(pb::PileChessConfig {
                en_passant_per_round: Some(MAX_EN_PASSANT + 1),
                ..Default::default()
            }),
            "config.pile_chess.en_passant_per_round",
            "at most 16",
        );
    }

    /// A config message with `teams` and every other field unset.
    fn teams_config(teams: &[&[u32]]) -> pb::GameConfig {
        config_of(pb::PileChessConfig {
            teams: teams
                .iter()
                .map(|seats| pb::PileChessTeam {
                    seats: seats.to_vec(),
                })
                .collect(),
            ..Default::default()
        })
    }

    #[test]
    fn any_split_of_the_seats_into_teams_decodes() {
        for split in [
            &[&[0u32][..], &[1]][..],
            &[&[0], &[1, 2]],
            &[&[2, 1], &[0]],
            &[&[0], &[1], &[2]],
            &[&[0, 2], &[1, 3]],
            &[&[3], &[0, 1, 2]],
            &[&[0], &[1], &[2, 3]],
            &[&[0], &[1], &[2], &[3]],
        ] {
            let config = PileChess::decode_config(&teams_config(split))
                .unwrap_or_else(|error| panic!("{split:?}: {error}"));
            let expected: Vec<Vec<u8>> = split
                .iter()
                .map(|team| team.iter().map(|seat| *seat as u8).collect())
                .collect();
            assert_eq!(config.teams, expected);
            assert_eq!(
                PileChess::decode_config(&PileChess::encode_config(&config)),
                Ok(config)
            );
        }
    }

    #[test]
    fn bad_team_lists_are_violations_on_the_list_or_the_team_at_fault() {
        let cases: [(&[&[u32]], &str, &str); 9] = [
            (
                &[&[0, 1, 2, 3]],
                "config.pile_chess.teams",
                "at least two teams",
            ),
            (
                &[&[0], &[]],
                "config.pile_chess.teams[1]",
                "at least one seat",
            ),
            (&[&[0], &[1, 7]], "config.pile_chess.teams[1]", "seat 7"),
            (
                &[&[1 << 20], &[0]],
                "config.pile_chess.teams[0]",
                "seat 1048576",
            ),
            (
                &[&[0, 1], &[1, 2]],
                "config.pile_chess.teams[1]",
                "seat 1 is listed twice",
            ),
            (
                &[&[0, 0], &[1]],
                "config.pile_chess.teams[0]",
                "seat 0 is listed twice",
            ),
            (
                &[&[0], &[2]],
                "config.pile_chess.teams",
                "seat 1 is in no team",
            ),
            (
                &[&[1], &[2, 3]],
                "config.pile_chess.teams",
                "seat 0 is in no team",
            ),
            (&[&[3]], "config.pile_chess.teams", "at least two teams"),
        ];
        for (teams, field, needle) in cases {
            invalid_field_saying(
                PileChess::decode_config(&teams_config(teams)),
                field,
                needle,
            );
        }
    }

    #[test]
    fn observation_shows_piles_and_counts_but_only_the_own_hand() {
        let (table, _) = Table::<PileChess>::new(&Config::default(), 3, Seed::from_u64(5)).unwrap();
        let observe = |viewer| match PileChess::encode_observation(&table.observe(viewer)).game {
            Some(pb::observation::Game::PileChess(observation)) => observation,
            other => panic!("not a pile chess observation: {other:?}"),
        };
        let own = observe(Viewer::Seat(Seat(1)));
        assert_eq!(own.step, pb::PileChessStep::Play as i32);
        assert_eq!(own.round, 1);
        assert_eq!(own.to_act, vec![0]);
        assert_eq!(own.current_player, Some(0));
        assert_eq!(own.piles.len(), 3);
        for (seat, pile) in own.piles.iter().enumerate() {
            assert_eq!(pile.owner, seat as u32);
            assert_eq!(pile.cards.len(), 1);
            assert_eq!(pile.cards[0].owner, seat as u32);
            assert_eq!(pile.source, pb::PileChessPileSource::DeckTop as i32);
        }
        assert_eq!(own.players.len(), 3);
        assert!(own.players.iter().all(|player| {
            player.hand_count == 4 && player.deck_count == 11 && player.reshuffles == 0
        }));
        assert_eq!(own.captured_piles.len(), 3);
        assert_eq!(own.captured_piles[2].seats, vec![2]);
        assert_eq!(own.hand.len(), 4);
        assert_eq!(
            own.config,
            Some(PileChess::config_message(&Config::default()))
        );

        let other = observe(Viewer::Seat(Seat(2)));
        assert_eq!(other.hand.len(), 4);
        assert_eq!(other.piles, own.piles);
        let spectator = observe(Viewer::Spectator);
        assert!(spectator.hand.is_empty());
        assert_eq!(spectator.players, own.players);
    }

    #[test]
    fn team_observations_show_shared_captured_piles() {
        let (table, _) =
            Table::<PileChess>::new(&Config::two_vs_two(), 4, Seed::from_u64(8)).unwrap();
        let Some(pb::observation::Game::PileChess(view)) =
            PileChess::encode_observation(&table.observe(Viewer::Spectator)).game
        else {
            panic!("not a pile chess observation");
        };
        assert_eq!(view.captured_piles.len(), 2);
        assert_eq!(view.captured_piles[0].seats, vec![0, 2]);
        assert_eq!(view.captured_piles[1].seats, vec![1, 3]);
        let piles: Vec<u32> = view.players.iter().map(|p| p.captured_pile).collect();
        assert_eq!(piles, vec![0, 1, 0, 1]);
        let config = view.config.expect("config");
        assert_eq!(config.teams.len(), 2);
    }

    #[test]
    fn drawn_cards_reach_only_their_owner() {
        let drawn = EventView::CardsDrawn {
            seat: Seat(1),
            count: 3,
            pieces: None,
        };
        match PileChess::encode_event(&drawn) {
            pb::event::Kind::PileChess(pb::PileChessEvent {
                kind: Some(EventKind::CardsDrawn(message)),
            }) => {
                assert_eq!((message.seat, message.count), (1, 3));
                assert!(message.pieces.is_empty());
            }
            other => panic!("unexpected {other:?}"),
        }
        let full = EventView::CardsDrawn {
            seat: Seat(1),
            count: 2,
            pieces: Some(vec![Role::King, Role::Pawn]),
        };
        match PileChess::encode_event(&full) {
            pb::event::Kind::PileChess(pb::PileChessEvent {
                kind: Some(EventKind::CardsDrawn(message)),
            }) => assert_eq!(
                message.pieces,
                vec![
                    pb::PileChessPiece::King as i32,
                    pb::PileChessPiece::Pawn as i32
                ]
            ),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn resolved_piles_name_every_captured_card() {
        let card = Card {
            owner: Seat(1),
            piece: Role::Queen,
        };
        let resolved = EventView::Public(PublicEvent::PileResolved {
            pile: Seat(0),
            totals: vec![SideTotal { side: 0, total: 9 }],
            winner: Some(0),
            returned: Vec::new(),
            captured: vec![CapturedCard { side: 0, card }],
        });
        let pb::event::Kind::PileChess(pb::PileChessEvent {
            kind: Some(EventKind::PileResolved(message)),
        }) = PileChess::encode_event(&resolved)
        else {
            panic!("not a resolved pile");
        };
        assert_eq!(
            message.captured,
            vec![pb::PileChessCapturedCard {
                captured_pile: 0,
                card: Some(pb::PileChessCard {
                    owner: 1,
                    piece: pb::PileChessPiece::Queen as i32,
                }),
            }]
        );
    }
}

/// What the generic codec test (`codec/conformance.rs`) plays and checks of this game.
#[cfg(test)]
mod samples {
    use super::*;
    use crate::codec::conformance::Samples;
    use crate::codec::enums::tests::check_table;

    impl Samples for PileChess {
        const GAMES: u64 = 40;
        const ACTION_KINDS: usize = 7;
        const EVENT_KINDS: usize = 16;

        /// Every kind of setup: 2, 3 and 4 seats free for all, 2 against 2, and uneven teams.
        fn setups() -> Vec<(Self::Config, usize)> {
            vec![
                (Config::default(), 2),
                (Config::default(), 3),
                (Config::default(), 4),
                (Config::two_vs_two(), 4),
                (Config::with_teams(&[&[0], &[1, 2]]), 3),
                (Config::with_teams(&[&[0], &[1], &[2, 3]]), 4),
            ]
        }

        fn custom_config() -> Self::Config {
            Config {
                values: [2, 0, 4, 6, 10, 1],
                max_rounds: 7,
                max_reshuffles: 0,
                en_passant_per_round: 0,
                eliminated_captures_count: true,
                ..Config::two_vs_two()
            }
        }

        fn check_tables() {
            check_table::<pb::PileChessPiece>();
            check_table::<pb::PileChessStep>();
            check_table::<pb::PileChessPileSource>();
            check_table::<pb::PileChessOutReason>();
        }

        fn unspecified_action() -> Option<(Self::ActionMessage, &'static str)> {
            let play = pb::PileChessPlay { piece: 0, pile: 0 };
            Some((
                pb::PileChessAction {
                    kind: Some(pb::pile_chess_action::Kind::Play(play)),
                },
                "action.pile_chess.play.piece",
            ))
        }
    }
}
