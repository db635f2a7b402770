//! §6 the CHUNO call.
//!
//! A card that leaves its player with exactly one card starts an obligation. The player may
//! call at any moment until the opponent's next game action, in or out of turn; the seat is in
//! `to_act` while its call is pending. The opponent's next game action — a turn action or a
//! meta action (draw offer, accept, decline, surrender, §9.11) — first gives the player 2
//! penalty cards, then applies. The player's own actions leave the window open. Once the game
//! has ended there is no penalty.

use super::deck::draw;
use super::event::{DrawReason, Event};
use super::state::State;
use crate::game::PlayError;
use crate::seat::Seat;
use crate::table::MetaAction;

/// §6 penalty: cards drawn for a missed call.
pub(crate) const PENALTY_CARDS: usize = 2;

/// §6: `seat` played a card that left it one; its call is now pending.
pub(crate) fn oblige(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    state.chuno = Some(seat);
    events.push(Event::ChunoObliged { seat });
}

/// §6: `seat` calls CHUNO.
pub(crate) fn call(
    state: &mut State,
    seat: Seat,
    events: &mut Vec<Event>,
) -> Result<(), PlayError> {
    if state.chuno != Some(seat) {
        return Err(PlayError::Illegal("you have no CHUNO call to make".into()));
    }
    state.chuno = None;
    events.push(Event::ChunoCalled { seat });
    Ok(())
}

/// §6: `actor` takes a game action; if its opponent's call is pending, the window closes and the
/// opponent draws the penalty first.
pub(crate) fn close_window(state: &mut State, actor: Seat, events: &mut Vec<Event>) {
    if let Some(obliged) = state.chuno.filter(|seat| *seat != actor) {
        state.chuno = None;
        events.push(Event::ChunoMissed { seat: obliged });
        draw(state, obliged, PENALTY_CARDS, DrawReason::Penalty, events);
    }
}

/// §6, §9.11: a meta action of `seat` the table has accepted. It closes the opponent's CHUNO
/// window like any game action, and the draw offer it makes or ends is mirrored into the state.
pub(crate) fn before_meta_action(state: &mut State, seat: Seat, action: MetaAction) -> Vec<Event> {
    let mut events = Vec::new();
    if state.outcome.is_some() {
        return events;
    }
    close_window(state, seat, &mut events);
    state.draw_offer = match action {
        MetaAction::OfferDraw => Some(seat),
        MetaAction::AcceptDraw | MetaAction::DeclineDraw | MetaAction::Resign => None,
    };
    events
}
