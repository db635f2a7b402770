//! §6 the CHUNO call, and how it meets the table's draw offers (§9.13).
//!
//! A card that leaves its player with exactly one card starts an obligation. The player may
//! call at any moment until the opponent's next game action, in or out of turn; the seat is in
//! `to_act` while its call is pending. The opponent's next game action — a turn action or a
//! meta action (draw offer, accept, decline, surrender, §9.11) — first gives the player 2
//! penalty cards, then applies. The player's own actions leave the window open. Once the game
//! has ended there is no penalty.
//!
//! The state keeps a mirror of the table's standing draw offer, because the observation shows
//! it and only the state reaches [`super::Observation`]. The mirror follows the table's rule
//! for which game actions answer an offer ([`answers_draw_offer`]), edition by edition, so the
//! two never disagree.

use super::action::Action;
use super::deck::draw;
use super::event::{DrawReason, Event};
use super::state::State;
use crate::edition::Edition;
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

/// §9.13: whether `action`, taken by the seat a draw offer was made to, answers (and so
/// declines) the offer under edition 2 and later. Every turn action does; the CHUNO call does
/// not, because it is no move in the game: it may be made at any moment, even out of turn
/// (docs/rules/conventions.md §4.3). [`super::Chuno`]'s `Game::answers_draw_offer` is this
/// function, so the table and the state's mirror decide alike.
pub(crate) fn answers_draw_offer(action: &Action) -> bool {
    !matches!(action, Action::CallChuno)
}

/// §9.13: mirrors the table after a game `action` of `seat`: when the offer standing was made
/// to `seat` and the action answers it, the offer is declined. Under edition 1 every game
/// action of the offeree answered it, the call included (§14.2).
pub(crate) fn mirror_game_action(state: &mut State, seat: Seat, action: &Action) {
    let answers = !state.edition.has(Edition::SECOND) || answers_draw_offer(action);
    if answers && state.draw_offer.is_some_and(|offerer| offerer != seat) {
        state.draw_offer = None;
    }
}

/// §6, §9.11: a meta action of `seat` the table has accepted. It closes the opponent's CHUNO
/// window like any game action, and the draw offer it makes or ends is mirrored into the state
/// (§9.13). A resignation ends the game, and the offer with it.
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
