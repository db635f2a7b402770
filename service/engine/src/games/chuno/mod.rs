//! CHUNO (`chuno`), as docs/rules/chuno.md states it: 8×8 chess driven by UNO-style cards.
//!
//! Two players share a deck of 96 cards (numbers 0–2, Skip, Reverse, Draw Two, Wild, Wild Draw
//! Four). On a turn a player plays a card matching the top card or the active colour, then makes
//! the chess moves it grants (a number card: up to N; a Wild: exactly one), or draws a card.
//! Capturing the enemy King or playing the last card wins.
//!
//! # Where the rule file decides (docs/rules/chuno.md §9)
//!
//! * **Seats (§2, §9.12).** Seat 0 plays White and takes the first turn.
//! * **Cards (§1, §9.16).** Cards of the same kind and colour are not told apart. Hands are kept
//!   sorted (colour red → blue, then kind, wild cards last), and observations show them so. The
//!   deck is built kind by kind and coloured round-robin (see [`Config::build_deck`]) before the
//!   shuffle. Notation: a colour letter and `0`, `1`, `2`, `S` (Skip), `R` (Reverse), `+2` (Draw
//!   Two); `W` and `W+4` for the wild cards. Actions read `play R2`, `play W G` (a Wild choosing
//!   green), `e2e4`, `e7e8q`, `end`, `draw`, `chuno`.
//! * **Config (§1, §9.1, §9.2, §13).** The deck needs more than 14 coloured cards, so that a
//!   coloured starting card is left after the deal; this also makes the §2.3 re-burial of wild
//!   starters end.
//! * **Wild Draw Four (§3, §9.17).** Playable only when the player holds no card of the active
//!   colour, never merely because the top card is also a Wild Draw Four.
//! * **Turn flow (§4, §9.18, §9.19).** After a number card the turn ends by itself once its last
//!   move is made; `EndTurn` ends it earlier. A 0 ends the turn at once; so does a Skip, Draw Two
//!   or Wild Draw Four, and a Wild when no chess move is possible. A number card when no chess
//!   move is possible leaves only `EndTurn`. After a Reverse (as first or second card) the player
//!   plays a card matching it or ends the turn; drawing is not possible then.
//! * **Skips and turns (§4, §9.8, §9.15).** The skipped seat's counter drops by one when its turn
//!   would come, and the current player starts a new turn; that new turn counts towards the turn
//!   cap and has a new [`Game::turn_number`], the skipped one does neither.
//! * **En passant (§5, §9.10).** See `moves.rs`: a player's own double step never gives it an en
//!   passant capture, and the square lasts exactly until the next chess move of either side.
//! * **CHUNO call (§6, §9.11, §9.21).** The obliged seat is in `to_act` (its only action, out of
//!   turn, is `CallChuno`) until it calls or the opponent's next game action. The table's draw
//!   offers, accept, decline and resignation close the window through
//!   [`Game::before_meta_action`], which also mirrors the standing draw offer into the state for
//!   the observation.
//! * **Draw offers (§9.13).** From edition 2 on, `CallChuno` does not answer a draw offer
//!   ([`Game::answers_draw_offer`]): only the offeree's turn actions decline it. Under edition 1
//!   the call declined it like any game action (§14.2).
//! * **Clocks (§9.26).** Only the current player is on the clock
//!   ([`Game::clock_seats`]); a seat that may only make its CHUNO call out of turn is not. A
//!   timeout ends the game, won by the other seat: material is never insufficient here.
//! * **End (§7, §9.14, §10).** King capture → [`EndReason::KingCaptured`]; empty hand →
//!   [`EndReason::OutOfCards`]; a player who at the start of its turn can neither draw nor play →
//!   draw, [`EndReason::Stalemate`] ([`EndReason::NoLegalAction`] under edition 1, §14.1); 150
//!   chess moves without capture or pawn move → draw, [`EndReason::NoProgress`]; 500 turns →
//!   draw, [`EndReason::TurnCap`].
//! * **Randomness (§8).** The initial shuffle, every random re-burial of a wild starter and every
//!   reshuffle of the discard pile come from the generator in the state; each is an event.

mod action;
mod call;
mod card;
mod config;
mod deck;
mod end;
mod evaluation;
mod event;
mod moves;
mod observation;
mod playable;
mod resample;
mod setup;
mod state;
mod turn;
mod view;

#[cfg(test)]
mod tests;

pub use crate::chess::{ChessMove, ParseUciError};
pub use action::{Action, ParseActionError};
pub use card::{Card, Colour, Kind, ParseCardError};
pub use config::{Config, HAND_SIZE, MAX_PER_KIND};
pub use event::{DrawReason, Event, EventView, MoveRecord};
pub use observation::{Observation, Stage};
pub use state::State;

use std::ops::RangeInclusive;

use crate::game::Game;
use crate::games::common;
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::MetaAction;

#[cfg(doc)]
use crate::game::EndReason;

/// CHUNO: 8×8 chess driven by UNO-style cards (docs/rules/chuno.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chuno;

impl Game for Chuno {
    const ID: &'static str = "chuno";
    const NAME: &'static str = "CHUNO";
    const SUMMARY: &'static str = "Chess driven by UNO-style cards: match the top card's colour \
        or symbol, then make the chess moves the card grants (a number card up to its value, a \
        Wild one); Skips, Reverses and Draw cards as in UNO. Capture the enemy King or empty \
        your hand to win, and call CHUNO on your last card.";
    const SEATS: RangeInclusive<usize> = state::SEATS..=state::SEATS;

    common::game_layout!(turn);

    fn evaluate(state: &State, seat: Seat) -> f32 {
        evaluation::evaluate(state, seat)
    }

    /// §9.15: the turn in progress, from 1; a turn given back by a skip is a new turn.
    fn turn_number(state: &State) -> u32 {
        state.turn_number()
    }

    /// §9.26: only the seat whose turn it is is on the clock, not a seat that may make its
    /// CHUNO call out of turn. A timeout ends the game (the default [`Game::time_out`]), and
    /// either seat can always still win (§9.14), so the other seat wins it.
    fn clock_seats(state: &State) -> SeatSet {
        state.clock_seats()
    }

    /// §9.13: the CHUNO call leaves a draw offer standing; every turn action answers it.
    fn answers_draw_offer(action: &Action) -> bool {
        call::answers_draw_offer(action)
    }

    fn view_event(event: &Event, viewer: Viewer) -> Option<EventView> {
        Some(event.view(viewer))
    }

    fn reveal_event(event: &Event) -> EventView {
        event.reveal()
    }

    fn before_meta_action(state: &mut State, seat: Seat, action: MetaAction) -> Vec<Event> {
        call::before_meta_action(state, seat, action)
    }
}
