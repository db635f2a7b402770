//! Helpers that build positions by hand and drive games.

use rand::Rng;

use super::super::state::{Hand, Pile, State};
use super::super::{Action, Card, Config, DECK_SIZE, Event, PileChess, PileSource, PublicEvent};
use crate::game::Game;
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;

pub(super) use crate::chess::Role::{
    Bishop as B, King as K, Knight as N, Pawn as P, Queen as Q, Rook as R,
};

/// A new game of `seats` seats with `config`.
pub(super) fn game(config: &Config, seats: usize, seed: u64) -> State {
    PileChess::new_game(config, seats, Seed::from_u64(seed))
        .expect("a valid game")
        .0
}

/// A hand holding `pieces`.
pub(super) fn hand(pieces: &[crate::chess::Role]) -> Hand {
    let mut hand = [0; 6];
    for piece in pieces {
        hand[piece.index()] += 1;
    }
    hand
}

/// Card of `owner` showing `piece`.
pub(super) fn c(owner: u8, piece: crate::chess::Role) -> Card {
    Card::new(Seat(owner), piece)
}

/// A round-1 position of `seats` seats (free for all, or `config`'s teams) in its play step:
/// hands, reuse piles and captured piles are empty, every deck holds 8 Pawns (enough for two
/// rounds without a shortfall), seat `current` is the first player and to act, and
/// `piles[seat]` (if given and not empty) is that seat's pile, opened from the deck top.
pub(super) fn table(config: &Config, seats: usize, piles: &[&[Card]], current: u8) -> State {
    let mut state = game(config, seats, 0);
    for player in &mut state.players {
        player.deck = vec![P; 8];
        player.hand = [0; 6];
    }
    for (seat, pile) in state.piles.iter_mut().enumerate() {
        *pile = piles
            .get(seat)
            .filter(|cards| !cards.is_empty())
            .map(|cards| Pile {
                cards: cards.to_vec(),
                source: PileSource::DeckTop,
            });
    }
    state.first_player = Seat(current);
    state.current = Some(Seat(current));
    state
}

/// Free for all with the default options.
pub(super) fn ffa() -> Config {
    Config::default()
}

/// Gives `seat` exactly the hand `pieces`.
pub(super) fn set_hand(state: &mut State, seat: u8, pieces: &[crate::chess::Role]) {
    state.players[usize::from(seat)].hand = hand(pieces);
}

/// Gives `seat` exactly the deck `pieces`; the last one is the top card.
pub(super) fn set_deck(state: &mut State, seat: u8, pieces: &[crate::chess::Role]) {
    state.players[usize::from(seat)].deck = pieces.to_vec();
}

/// Whether `events` end the round's play step.
pub(super) fn round_ended(events: &[Event]) -> bool {
    public(events)
        .iter()
        .any(|event| matches!(event, PublicEvent::RoundEnded { .. }))
}

/// The resolution of the pile of `owner` among `events`.
pub(super) fn resolution(events: &[Event], owner: u8) -> PublicEvent {
    public(events)
        .into_iter()
        .find(|event| matches!(event, PublicEvent::PileResolved { pile, .. } if pile.0 == owner))
        .unwrap_or_else(|| panic!("pile {owner} was not resolved"))
}

/// Passes for each seat in `seats`, in order; returns the events of the last pass.
pub(super) fn pass_all(state: &mut State, seats: &[u8]) -> Vec<Event> {
    let mut events = Vec::new();
    for seat in seats {
        events = act(state, *seat, Action::Pass);
    }
    events
}

/// Applies a legal action, failing the test on error.
pub(super) fn act(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    PileChess::apply(state, Seat(seat), &action)
        .unwrap_or_else(|error| panic!("{action} by seat {seat} was rejected: {error}"))
}

/// The error an action gets; fails the test if it is accepted. The state must not change.
pub(super) fn refused(state: &State, seat: u8, action: Action) -> String {
    let mut copy = state.clone();
    match PileChess::apply(&mut copy, Seat(seat), &action) {
        Ok(events) => panic!("{action} by seat {seat} was accepted: {events:?}"),
        Err(error) => {
            assert_eq!(&copy, state, "a refused action changed the state");
            error.to_string()
        }
    }
}

/// Plays `piece` on `pile`.
pub(super) fn play(piece: crate::chess::Role, pile: u8) -> Action {
    Action::Play {
        piece,
        pile: Seat(pile),
    }
}

/// The public events among `events`.
pub(super) fn public(events: &[Event]) -> Vec<PublicEvent> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Public(public) => Some(public.clone()),
            Event::CardsDrawn { .. } => None,
        })
        .collect()
}

/// Plays a random legal action for the seat to act; returns it, or `None` when over.
pub(super) fn random_step(state: &mut State, rng: &mut GameRng) -> Option<(Seat, Action)> {
    let to_act: Vec<Seat> = PileChess::to_act(state).iter().collect();
    if to_act.is_empty() {
        return None;
    }
    let seat = to_act[rng.random_range(0..to_act.len())];
    let actions = PileChess::legal_actions(state, seat);
    assert!(!actions.is_empty(), "{seat} is to act but has no action");
    let action = actions[rng.random_range(0..actions.len())].clone();
    act(state, seat.0, action.clone());
    Some((seat, action))
}

/// Every card of the game, wherever it is.
pub(super) fn total_cards(state: &State) -> usize {
    let players: usize = state
        .players
        .iter()
        .map(|player| player.deck.len() + player.hand_count() + player.reuse.len())
        .sum();
    let piles: usize = state
        .piles
        .iter()
        .flatten()
        .map(|pile| pile.cards.len())
        .sum();
    let captured: usize = state.captured.iter().map(Vec::len).sum();
    players + piles + captured + state.removed.len()
}

/// The cards a game of `seats` seats holds.
pub(super) fn cards_of(seats: usize) -> usize {
    seats * DECK_SIZE
}
