//! §2 setup: the shuffle, the deal of 7 cards each, and the starting card.

use rand::Rng;

use super::card::Card;
use super::config::{Config, HAND_SIZE};
use super::deck::draw;
use super::event::{DrawReason, Event};
use super::observation::Stage;
use super::state::{SEATS, State, seats};
use super::turn::begin_turn;
use crate::chess::Position;
use crate::game::SetupError;
use crate::games::common::Deal;
use crate::rng::shuffle;
use crate::seat::Seat;

/// §2: shuffles the deck, deals 7 cards to each seat, turns up the starting card and starts
/// White's (seat 0's) first turn.
pub(crate) fn new_game(deal: Deal<'_, Config>) -> Result<(State, Vec<Event>), SetupError> {
    let (config, mut rng) = (deal.config, deal.rng);
    config.validate()?;
    let mut deck = config.build_deck();
    shuffle(&mut deck, &mut rng);
    let mut state = State {
        config: config.clone(),
        edition: deal.edition,
        rng,
        position: Position::startpos(),
        deck,
        discard: Vec::new(),
        hands: [Vec::new(), Vec::new()],
        // Set by the starting card below.
        active_colour: config.colours_in_play()[0],
        current: Seat(0),
        stage: Stage::Start,
        moves_left: 0,
        cards_this_turn: 0,
        skips: [0; SEATS],
        chuno: None,
        draw_offer: None,
        turns_taken: 0,
        quiet_moves: 0,
        outcome: None,
    };
    let mut events = vec![Event::DeckShuffled {
        cards: state.deck.len() as u32,
    }];
    for seat in seats() {
        draw(&mut state, seat, HAND_SIZE, DrawReason::Deal, &mut events);
    }
    turn_up_starter(&mut state, &mut events);
    begin_turn(&mut state, Seat(0), &mut events);
    Ok((state, events))
}

/// §2.3, §9.3: turns up the top card of the deck. A wild card goes back into the deck at a
/// random position and another is turned up; an action card's effect is not applied. The config
/// guarantees a coloured card is left after the deal, so this ends.
fn turn_up_starter(state: &mut State, events: &mut Vec<Event>) {
    loop {
        let card: Card = state
            .deck
            .pop()
            .expect("the deck keeps a coloured card after the deal");
        match card.colour {
            Some(colour) => {
                state.discard.push(card);
                state.active_colour = colour;
                events.push(Event::StarterTurned { card });
                return;
            }
            None => {
                let at = state.rng.random_range(0..=state.deck.len());
                state.deck.insert(at, card);
                events.push(Event::StarterReburied { card });
            }
        }
    }
}
