//! §3 step 4: every player still in draws three cards; a player whose deck cannot give three has
//! a shortfall: they draw what is left, and unless their reshuffle counter is at its limit (the
//! game then ends as a stalemate for everyone), shuffle hand and reuse pile into a new deck and
//! draw back to the hand size they had. The missing draws are lost (the seed's worked example).

use super::event::{Event, PublicEvent};
use super::scoring;
use super::setup::draw;
use super::state::{State, hand_cards};
use crate::game::EndReason;
use crate::rng::shuffle;
use crate::seat::Seat;

/// §3 step 4: cards every player draws after a round.
pub(crate) const DRAW: usize = 3;

/// Draws for every player still in, in seat order. Returns whether the game ended.
pub(crate) fn draw_step(state: &mut State, events: &mut Vec<Event>) -> bool {
    for seat in state.seats() {
        if !state.is_in(seat) {
            continue;
        }
        if state.player(seat).deck.len() >= DRAW {
            draw(state, seat, DRAW, events);
        } else if shortfall(state, seat, events) {
            return true;
        }
    }
    false
}

/// One shortfall of `seat`. Returns whether it ended the game.
fn shortfall(state: &mut State, seat: Seat, events: &mut Vec<Event>) -> bool {
    let left = state.player(seat).deck.len();
    let drawn = draw(state, seat, left, events);
    let hand_size = state.player(seat).hand_count();
    let limit_reached = state.player(seat).reshuffles >= state.config.max_reshuffles;
    if !limit_reached {
        state.player_mut(seat).reshuffles += 1;
    }
    events.push(Event::Public(PublicEvent::Shortfall {
        seat,
        drawn: drawn as u32,
        hand_size: hand_size as u32,
        reshuffles: state.player(seat).reshuffles,
        ends_game: limit_reached,
    }));
    if limit_reached {
        scoring::stalemate(state, EndReason::OutOfCards);
        return true;
    }
    // Hand and reuse pile become the new deck, even when the reuse pile is empty.
    let player = state.player_mut(seat);
    let mut deck = hand_cards(&player.hand);
    deck.append(&mut player.reuse);
    player.hand = [0; 6];
    shuffle(&mut deck, &mut state.rng);
    state.player_mut(seat).deck = deck;
    events.push(Event::Public(PublicEvent::DeckShuffled { seat }));
    draw(state, seat, hand_size, events);
    false
}
