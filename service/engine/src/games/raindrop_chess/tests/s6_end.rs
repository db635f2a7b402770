//! §6 End of game: checkmate and a failed flip win; stalemate, dead material, the 75-move rule
//! and fivefold repetition draw, each under its own reason (§6.1–§6.9); resignation and
//! agreement come from the table.

use super::super::{Action, Card, ChessMove, RaindropChess, State};
use super::support::{play, position_state, position_state_in, sq};
use crate::chess::RoleSet;
use crate::edition::Edition;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::{meta, won};
use crate::seat::Seat;

fn mv(from: &str, to: &str) -> Action {
    Action::Move(ChessMove {
        from: sq(from),
        to: sq(to),
        promotion: None,
    })
}

#[test]
fn s6_1_checkmate_by_a_chess_move_is_reported_as_checkmate_unless_a_flip_could_block() {
    let pieces = ["Ka1", "Rb7", "Rc1", "kh8"];
    for (edition, reason) in [
        (Edition::SECOND, EndReason::Checkmate),
        (Edition::FIRST, EndReason::NoLegalAction),
    ] {
        let mut state = position_state_in(edition, &pieces, [vec![], vec![]], Seat(0));
        play(&mut state, Seat(0), mv("c1", "c8"));
        assert_eq!(
            state.outcome,
            Some(Outcome::win(Seat(0), reason)),
            "{edition}"
        );
    }
    // With a card left, Black may still flip to block on d8-g8 (§4).
    let mut state = position_state(&pieces, [vec![], vec![Card::Knight]], Seat(0));
    play(&mut state, Seat(0), mv("c1", "c8"));
    assert_eq!(state.outcome, None);
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(1)),
        vec![Action::Flip]
    );
}

#[test]
fn s6_6_seventy_five_moves_without_progress_draw() {
    for edition in [Edition::SECOND, Edition::FIRST] {
        let mut state = position_state_in(
            edition,
            &["Ka1", "Ra8", "kh1", "rh8"],
            [vec![], vec![]],
            Seat(0),
        );
        state.config.no_progress_plies = 4;
        state.config.repetitions = 0;
        play(&mut state, Seat(0), mv("a8", "b8"));
        play(&mut state, Seat(1), mv("h8", "g8"));
        play(&mut state, Seat(0), mv("b8", "c8"));
        assert_eq!(state.outcome, None);
        play(&mut state, Seat(1), mv("g8", "f8"));
        assert_eq!(state.outcome, Some(Outcome::draw(EndReason::NoProgress)));
    }
}

/// Plays the rooks' shuffle a8-b8-a8 / h8-g8-h8 once: the start position comes back.
fn shuffle_rooks(state: &mut State) {
    play(state, Seat(0), mv("a8", "b8"));
    play(state, Seat(1), mv("h8", "g8"));
    play(state, Seat(0), mv("b8", "a8"));
    play(state, Seat(1), mv("g8", "h8"));
}

#[test]
fn s6_7_fivefold_repetition_is_reported_as_repetition() {
    for (edition, reason) in [
        (Edition::SECOND, EndReason::Repetition),
        (Edition::FIRST, EndReason::NoProgress),
    ] {
        let mut state = position_state_in(
            edition,
            &["Ka1", "Ra8", "kh1", "rh8"],
            [vec![], vec![]],
            Seat(0),
        );
        // The start position occurs at plies 0, 4, 8 and 12 ...
        for _ in 0..3 {
            shuffle_rooks(&mut state);
            assert_eq!(state.outcome, None);
        }
        // ... and for the fifth time at ply 16.
        shuffle_rooks(&mut state);
        assert_eq!(state.outcome, Some(Outcome::draw(reason)), "{edition}");
        assert_eq!(state.plies, 16);
    }
}

/// The outcome of `pieces` with White to move and both decks empty, under the latest rules.
fn outcome_of(pieces: &[&str]) -> Option<Outcome> {
    position_state(pieces, [vec![], vec![]], Seat(0)).outcome
}

const DEAD: Option<Outcome> = Some(Outcome {
    winners: crate::seat::SeatSet::EMPTY,
    reason: EndReason::InsufficientMaterial,
    scores: Vec::new(),
});

#[test]
fn s6_8_dead_material_is_a_draw_reported_as_insufficient_material() {
    // Kings alone; a King and one knight or bishop against a King.
    for pieces in [
        &["Ka1", "kh8"][..],
        &["Ka1", "Nb1", "kh8"],
        &["Ka1", "kh8", "bc6"],
    ] {
        assert_eq!(outcome_of(pieces), DEAD, "{pieces:?}");
    }
    // Only bishops, of both sides, all on squares of one colour (c1, f4, b8, h2 are dark).
    for pieces in [
        &["Ka1", "Bc1", "Bf4", "kh8"][..],
        &["Ka1", "Bc1", "kh8", "bb8", "bh2"],
        &["Ka1", "Bd1", "Be2", "kh8", "bg8"],
    ] {
        assert_eq!(outcome_of(pieces), DEAD, "{pieces:?}");
    }
}

#[test]
fn s6_8_material_that_could_still_mate_plays_on() {
    for pieces in [
        // Bishops on both colours (c1 dark, d1 light), either side.
        &["Ka1", "Bc1", "Bd1", "kh8"][..],
        &["Ka1", "Bc1", "kh8", "bd1"],
        // Two minors that are not all bishops.
        &["Ka1", "Nb1", "Nc1", "kh8"],
        &["Ka1", "Bc1", "kh8", "nb8"],
        // Any rook, queen or pawn that may still move.
        &["Ka1", "Rb1", "kh8"],
        &["Ka1", "kh8", "qd5"],
        &["Ka1", "Pb4", "kh8"],
    ] {
        let outcome = outcome_of(pieces);
        assert_eq!(outcome, None, "{pieces:?}");
    }
}

#[test]
fn s6_8_a_pawn_stuck_on_its_last_rank_counts_as_nothing_whatever_its_pool() {
    // White's pawn on b8 and Black's on g1 can never move again: a promotion is part of the move
    // that reaches the rank, so a full pool does not help them.
    for pieces in [
        &["Ka1", "Pb8", "kh6"][..],
        &["Ka1", "Pb8", "kh6", "pg1", "Bc1"],
    ] {
        let state = position_state(pieces, [vec![], vec![]], Seat(0));
        assert_eq!(state.outcome, DEAD, "{pieces:?}: full pools");
        let mut state = position_state(pieces, [vec![], vec![]], Seat(0));
        state.pools = [RoleSet::EMPTY; 2];
        state.outcome = None;
        state.history.clear();
        super::super::end::begin_turn(&mut state, Seat(0));
        assert_eq!(state.outcome, DEAD, "{pieces:?}: empty pools");
    }
    // A pawn that is not on its last rank still counts, empty pool or not.
    let mut state = position_state(&["Ka1", "Pb7", "kh6"], [vec![], vec![]], Seat(1));
    assert_eq!(state.outcome, None);
    state.pools = [RoleSet::EMPTY; 2];
    state.history.clear();
    super::super::end::begin_turn(&mut state, Seat(1));
    assert_eq!(state.outcome, None);
}

#[test]
fn s6_8_dead_material_waits_until_both_decks_are_empty() {
    // A flip could still bring a piece that mates.
    for decks in [[vec![Card::Pawn], vec![]], [vec![], vec![Card::Pawn]]] {
        let state = position_state(&["Ka1", "Nb1", "kh8"], decks, Seat(0));
        assert_eq!(state.outcome, None);
    }
}

#[test]
fn s6_8_dead_material_is_found_before_the_no_progress_limit() {
    // K+B+B on squares of one colour against K: edition 2 ends the game the moment it arises;
    // edition 1 did not see it and played on to its no-progress limit (§10.3).
    let pieces = ["Ka1", "Bc1", "Bf4", "kh8"];
    for (edition, ended) in [(Edition::SECOND, DEAD), (Edition::FIRST, None)] {
        let state = position_state_in(edition, &pieces, [vec![], vec![]], Seat(0));
        assert_eq!(state.outcome, ended, "{edition}");
    }
    // When the no-progress limit is reached in a dead position, dead material is the reason;
    // edition 1 reported its no-progress draw.
    for (edition, reason) in [
        (Edition::SECOND, EndReason::InsufficientMaterial),
        (Edition::FIRST, EndReason::NoProgress),
    ] {
        let mut state =
            position_state_in(edition, &["Ka1", "Nb1", "kh8"], [vec![], vec![]], Seat(1));
        state.outcome = None;
        state.config.no_progress_plies = 10;
        state.quiet_plies = 10;
        state.history.clear();
        super::super::end::begin_turn(&mut state, Seat(1));
        assert_eq!(state.outcome, Some(Outcome::draw(reason)), "{edition}");
    }
}

#[test]
fn s6_8_a_capture_that_leaves_dead_material_ends_the_game_at_once() {
    let mut state = position_state(&["Kb1", "Bd3", "kh8", "ng6"], [vec![], vec![]], Seat(0));
    assert_eq!(state.outcome, None);
    play(&mut state, Seat(0), mv("d3", "g6"));
    assert_eq!(state.outcome, DEAD);
    assert!(RaindropChess::to_act(&state).is_empty());
}

#[test]
fn s6_4_and_6_5_resignation_and_agreement_come_from_the_table() {
    use crate::table::{MetaAction, Table, TableAction};
    let (mut table, _) =
        Table::<RaindropChess>::new(&Default::default(), 2, crate::rng::Seed::from_u64(1)).unwrap();
    meta(&mut table, 1, MetaAction::Resign);
    assert_eq!(table.outcome(), won(0, EndReason::Resignation));
    let (mut table, _) =
        Table::<RaindropChess>::new(&Default::default(), 2, crate::rng::Seed::from_u64(1)).unwrap();
    meta(&mut table, 0, MetaAction::OfferDraw);
    table
        .apply(Seat(1), &TableAction::Meta(MetaAction::AcceptDraw))
        .unwrap();
    assert_eq!(table.outcome(), Some(Outcome::draw(EndReason::DrawAgreed)));
}
