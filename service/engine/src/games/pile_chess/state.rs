//! The authoritative Pile Chess state and the small queries every rule module shares.
//!
//! Hands are multisets (a count per piece) because cards of one piece and owner are
//! interchangeable, and every card in a hand belongs to the hand's holder (a gift changes the
//! card's owner, §5). Decks are drawn from the end of their vector, which is the top.

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::event::PileSource;
use super::observation::{Pending, Step};
use super::piece::{Card, Role};
use crate::edition::Edition;
use crate::game::Outcome;
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet};

/// A hand: how many cards of each piece, indexed by [`Role::index`].
pub(crate) type Hand = [u8; 6];

/// One player's cards and per-round bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Player {
    /// Face down; the last element is the top card.
    pub(crate) deck: Vec<Role>,
    /// Owner-only.
    pub(crate) hand: Hand,
    /// Public: own cards that survived a pile, oldest first.
    pub(crate) reuse: Vec<Role>,
    /// §3 step 4: reshuffles made so far.
    pub(crate) reshuffles: u32,
    /// Out of the game (King captured, resigned or timed out).
    pub(crate) out: bool,
    /// Resigned or timed out (§4): out, and never among the winners, even when their side wins.
    pub(crate) resigned: bool,
    /// §3 step 2: castled in this game.
    pub(crate) castled: bool,
    /// Plays this round: cards played, castling and en passant.
    pub(crate) plays: u32,
    /// Whether every play this round was a Pawn or an en passant move (§7.6).
    pub(crate) pawns_only: bool,
    /// En passant moves this round.
    pub(crate) en_passant_used: u32,
}

impl Player {
    /// A player with `deck` and nothing else.
    pub(crate) fn new(deck: Vec<Role>) -> Player {
        Player {
            deck,
            hand: [0; 6],
            reuse: Vec::new(),
            reshuffles: 0,
            out: false,
            resigned: false,
            castled: false,
            plays: 0,
            pawns_only: true,
            en_passant_used: 0,
        }
    }

    /// Cards in the hand.
    pub(crate) fn hand_count(&self) -> usize {
        hand_size(&self.hand)
    }

    /// Whether the hand holds a `piece`.
    pub(crate) fn holds(&self, piece: Role) -> bool {
        self.hand[piece.index()] > 0
    }
}

/// One pile of the current round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Pile {
    /// The starting piece first, then the cards in the order they arrived.
    pub(crate) cards: Vec<Card>,
    /// How the pile was opened.
    pub(crate) source: PileSource,
}

/// The complete state of one Pile Chess game, including deck order and the generator. It never
/// leaves the server; clients see [`super::Observation`]s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The effective options.
    pub(crate) config: Config,
    /// The rules edition the game was dealt under (`edition.rs`).
    pub(crate) edition: Edition,
    /// The generator every shuffle and random pick draws from.
    pub(crate) rng: GameRng,
    /// Every player, by seat.
    pub(crate) players: Vec<Player>,
    /// The side of every seat: its team in a team game, else the seat itself.
    pub(crate) side_of: Vec<u8>,
    /// Captured piles by side.
    pub(crate) captured: Vec<Vec<Card>>,
    /// The removed zone: out of the game.
    pub(crate) removed: Vec<Card>,
    /// This round's piles by owner; `None` for a seat without a pile.
    pub(crate) piles: Vec<Option<Pile>>,
    /// The round number, from 1.
    pub(crate) round: u32,
    /// The player who acts first this round.
    pub(crate) first_player: Seat,
    /// Whose turn it is in the play step.
    pub(crate) current: Option<Seat>,
    /// The last player who played this round.
    pub(crate) last_player: Option<Seat>,
    /// Seats that acted this round.
    pub(crate) acted: SeatSet,
    /// Seats that passed since the round's last play.
    pub(crate) passed: SeatSet,
    /// Decisions waited for after a resolution, the current one first.
    pub(crate) pending: Vec<Pending>,
    /// Game actions taken so far: each is one turn (§7.14, docs/rules/conventions.md §4), so
    /// this is also the number of the turn in progress.
    pub(crate) turns: u32,
    /// The result, once over.
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// Number of seats.
    pub(crate) fn seat_count(&self) -> usize {
        self.players.len()
    }

    /// Every seat, in order.
    pub(crate) fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.players.len() as u8).map(Seat)
    }

    /// The player at `seat`.
    pub(crate) fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// The player at `seat`, to change.
    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    /// Whether `seat` is still in the game.
    pub(crate) fn is_in(&self, seat: Seat) -> bool {
        !self.player(seat).out
    }

    /// The seats still in the game.
    pub(crate) fn active(&self) -> SeatSet {
        self.seats().filter(|seat| self.is_in(*seat)).collect()
    }

    /// The side (team, or the seat itself in free for all) of `seat`.
    pub(crate) fn side(&self, seat: Seat) -> u8 {
        self.side_of[seat.index()]
    }

    /// Number of sides.
    pub(crate) fn side_count(&self) -> usize {
        self.captured.len()
    }

    /// The seats of `side`.
    pub(crate) fn side_seats(&self, side: u8) -> SeatSet {
        self.seats()
            .filter(|seat| self.side(*seat) == side)
            .collect()
    }

    /// The seats of `side` that share its win: all but those who resigned or timed out.
    pub(crate) fn side_winners(&self, side: u8) -> SeatSet {
        self.side_seats(side)
            .iter()
            .filter(|seat| !self.player(*seat).resigned)
            .collect()
    }

    /// Whether `a` and `b` play against each other.
    pub(crate) fn opponents(&self, a: Seat, b: Seat) -> bool {
        self.side(a) != self.side(b)
    }

    /// The value of `piece` in a pile.
    pub(crate) fn value(&self, piece: Role) -> u32 {
        self.config.value(piece)
    }

    /// The total value of a side's captured pile: its stalemate score (§4).
    pub(crate) fn captured_value(&self, side: u8) -> u32 {
        self.captured[usize::from(side)]
            .iter()
            .map(|card| self.value(card.piece))
            .sum()
    }

    /// The pile of `owner` this round, if it has one.
    pub(crate) fn pile(&self, owner: Seat) -> Option<&Pile> {
        self.piles.get(owner.index()).and_then(Option::as_ref)
    }

    /// The first seat still in the game after `seat` in seat order, wrapping around (`seat`
    /// itself when it is the only one left).
    pub(crate) fn next_active_after(&self, seat: Seat) -> Option<Seat> {
        let n = self.seat_count();
        (1..=n)
            .map(|step| Seat(((seat.index() + step) % n) as u8))
            .find(|candidate| self.is_in(*candidate))
    }

    /// Where in the round the game is.
    pub(crate) fn step(&self) -> Step {
        if self.outcome.is_some() {
            Step::Finished
        } else {
            match self.pending.first() {
                Some(Pending::Gift { .. }) => Step::Gift,
                Some(Pending::Promotion { .. }) => Step::Promotion,
                None => Step::Play,
            }
        }
    }

    /// The seats that may act now.
    pub(crate) fn to_act(&self) -> SeatSet {
        match self.step() {
            Step::Finished => SeatSet::EMPTY,
            Step::Gift | Step::Promotion => self
                .pending
                .first()
                .map(|pending| SeatSet::only(pending.seat()))
                .unwrap_or(SeatSet::EMPTY),
            Step::Play => self.current.map(SeatSet::only).unwrap_or(SeatSet::EMPTY),
        }
    }
}

/// Cards in a hand.
pub(crate) fn hand_size(hand: &Hand) -> usize {
    hand.iter().map(|count| usize::from(*count)).sum()
}

/// The hand's cards, King first.
pub(crate) fn hand_cards(hand: &Hand) -> Vec<Role> {
    Role::ALL
        .iter()
        .rev()
        .flat_map(|piece| std::iter::repeat_n(*piece, usize::from(hand[piece.index()])))
        .collect()
}

/// Each piece the hand holds, once, King first.
pub(crate) fn distinct_pieces(hand: &Hand) -> impl Iterator<Item = Role> + '_ {
    Role::ALL
        .iter()
        .rev()
        .copied()
        .filter(|piece| hand[piece.index()] > 0)
}
