//! §2 setup (and §5 for more players): every player's deck is shuffled, every player draws four
//! cards, seat 0 opens round 1.

use super::config::Config;
use super::event::{Event, PublicEvent};
use super::piece::{DECK, Role};
use super::round;
use super::state::{Player, State};
use crate::game::SetupError;
use crate::games::common::Deal;
use crate::rng::shuffle;
use crate::seat::{Seat, SeatSet};

/// §2.2: cards every player draws at the start.
const START_HAND: usize = 4;

/// Checks the options, shuffles every deck, deals four cards to everyone and
/// starts round 1 with seat 0 (White) as the first player.
pub(crate) fn new_game(deal: Deal<'_, Config>) -> Result<(State, Vec<Event>), SetupError> {
    let Deal {
        config,
        seats,
        mut rng,
        edition,
    } = deal;
    config.validate(seats)?;
    let mut events = Vec::new();
    let mut players = Vec::with_capacity(seats);
    for seat in 0..seats {
        // §2.1: each player shuffles their own deck.
        let mut deck: Vec<Role> = Role::ALL
            .iter()
            .flat_map(|piece| std::iter::repeat_n(*piece, usize::from(DECK[piece.index()])))
            .collect();
        shuffle(&mut deck, &mut rng);
        players.push(Player::new(deck));
        events.push(Event::Public(PublicEvent::DeckShuffled {
            seat: Seat(seat as u8),
        }));
    }
    let side_of = config.sides(seats);
    let sides = usize::from(side_of.iter().copied().max().unwrap_or(0)) + 1;
    let mut state = State {
        config: config.clone(),
        edition,
        rng,
        players,
        side_of,
        captured: vec![Vec::new(); sides],
        removed: Vec::new(),
        piles: vec![None; seats],
        round: 0,
        // §2.3: White (seat 0) is the first player of round 1.
        first_player: Seat(0),
        current: None,
        last_player: None,
        acted: SeatSet::EMPTY,
        passed: SeatSet::EMPTY,
        pending: Vec::new(),
        turns: 0,
        outcome: None,
    };
    for seat in state.seats() {
        draw(&mut state, seat, START_HAND, &mut events);
    }
    round::start_round(&mut state, &mut events);
    Ok((state, events))
}

/// Moves up to `count` cards from the top of `seat`'s deck to its hand and reports them.
/// Returns how many were drawn.
pub(crate) fn draw(state: &mut State, seat: Seat, count: usize, events: &mut Vec<Event>) -> usize {
    let player = state.player_mut(seat);
    let take = count.min(player.deck.len());
    if take == 0 {
        return 0;
    }
    let start = player.deck.len() - take;
    let pieces: Vec<Role> = player.deck.drain(start..).rev().collect();
    for piece in &pieces {
        player.hand[piece.index()] += 1;
    }
    events.push(Event::CardsDrawn { seat, pieces });
    take
}
