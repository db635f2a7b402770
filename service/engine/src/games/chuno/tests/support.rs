//! Helpers that build positions by hand and drive games.

use rand::Rng;

use super::super::observation::Stage;
use super::super::state::State;
use super::super::{Action, Card, Chuno, Colour, Config, Event};
use crate::chess::Position;
use crate::edition::Edition;
use crate::game::Game;
use crate::rng::{GameRng, Seed};
use crate::seat::Seat;
use crate::table::Table;

/// The card written as `text` (`R2`, `YS`, `G+2`, `W`, `W+4`).
pub(super) fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|error| panic!("{error}"))
}

/// The cards written as `texts`.
pub(super) fn cards(texts: &[&str]) -> Vec<Card> {
    texts.iter().map(|text| card(text)).collect()
}

/// A sorted hand of the cards written as `texts`.
pub(super) fn hand(texts: &[&str]) -> Vec<Card> {
    let mut hand = cards(texts);
    hand.sort();
    hand
}

/// The action written as `text` (`play R2`, `play W G`, `e2e4`, `end`, `draw`, `chuno`).
pub(super) fn action(text: &str) -> Action {
    text.parse().unwrap_or_else(|error| panic!("{error}"))
}

/// A new default game from `seed`.
pub(super) fn new_game(seed: u64) -> (State, Vec<Event>) {
    Chuno::new_game(&Config::default(), 2, Seed::from_u64(seed)).expect("the default config")
}

/// A game at the start of `current`'s turn: the start position, the given hands, `top` alone on
/// the discard pile with `active` the colour to match, and `deck` (drawn from its end).
pub(super) fn table(
    current: u8,
    hands: [&[&str]; 2],
    top: &str,
    active: Colour,
    deck: &[&str],
) -> State {
    let (mut state, _) = new_game(0);
    state.hands = hands.map(hand);
    state.discard = vec![card(top)];
    state.active_colour = active;
    state.deck = cards(deck);
    state.current = Seat(current);
    state.stage = Stage::Start;
    state.moves_left = 0;
    state.cards_this_turn = 0;
    state.skips = [0, 0];
    state.chuno = None;
    state.position = Position::startpos();
    super::super::moves::hand_over(
        &mut state.position,
        super::super::state::colour_of(Seat(current)),
    );
    state
}

/// `state` with the board set from `fen`.
pub(super) fn with_fen(mut state: State, fen: &str) -> State {
    state.position = Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
    state
}

/// Applies the action written as `text` for `seat`, failing the test on error.
pub(super) fn act(state: &mut State, seat: u8, text: &str) -> Vec<Event> {
    Chuno::apply(state, Seat(seat), &action(text))
        .unwrap_or_else(|error| panic!("{text} by seat {seat} was rejected: {error}"))
}

/// The error `text` of `seat` gets; fails the test if it is accepted. Checks the state did not
/// change.
pub(super) fn rejected(state: &State, seat: u8, text: &str) -> String {
    let mut copy = state.clone();
    match Chuno::apply(&mut copy, Seat(seat), &action(text)) {
        Ok(events) => panic!("{text} by seat {seat} was accepted: {events:?}"),
        Err(error) => {
            assert!(copy == *state, "rejecting {text} changed the state");
            error.to_string()
        }
    }
}

/// The legal actions of `seat`, in notation.
pub(super) fn listed(state: &State, seat: u8) -> Vec<String> {
    Chuno::legal_actions(state, Seat(seat))
        .iter()
        .map(Action::to_string)
        .collect()
}

/// Whether the action written as `text` is listed for `seat`.
pub(super) fn lists(state: &State, seat: u8, text: &str) -> bool {
    Chuno::legal_actions(state, Seat(seat)).contains(&action(text))
}

/// Plays a random legal action for a random seat to act; `None` once the game is over.
pub(super) fn random_step(state: &mut State, rng: &mut GameRng) -> Option<(Seat, Action)> {
    let to_act: Vec<Seat> = Chuno::to_act(state).iter().collect();
    if to_act.is_empty() {
        return None;
    }
    let seat = to_act[rng.random_range(0..to_act.len())];
    let actions = Chuno::legal_actions(state, seat);
    assert!(!actions.is_empty(), "{seat} is to act but has no action");
    let chosen = actions[rng.random_range(0..actions.len())];
    Chuno::apply(state, seat, &chosen)
        .unwrap_or_else(|error| panic!("listed {chosen} of {seat} failed: {error}"));
    Some((seat, chosen))
}

/// Every card of the game, wherever it is, sorted.
pub(super) fn all_cards(state: &State) -> Vec<Card> {
    let mut all: Vec<Card> = state.deck.clone();
    all.extend(state.discard.iter().copied());
    for hand in &state.hands {
        all.extend(hand.iter().copied());
    }
    all.sort();
    all
}

/// A table of `edition` holding `state` (whose edition it takes too), with a draw offer of
/// `offer` standing in the table and in the state's mirror.
///
/// The table's fields are private, and in real play some situations cannot be reached through
/// its actions (an offer to a seat whose CHUNO call is pending: making the offer closes the
/// window, §9.11). The table is therefore written as JSON and read back with the fields set,
/// exactly as a stored table with those fields would load.
pub(super) fn table_with(mut state: State, edition: Edition, offer: Option<Seat>) -> Table<Chuno> {
    state.edition = edition;
    state.draw_offer = offer;
    let mut json = serde_json::to_value(Table::<Chuno>::from_state(state)).expect("serializes");
    json["edition"] = serde_json::to_value(edition).expect("serializes");
    json["draw_offer"] = serde_json::to_value(offer).expect("serializes");
    let table: Table<Chuno> = serde_json::from_value(json).expect("a table reads back");
    assert_eq!((table.edition(), table.draw_offer()), (edition, offer));
    table
}
