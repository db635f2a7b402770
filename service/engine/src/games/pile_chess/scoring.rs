//! §4 end of game and scoring: a King loss decides at once; a stalemate (third shortfall, or the
//! round cap of §8) is decided by the value of the captured piles, per side.

use super::state::State;
use crate::game::{EndReason, Outcome};
use crate::seat::{Seat, SeatSet};

/// Ends the game with `outcome`.
pub(crate) fn finish(state: &mut State, outcome: Outcome) {
    state.outcome = Some(outcome);
    state.current = None;
    state.pending.clear();
}

/// §4 stalemate: every side still in scores the value of its captured pile; the single highest
/// wins, a shared highest is a draw. In free for all, players who lost their King compete too
/// when [`super::Config::eliminated_captures_count`] keeps their captured piles (§5); players who
/// resigned never do.
pub(crate) fn stalemate(state: &mut State, reason: EndReason) {
    let keep_out = !state.config.is_team_game() && state.config.eliminated_captures_count;
    let eligible: Vec<u8> = (0..state.side_count() as u8)
        .filter(|side| {
            state
                .side_seats(*side)
                .iter()
                .any(|seat| state.is_in(seat) || (keep_out && !state.player(seat).resigned))
        })
        .collect();
    let outcome = decide_by_captures(state, &eligible, reason);
    finish(state, outcome);
}

/// The side among `sides` with the single highest captured value wins (all its seats that did not
/// resign); a shared
/// highest is a draw. Scores list every seat's side value.
pub(crate) fn decide_by_captures(state: &State, sides: &[u8], reason: EndReason) -> Outcome {
    let scores = state
        .seats()
        .map(|seat| state.captured_value(state.side(seat)) as i32)
        .collect();
    let best = sides.iter().map(|side| state.captured_value(*side)).max();
    let leaders: Vec<u8> = sides
        .iter()
        .copied()
        .filter(|side| Some(state.captured_value(*side)) == best)
        .collect();
    let winners = match leaders.as_slice() {
        [single] => state.side_winners(*single),
        _ => SeatSet::EMPTY,
    };
    Outcome {
        winners,
        reason,
        scores,
    }
}

/// Whether `seat` can still be among the winners, whatever is played (§14): not once it
/// resigned or ran out of time; otherwise while its side has a player in the game (a team wins
/// with all its players who did not forfeit, those out by a King loss included), or, in free
/// for all with [`super::Config::eliminated_captures_count`], while its captured pile still
/// competes at a stalemate (§5). There is no material rule: a player in the game holds at least
/// their King, and captured values can decide at any stalemate.
pub(crate) fn can_win(state: &State, seat: Seat) -> bool {
    if state.player(seat).resigned {
        return false;
    }
    let side_in = state
        .side_seats(state.side(seat))
        .iter()
        .any(|mate| state.is_in(mate));
    side_in || (!state.config.is_team_game() && state.config.eliminated_captures_count)
}

/// A win for every seat of `side` that did not resign, decided by a rule rather than by scores.
pub(crate) fn side_wins(state: &State, side: u8, reason: EndReason) -> Outcome {
    Outcome {
        winners: state.side_winners(side),
        reason,
        scores: Vec::new(),
    }
}
