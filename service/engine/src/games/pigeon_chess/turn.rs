//! §3 turns (start-of-turn flip, optional end, move or place, passes) and §5 end conditions.
//!
//! A turn starts automatically when the previous one completes: `TurnStarted` is reported and
//! the seat's face-down cards (only ever the one it placed on its previous turn, since both setup
//! rows are revealed before play) are turned face up (§3.1, §7.6). If the seat then has no legal
//! action it passes at once (§3.4, §7.4); if the turn before was a pass too, neither seat can act
//! and the game ends (§5(b)). The end conditions (c)–(f) are checked after every completed turn.
//!
//! From [`Edition::SECOND`] on, a seat whose only choice would be `EndGame` (one stuck card, no
//! hand) may also [`Action::Pass`] (§3.2, §7.10): the rules make ending the game an option, and
//! the first release turned it into an obligation whenever the card was stuck, although the
//! opponent's next move might free it. A chosen pass is a turn without progress like an
//! automatic one, so two passes in a row still end the game by §5(b).

use super::action::Action;
use super::event::{Event, RowSide};
use super::movement::{Destinations, destinations, destinations_into, has_any_move};
use super::observation::Phase;
use super::piece::{Role, Spot};
use super::state::{Card, State, row_index, row_spots, seats};
use crate::edition::Edition;
use crate::game::{EndReason, Outcome, PlayError};
use crate::seat::Seat;

/// §2.6: setup is over; `first` takes the first turn.
pub(crate) fn begin_play(state: &mut State, first: Seat, events: &mut Vec<Event>) {
    state.phase = Phase::Play;
    if let Some(reason) = end_reason(state) {
        finish(state, reason);
        return;
    }
    start_turn(state, first, events);
}

/// The turn actions `seat` may take now: moves and attacks (by origin spot), then placements
/// (highest worth first, columns a to c), then ending the game when §3.2 allows it, then a pass
/// when §7.10 allows it.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if state.phase != Phase::Play || state.current != Some(seat) {
        return Vec::new();
    }
    // Enough for a typical turn: a dozen moves and a few placements.
    let mut actions = Vec::with_capacity(24);
    let mut targets = Destinations::new(Spot::FIRST);
    for from in Spot::all() {
        destinations_into(state, seat, from, &mut targets);
        for &to in targets.iter() {
            actions.push(Action::Move { from, to });
        }
    }
    let hand = &state.hands[seat.index()];
    let back_row = row_spots(seat, RowSide::Back);
    // Each piece the hand holds once, highest worth first (the order of `hand_cards`).
    for &piece in Role::ALL.iter().rev() {
        if hand[piece.index()] == 0 {
            continue;
        }
        for &spot in &back_row {
            if state.card(spot).is_none() {
                actions.push(Action::Place { piece, spot });
            }
        }
    }
    if may_end_game(state, seat) {
        actions.push(Action::EndGame);
        if may_pass(state, seat) {
            actions.push(Action::Pass);
        }
    }
    actions
}

/// §3.2 / §5(a): exactly one card on the board and none in hand.
fn may_end_game(state: &State, seat: Seat) -> bool {
    state.board_count(seat) == 1 && state.hand_count(seat) == 0
}

/// §3.2, §7.10: under edition 2 on, a seat may pass instead of ending the game when ending it is
/// its only other choice: one card on the board that cannot move, and no hand (so nothing to
/// place either).
fn may_pass(state: &State, seat: Seat) -> bool {
    state.edition.has(Edition::SECOND) && may_end_game(state, seat) && !has_any_move(state, seat)
}

/// Whether `seat` has any turn action at all.
fn has_legal_action(state: &State, seat: Seat) -> bool {
    let can_place = state.hand_count(seat) > 0
        && row_spots(seat, RowSide::Back)
            .iter()
            .any(|spot| state.card(*spot).is_none());
    can_place || may_end_game(state, seat) || has_any_move(state, seat)
}

/// Checks that it is `seat`'s turn in play (the caller has checked `to_act`).
fn require_play(state: &State) -> Result<(), PlayError> {
    if state.phase == Phase::Play {
        Ok(())
    } else {
        Err(PlayError::Illegal(
            "moves, placements and ending the game come after setup".into(),
        ))
    }
}

/// §3.3 Move: the face-up card on `from` moves to `to`, attacking what stands there.
pub(crate) fn play_move(
    state: &mut State,
    seat: Seat,
    from: Spot,
    to: Spot,
) -> Result<Vec<Event>, PlayError> {
    require_play(state)?;
    let card = match state.card(from) {
        Some(card) if card.owner == seat && !card.face_down => card,
        _ => {
            return Err(PlayError::Illegal(format!(
                "there is no face-up card of yours on {from}"
            )));
        }
    };
    if !destinations(state, seat, from).contains(&to) {
        return Err(PlayError::Illegal(format!(
            "the {} on {from} cannot move to {to}",
            card.piece
        )));
    }
    let opponent = seat.opponent();
    state.board[from.index()] = None;
    let captured = state.board[to.index()].take().map(|victim| victim.piece);
    let mut captured_scored = false;
    if let Some(victim) = captured {
        // §3 Attacking: a Pawn's victim goes to the group discard, any other attacker scores it.
        if card.piece == Role::Pawn {
            state.discard.push(victim);
        } else {
            state.point_piles[seat.index()].push(victim);
            captured_scored = true;
        }
        // §4, §7.5: an attacked King is no longer alive.
        if victim == Role::King {
            state.king_attacked[opponent.index()] = true;
        }
    }
    // §3 Pawn scoring, §7.7: a Pawn reaching the opponent's back row leaves for the point pile.
    let pawn_scored = card.piece == Role::Pawn && to.row() == row_index(opponent, RowSide::Back);
    if pawn_scored {
        state.point_piles[seat.index()].push(Role::Pawn);
    } else {
        state.board[to.index()] = Some(card);
    }
    let mut events = vec![Event::Moved {
        seat,
        from,
        to,
        piece: card.piece,
        captured,
        captured_scored,
        pawn_scored,
    }];
    let progress = captured.is_some() || card.piece == Role::Pawn;
    complete_turn(state, seat, progress, false, &mut events);
    Ok(events)
}

/// §3.3 Place: a hand card goes face down on an empty spot of the seat's own back row (§7.8).
pub(crate) fn place(
    state: &mut State,
    seat: Seat,
    piece: Role,
    spot: Spot,
) -> Result<Vec<Event>, PlayError> {
    require_play(state)?;
    if state.hands[seat.index()][piece.index()] == 0 {
        return Err(PlayError::Illegal(format!(
            "you do not hold a {piece} card"
        )));
    }
    if !row_spots(seat, RowSide::Back).contains(&spot) {
        return Err(PlayError::Illegal(format!(
            "{spot} is not in your back row; cards are placed only there"
        )));
    }
    if state.card(spot).is_some() {
        return Err(PlayError::Illegal(format!("{spot} is not empty")));
    }
    state.hands[seat.index()][piece.index()] -= 1;
    state.board[spot.index()] = Some(Card {
        owner: seat,
        piece,
        face_down: true,
    });
    let mut events = vec![Event::Placed { seat, spot, piece }];
    complete_turn(state, seat, true, false, &mut events);
    Ok(events)
}

/// §3.2 / §5(a): the seat ends the game instead of taking its turn.
pub(crate) fn end_game(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    require_play(state)?;
    if !may_end_game(state, seat) {
        return Err(PlayError::Illegal(
            "you may end the game only with exactly one card on the board and none in hand".into(),
        ));
    }
    finish(state, EndReason::PlayerEnded);
    Ok(Vec::new())
}

/// §3.2, §7.10: `seat` lets its turn go by instead of ending the game. The pass is a turn
/// without progress (§5(e)); if the opponent's turn just before was a pass too, neither seat had
/// anything to do and the game ends (§5(b)).
pub(crate) fn pass(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    require_play(state)?;
    if !may_pass(state, seat) {
        return Err(PlayError::Illegal(if state.edition.has(Edition::SECOND) {
            "you may pass only when ending the game is your one other choice".into()
        } else {
            "passing by choice is not part of the rules this game was created under".into()
        }));
    }
    let mut events = vec![Event::PassedByChoice { seat }];
    let second_pass = state.last_turn_passed;
    record_turn(state, false, true);
    // §5(b) comes first: two passes in a row say more about the game than a cap reached on the
    // same turn.
    let reason = if second_pass {
        Some(EndReason::NoLegalAction)
    } else {
        end_reason(state)
    };
    match reason {
        Some(reason) => finish(state, reason),
        None => start_turn(state, seat.opponent(), &mut events),
    }
    Ok(events)
}

/// Counts a finished turn of `seat`, checks §5(c)–(f) and, if the game goes on, starts the
/// opponent's turn.
fn complete_turn(
    state: &mut State,
    seat: Seat,
    progress: bool,
    passed: bool,
    events: &mut Vec<Event>,
) {
    if !count_turn(state, progress, passed) {
        start_turn(state, seat.opponent(), events);
    }
}

/// Counts a finished turn and ends the game if an end condition holds; returns whether it did.
fn count_turn(state: &mut State, progress: bool, passed: bool) -> bool {
    record_turn(state, progress, passed);
    match end_reason(state) {
        Some(reason) => {
            finish(state, reason);
            true
        }
        None => false,
    }
}

/// Counts a finished turn: §5(f) counts every turn, §5(e) those without progress, and §5(b)
/// needs to know whether it was a pass.
fn record_turn(state: &mut State, progress: bool, passed: bool) {
    state.turns_taken += 1;
    state.turns_without_progress = if progress {
        0
    } else {
        state.turns_without_progress + 1
    };
    state.last_turn_passed = passed;
}

/// §3.1, §3.4: starts `seat`'s turn, flipping its face-down cards; passes for as long as the
/// seat to move has no legal action, ending the game (§5(b)) when both have none in a row.
fn start_turn(state: &mut State, first: Seat, events: &mut Vec<Event>) {
    let mut seat = first;
    loop {
        state.current = Some(seat);
        events.push(Event::TurnStarted {
            seat,
            turn: state.turns_taken + 1,
        });
        flip(state, seat, events);
        if has_legal_action(state, seat) {
            return;
        }
        if state.last_turn_passed {
            finish(state, EndReason::NoLegalAction);
            return;
        }
        events.push(Event::Passed { seat });
        if count_turn(state, false, true) {
            return;
        }
        seat = seat.opponent();
    }
}

/// §3.1: turns `seat`'s face-down cards face up.
fn flip(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    for spot in Spot::all() {
        if let Some(card) = state.board[spot.index()].as_mut()
            && card.owner == seat
            && card.face_down
        {
            card.face_down = false;
            events.push(Event::Flipped {
                seat,
                spot,
                piece: card.piece,
            });
        }
    }
}

/// §5(c)–(f): the end condition that holds now, if any.
fn end_reason(state: &State) -> Option<EndReason> {
    let out_of_hand = |seat: Seat| state.hand_count(seat) == 0;
    // (c) Each player has exactly one card on the board and none in hand.
    if seats().all(|seat| out_of_hand(seat) && state.board_count(seat) == 1) {
        return Some(EndReason::OutOfCards);
    }
    // (d) A player has no cards at all.
    if seats().any(|seat| out_of_hand(seat) && state.board_count(seat) == 0) {
        return Some(EndReason::OutOfCards);
    }
    let limit = state.config.no_progress_turns;
    if limit > 0 && state.turns_without_progress >= limit {
        return Some(EndReason::NoProgress);
    }
    if state.turns_taken >= state.config.max_turns {
        return Some(EndReason::TurnCap);
    }
    None
}

/// §4, §5: ends the game, scoring both seats.
fn finish(state: &mut State, reason: EndReason) {
    let scores = seats().map(|seat| state.score(seat) as i32).collect();
    state.outcome = Some(Outcome::by_scores(scores, reason));
    state.phase = Phase::Finished;
    state.current = None;
}
