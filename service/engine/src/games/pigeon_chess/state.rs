//! The authoritative Pigeon Chess state and the small queries every rule module shares.
//!
//! Layout decisions (docs/rules/pigeon_chess.md §1, §7.2): seat 0 owns rows 1–2 (back row 1, front
//! row 2), seat 1 owns rows 3–4 (front row 3, back row 4). Hands are multisets (a count per
//! piece), because cards of one piece are interchangeable. Decks are drawn from the end of their
//! vector, which is the "top" of the pile.

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::event::RowSide;
use super::observation::Phase;
use super::piece::{COLUMNS, Role, Spot};
use crate::edition::Edition;
use crate::game::Outcome;
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet};

/// Number of seats: Pigeon Chess is a two-player game.
pub(crate) const SEATS: usize = 2;

/// A hand: how many cards of each piece, indexed by [`Role::index`].
pub(crate) type Hand = [u8; 6];

/// One card on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Card {
    /// The seat whose deck the card came from.
    pub(crate) owner: Seat,
    /// The printed piece.
    pub(crate) piece: Role,
    /// Whether the card lies face down (hidden from the opponent, §6).
    pub(crate) face_down: bool,
}

/// The complete state of one Pigeon Chess game, including deck order and the generator. It never
/// leaves the server; clients see [`super::Observation`]s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The effective options.
    pub(crate) config: Config,
    /// The rules edition the game was dealt under (`edition.rs`).
    pub(crate) edition: Edition,
    /// The generator every shuffle draws from.
    pub(crate) rng: GameRng,
    /// Each seat's draw pile; the last element is the top card.
    pub(crate) decks: [Vec<Role>; SEATS],
    /// Each seat's hand.
    pub(crate) hands: [Hand; SEATS],
    /// The 12 spots, in the order of [`Spot::all`].
    pub(crate) board: [Option<Card>; 12],
    /// Each seat's point pile, oldest first.
    pub(crate) point_piles: [Vec<Role>; SEATS],
    /// The group discard, oldest first.
    pub(crate) discard: Vec<Role>,
    /// Whether each seat's King has been attacked (§4, §7.5).
    pub(crate) king_attacked: [bool; SEATS],
    /// The stage of the game.
    pub(crate) phase: Phase,
    /// §2.4: each seat's secret first-player pick, kept until both have picked.
    pub(crate) first_picks: [Option<Role>; SEATS],
    /// §2.3, §7.3: the seat whose back row arrived first.
    pub(crate) back_row_first: Option<Seat>,
    /// §2.4: the cards each seat revealed to choose the first player, public once both picked.
    pub(crate) first_reveals: [Vec<Role>; SEATS],
    /// The first player, once chosen.
    pub(crate) first_player: Option<Seat>,
    /// Whose turn it is during play.
    pub(crate) current: Option<Seat>,
    /// Turns completed in play, passes included (§5(f)).
    pub(crate) turns_taken: u32,
    /// Consecutive completed turns without progress (§5(e)).
    pub(crate) turns_without_progress: u32,
    /// Whether the last completed turn was a pass (§5(b): two passes in a row end the game).
    pub(crate) last_turn_passed: bool,
    /// The result, once over.
    pub(crate) outcome: Option<Outcome>,
}

impl State {
    /// An empty state before any card is dealt: decks unbuilt, phase [`Phase::FrontRow`].
    pub(crate) fn empty(config: Config, edition: Edition, rng: GameRng) -> State {
        State {
            config,
            edition,
            rng,
            decks: [Vec::new(), Vec::new()],
            hands: [[0; 6]; SEATS],
            board: [None; 12],
            point_piles: [Vec::new(), Vec::new()],
            discard: Vec::new(),
            king_attacked: [false; SEATS],
            phase: Phase::FrontRow,
            first_picks: [None; SEATS],
            back_row_first: None,
            first_reveals: [Vec::new(), Vec::new()],
            first_player: None,
            current: None,
            turns_taken: 0,
            turns_without_progress: 0,
            last_turn_passed: false,
            outcome: None,
        }
    }

    /// The card on `spot`, if any.
    pub(crate) fn card(&self, spot: Spot) -> Option<Card> {
        self.board[spot.index()]
    }

    /// Cards `seat` holds.
    pub(crate) fn hand_count(&self, seat: Seat) -> usize {
        hand_size(&self.hands[seat.index()])
    }

    /// Cards `seat` has on the board, face up or down.
    pub(crate) fn board_count(&self, seat: Seat) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|card| card.owner == seat)
            .count()
    }

    /// Whether the seat's front (or back) row has been filled in the current setup step.
    pub(crate) fn row_filled(&self, seat: Seat, side: RowSide) -> bool {
        row_spots(seat, side)
            .iter()
            .all(|spot| self.card(*spot).is_some())
    }

    /// During a setup step, whether `seat` has made its secret choice.
    pub(crate) fn committed(&self, seat: Seat) -> bool {
        match self.phase {
            Phase::FrontRow => self.row_filled(seat, RowSide::Front),
            Phase::BackRow => self.row_filled(seat, RowSide::Back),
            Phase::FirstPlayer => self.first_picks[seat.index()].is_some(),
            Phase::Play | Phase::Finished => false,
        }
    }

    /// The seats that may act now.
    pub(crate) fn to_act(&self) -> SeatSet {
        match self.phase {
            Phase::FrontRow | Phase::BackRow | Phase::FirstPlayer => {
                seats().filter(|seat| !self.committed(*seat)).collect()
            }
            Phase::Play => self.current.map(SeatSet::only).unwrap_or(SeatSet::EMPTY),
            Phase::Finished => SeatSet::EMPTY,
        }
    }

    /// §4: whether `seat`'s King is alive: never attacked, and the deck has a King at all.
    pub(crate) fn king_alive(&self, seat: Seat) -> bool {
        self.config.count(Role::King) > 0 && !self.king_attacked[seat.index()]
    }

    /// §4: the point pile plus 3 for a living King.
    pub(crate) fn score(&self, seat: Seat) -> u32 {
        let bonus = if self.king_alive(seat) { 3 } else { 0 };
        self.point_piles[seat.index()].len() as u32 + bonus
    }

    /// The cards of `seat` still in the game (draw pile, hand and grid, face up or down), and
    /// how many of them are Pawns. Both counts follow from public facts: the deck's make-up
    /// and the cards that have left the game.
    fn cards_in_game(&self, seat: Seat) -> (usize, usize) {
        let deck = &self.decks[seat.index()];
        let hand = &self.hands[seat.index()];
        let on_grid: Vec<Role> = self
            .board
            .iter()
            .flatten()
            .filter(|card| card.owner == seat)
            .map(|card| card.piece)
            .collect();
        let total = deck.len() + hand_size(hand) + on_grid.len();
        let pawns = deck.iter().chain(&on_grid).filter(|piece| **piece == Role::Pawn).count()
            + usize::from(hand[Role::Pawn.index()]);
        (total, pawns)
    }

    /// §7.16: whether `seat` could still end with the higher score (§4), whatever is played.
    /// At best it adds a point for every card the opponent still has in the game (any of them
    /// might yet be attacked by a piece other than a Pawn) and for every Pawn of its own still
    /// in the game (any of them might yet cross the board), and keeps its King bonus if its
    /// King is alive. The opponent keeps at least its point pile, which never shrinks (its own
    /// King bonus may still be lost). Equal scores draw, so a seat whose best cannot pass that
    /// can never win.
    pub(crate) fn can_win(&self, seat: Seat) -> bool {
        let opponent = seat.opponent();
        let (_, own_pawns) = self.cards_in_game(seat);
        let (opponent_cards, _) = self.cards_in_game(opponent);
        let bonus = if self.king_alive(seat) { 3 } else { 0 };
        let best = self.point_piles[seat.index()].len() + opponent_cards + own_pawns + bonus;
        best > self.point_piles[opponent.index()].len()
    }
}

/// Both seats, in order.
pub(crate) fn seats() -> impl Iterator<Item = Seat> {
    (0..SEATS as u8).map(Seat)
}

/// Cards in a hand.
pub(crate) fn hand_size(hand: &Hand) -> usize {
    hand.iter().map(|count| usize::from(*count)).sum()
}

/// The hand's cards, highest worth first.
pub(crate) fn hand_cards(hand: &Hand) -> Vec<Role> {
    Role::ALL
        .iter()
        .rev()
        .flat_map(|piece| std::iter::repeat_n(*piece, usize::from(hand[piece.index()])))
        .collect()
}

/// §1: the row index (0 = row 1) of `seat`'s front or back row.
pub(crate) fn row_index(seat: Seat, side: RowSide) -> i8 {
    match (seat.0, side) {
        (0, RowSide::Back) => 0,
        (0, RowSide::Front) => 1,
        (_, RowSide::Front) => 2,
        (_, RowSide::Back) => 3,
    }
}

/// The three spots of a row, columns a, b, c.
pub(crate) fn row_spots(seat: Seat, side: RowSide) -> [Spot; 3] {
    let row = row_index(seat, side);
    let spot = |column: i8| Spot::at(column, row).expect("rows 0..4 and columns 0..3 exist");
    debug_assert_eq!(COLUMNS, 3);
    [spot(0), spot(1), spot(2)]
}

/// §1: the row step that is "forward" for `seat`.
pub(crate) fn forward(seat: Seat) -> i8 {
    if seat.0 == 0 { 1 } else { -1 }
}
