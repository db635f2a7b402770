//! Raindropchess (`raindrop_chess`), as specified by rules/raindrop_chess.md: chess on an
//! empty board where each player flips cards from a 16-card deck and places the pieces they
//! show, then plays chess with them.
//!
//! The chess itself is the shared core ([`crate::chess`]) with check enforced, single pawn
//! steps, no en passant, no castling and promotion limited to the unused pieces of the player's
//! pool (or staying a pawn).
//!
//! # Decisions where the rule file is silent
//!
//! * **Seats (§2).** Seat 0 plays White and moves first.
//! * **Flip and place (§3).** A flip is one action (`flip`, its card drawn from the hidden
//!   deck) and the placement another (`place e4`), so that no action list ever depends on the
//!   hidden next card. A joker with `REMOVE_PIECE` is followed by `remove e4`.
//! * **Flipping in check (§4).** `flip` is offered in check only when a placement could block it
//!   (exactly the checkmate test of §4: one checking piece with an empty square between it and
//!   the King); a flip that could not possibly end the check is not an action.
//! * **Jokers (§3, §4).** A `REMOVE_PIECE` joker may remove only pieces whose removal does not
//!   leave the own King in check (an enemy piece can shield the King from another). With no
//!   removable piece and no check it has no effect (`JokerUnused`) and the turn ends. A joker's
//!   turn counts as a turn; its extra turn is another.
//! * **Returned cards (§3.4, §8.6).** A card put back at the bottom stays public (the
//!   observation lists the returned cards still at the bottom); resampling keeps them there.
//! * **Bishop colour (§8.4).** With the option on, the deck holds one light and one dark bishop
//!   card; light squares are those where file + rank is odd (a1 is dark).
//! * **Promotion pieces (§5, §8.3).** The engine remembers which squares hold promotion pieces;
//!   with `captured_promotion_returns` a captured or removed one goes back to its owner's pool.
//! * **End (§4, §6, §9).** Checkmate, stalemate and a failed flip in check end with
//!   [`EndReason::NoLegalAction`] (a win for the opponent, or a draw for stalemate). The
//!   75-move rule (150 plies without capture, pawn move, placement, promotion or joker),
//!   fivefold repetition (same squares and side to move since the last such action) and
//!   insufficient material (both decks empty; no pawn, rook or queen and at most one bishop or
//!   knight on the board) are draws with [`EndReason::NoProgress`]; 1000 turns is a draw with
//!   [`EndReason::TurnCap`]. Checkmate and stalemate are tested first.
//! * **Randomness (§7).** The two shuffles at setup, White's deck first; each is an event whose
//!   view tells only the deck size while the game runs (the complete history of a finished game
//!   shows the order).

mod action;
mod card;
mod config;
mod end;
mod event;
mod observation;
mod placement;
mod resample;
mod setup;
mod state;
mod turn;
mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, ChessMove, ParseActionError};
pub use card::Card;
pub use config::{Config, JokerEffect};
pub use event::{Event, EventView};
pub use observation::{Observation, SideView, Stage};
pub use state::State;

use std::ops::RangeInclusive;

use crate::edition::Edition;
use crate::game::{Game, Outcome, PlayError, SetupError};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, SeatSet, Viewer};

#[cfg(doc)]
use crate::game::EndReason;

/// Raindropchess: place pieces flipped from a deck, then play chess (rules/raindrop_chess.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaindropChess;

impl Game for RaindropChess {
    const ID: &'static str = "raindrop_chess";
    const NAME: &'static str = "Raindropchess";
    const SUMMARY: &'static str = "Chess on an empty board: flip a card from your 16-card deck \
        and place the piece it shows (pawns on their ranks, the King never on an attacked \
        square), or once your King is placed make a chess move. Check, checkmate by chess rules \
        with flips able to block; single-step pawns; promotion from a one-use pool of Q, R, B, N.";
    const SEATS: RangeInclusive<usize> = state::SEATS..=state::SEATS;

    type Config = Config;
    type State = State;
    type Action = Action;
    type Observation = Observation;
    type Event = Event;
    type EventView = EventView;

    fn new_game_in(
        config: &Config,
        seats: usize,
        seed: Seed,
        edition: Edition,
    ) -> Result<(State, Vec<Event>), SetupError> {
        setup::new_game(config, seats, seed, edition)
    }

    fn seat_count(_state: &State) -> usize {
        state::SEATS
    }

    fn to_act(state: &State) -> SeatSet {
        state.to_act()
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        turn::legal_actions(state, seat)
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, PlayError> {
        turn::apply(state, seat, action)
    }

    fn observe(state: &State, _viewer: Viewer) -> Observation {
        view::observe(state)
    }

    fn turn_number(state: &State) -> u32 {
        state.plies
    }

    fn view_event(event: &Event, _viewer: Viewer) -> Option<EventView> {
        Some(view::view_event(event))
    }

    fn reveal_event(event: &Event) -> EventView {
        view::reveal_event(event)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn resample(state: &State, _viewer: Viewer, rng: &mut GameRng) -> State {
        resample::resample(state, rng)
    }
}
