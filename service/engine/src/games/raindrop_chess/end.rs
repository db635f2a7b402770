//! Turn changes and the end of the game: §4 checkmate and stalemate, §6 draw rules, §9 cap,
//! and whether a side could still win when its opponent's clock runs out (§8.23).
//!
//! Two editions of the rules decide the end (`edition.rs`). Edition 2 reports each ending as
//! what it is (§6.1–§6.9) and finds dead material (§6.8) before the no-progress limit; edition
//! 1, which games stored by the first release keep, reports checkmate, stalemate and a failed
//! flip as [`EndReason::NoLegalAction`] and every draw rule as [`EndReason::NoProgress`], with
//! its narrower material test after the 75-move and repetition rules (§10.2, §10.3).

use super::event::Event;
use super::observation::Stage;
use super::state::{State, colour_of, position_key};
use super::turn::may_flip;
use crate::chess::{Bitboard, Color, Role, Square};
use crate::edition::Edition;
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

/// Counts one completed turn. `plies` is also the game's turn number (§14): it moves only
/// here and when a failed flip ends the game, so it never changes inside a turn.
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
    let outcome = if state.edition.has(Edition::SECOND) {
        decide(state, seat)
    } else {
        decide_first_edition(state, seat)
    };
    if let Some(outcome) = outcome {
        state.outcome = Some(outcome);
        state.stage = Stage::Finished;
    }
}

/// §4, §6.2: `seat` flipped while in check and cannot end the check: it loses at once. The
/// rules treat this as checkmate, and edition 2 reports it so (§8.5); edition 1 reported
/// [`EndReason::NoLegalAction`] (§10.2).
pub(crate) fn lose(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    events.push(Event::FlipFailed { seat });
    state.plies += 1;
    let reason = if state.edition.has(Edition::SECOND) {
        EndReason::Checkmate
    } else {
        EndReason::NoLegalAction
    };
    state.outcome = Some(Outcome::win(seat.opponent(), reason));
    state.stage = Stage::Finished;
}

/// Whether `seat` has no action at all at the start of its turn: no flip and no chess move
/// (none before its King is placed). This runs at every turn, so the flip, a few look-ups,
/// comes first, and the moves are only counted, not listed, when it is not allowed.
fn no_action(state: &State, seat: Seat) -> bool {
    if may_flip(state, seat) {
        return false;
    }
    let colour = colour_of(seat);
    let has_move =
        state.position.king(colour).is_some() && state.position.count_moves(&state.rules(seat)) > 0;
    !has_move
}

/// Edition 2: the result of the position at the start of `seat`'s turn, if it decides the
/// game, each ending under its own reason.
fn decide(state: &State, seat: Seat) -> Option<Outcome> {
    // §4, §6.1, §6.3: no action left is checkmate in check and stalemate otherwise. It comes
    // first: a mating move wins even if it also completes a draw rule.
    if no_action(state, seat) {
        return Some(if state.position.in_check(colour_of(seat)) {
            Outcome::win(seat.opponent(), EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        });
    }
    // §6.8: dead material ends the game at once, before the counters: once neither side can
    // ever mate, playing on to the no-progress limit only delays the draw.
    if state.decks.iter().all(Vec::is_empty) && dead_material(state) {
        return Some(Outcome::draw(EndReason::InsufficientMaterial));
    }
    let config = &state.config;
    // §6.6: the 75-move rule, counted in plies.
    if no_progress(state) {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    // §6.7: fivefold repetition.
    if repeated(state) {
        return Some(Outcome::draw(EndReason::Repetition));
    }
    // §9: the hard cap.
    if state.plies >= config.max_plies {
        return Some(Outcome::draw(EndReason::TurnCap));
    }
    None
}

/// Edition 1, kept as the first release played it (§10.2, §10.3): the same tests in its order,
/// with its reasons and its material test.
fn decide_first_edition(state: &State, seat: Seat) -> Option<Outcome> {
    if no_action(state, seat) {
        return Some(if state.position.in_check(colour_of(seat)) {
            Outcome::win(seat.opponent(), EndReason::NoLegalAction)
        } else {
            Outcome::draw(EndReason::NoLegalAction)
        });
    }
    if no_progress(state) || repeated(state) {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    if state.decks.iter().all(Vec::is_empty) && first_edition_insufficient_material(state) {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    if state.plies >= state.config.max_plies {
        return Some(Outcome::draw(EndReason::TurnCap));
    }
    None
}

/// §6.6: the configured number of plies has passed without a capture, pawn move, placement,
/// promotion or joker (0 turns the rule off).
fn no_progress(state: &State) -> bool {
    let limit = state.config.no_progress_plies;
    limit > 0 && state.quiet_plies >= limit
}

/// §6.7: the position now at the start of the turn has occurred the configured number of times
/// since the last irreversible action (0 turns the rule off).
fn repeated(state: &State) -> bool {
    let limit = state.config.repetitions as usize;
    let Some(current) = state.history.last() else {
        return false;
    };
    limit > 0 && state.history.iter().filter(|key| *key == current).count() >= limit
}

/// §6.8: neither side can ever checkmate, whatever is played: besides the Kings, nothing; or one
/// knight or bishop; or only bishops, all on squares of one colour. A pawn on its last rank
/// counts as nothing: it can never move again (§5). The caller checks that both decks are empty,
/// since a flip could still bring material.
fn dead_material(state: &State) -> bool {
    let position = &state.position;
    let material = material(state);
    let bishops = position.role_pieces(Role::Bishop);
    let knights = position.role_pieces(Role::Knight);
    if !material.has_several() {
        // K v K, or K and one piece v K: dead only if that piece is a minor one.
        return (material & !(bishops | knights)).is_empty();
    }
    let light = material.filter(|square| is_light(*square)).count();
    (material & !bishops).is_empty() && (light == 0 || light == material.count() as usize)
}

/// §8.19: the pieces on the board that count as material: every piece but the Kings, less a
/// pawn on its last rank. Such a pawn declined the exchange, or found the pool empty, when it
/// arrived (§5): a promotion is part of the move that reaches the rank, so it can never move or
/// promote again, whatever its owner's pool holds.
fn material(state: &State) -> Bitboard {
    let position = &state.position;
    let mut material = position.occupied() & !position.role_pieces(Role::King);
    for colour in Color::ALL {
        material &= !(position.pieces(colour, Role::Pawn) & last_rank(colour));
    }
    material
}

/// §8.23: whether `seat` could still win, whatever is played, so that a timeout of its opponent
/// wins for it rather than drawing (docs/rules/conventions.md §8). Every win is by checkmate or
/// by a failed flip in check (§6.1, §6.2), so both need a check by `seat`. It cannot win when
///
/// * no card is left to come (both decks empty, none waiting to be placed) and the material is
///   dead (§8.19), as the end rule of §6.8 finds it, for either side; or
/// * it has nothing but its King, now or to come: no other piece on the board (counted as in
///   §8.19), none waiting to be placed, no piece card in its deck. A King never gives check:
///   it may not stand next to the enemy King.
///
/// Otherwise it can: any other material might mate with the opponent's help, as in chess.
pub(crate) fn can_win(state: &State, seat: Seat) -> bool {
    let pending = match state.stage {
        Stage::Place(card) => Some((state.current, card)),
        _ => None,
    };
    if pending.is_none() && state.decks.iter().all(Vec::is_empty) && dead_material(state) {
        return false;
    }
    let on_board = material(state) & state.position.color_pieces(colour_of(seat));
    let mut to_come = state.decks[seat.index()]
        .iter()
        .copied()
        .chain(pending.filter(|(owner, _)| *owner == seat).map(|(_, card)| card));
    !on_board.is_empty()
        || to_come.any(|card| card.role().is_some_and(|role| role != Role::King))
}

/// The rank where `colour`'s pawns end their march (rank 8 for White, rank 1 for Black).
fn last_rank(colour: Color) -> Bitboard {
    match colour {
        Color::White => Bitboard::RANK_8,
        Color::Black => Bitboard::RANK_1,
    }
}

/// Whether `square` is light: file + rank odd, so a1 is dark (the convention of §8.4's cards).
fn is_light(square: Square) -> bool {
    (square.file() + square.rank()) % 2 == 1
}

/// Edition 1's material test (§10.3): no pawn, rook or queen, and at most one bishop or knight.
fn first_edition_insufficient_material(state: &State) -> bool {
    let position = &state.position;
    let heavy = position.role_pieces(Role::Pawn)
        | position.role_pieces(Role::Rook)
        | position.role_pieces(Role::Queen);
    let minors = position.role_pieces(Role::Bishop) | position.role_pieces(Role::Knight);
    heavy.is_empty() && !minors.has_several()
}
