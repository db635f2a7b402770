//! §5 Chess adjustments: single pawn steps, no en passant, no castling, captures only with the
//! King placed, the one-use promotion pool and optional promotion.

use super::super::{Action, Card, ChessMove, Config, RaindropChess, State};
use super::support::{play, position_state, sq, state_with};
use crate::chess::{Color, Piece, Position, Role, RoleSet, Rules};
use crate::edition::Edition;
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

/// The state of `fen` (its castling rights and en passant square included), decks empty, the
/// side to move of the FEN acting.
fn fen_state(fen: &str) -> State {
    let position = Position::from_fen(fen).expect("a valid FEN");
    let seat = if position.side_to_move() == Color::White {
        Seat(0)
    } else {
        Seat(1)
    };
    state_with(
        Edition::LATEST,
        &Config::default(),
        position,
        [vec![], vec![]],
        seat,
    )
}

#[test]
fn s5_no_en_passant_even_where_an_orthodox_engine_would_capture() {
    // Black's d-pawn has just come to d5 beside White's e5 pawn, with the en passant square
    // set: orthodox chess lets exd6 capture it. Raindropchess has no en passant.
    let state = fen_state("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(state.position.en_passant(), Some(sq("d6")));
    let orthodox = state.position.legal_moves(&Rules::standard());
    assert!(
        orthodox
            .iter()
            .any(|m| m.from == sq("e5") && m.to == sq("d6")),
        "the orthodox engine captures en passant here"
    );
    let pawn: Vec<_> = moves_from(&state, Seat(0), "e5")
        .iter()
        .map(|m| m.to)
        .collect();
    assert_eq!(pawn, vec![sq("e6")]);
    let refused = RaindropChess::apply(&mut state.clone(), Seat(0), &mv("e5", "d6", None));
    assert!(refused.is_err());
}

#[test]
fn s5_a_pawn_step_beside_an_enemy_pawn_opens_no_en_passant() {
    // In play no pawn ever double-steps, so no move of a pawn sets an en passant square.
    let mut state = position_state(&["Ke1", "Pe5", "kb8", "pd6"], [vec![], vec![]], Seat(1));
    play(&mut state, Seat(1), mv("d6", "d5", None));
    assert_eq!(state.position.en_passant(), None);
    let pawn: Vec<_> = moves_from(&state, Seat(0), "e5")
        .iter()
        .map(|m| m.to)
        .collect();
    assert_eq!(pawn, vec![sq("e6")]);
}

#[test]
fn s5_no_castling_even_with_king_and_rooks_on_their_home_squares() {
    // King and rooks on their home squares, nothing between, every castling right set: an
    // orthodox engine castles on both wings, for both sides. Raindropchess never castles.
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ] {
        let state = fen_state(fen);
        let seat = state.current;
        let king = if seat == Seat(0) { "e1" } else { "e8" };
        let wings = if seat == Seat(0) {
            ["g1", "c1"]
        } else {
            ["g8", "c8"]
        };
        let orthodox: Vec<_> = state
            .position
            .legal_moves(&Rules::standard())
            .iter()
            .filter(|m| m.from == sq(king))
            .map(|m| m.to)
            .collect();
        for wing in wings {
            assert!(
                orthodox.contains(&sq(wing)),
                "{fen}: orthodox castles to {wing}"
            );
            assert!(
                !moves_from(&state, seat, king)
                    .iter()
                    .any(|m| m.to == sq(wing)),
                "{fen}: castling to {wing} is listed"
            );
            let refused = RaindropChess::apply(&mut state.clone(), seat, &mv(king, wing, None));
            assert!(refused.is_err(), "{fen}: castling to {wing} applies");
        }
    }
}

#[test]
fn s5_kings_and_rooks_placed_on_their_home_squares_get_no_castling_right() {
    let mut state = position_state(
        &["Ra1", "Rh1", "ke8"],
        [vec![Card::Pawn, Card::King], vec![Card::Pawn]],
        Seat(0),
    );
    play(&mut state, Seat(0), Action::Flip);
    play(&mut state, Seat(0), Action::Place(sq("e1")));
    assert!(state.position.castling_rights().is_empty());
    play(&mut state, Seat(1), mv("e8", "d8", None));
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
fn s5_once_the_four_pool_pieces_are_used_a_pawn_reaching_the_last_rank_stays_a_pawn() {
    // Five White pawns on the seventh rank: the first four promotions use up the pool, in play.
    let mut state = position_state(
        &["Ka1", "Pb7", "Pc7", "Pd7", "Pe7", "Pf7", "kh5"],
        [vec![], vec![]],
        Seat(0),
    );
    let promotions = [
        ("b7", "b8", Role::Queen),
        ("c7", "c8", Role::Rook),
        ("d7", "d8", Role::Bishop),
        ("e7", "e8", Role::Knight),
    ];
    for (index, (from, to, role)) in promotions.into_iter().enumerate() {
        play(&mut state, Seat(0), mv(from, to, Some(role)));
        assert!(!state.pools[0].contains(role));
        let (king_from, king_to) = if index % 2 == 0 {
            ("h5", "h6")
        } else {
            ("h6", "h5")
        };
        play(&mut state, Seat(1), mv(king_from, king_to, None));
    }
    assert_eq!(state.pools[0], RoleSet::EMPTY);
    // The fifth pawn has exactly one way forward: as a pawn.
    assert_eq!(
        moves_from(&state, Seat(0), "f7"),
        vec![ChessMove {
            from: sq("f7"),
            to: sq("f8"),
            promotion: None,
        }]
    );
    let refused = RaindropChess::apply(
        &mut state.clone(),
        Seat(0),
        &mv("f7", "f8", Some(Role::Queen)),
    );
    assert!(refused.is_err());
    play(&mut state, Seat(0), mv("f7", "f8", None));
    assert_eq!(
        state.position.piece_at(sq("f8")),
        Some(Piece::new(Color::White, Role::Pawn))
    );
    play(&mut state, Seat(1), mv("h5", "h6", None));
    assert!(
        moves_from(&state, Seat(0), "f8").is_empty(),
        "it can never move again"
    );
}
