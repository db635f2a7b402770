//! §2 setup: an empty board, both decks shuffled, White to move.

use super::config::Config;
use super::end::begin_turn;
use super::event::Event;
use super::observation::Stage;
use super::state::{SEATS, State, full_pool, seats};
use crate::chess::{Color, Position};
use crate::game::SetupError;
use crate::games::common::Deal;
use crate::rng::shuffle;
use crate::seat::Seat;

/// §2: shuffles both decks (White's first) and starts White's (seat 0's) first turn.
pub(crate) fn new_game(deal: Deal<'_, Config>) -> Result<(State, Vec<Event>), SetupError> {
    let (config, mut rng) = (deal.config, deal.rng);
    config.validate()?;
    let mut events = Vec::new();
    let mut decks = [config.build_deck(), config.build_deck()];
    for seat in seats() {
        let deck = &mut decks[seat.index()];
        shuffle(deck, &mut rng);
        events.push(Event::DeckShuffled {
            seat,
            order: deck.clone(),
        });
    }
    let mut state = State {
        config: config.clone(),
        edition: deal.edition,
        rng,
        position: Position::empty(Color::White),
        decks,
        returned: [0; SEATS],
        flipped: [Vec::new(), Vec::new()],
        pools: [full_pool(); SEATS],
        promoted: 0,
        current: Seat(0),
        stage: Stage::Turn,
        plies: 0,
        quiet_plies: 0,
        history: Vec::new(),
        outcome: None,
    };
    begin_turn(&mut state, Seat(0));
    Ok((state, events))
}
