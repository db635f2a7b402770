//! The authoritative Raindropchess state and the small queries every rule module shares.
//!
//! Decks are vectors whose last card is the top; `returned[seat]` cards at the front (the
//! bottom) are public because they were flipped and put back (§3.4). Seat 0 plays White.

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::config::Config;
use super::observation::Stage;
use crate::chess::{CheckRule, Color, Position, Role, RoleSet, Rules};
use crate::edition::Edition;
use crate::game::Outcome;
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet};

/// Number of seats: Raindropchess is a two-player game.
pub(crate) const SEATS: usize = 2;

/// The complete state of one game, including deck order and the generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The effective options.
    pub(crate) config: Config,
    /// The rules edition the game was dealt under (`edition.rs`).
    pub(crate) edition: Edition,
    /// The generator the shuffles drew from (kept for determinism of resampling only).
    pub(crate) rng: GameRng,
    /// The board; its side to move is always the current seat's colour.
    pub(crate) position: Position,
    /// Each seat's deck; the last card is the top (hidden order, §7).
    pub(crate) decks: [Vec<Card>; SEATS],
    /// How many cards at the bottom of each deck are public returned cards (§3.4).
    pub(crate) returned: [usize; SEATS],
    /// Every card each seat flipped, in order (public, §7).
    pub(crate) flipped: [Vec<Card>; SEATS],
    /// §5: each seat's unused promotion pieces.
    pub(crate) pools: [RoleSet; SEATS],
    /// Squares (by index bit) holding promotion pieces, for §8.3's option.
    pub(crate) promoted: u64,
    /// Whose turn it is.
    pub(crate) current: Seat,
    /// Where the turn stands.
    pub(crate) stage: Stage,
    /// Turns completed.
    pub(crate) plies: u32,
    /// §6: plies without capture, pawn move, placement or promotion.
    pub(crate) quiet_plies: u32,
    /// §6: position keys (see [`position_key`]) since the last irreversible action, for the
    /// repetition rule.
    pub(crate) history: Vec<PositionKey>,
    /// The result, once over.
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// The seats that may act now.
    pub(crate) fn to_act(&self) -> SeatSet {
        if self.outcome.is_some() {
            SeatSet::EMPTY
        } else {
            SeatSet::only(self.current)
        }
    }

    /// §5: the chess rules for `seat`: single steps, no en passant, no castling, promotion to
    /// an unused pool piece or staying a pawn, check enforced.
    pub(crate) fn rules(&self, seat: Seat) -> Rules {
        Rules {
            castling: false,
            en_passant: false,
            double_step: false,
            promotion: self.pools[seat.index()].with(Role::Pawn),
            check: CheckRule::Legal,
            castling_avoids_attacks: true,
        }
    }
}

/// The full promotion pool of §1: Q, R, B, N.
pub(crate) fn full_pool() -> RoleSet {
    RoleSet::STANDARD_PROMOTIONS
}

/// Seat 0 plays White, seat 1 Black.
pub(crate) fn colour_of(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The seat playing `colour`.
pub(crate) fn seat_of(colour: Color) -> Seat {
    match colour {
        Color::White => Seat(0),
        Color::Black => Seat(1),
    }
}

/// Both seats, in order.
pub(crate) fn seats() -> impl Iterator<Item = Seat> {
    (0..SEATS as u8).map(Seat)
}

/// §6: what makes two positions "the same" for the repetition rule: the 64 squares (4 bits
/// each: 0 empty, else 1 + colour * 6 + role) and the side to move. The pools and decks cannot
/// change without an irreversible action, which clears the history.
pub(crate) type PositionKey = ([u64; 4], u8);

/// The [`PositionKey`] of `position`.
pub(crate) fn position_key(position: &Position) -> PositionKey {
    let mut squares = [0u64; 4];
    for (square, piece) in position.iter_pieces() {
        let code = 1 + piece.color.index() as u64 * 6 + piece.role.index() as u64;
        let index = usize::from(square.index());
        squares[index / 16] |= code << ((index % 16) * 4);
    }
    (squares, position.side_to_move().index() as u8)
}
