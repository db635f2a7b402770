//! Raindropchess (`raindrop_chess`), as docs/rules/raindrop_chess.md states it: chess on an
//! empty board where each player flips cards from a 16-card deck and places the pieces they
//! show, then plays chess with them.
//!
//! The chess itself is the shared core ([`crate::chess`]) with check enforced, single pawn
//! steps, no en passant, no castling and promotion limited to the unused pieces of the player's
//! pool (or staying a pawn) (§5). Every decision the rule text leaves open is recorded in §8 of
//! the rule file; the ones that shape this code:
//!
//! * **Flip and place (§3, §8.11).** A flip is one action (`flip`, its card drawn from the
//!   hidden deck) and the placement another (`place e4`), so that no action list ever depends
//!   on the hidden next card. A joker with `REMOVE_PIECE` is followed by `remove e4`.
//! * **Flipping in check (§4, §8.10).** `flip` is offered in check when a placement could block
//!   the check or, under edition 2, when a joker is still in the deck; a flipped card that then
//!   cannot end the check loses ([`EndReason::Checkmate`] under edition 2).
//! * **End (§6, §9).** Checkmate, stalemate, dead material, the 75-move rule, fivefold
//!   repetition and the turn cap each end the game under their own [`EndReason`] (edition 2);
//!   games dealt under edition 1 keep that release's reasons and timing (§10).
//! * **Timeouts (§8.23, docs/rules/conventions.md §8).** A timeout loses, unless the opponent
//!   could never win: dead material with no card left to come (the test of §6.8), or nothing
//!   but its King now and in its deck; then it is a draw.
//! * **Turns (§14).** A turn is a chess move, a flip with its placement or removal, or a flip
//!   whose card goes back; a joker's extra turn is a turn of its own. [`Game::turn_number`] is
//!   the count of turns completed (`plies`), which moves only when a turn ends.
//! * **Randomness (§7).** The two shuffles at setup, White's deck first; each is an event whose
//!   view tells only the deck size while the game runs (the complete history of a finished game
//!   shows the order).

mod action;
mod card;
mod config;
mod end;
mod evaluation;
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

pub use crate::chess::ChessMove;
pub use action::{Action, ParseActionError};
pub use card::Card;
pub use config::{Config, JokerEffect};
pub use event::{Event, EventView};
pub use observation::{Observation, SideView, Stage};
pub use state::State;

use std::ops::RangeInclusive;

use crate::game::Game;
use crate::games::common;
use crate::seat::{Seat, Viewer};

#[cfg(doc)]
use crate::game::EndReason;

/// Raindropchess: place pieces flipped from a deck, then play chess
/// (docs/rules/raindrop_chess.md).
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

    common::game_layout!(turn);

    fn evaluate(state: &State, seat: Seat) -> f32 {
        evaluation::evaluate(state, seat)
    }

    /// §14: the turns completed so far. `plies` grows by one when a turn ends (a chess move, a
    /// placement, a removal, a returned card, or a joker's turn before its extra turn) and
    /// never between a flip and its placement or removal, nor on a meta action.
    fn turn_number(state: &State) -> u32 {
        state.plies
    }

    /// §8.23: whether `seat` could still give the check every win needs.
    fn can_win(state: &State, seat: Seat) -> bool {
        end::can_win(state, seat)
    }

    fn view_event(event: &Event, viewer: Viewer) -> Option<EventView> {
        Some(event.view(viewer))
    }

    fn reveal_event(event: &Event) -> EventView {
        event.reveal()
    }
}
