//! §3 placement squares, §4 blocking a check by a placement, and the §3 joker's removal targets.

use super::card::Card;
use super::state::{State, colour_of};
use crate::chess::{Bitboard, Color, Piece, Position, Role, Square, between};
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

/// §3, §4: the squares where `seat` may place the piece of `card`: empty, allowed by the §3
/// table, and, when the seat's King is in check, ending the check (§4: a blocker).
pub(crate) fn placement_squares(state: &State, seat: Seat, card: Card) -> Vec<Square> {
    let colour = colour_of(seat);
    let Some(role) = card.role() else {
        return Vec::new();
    };
    let position = &state.position;
    let in_check = position.in_check(colour);
    let empty = !position.occupied();
    empty
        .filter(|square| allowed(position, card, colour, *square))
        .filter(|square| {
            !in_check || {
                let mut after = position.clone();
                after
                    .place(Piece::new(colour, role), *square)
                    .expect("the square is empty");
                !after.in_check(colour)
            }
        })
        .collect()
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
