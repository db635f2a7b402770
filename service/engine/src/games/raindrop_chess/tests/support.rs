//! Helpers for the rule tests: games from a seed and hand-built positions.

use super::super::state::{State, colour_of};
use super::super::{Action, Card, Config, RaindropChess};
use crate::chess::{Piece, Position, Square};
use crate::edition::Edition;
use crate::game::Game;
use crate::rng::Seed;
use crate::seat::Seat;

/// A new game with `config` from seed `n`, under the latest rules.
pub(crate) fn game(config: &Config, n: u64) -> State {
    RaindropChess::new_game(config, 2, Seed::from_u64(n))
        .expect("valid setup")
        .0
}

/// A new game with `config` from seed `n`, under `edition` of the rules.
pub(crate) fn game_in(config: &Config, n: u64, edition: Edition) -> State {
    RaindropChess::new_game_in(config, 2, Seed::from_u64(n), edition)
        .expect("valid setup")
        .0
}

/// The square named `name`.
pub(crate) fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

/// A state with the pieces of `pieces` ("Ke1", "qd8": upper case White) on the board, the given
/// decks (top card last), `seat` to act at the start of a turn, under the latest rules.
pub(crate) fn position_state(pieces: &[&str], decks: [Vec<Card>; 2], seat: Seat) -> State {
    position_state_in(Edition::LATEST, pieces, decks, seat)
}

/// [`position_state`] under `edition` of the rules.
pub(crate) fn position_state_in(
    edition: Edition,
    pieces: &[&str],
    decks: [Vec<Card>; 2],
    seat: Seat,
) -> State {
    let mut position = Position::empty(colour_of(seat));
    for text in pieces {
        let mut chars = text.chars();
        let piece = Piece::from_fen_char(chars.next().expect("a piece letter")).expect("a piece");
        position
            .place(piece, sq(chars.as_str()))
            .expect("an empty square");
    }
    state_with(edition, &Config::default(), position, decks, seat)
}

/// A state of `config` under `edition` with `position` on the board, the given decks (top card
/// last, none of them returned) and `seat` to act at the start of a turn. The turn begins as in
/// play, so a position that decides the game ends it at once.
pub(crate) fn state_with(
    edition: Edition,
    config: &Config,
    position: Position,
    decks: [Vec<Card>; 2],
    seat: Seat,
) -> State {
    let mut state = game_in(config, 0, edition);
    state.position = position;
    state.decks = decks;
    state.returned = [0, 0];
    state.current = seat;
    state.history.clear();
    super::super::end::begin_turn(&mut state, seat);
    state
}

/// Applies `action`, panicking with the error if it is refused.
pub(crate) fn play(state: &mut State, seat: Seat, action: Action) {
    RaindropChess::apply(state, seat, &action)
        .unwrap_or_else(|error| panic!("{action} refused: {error}"));
}

/// A full deck with `top` on top.
pub(crate) fn deck_with_top(top: Card) -> Vec<Card> {
    let mut deck = vec![Card::Pawn; 3];
    deck.push(top);
    deck
}
