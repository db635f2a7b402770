//! The authoritative Card Chess state and the small queries every rule module shares.
//!
//! Layout (docs/rules/card_chess.md §1, §2.4): seat 0 is Red and owns the red castle (rank 0),
//! seat 1 is Black and owns the black castle (rank 4). Hands are kept sorted, because cards of
//! the two decks that are equal cannot be told apart and the order in which they were drawn is
//! not part of the game (§8.15). The draw pile is drawn from the end of its vector (the "top").

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::observation::Phase;
use super::spot::{BoardRank, SIZE, SPOTS, Spot};
use crate::cards::{Card, Colour};
use crate::edition::Edition;
use crate::game::Outcome;
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet};

/// Number of seats: Card Chess is a two-player game.
pub(crate) const SEATS: usize = 2;

/// §2.3, §3: the hand size dealt and refilled to.
pub(crate) const HAND_SIZE: usize = 5;

/// §3.A: a player may play in only while fewer than this many of its pieces are in play. §6: the
/// same number of checks wins.
pub(crate) const MAX_IN_PLAY: usize = 5;

/// One spot: its face-down base card, whether that card is known, and the piece on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SpotState {
    /// The face-down base card (§1).
    pub(crate) base: Card,
    /// Whether the base card has ever been seen face up (§1 `baseKnown`).
    pub(crate) base_known: bool,
    /// The face-up piece on top, owned by the seat of its colour.
    pub(crate) piece: Option<Card>,
    /// Whether the spot and its piece are in check (§3 Check): permanent.
    pub(crate) in_check: bool,
}

/// The complete state of one Card Chess game, including every base card, the draw-pile order
/// and the generator. It never leaves the server; clients see [`super::Observation`]s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The effective options.
    pub(crate) config: Config,
    /// The rules edition the game was dealt under (`edition.rs`).
    pub(crate) edition: Edition,
    /// The generator every shuffle draws from.
    pub(crate) rng: GameRng,
    /// The 25 spots, in the order of [`Spot::all`].
    pub(crate) board: [SpotState; SPOTS],
    /// Each seat's hand, sorted.
    pub(crate) hands: [Vec<Card>; SEATS],
    /// The draw pile; the last element is the top card.
    pub(crate) draw_pile: Vec<Card>,
    /// The discard pile, oldest first.
    pub(crate) discard: Vec<Card>,
    /// The stage of the game.
    pub(crate) phase: Phase,
    /// The seat to act (meaningless once the game is over).
    pub(crate) current: Seat,
    /// During [`Phase::Replacement`], the spot of the capture.
    pub(crate) replacement_spot: Option<Spot>,
    /// Whether each seat's previous turn was an exchange (§3.B).
    pub(crate) exchanged_last: [bool; SEATS],
    /// Turns completed (§9 hard cap). A turn ends only once its action has fully resolved,
    /// replacement choice included, so this is also the number of the turn in progress
    /// ([`crate::Game::turn_number`], §8.18).
    pub(crate) turns_taken: u32,
    /// Consecutive completed turns without a capture, play-in or new check (§9).
    pub(crate) turns_without_progress: u32,
    /// §6: both hands, shown when the game ended because a seat had no legal action.
    pub(crate) shown_hands: Option<[Vec<Card>; SEATS]>,
    /// The result, once over.
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// The face-down base card of `spot`, and whether it has ever been seen face up (§1
    /// `baseKnown`). A base card that has not been face up is secret from everyone: this is for
    /// tools and tests that hold the authoritative state (such as a replay of a finished game),
    /// never for building what a client sees; observations go through [`super::Observation`].
    pub fn base_card(&self, spot: Spot) -> (Card, bool) {
        let here = &self.board[spot.index()];
        (here.base, here.base_known)
    }

    /// The seats that may act now.
    pub(crate) fn to_act(&self) -> SeatSet {
        if self.outcome.is_some() {
            SeatSet::EMPTY
        } else {
            SeatSet::only(self.current)
        }
    }

    /// The spot's state.
    pub(crate) fn spot(&self, spot: Spot) -> &SpotState {
        &self.board[spot.index()]
    }

    /// The piece on `spot`, if any.
    pub(crate) fn piece(&self, spot: Spot) -> Option<Card> {
        self.board[spot.index()].piece
    }

    /// The seat owning the piece on `spot`, if any.
    pub(crate) fn piece_owner(&self, spot: Spot) -> Option<Seat> {
        self.piece(spot).map(owner_of)
    }

    /// §3.A: `seat`'s pieces on the board that are not in check.
    pub(crate) fn pieces_in_play(&self, seat: Seat) -> usize {
        // A sum of flags rather than a filter: which spots hold such a piece follows no
        // pattern, and adding without branching is cheaper than guessing.
        let colour = colour_of(seat);
        self.board
            .iter()
            .map(|spot| {
                let own = spot.piece.is_some_and(|card| card.colour() == colour);
                usize::from(own & !spot.in_check)
            })
            .sum()
    }

    /// §6: spots of the opponent's castle in check with `seat`'s pieces.
    pub(crate) fn checks(&self, seat: Seat) -> usize {
        rank_spots(opponent_castle(seat))
            .filter(|spot| {
                let state = self.spot(*spot);
                state.in_check && state.piece.is_some_and(|card| owner_of(card) == seat)
            })
            .count()
    }

    /// §3.A: the spots of `seat`'s castle with no piece and not in check.
    pub(crate) fn free_castle_spots(&self, seat: Seat) -> impl Iterator<Item = Spot> + '_ {
        rank_spots(own_castle(seat)).filter(|spot| {
            let state = self.spot(*spot);
            state.piece.is_none() && !state.in_check
        })
    }

    /// Cards `seat` holds.
    pub(crate) fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat.index()]
    }

    /// Removes one `card` from `seat`'s hand; `false` when the hand holds none.
    pub(crate) fn take_from_hand(&mut self, seat: Seat, card: Card) -> bool {
        let hand = &mut self.hands[seat.index()];
        match hand.iter().position(|held| *held == card) {
            Some(index) => {
                hand.remove(index);
                true
            }
            None => false,
        }
    }
}

/// Both seats, in order.
pub(crate) fn seats() -> impl Iterator<Item = Seat> {
    (0..SEATS as u8).map(Seat)
}

/// §1, §2.4: seat 0 plays Red, seat 1 Black.
pub(crate) fn colour_of(seat: Seat) -> Colour {
    if seat.0 == 0 {
        Colour::Red
    } else {
        Colour::Black
    }
}

/// The seat playing `colour`.
pub(crate) fn seat_of(colour: Colour) -> Seat {
    match colour {
        Colour::Red => Seat(0),
        Colour::Black => Seat(1),
    }
}

/// §1: the seat that owns a card, by its colour.
pub(crate) fn owner_of(card: Card) -> Seat {
    seat_of(card.colour())
}

/// `seat`'s own castle rank.
pub(crate) fn own_castle(seat: Seat) -> BoardRank {
    BoardRank::castle(colour_of(seat))
}

/// The opponent's castle rank: where `seat`'s pieces go into check.
pub(crate) fn opponent_castle(seat: Seat) -> BoardRank {
    BoardRank::castle(colour_of(seat).other())
}

/// §4: the rank step that is "forward" for `seat`, towards the opponent's castle.
pub(crate) fn forward(seat: Seat) -> i8 {
    if seat.0 == 0 { 1 } else { -1 }
}

/// The five spots of `rank`, files 1 to 5.
pub(crate) fn rank_spots(rank: BoardRank) -> impl Iterator<Item = Spot> {
    (1..=SIZE).filter_map(move |file| Spot::new(rank, file))
}

/// Each distinct card of `cards` once, in sorted order.
pub(crate) fn distinct(cards: &[Card]) -> Vec<Card> {
    let mut out = cards.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// Calls `each` with each distinct card of `cards` once, in sorted order, as [`distinct`]
/// lists them; a sorted hand (as every hand of a game is) is walked without copying it.
pub(crate) fn for_each_distinct(cards: &[Card], mut each: impl FnMut(Card)) {
    if !cards.is_sorted() {
        distinct(cards).into_iter().for_each(each);
        return;
    }
    let mut last = None;
    for &card in cards {
        if last != Some(card) {
            each(card);
            last = Some(card);
        }
    }
}
