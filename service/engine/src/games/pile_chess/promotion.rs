//! §3 step 3 Promotion (and §7.7): after a pile won outright with Pawns only, the winner may
//! move one of those Pawns from their reuse pile to the removed zone and take back one of their
//! own cards from an opponent's captured pile into their reuse pile. At most one promotion per
//! qualifying pile; it is optional.
//!
//! In a team game the pile qualifies when every card of the winning team in it is a Pawn, and
//! the chance goes to the first player of that team, in seat order from the pile's owner, who
//! still is in the game and had a Pawn in the pile. A chance with nothing to take back is
//! skipped without asking.

use super::action::Action;
use super::event::{Event, PublicEvent};
use super::observation::Pending;
use super::piece::{Card, Role};
use super::resolve::Won;
use super::round;
use super::state::State;
use crate::game::PlayError;
use crate::seat::Seat;

/// Queues a promotion chance for every pile won outright with Pawns only, in pile order.
pub(crate) fn queue(state: &mut State, won: &[Won]) {
    let n = state.seat_count();
    for pile in won {
        let pawns_only = pile
            .cards
            .iter()
            .filter(|card| state.side(card.owner) == pile.side)
            .all(|card| card.piece == Role::Pawn);
        if !pawns_only {
            continue;
        }
        let promoter = (0..n)
            .map(|step| Seat(((pile.pile.index() + step) % n) as u8))
            .find(|seat| {
                state.side(*seat) == pile.side
                    && state.is_in(*seat)
                    && pile.cards.contains(&Card::new(*seat, Role::Pawn))
            });
        if let Some(seat) = promoter {
            state.pending.push(Pending::Promotion {
                seat,
                pile: pile.pile,
            });
        }
    }
}

/// Whether `seat` can promote at all: it is in, has a Pawn in its reuse pile, and has a card
/// to take back.
pub(crate) fn possible(state: &State, seat: Seat) -> bool {
    state.is_in(seat)
        && state.player(seat).reuse.contains(&Role::Pawn)
        && !take_backs(state, seat).is_empty()
}

/// Every (captured pile, piece) of `seat`'s own cards lying in an opponent's captured pile, by
/// pile, King side first. The King never appears: its capture ended the player's game (§7.7).
fn take_backs(state: &State, seat: Seat) -> Vec<(u8, Role)> {
    let mut out = Vec::new();
    for (side, cards) in state.captured.iter().enumerate() {
        if side as u8 == state.side(seat) {
            continue;
        }
        for piece in Role::ALL.iter().rev().filter(|piece| **piece != Role::King) {
            if cards.contains(&Card::new(seat, *piece)) {
                out.push((side as u8, *piece));
            }
        }
    }
    out
}

/// The promotion choices: every card to take back, then declining.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !matches!(state.pending.first(), Some(Pending::Promotion { seat: s, .. }) if *s == seat) {
        return Vec::new();
    }
    let mut actions: Vec<Action> = take_backs(state, seat)
        .into_iter()
        .map(|(captured_pile, piece)| Action::Promote {
            captured_pile,
            piece,
        })
        .collect();
    actions.push(Action::DeclinePromotion);
    actions
}

/// The pile of the promotion chance `seat` has now.
fn chance(state: &State, seat: Seat) -> Result<Seat, PlayError> {
    match state.pending.first() {
        Some(Pending::Promotion { seat: s, pile }) if *s == seat => Ok(*pile),
        _ => Err(PlayError::Illegal(
            "promotion is chosen only right after winning a pile with Pawns only".into(),
        )),
    }
}

/// Promotes: a Pawn from the reuse pile goes to the removed zone, and the own `piece` comes back
/// from `captured_pile` to the reuse pile.
pub(crate) fn promote(
    state: &mut State,
    seat: Seat,
    captured_pile: u8,
    piece: Role,
) -> Result<Vec<Event>, PlayError> {
    let pile = chance(state, seat)?;
    if !take_backs(state, seat).contains(&(captured_pile, piece)) {
        return Err(PlayError::Illegal(format!(
            "captured pile {captured_pile} holds no {piece} of yours to take back"
        )));
    }
    let player = state.player_mut(seat);
    let Some(pawn) = player.reuse.iter().rposition(|card| *card == Role::Pawn) else {
        return Err(PlayError::Illegal(
            "your reuse pile holds no Pawn to remove".into(),
        ));
    };
    player.reuse.remove(pawn);
    player.reuse.push(piece);
    state.removed.push(Card::new(seat, Role::Pawn));
    let captured = &mut state.captured[usize::from(captured_pile)];
    if let Some(index) = captured
        .iter()
        .position(|card| *card == Card::new(seat, piece))
    {
        captured.remove(index);
    }
    let mut events = vec![Event::Public(PublicEvent::Promoted {
        seat,
        pile,
        captured_pile,
        piece,
    })];
    state.pending.remove(0);
    round::continue_round(state, &mut events);
    Ok(events)
}

/// Lets the promotion chance go.
pub(crate) fn decline(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    let pile = chance(state, seat)?;
    let mut events = vec![Event::Public(PublicEvent::PromotionDeclined { seat, pile })];
    state.pending.remove(0);
    round::continue_round(state, &mut events);
    Ok(events)
}
