//! §6 End of game: checkmate and a failed flip win; stalemate, the 75-move rule, fivefold
//! repetition and insufficient material draw.

use super::super::{Action, ChessMove, RaindropChess};
use super::support::{play, position_state, sq};
use crate::game::{EndReason, Game, Outcome};
use crate::seat::Seat;

fn mv(from: &str, to: &str) -> Action {
    Action::Move(ChessMove {
        from: sq(from),
        to: sq(to),
        promotion: None,
    })
}

#[test]
fn s6_checkmate_by_a_chess_move_wins_unless_a_flip_could_block() {
    let pieces = ["Ka1", "Rb7", "Rc1", "kh8"];
    let mut state = position_state(&pieces, [vec![], vec![]], Seat(0));
    play(&mut state, Seat(0), mv("c1", "c8"));
    assert_eq!(
        state.outcome,
        Some(Outcome::win(Seat(0), EndReason::NoLegalAction))
    );
    // With a card left, Black may still flip to block on d8-g8 (§4).
    let mut state = position_state(&pieces, [vec![], vec![super::super::Card::Knight]], Seat(0));
    play(&mut state, Seat(0), mv("c1", "c8"));
    assert_eq!(state.outcome, None);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(1)),
        vec![Action::Flip]
    );
}

#[test]
fn s6_seventy_five_moves_without_progress_draw() {
    let mut state = position_state(&["Ka1", "Ra8", "kh1", "rh8"], [vec![], vec![]], Seat(0));
    state.config.no_progress_plies = 4;
    state.config.repetitions = 0;
    play(&mut state, Seat(0), mv("a8", "b8"));
    play(&mut state, Seat(1), mv("h8", "g8"));
    play(&mut state, Seat(0), mv("b8", "c8"));
    assert_eq!(state.outcome, None);
    play(&mut state, Seat(1), mv("g8", "f8"));
    assert_eq!(state.outcome, Some(Outcome::draw(EndReason::NoProgress)));
}

#[test]
fn s6_fivefold_repetition_draws() {
    let mut state = position_state(&["Ka1", "Ra8", "kh1", "rh8"], [vec![], vec![]], Seat(0));
    for _ in 0..3 {
        play(&mut state, Seat(0), mv("a8", "b8"));
        play(&mut state, Seat(1), mv("h8", "g8"));
        play(&mut state, Seat(0), mv("b8", "a8"));
        play(&mut state, Seat(1), mv("g8", "h8"));
        if state.outcome.is_some() {
            break;
        }
    }
    // The start position occurred at plies 0, 4, 8, 12 and, for the fifth time, ...
    assert_eq!(state.outcome, None);
    play(&mut state, Seat(0), mv("a8", "b8"));
    play(&mut state, Seat(1), mv("h8", "g8"));
    play(&mut state, Seat(0), mv("b8", "a8"));
    play(&mut state, Seat(1), mv("g8", "h8"));
    // ... at ply 16.
    assert_eq!(state.outcome, Some(Outcome::draw(EndReason::NoProgress)));
}

#[test]
fn s6_insufficient_material_draws_once_both_decks_are_empty() {
    let state = position_state(&["Ka1", "Nb1", "kh8"], [vec![], vec![]], Seat(0));
    assert_eq!(state.outcome, Some(Outcome::draw(EndReason::NoProgress)));
    let pending = position_state(
        &["Ka1", "Nb1", "kh8"],
        [vec![], vec![super::super::Card::Pawn]],
        Seat(0),
    );
    assert_eq!(pending.outcome, None);
    let rook = position_state(&["Ka1", "Rb1", "kh8"], [vec![], vec![]], Seat(0));
    assert_eq!(rook.outcome, None);
}

#[test]
fn s6_resignation_and_agreement_come_from_the_table() {
    use crate::table::{MetaAction, Table, TableAction};
    let (mut table, _) =
        Table::<RaindropChess>::new(&Default::default(), 2, crate::rng::Seed::from_u64(1)).unwrap();
    table
        .apply(Seat(1), &TableAction::Meta(MetaAction::Resign))
        .unwrap();
    assert!(table.is_over());
}
