//! §7 and §10: the end of the game.
//!
//! Wins: capturing the enemy King (at once, even mid-turn) and emptying the hand (at once,
//! before the last card's effect). Draws: an agreed draw (the table's meta actions), a player who
//! at the start of its turn can neither draw nor play (checked in `turn::begin_turn`; a
//! stalemate from edition 2 on, §9.14), and the engine caps of §10:
//! [`super::Config::no_progress_moves`] chess moves in a row without a capture or pawn move, and
//! [`super::Config::max_turns`] turns. Surrender is the table's resignation.

use super::observation::Stage;
use super::state::State;
use crate::edition::Edition;
use crate::game::{EndReason, Outcome};
use crate::seat::Seat;

/// Ends the game with `outcome`. A pending CHUNO call lapses without penalty (§6) and a draw
/// offer with the game.
pub(crate) fn finish(state: &mut State, outcome: Outcome) {
    state.outcome = Some(outcome);
    state.stage = Stage::Finished;
    state.moves_left = 0;
    state.chuno = None;
    state.draw_offer = None;
}

/// §7, §9.14: the player to start its turn can neither draw nor play, so the game is drawn.
/// That is a stalemate: the player to move is not in check (CHUNO has none) and has no legal
/// action. Edition 1 reported it as [`EndReason::NoLegalAction`] and keeps doing so (§14.1).
pub(crate) fn draw_by_deadlock(state: &mut State) {
    let reason = if state.edition.has(Edition::SECOND) {
        EndReason::Stalemate
    } else {
        EndReason::NoLegalAction
    };
    finish(state, Outcome::draw(reason));
}

/// §7: `winner` captured the enemy King.
pub(crate) fn win_by_king_capture(state: &mut State, winner: Seat) {
    finish(state, Outcome::win(winner, EndReason::KingCaptured));
}

/// §10: whether the no-progress limit (if on) has been reached.
pub(crate) fn no_progress_reached(state: &State) -> bool {
    let limit = state.config.no_progress_moves;
    limit > 0 && state.quiet_moves >= limit
}
