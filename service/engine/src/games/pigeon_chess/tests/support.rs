//! Helpers that build positions by hand and drive games.

use rand::Rng;

use super::super::state::{Card, Hand, State};
use super::super::{Action, Config, Event, Phase, PigeonChess, Spot};
use crate::chess::Role;
use crate::game::Game;
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;

pub(super) use Role::{Bishop as B, King as K, Knight as N, Pawn as P, Queen as Q, Rook as R};

/// The spot called `name` (`a1` … `c4`).
pub(super) fn sp(name: &str) -> Spot {
    name.parse().expect("a spot name")
}

/// A face-up card of `owner` on `name`.
pub(super) fn up(name: &str, owner: u8, piece: Role) -> (Spot, Card) {
    card(name, owner, piece, false)
}

/// A face-down card of `owner` on `name`.
pub(super) fn down(name: &str, owner: u8, piece: Role) -> (Spot, Card) {
    card(name, owner, piece, true)
}

fn card(name: &str, owner: u8, piece: Role, face_down: bool) -> (Spot, Card) {
    (
        sp(name),
        Card {
            owner: Seat(owner),
            piece,
            face_down,
        },
    )
}

/// A hand holding `pieces`.
pub(super) fn hand(pieces: &[Role]) -> Hand {
    let mut hand = [0; 6];
    for piece in pieces {
        hand[piece.index()] += 1;
    }
    hand
}

/// A play-phase position with `cards` on the board, empty hands and decks, and `current` to
/// move (its turn already started).
pub(super) fn position(current: u8, cards: &[(Spot, Card)]) -> State {
    let mut state = State::empty(
        Config::default(),
        crate::Edition::LATEST,
        Seed::from_u64(0).rng(),
    );
    state.phase = Phase::Play;
    state.first_player = Some(Seat(0));
    state.current = Some(Seat(current));
    for (spot, card) in cards {
        state.board[spot.index()] = Some(*card);
    }
    state
}

/// `state` as a game created under the first rules edition (stored by the first release).
pub(super) fn first_edition(mut state: State) -> State {
    state.edition = crate::Edition::FIRST;
    state
}

/// Applies a legal action, failing the test on error.
pub(super) fn act(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    PigeonChess::apply(state, Seat(seat), &action)
        .unwrap_or_else(|error| panic!("{action} by seat {seat} was rejected: {error}"))
}

/// Sorted destinations of the `Move` actions starting on `from`.
pub(super) fn moves_from(state: &State, seat: u8, from: &str) -> Vec<String> {
    let from = sp(from);
    let mut out: Vec<String> = PigeonChess::legal_actions(state, Seat(seat))
        .into_iter()
        .filter_map(|action| match action {
            Action::Move { from: origin, to } if origin == from => Some(to.to_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// A new game whose hands and decks are replaced: `hands[seat]` is dealt, `decks[seat]` is
/// drawn from its end.
pub(super) fn rigged_setup(hands: [&[Role]; 2], decks: [&[Role]; 2]) -> State {
    let (mut state, _) =
        PigeonChess::new_game(&Config::default(), 2, Seed::from_u64(1)).expect("default config");
    for seat in 0..2 {
        state.hands[seat] = hand(hands[seat]);
        state.decks[seat] = decks[seat].to_vec();
    }
    state
}

/// Plays a random legal action for some seat to act; returns its events, or `None` when over.
pub(super) fn random_step(state: &mut State, rng: &mut GameRng) -> Option<(Seat, Action)> {
    let to_act: Vec<Seat> = PigeonChess::to_act(state).iter().collect();
    if to_act.is_empty() {
        return None;
    }
    let seat = to_act[rng.random_range(0..to_act.len())];
    let actions = PigeonChess::legal_actions(state, seat);
    assert!(!actions.is_empty(), "{seat} is to act but has no action");
    let action = actions[rng.random_range(0..actions.len())];
    act(state, seat.0, action);
    Some((seat, action))
}

/// All cards of both seats, wherever they are.
pub(super) fn total_cards(state: &State) -> usize {
    let decks: usize = state.decks.iter().map(Vec::len).sum();
    let hands: usize = (0..2).map(|seat| state.hand_count(Seat(seat))).sum();
    let board = state.board.iter().flatten().count();
    let piles: usize = state.point_piles.iter().map(Vec::len).sum();
    decks + hands + board + piles + state.discard.len()
}

/// `state` with the given hands.
pub(super) fn with_hands(mut state: State, hands: [&[Role]; 2]) -> State {
    state.hands = hands.map(hand);
    state
}

/// The move of the card on `from` to `to`.
pub(super) fn mv(from: &str, to: &str) -> Action {
    Action::Move {
        from: sp(from),
        to: sp(to),
    }
}

/// The event that starts turn `turn` of `seat`.
pub(super) fn started(seat: u8, turn: u32) -> Event {
    Event::TurnStarted {
        seat: Seat(seat),
        turn,
    }
}
