//! Which chess rules apply: each game builds a [`Rules`] from its config.

use super::piece::RoleSet;
use serde::{Deserialize, Serialize};

/// Whether moves may leave the mover's own king attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CheckRule {
    /// Standard legality: no move may leave the mover's own king attacked, and kings are never
    /// captured. A side without a king moves without this restriction.
    Legal,
    /// Pseudo-legal moves: check is not enforced, and capturing the enemy king is a move (the
    /// game using these rules ends the game on it; see [`super::MoveOutcome::king_captured`]).
    Ignored,
}

/// The rule switches of the chess core. [`Rules::standard`] is orthodox chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Whether castling moves exist (they still need the castling right, the king and rook on
    /// their home squares and empty squares between them).
    pub castling: bool,
    /// Whether a pawn may capture en passant right after an enemy pawn's double step.
    pub en_passant: bool,
    /// Whether a pawn on its start rank may move two squares forward.
    pub double_step: bool,
    /// The roles a pawn reaching the last rank may become. [`Role::Pawn`](super::Role::Pawn) in
    /// the set means it may also stay a pawn; an empty set means it always stays a pawn.
    pub promotion: RoleSet,
    /// Whether check is enforced.
    pub check: CheckRule,
    /// With [`CheckRule::Ignored`]: whether castling still needs the king not to be attacked on
    /// its start square, the square it passes or its target. Always applied with
    /// [`CheckRule::Legal`].
    pub castling_avoids_attacks: bool,
}

impl Rules {
    /// Orthodox chess: castling, en passant, double steps, promotion to Q/R/B/N, check enforced.
    pub const fn standard() -> Rules {
        Rules {
            castling: true,
            en_passant: true,
            double_step: true,
            promotion: RoleSet::STANDARD_PROMOTIONS,
            check: CheckRule::Legal,
            castling_avoids_attacks: true,
        }
    }

    /// Whether castling must avoid attacked squares under these rules.
    #[inline]
    pub(crate) const fn strict_castling(&self) -> bool {
        matches!(self.check, CheckRule::Legal) || self.castling_avoids_attacks
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}
