//! §2 setup: shuffle the 104 cards, deal the 25 face-down base cards and five cards to each
//! player; the rest is the draw pile, and Red (seat 0) moves first.

use super::config::Config;
use super::event::Event;
use super::observation::Phase;
use super::spot::SPOTS;
use super::state::{HAND_SIZE, SEATS, SpotState, State, seats};
use super::turn::draw;
use crate::cards::standard_decks;
use crate::game::SetupError;
use crate::games::common::Deal;
use crate::rng::shuffle;
use crate::seat::Seat;

/// §1: two standard 52-card decks, no jokers (§8.10).
pub(crate) const DECKS: usize = 2;

/// §2: a new game dealt with the deal's generator, with its setup events.
pub(crate) fn new_game(deal: Deal<'_, Config>) -> Result<(State, Vec<Event>), SetupError> {
    let (config, mut rng) = (deal.config, deal.rng);
    config.validate()?;
    // §2.1: shuffle.
    let mut cards = standard_decks(DECKS);
    shuffle(&mut cards, &mut rng);
    let mut events = vec![Event::DeckShuffled {
        cards: cards.len() as u32,
    }];
    // §2.2: one face-down base card per spot, no pieces. The deal is reported without the
    // cards: a base card's identity is known to nobody until it is turned face up (§7).
    let board: [SpotState; SPOTS] = std::array::from_fn(|_| SpotState {
        base: cards.pop().expect("104 cards cover the 25 spots"),
        base_known: false,
        piece: None,
        in_check: false,
    });
    events.push(Event::BoardDealt {
        spots: SPOTS as u32,
    });
    let mut state = State {
        config: config.clone(),
        edition: deal.edition,
        rng,
        board,
        hands: [Vec::new(), Vec::new()],
        draw_pile: cards,
        discard: Vec::new(),
        phase: Phase::Play,
        current: Seat(0),
        replacement_spot: None,
        exchanged_last: [false; SEATS],
        turns_taken: 0,
        turns_without_progress: 0,
        shown_hands: None,
        outcome: None,
    };
    // §2.3: five cards each; the remaining 69 are the draw pile. §2.4: Red moves first, and
    // may always exchange on its first turn, so it has a legal action.
    for seat in seats() {
        draw(&mut state, seat, HAND_SIZE, &mut events);
    }
    Ok((state, events))
}
