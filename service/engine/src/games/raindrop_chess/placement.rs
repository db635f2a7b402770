//! §3 placement squares, §4 blocking a check by a placement, and the §3 joker's removal targets.

use super::card::Card;
use super::state::{State, colour_of};
use crate::chess::{Bitboard, Color, Position, Role, Square, between};
use crate::seat::Seat;

/// §3 table: whether `card`'s piece of `colour` may stand on the empty `square` by its own
/// placement rule (pawn ranks, bishop colour option, King not on an attacked square).
fn allowed(position: &Position, card: Card, colour: Color, square: Square) -> bool {
    let rank = square.rank();
    // Light squares are those where file + rank is odd (a1 is dark).
    let light = (square.file() + rank) % 2 == 1;
    match card {
        Card::Pawn => match colour {
            Color::White => (1..=5).contains(&rank),
            Color::Black => (2..=6).contains(&rank),
        },
        Card::LightBishop => light,
        Card::DarkBishop => !light,
        Card::King => !position.is_attacked(square, colour.other()),
        Card::Knight | Card::Bishop | Card::Rook | Card::Queen => true,
        Card::Joker => false,
    }
}

/// What decides where `seat` may place a card's piece now (§3, §4).
struct Placement<'a> {
    position: &'a Position,
    card: Card,
    colour: Color,
    /// The seat's King, when it is in check: then a placement must block (§4).
    checked_king: Option<Square>,
}

impl<'a> Placement<'a> {
    /// The placement of `card` by `seat`; `None` for a card without a piece (the joker).
    fn new(state: &'a State, seat: Seat, card: Card) -> Option<Placement<'a>> {
        card.role()?;
        let colour = colour_of(seat);
        let position = &state.position;
        let checked_king = position
            .king(colour)
            .filter(|king| position.is_attacked(*king, colour.other()));
        Some(Placement {
            position,
            card,
            colour,
            checked_king,
        })
    }

    /// Whether the piece may go on `square`: empty, allowed by the §3 table, and, when the
    /// seat's King is in check, ending the check (§4: a blocker).
    fn allows(&self, square: Square) -> bool {
        let position = self.position;
        if position.occupied().contains(square)
            || !allowed(position, self.card, self.colour, square)
        {
            return false;
        }
        // A placed piece cannot capture: it ends a check only by standing in its way, which
        // is the King's attackers once the square is occupied. (A King card is never placed in
        // check: the checked King is the side's one King.)
        self.checked_king.is_none_or(|king| {
            let occupied = position.occupied().with(square);
            (position.attackers_to(king, occupied) & position.color_pieces(self.colour.other()))
                .is_empty()
        })
    }

    /// The squares the piece may go on, in square order.
    fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (!self.position.occupied()).filter(|square| self.allows(*square))
    }
}

/// §3, §4: the squares where `seat` may place the piece of `card`: empty, allowed by the §3
/// table, and, when the seat's King is in check, ending the check (§4: a blocker).
pub(crate) fn placement_squares(state: &State, seat: Seat, card: Card) -> Vec<Square> {
    Placement::new(state, seat, card).map_or_else(Vec::new, |placement| placement.squares().collect())
}

/// Whether [`placement_squares`] holds `square`, without listing them.
pub(crate) fn may_place(state: &State, seat: Seat, card: Card, square: Square) -> bool {
    Placement::new(state, seat, card).is_some_and(|placement| placement.allows(square))
}

/// Whether [`placement_squares`] holds any square, without listing them.
pub(crate) fn has_placement_square(state: &State, seat: Seat, card: Card) -> bool {
    Placement::new(state, seat, card).is_some_and(|placement| placement.squares().next().is_some())
}

/// §4 checkmate: whether a placement could block the check on `colour`'s King: exactly one
/// checking piece, with at least one empty square between it and the King (so not a knight, a
/// pawn or an adjacent piece).
pub(crate) fn block_possible(position: &Position, colour: Color) -> bool {
    let Some(king) = position.king(colour) else {
        return false;
    };
    let checkers = position.attackers(king, colour.other());
    match checkers.first() {
        Some(checker) if !checkers.has_several() => {
            (between(king, checker) & !position.occupied()).has_any()
        }
        _ => false,
    }
}

/// §3 joker `REMOVE_PIECE`, §4: the enemy pieces (not the King) `seat` may remove. In check,
/// only removals that end the check; never one that leaves the own King attacked.
pub(crate) fn removal_targets(state: &State, seat: Seat) -> Vec<Square> {
    let colour = colour_of(seat);
    let position = &state.position;
    let enemy: Bitboard = position.color_pieces(colour.other());
    enemy
        .filter(|square| position.piece_at(*square).map(|piece| piece.role) != Some(Role::King))
        .filter(|square| {
            let mut after = position.clone();
            after.remove(*square);
            !after.in_check(colour)
        })
        .collect()
}
