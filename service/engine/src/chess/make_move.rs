//! Playing a move on a position.

use super::castling::CastleSide;
use super::moves::{Move, MoveKind};
use super::piece::{Color, Piece, Role};
use super::position::Position;
use super::square::Square;

/// What a played move did, for the game built on the core (captures, king captures, events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The piece that moved (before any promotion).
    pub moved: Piece,
    /// The piece captured, if any.
    pub captured: Option<Piece>,
    /// The square the captured piece stood on (differs from the target for en passant).
    pub captured_on: Option<Square>,
    /// Whether the captured piece was a king (only possible under
    /// [`CheckRule::Ignored`](super::CheckRule::Ignored)).
    pub king_captured: bool,
    /// The role the pawn promoted to, if it did.
    pub promoted: Option<Role>,
    /// The wing castled to, if the move was castling.
    pub castled: Option<CastleSide>,
}

impl Position {
    /// Plays `mv`, which must be one of [`Position::legal_moves`] (under whichever rules the
    /// caller uses). Hands the move to the other side, updates castling rights, sets the en
    /// passant square after a [`MoveKind::DoubleStep`] (and clears it otherwise) and advances
    /// the clocks.
    ///
    /// # Panics
    /// If no piece stands on `mv.from`: such a move never comes from the generator.
    pub fn play(&mut self, mv: &Move) -> MoveOutcome {
        let moved = self
            .take(mv.from)
            .unwrap_or_else(|| panic!("no piece on {} to play {mv}", mv.from));
        let captured_on = match mv.kind {
            MoveKind::EnPassant => Square::from_coords(mv.to.file(), mv.from.rank()),
            _ => Some(mv.to),
        };
        let captured = captured_on.and_then(|sq| self.take(sq));
        let captured_on = captured.and(captured_on);
        let role = mv.promotion.unwrap_or(moved.role);
        self.put(mv.to, Piece::new(moved.color, role));

        let mut castled = None;
        if mv.kind == MoveKind::Castle
            && let Some(side) = CastleSide::from_king_target(mv.to, moved.color)
        {
            if let Some(rook) = self.take(side.rook_from(moved.color)) {
                self.put(side.rook_to(moved.color), rook);
            }
            castled = Some(side);
        }

        self.castling = self.castling.touched(mv.from).touched(mv.to);
        self.ep = match mv.kind {
            MoveKind::DoubleStep => {
                Square::from_coords(mv.from.file(), u8::midpoint(mv.from.rank(), mv.to.rank()))
            }
            _ => None,
        };
        if moved.role == Role::Pawn || captured.is_some() {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if moved.color == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = moved.color.other();
        MoveOutcome {
            moved,
            captured,
            captured_on,
            king_captured: captured.is_some_and(|p| p.role == Role::King),
            promoted: mv.promotion,
            castled,
        }
    }

    /// The position after `mv` (see [`Position::play`]).
    #[must_use]
    pub fn after(&self, mv: &Move) -> Position {
        let mut next = self.clone();
        next.play(mv);
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, START_FEN};

    fn play_uci(pos: &mut Position, uci: &str) -> MoveOutcome {
        let mv = Move::parse_uci(uci, pos, &Rules::standard()).expect("legal move");
        pos.play(&mv)
    }

    #[test]
    fn double_step_sets_en_passant_and_clocks_advance() {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        play_uci(&mut pos, "e2e4");
        assert_eq!(pos.en_passant(), "e3".parse().ok());
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (0, 1));
        play_uci(&mut pos, "g8f6");
        assert_eq!(pos.en_passant(), None);
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (1, 2));
    }

    #[test]
    fn en_passant_removes_the_passed_pawn() {
        let mut pos =
            Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
                .unwrap();
        let outcome = play_uci(&mut pos, "e5f6");
        assert_eq!(outcome.captured, Some(Piece::new(Color::Black, Role::Pawn)));
        assert_eq!(outcome.captured_on, "f5".parse().ok());
        assert_eq!(pos.piece_at("f5".parse().unwrap()), None);
        assert_eq!(
            pos.fen(),
            "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
        );
    }

    #[test]
    fn castling_moves_the_rook_and_ends_the_rights() {
        let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10").unwrap();
        let outcome = play_uci(&mut pos, "e1g1");
        assert_eq!(outcome.castled, Some(CastleSide::King));
        assert_eq!(pos.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 4 10");
        let outcome = play_uci(&mut pos, "a8a1");
        assert_eq!(outcome.captured, Some(Piece::new(Color::White, Role::Rook)));
        assert_eq!(pos.fen(), "4k2r/8/8/8/8/8/8/r4RK1 w k - 0 11");
    }

    #[test]
    fn promotion_changes_the_role() {
        let mut pos = Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let outcome = play_uci(&mut pos, "a7b8n");
        assert_eq!(outcome.promoted, Some(Role::Knight));
        assert_eq!(outcome.moved, Piece::new(Color::White, Role::Pawn));
        assert_eq!(
            pos.piece_at(Square::B8),
            Some(Piece::new(Color::White, Role::Knight))
        );
        assert!(!outcome.king_captured);
    }
}
