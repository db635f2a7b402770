//! Drawing cards, with the refill of §4: whenever a card must be drawn from an empty deck, the
//! discards under the top card are shuffled into a new deck; the top card and the active colour
//! stay. If there is still nothing to draw, the draw gets fewer cards.

use super::card::Card;
use super::event::{DrawReason, Event};
use super::state::{State, add_to_hand};
use crate::rng::shuffle;
use crate::seat::Seat;

/// Draws up to `count` cards into `seat`'s hand, refilling the deck as needed, and reports them.
/// Returns how many cards were drawn.
pub(crate) fn draw(
    state: &mut State,
    seat: Seat,
    count: usize,
    reason: DrawReason,
    events: &mut Vec<Event>,
) -> usize {
    let mut cards: Vec<Card> = Vec::with_capacity(count);
    for _ in 0..count {
        if state.deck.is_empty() && !refill(state, seat, &mut cards, reason, events) {
            break;
        }
        let Some(card) = state.deck.pop() else { break };
        add_to_hand(&mut state.hands[seat.index()], card);
        cards.push(card);
    }
    let drawn = cards.len();
    if !cards.is_empty() {
        events.push(Event::CardsDrawn {
            seat,
            cards,
            reason,
        });
    }
    drawn
}

/// §4 refill: shuffles every discard but the top card into the empty deck. Cards already drawn
/// in this draw are reported first, so that events keep their order. Returns false when there is
/// nothing to shuffle.
fn refill(
    state: &mut State,
    seat: Seat,
    drawn: &mut Vec<Card>,
    reason: DrawReason,
    events: &mut Vec<Event>,
) -> bool {
    if state.discard.len() <= 1 {
        return false;
    }
    if !drawn.is_empty() {
        events.push(Event::CardsDrawn {
            seat,
            cards: std::mem::take(drawn),
            reason,
        });
    }
    let top = state
        .discard
        .pop()
        .expect("the discard pile holds more than one card");
    let mut new_deck = std::mem::replace(&mut state.discard, vec![top]);
    shuffle(&mut new_deck, &mut state.rng);
    events.push(Event::Reshuffled {
        cards: new_deck.len() as u32,
    });
    state.deck = new_deck;
    true
}
