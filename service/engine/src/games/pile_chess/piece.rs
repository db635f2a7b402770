//! Pieces and cards (docs/rules/pile_chess.md §1).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::seat::Seat;

/// A card shows a chess [`Role`]. The order of roles (Pawn lowest, King highest) is only used to
/// list cards in a stable order; a piece's worth in a pile comes from [`super::Config::values`].
pub(super) use crate::chess::Role;

/// §1: cards in each player's 16-card deck, indexed by [`Role::index`]: 8 Pawns, 2 Knights,
/// 2 Bishops, 2 Rooks, 1 Queen and 1 King.
pub const DECK: [u8; 6] = [8, 2, 2, 2, 1, 1];

/// §1: cards in one deck.
pub const DECK_SIZE: usize = 16;

/// One card: a piece and the seat whose colour it has (its owner, §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Card {
    /// The seat whose deck the card belongs to.
    pub owner: Seat,
    /// The printed piece.
    pub piece: Role,
}

impl Card {
    /// A card of `owner` showing `piece`.
    pub fn new(owner: Seat, piece: Role) -> Card {
        Card { owner, piece }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.piece, self.owner.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_holds_sixteen_cards_and_pieces_index_their_arrays() {
        assert_eq!(
            DECK.iter().map(|count| usize::from(*count)).sum::<usize>(),
            DECK_SIZE
        );
        for (index, piece) in Role::ALL.iter().enumerate() {
            assert_eq!(piece.index(), index);
        }
        assert_eq!(Card::new(Seat(2), Role::Rook).to_string(), "R2");
    }
}
