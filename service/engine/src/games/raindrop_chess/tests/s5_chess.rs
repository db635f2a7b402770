//! §5 Chess adjustments: single pawn steps, no en passant, no castling, captures only with the
//! King placed, the one-use promotion pool and optional promotion.

use super::super::{Action, Card, ChessMove, RaindropChess};
use super::support::{play, position_state, sq};
use crate::chess::{Color, Piece, Role};
use crate::game::Game;
use crate::seat::Seat;

fn moves_from(state: &super::super::State, seat: Seat, from: &str) -> Vec<ChessMove> {
    RaindropChess::legal_actions(state, seat)
        .into_iter()
        .filter_map(|action| match action {
            Action::Move(mv) if mv.from == sq(from) => Some(mv),
            _ => None,
        })
        .collect()
}

fn mv(from: &str, to: &str, promotion: Option<Role>) -> Action {
    Action::Move(ChessMove {
        from: sq(from),
        to: sq(to),
        promotion,
    })
}

#[test]
fn s5_pawns_step_one_square_and_never_double() {
    let state = position_state(&["Kh1", "Pe2", "kh8"], [vec![], vec![]], Seat(0));
    let moves = moves_from(&state, Seat(0), "e2");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].to, sq("e3"));
}

#[test]
fn s5_there_is_no_en_passant_and_no_castling() {
    let mut state = position_state(
        &["Ke1", "Ra1", "Rh1", "Pe5", "kb8", "pd6"],
        [vec![], vec![]],
        Seat(1),
    );
    play(&mut state, Seat(1), mv("d6", "d5", None));
    let pawn = moves_from(&state, Seat(0), "e5");
    assert_eq!(
        pawn.iter().map(|m| m.to).collect::<Vec<_>>(),
        vec![sq("e6")]
    );
    let king: Vec<_> = moves_from(&state, Seat(0), "e1")
        .iter()
        .map(|m| m.to)
        .collect();
    assert!(!king.contains(&sq("g1")) && !king.contains(&sq("c1")));
}

#[test]
fn s5_no_chess_move_or_capture_before_the_own_king_is_placed() {
    let state = position_state(&["Qd1", "qd8", "ke8"], [vec![Card::Pawn], vec![]], Seat(0));
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
    let error = RaindropChess::apply(&mut state.clone(), Seat(0), &mv("d1", "d8", None));
    assert!(error.is_err());
}

#[test]
fn s5_promotion_uses_each_pool_piece_once_and_is_optional() {
    let mut state = position_state(
        &["Kh1", "Pa7", "Pb7", "kh6", "pg5"],
        [vec![], vec![]],
        Seat(0),
    );
    let choices: Vec<_> = moves_from(&state, Seat(0), "a7")
        .iter()
        .map(|m| m.promotion)
        .collect();
    assert_eq!(choices.len(), 5);
    assert!(choices.contains(&None) && choices.contains(&Some(Role::Queen)));
    play(&mut state, Seat(0), mv("a7", "a8", Some(Role::Queen)));
    assert_eq!(
        state.position.piece_at(sq("a8")),
        Some(Piece::new(Color::White, Role::Queen))
    );
    play(&mut state, Seat(1), mv("g5", "g4", None));
    let choices: Vec<_> = moves_from(&state, Seat(0), "b7")
        .iter()
        .map(|m| m.promotion)
        .collect();
    assert!(!choices.contains(&Some(Role::Queen)), "the queen is used");
    assert_eq!(choices.len(), 4);
    // Declining: the pawn stays on the last rank and cannot move on.
    play(&mut state, Seat(0), mv("b7", "b8", None));
    assert_eq!(
        state.position.piece_at(sq("b8")),
        Some(Piece::new(Color::White, Role::Pawn))
    );
    play(&mut state, Seat(1), mv("g4", "g3", None));
    assert!(moves_from(&state, Seat(0), "b8").is_empty());
}

#[test]
fn s5_an_empty_pool_leaves_the_pawn_a_pawn_and_captured_pieces_do_not_return() {
    let mut state = position_state(&["Kh1", "Pa7", "kh8", "rb8"], [vec![], vec![]], Seat(0));
    state.pools[0] = crate::chess::RoleSet::EMPTY.with(Role::Knight);
    play(&mut state, Seat(0), mv("a7", "b8", Some(Role::Knight)));
    assert_eq!(state.pools[0], crate::chess::RoleSet::EMPTY);
    let mut after = state.clone();
    // Black captures the knight: it does not go back into the pool.
    after.position.remove(sq("b8"));
    after
        .position
        .place(Piece::new(Color::Black, Role::Rook), sq("b1"))
        .unwrap();
    assert_eq!(after.pools[0], crate::chess::RoleSet::EMPTY);
}
