//! Turn changes and the end of the game: §4 checkmate and stalemate, §6 draw rules, §9 cap.

use super::event::Event;
use super::observation::Stage;
use super::state::{State, colour_of, position_key};
use super::turn::may_flip;
use crate::chess::Role;
use crate::game::{EndReason, Outcome};
use crate::seat::Seat;

/// Ends `seat`'s turn: counts it, updates the §6 counters and starts the opponent's turn.
/// `irreversible` is true after a capture, pawn move, placement, promotion or joker.
pub(crate) fn finish(state: &mut State, seat: Seat, irreversible: bool) {
    count_turn(state, irreversible);
    begin_turn(state, seat.opponent());
}

/// §3 joker `EXTRA_TURN`: counts the joker's turn and starts another turn of the same seat.
pub(crate) fn extra_turn(state: &mut State, seat: Seat) {
    count_turn(state, true);
    begin_turn(state, seat);
}

/// Counts one completed turn.
fn count_turn(state: &mut State, irreversible: bool) {
    state.plies += 1;
    if irreversible {
        state.quiet_plies = 0;
        state.history.clear();
    } else {
        state.quiet_plies += 1;
    }
}

/// Starts `seat`'s turn and ends the game if the position decides it.
pub(crate) fn begin_turn(state: &mut State, seat: Seat) {
    state.current = seat;
    state.stage = Stage::Turn;
    state.position.set_side_to_move(colour_of(seat));
    state.history.push(position_key(&state.position));
    if let Some(outcome) = decide(state, seat) {
        state.outcome = Some(outcome);
        state.stage = Stage::Finished;
    }
}

/// §4: `seat` flipped while in check and cannot end the check: it loses at once.
pub(crate) fn lose(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    events.push(Event::FlipFailed { seat });
    state.plies += 1;
    state.outcome = Some(Outcome::win(seat.opponent(), EndReason::NoLegalAction));
    state.stage = Stage::Finished;
}

/// The result of the position at the start of `seat`'s turn, if it decides the game.
fn decide(state: &State, seat: Seat) -> Option<Outcome> {
    // §4: checkmate (in check, no chess move ends it, no placement could block) and stalemate.
    // At the start of a turn the actions are a flip and the chess moves (counted, not listed).
    let colour = colour_of(seat);
    let has_move =
        state.position.king(colour).is_some() && state.position.count_moves(&state.rules(seat)) > 0;
    if !has_move && !may_flip(state, seat) {
        return Some(if state.position.in_check(colour) {
            Outcome::win(seat.opponent(), EndReason::NoLegalAction)
        } else {
            Outcome::draw(EndReason::NoLegalAction)
        });
    }
    let config = &state.config;
    // §6: the 75-move rule, counted in plies.
    if config.no_progress_plies > 0 && state.quiet_plies >= config.no_progress_plies {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    // §6: fivefold repetition.
    if config.repetitions > 0 {
        let current = state.history.last();
        let seen = state
            .history
            .iter()
            .filter(|key| Some(*key) == current)
            .count();
        if seen >= config.repetitions as usize {
            return Some(Outcome::draw(EndReason::NoProgress));
        }
    }
    // §6: insufficient material once both decks are empty.
    if state.decks.iter().all(Vec::is_empty) && insufficient_material(state) {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    // §9: the hard cap.
    if state.plies >= config.max_plies {
        return Some(Outcome::draw(EndReason::TurnCap));
    }
    None
}

/// §6: neither side can mate: no pawn, rook or queen, and at most one bishop or knight.
fn insufficient_material(state: &State) -> bool {
    let position = &state.position;
    let heavy = position.role_pieces(Role::Pawn)
        | position.role_pieces(Role::Rook)
        | position.role_pieces(Role::Queen);
    let minors = position.role_pieces(Role::Bishop) | position.role_pieces(Role::Knight);
    heavy.is_empty() && !minors.has_several()
}
