//! Helpers that build positions by hand and drive games.

use rand::Rng;

use super::super::state::{SpotState, State};
use super::super::{Action, CardChess, Config, Event, Phase, Spot};
use crate::cards::{Card, Rank, Suit, standard_decks};
use crate::game::Game;
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;

/// The spot called `name` (`red castle 3`).
pub(super) fn sp(name: &str) -> Spot {
    name.parse()
        .unwrap_or_else(|_| panic!("{name:?} is a spot name"))
}

/// The card written `name`: a rank (2–10, J, Q, K, A) and a suit letter (C, D, H, S).
pub(super) fn c(name: &str) -> Card {
    let (rank, suit) = name.split_at(name.len() - 1);
    let rank = match rank {
        "J" => Rank::Jack,
        "Q" => Rank::Queen,
        "K" => Rank::King,
        "A" => Rank::Ace,
        number => Rank::from_value(number.parse().expect("a rank")).expect("2 to 10"),
    };
    let suit = match suit {
        "C" => Suit::Clubs,
        "D" => Suit::Diamonds,
        "H" => Suit::Hearts,
        "S" => Suit::Spades,
        other => panic!("no suit {other}"),
    };
    Card::new(rank, suit)
}

/// Cards written as in [`c`].
pub(super) fn cards(names: &[&str]) -> Vec<Card> {
    names.iter().map(|name| c(name)).collect()
}

/// A position with `current` to play: `pieces` are (spot, card) pairs on the board; every base
/// card is a 2 of clubs nobody has seen, except `bases` (spot, card), which are set but also
/// unknown; hands are empty and the draw pile holds 69 other cards.
pub(super) fn position(current: u8, pieces: &[(&str, &str)]) -> State {
    let (mut state, _) =
        CardChess::new_game(&Config::default(), 2, Seed::from_u64(0)).expect("default config");
    for spot in &mut state.board {
        *spot = SpotState {
            base: c("2C"),
            base_known: false,
            piece: None,
            in_check: false,
        };
    }
    for (name, card) in pieces {
        state.board[sp(name).index()].piece = Some(c(card));
    }
    state.hands = [Vec::new(), Vec::new()];
    let mut pile = standard_decks(1);
    pile.extend(standard_decks(1).into_iter().take(17));
    state.draw_pile = pile;
    state.discard = Vec::new();
    state.current = Seat(current);
    state.phase = Phase::Play;
    state
}

/// Sets the base card of `name` (still unknown).
pub(super) fn set_base(state: &mut State, name: &str, card: &str) {
    state.board[sp(name).index()].base = c(card);
}

/// Puts `name`'s piece in check.
pub(super) fn set_check(state: &mut State, name: &str) {
    state.board[sp(name).index()].in_check = true;
}

/// Gives `seat` the hand `names` (sorted).
pub(super) fn set_hand(state: &mut State, seat: u8, names: &[&str]) {
    let mut hand = cards(names);
    hand.sort_unstable();
    state.hands[usize::from(seat)] = hand;
}

/// Applies an action, failing the test on error.
pub(super) fn act(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    CardChess::apply(state, Seat(seat), &action)
        .unwrap_or_else(|error| panic!("{action} by seat {seat} was rejected: {error}"))
}

/// A move action between two named spots.
pub(super) fn mv(from: &str, to: &str) -> Action {
    Action::Move {
        from: sp(from),
        to: sp(to),
    }
}

/// The sorted names of the destinations of the moves from `from`.
pub(super) fn moves_from(state: &State, seat: u8, from: &str) -> Vec<String> {
    let from = sp(from);
    let mut out: Vec<Spot> = CardChess::legal_actions(state, Seat(seat))
        .into_iter()
        .filter_map(|action| match action {
            Action::Move { from: origin, to } if origin == from => Some(to),
            _ => None,
        })
        .collect();
    out.sort();
    out.into_iter().map(|spot| spot.to_string()).collect()
}

/// Names of spots, for comparing with [`moves_from`].
pub(super) fn names(spots: &[&str]) -> Vec<String> {
    let mut out: Vec<Spot> = spots.iter().map(|name| sp(name)).collect();
    out.sort();
    out.into_iter().map(|spot| spot.to_string()).collect()
}

/// Plays a random legal action; returns it, or `None` once the game is over.
pub(super) fn random_step(state: &mut State, rng: &mut GameRng) -> Option<(Seat, Action)> {
    let seat = CardChess::to_act(state).iter().next()?;
    let actions = CardChess::legal_actions(state, seat);
    assert!(!actions.is_empty(), "{seat} is to act but has no action");
    let action = actions[rng.random_range(0..actions.len())];
    act(state, seat.0, action);
    Some((seat, action))
}

/// Every card of the game, wherever it is, sorted.
pub(super) fn all_cards(state: &State) -> Vec<Card> {
    let mut out: Vec<Card> = state.board.iter().map(|spot| spot.base).collect();
    out.extend(state.board.iter().filter_map(|spot| spot.piece));
    out.extend(state.hands.iter().flatten().copied());
    out.extend(state.draw_pile.iter().copied());
    out.extend(state.discard.iter().copied());
    out.sort_unstable();
    out
}
