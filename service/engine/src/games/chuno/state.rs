//! The authoritative CHUNO state and the small queries every rule module shares.
//!
//! Layout: the deck and the discard pile are vectors whose last element is the top card. Hands
//! are kept sorted, because cards of the same kind and colour are interchangeable. Seat 0 plays
//! White (§2, §9.12).

use serde::{Deserialize, Serialize};

use super::card::{Card, Colour};
use super::config::Config;
use super::observation::Stage;
use crate::chess::{CheckRule, Color, Position, RoleSet, Rules};
use crate::edition::Edition;
use crate::game::Outcome;
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet};

/// Number of seats: CHUNO is a two-player game.
pub(crate) const SEATS: usize = 2;

/// §4.3: the most cards one turn may play, counting the first.
pub(crate) const MAX_CARDS_PER_TURN: u8 = 3;

/// The complete state of one CHUNO game, including deck order and the generator. It never leaves
/// the server; clients see [`super::Observation`]s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The effective options.
    pub(crate) config: Config,
    /// The rules edition the game was dealt under (`edition.rs`).
    pub(crate) edition: Edition,
    /// The generator every shuffle draws from.
    pub(crate) rng: GameRng,
    /// The chess board, castling rights and en passant square.
    pub(crate) position: Position,
    /// The draw deck; the last card is the top. Its order is hidden from everyone (§8).
    pub(crate) deck: Vec<Card>,
    /// The discard pile, oldest first; the last card is the top card (public, §8).
    pub(crate) discard: Vec<Card>,
    /// Each seat's hand, sorted (owner-only, §8).
    pub(crate) hands: [Vec<Card>; SEATS],
    /// §1: the colour to match: the top card's, or the one the last wild card chose.
    pub(crate) active_colour: Colour,
    /// Whose turn it is.
    pub(crate) current: Seat,
    /// Where the current turn stands.
    pub(crate) stage: Stage,
    /// §4.1, §4.2: chess moves still allowed this turn.
    pub(crate) moves_left: u8,
    /// §4.3: cards played so far this turn (at most [`MAX_CARDS_PER_TURN`]).
    pub(crate) cards_this_turn: u8,
    /// §4 skips: each seat's "turns to skip" counter.
    pub(crate) skips: [u32; SEATS],
    /// §6: the seat whose CHUNO obligation is pending (not yet called, window still open).
    pub(crate) chuno: Option<Seat>,
    /// §7: the seat whose draw offer stands, mirrored from the table (its meta actions, and the
    /// game actions that answer an offer, §9.13) so that the observation can show it.
    pub(crate) draw_offer: Option<Seat>,
    /// Turns completed so far. A skipped turn is not a turn (§10); a turn given back by a skip
    /// is one (§9.15).
    pub(crate) turns_taken: u32,
    /// §10: consecutive chess moves without a capture or a pawn move.
    pub(crate) quiet_moves: u32,
    /// The result, once over.
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// The chess rules of §5: castling, en passant, double steps and promotion to Q, R, B or N;
    /// check not enforced; castling must avoid attacks (`castling_avoids_attacks`) only with
    /// [`Config::strict_castling`] (§9.4).
    pub(crate) fn rules(&self) -> Rules {
        chess_rules(&self.config)
    }

    /// The seats that may act now: the current player, and a seat with a pending CHUNO
    /// obligation (§6: the call is accepted out of turn).
    pub(crate) fn to_act(&self) -> SeatSet {
        if self.outcome.is_some() {
            return SeatSet::EMPTY;
        }
        let mut seats = SeatSet::only(self.current);
        if let Some(seat) = self.chuno {
            seats.insert(seat);
        }
        seats
    }

    /// The seats whose clock runs (§9.26, docs/rules/conventions.md §8): the current player
    /// only. A seat owing a CHUNO call may act out of turn, but only to make that optional
    /// call, so nobody waits for it and its clock does not run.
    pub(crate) fn clock_seats(&self) -> SeatSet {
        if self.outcome.is_some() {
            SeatSet::EMPTY
        } else {
            SeatSet::only(self.current)
        }
    }

    /// §9.15: the number of the turn in progress, from 1: one more than the turns completed. It
    /// grows by one whenever a turn begins, the opponent's or the same player's again after a
    /// skip, and never changes within a turn or on a meta action. The table counts draw offers
    /// per turn by it (docs/rules/conventions.md §4.4); observations and `TurnStarted` events
    /// show it.
    pub(crate) fn turn_number(&self) -> u32 {
        self.turns_taken.saturating_add(1)
    }

    /// The top card of the discard pile.
    pub(crate) fn top(&self) -> Card {
        *self
            .discard
            .last()
            .expect("the discard pile always holds its top card")
    }

    /// §4.4, §7: whether a card can be drawn: the deck holds one, or the discard pile holds more
    /// than its top card and can be reshuffled into a new deck.
    pub(crate) fn can_draw(&self) -> bool {
        !self.deck.is_empty() || self.discard.len() > 1
    }
}

/// §5, §9.4: the chess rules a config asks for.
pub(crate) fn chess_rules(config: &Config) -> Rules {
    Rules {
        castling: true,
        en_passant: true,
        double_step: true,
        promotion: RoleSet::STANDARD_PROMOTIONS,
        check: CheckRule::Ignored,
        castling_avoids_attacks: config.strict_castling,
    }
}

/// §2, §9.12: seat 0 plays White, seat 1 Black.
pub(crate) fn colour_of(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Both seats, in order.
pub(crate) fn seats() -> impl Iterator<Item = Seat> {
    (0..SEATS as u8).map(Seat)
}

/// Puts `card` into the sorted `hand`.
pub(crate) fn add_to_hand(hand: &mut Vec<Card>, card: Card) {
    let at = hand.partition_point(|held| *held <= card);
    hand.insert(at, card);
}

/// Takes one `card` out of `hand`; false when the hand holds none.
pub(crate) fn take_from_hand(hand: &mut Vec<Card>, card: Card) -> bool {
    match hand.iter().position(|held| *held == card) {
        Some(at) => {
            hand.remove(at);
            true
        }
        None => false,
    }
}
