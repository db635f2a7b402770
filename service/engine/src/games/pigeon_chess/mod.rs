//! Pigeon Chess (`pigeon_chess`), as specified by docs/rules/pigeon_chess.md.
//!
//! Two players each own a deck of chess-piece cards (default: 8 P, 2 N, 2 B, 2 R, 1 Q, 1 K) and
//! fight on a 3 × 4 grid. Attacks by anything but a Pawn score the attacked card; a Pawn that
//! reaches the far row scores itself; a King never attacked is worth 3 more at the end.
//!
//! # Decisions
//!
//! * **Seats and layout (§1, §7.2).** Seat 0 plays the Shinies (pink) on rows 1–2 (back row 1,
//!   front row 2); seat 1 plays the Snackies (green) on rows 3–4 (front row 3, back row 4).
//!   Spots are indexed a1, b1, c1, a2, … c4 (see [`Spot`]).
//! * **Hands** are multisets: cards of one piece are interchangeable, and observations list a
//!   hand highest worth first.
//! * **Setup (§2) is simultaneous.** During steps 2–4 every seat that has not yet chosen is to
//!   act. Committed rows lie face down on the board, visible to their owner only, and are turned
//!   face up when the step resolves (front rows at once, back rows after the first player is
//!   chosen). The legal setup actions are every distinct ordered triple of hand cards, and every
//!   distinct hand piece for the first-player reveal. The first player is decided by worth, then
//!   by the other hand card, then by whose back row was applied first (arrival order), and seat 0
//!   as the last fallback (§2.4, §7.3).
//! * **Turns (§3).** A turn starts automatically when the previous one ends: the seat's card
//!   placed face down on its previous turn is turned up. A seat without any legal action passes
//!   automatically (§3.4, §7.4); a pass counts as a turn. `EndGame` is legal only with exactly one
//!   card on the board and none in hand (§3.2, §5(a)). From edition 2 on, a seat whose one card
//!   cannot move may [`Action::Pass`] instead (§7.10); edition 1 games keep `EndGame` as the
//!   only choice there, as their players were shown.
//! * **Turn numbers.** [`Game::turn_number`] counts the three simultaneous setup steps as turns
//!   0, 1 and 2 and play turn `n` (from 1) as `2 + n`, so it grows with every new turn,
//!   automatic and chosen passes included, and never within one, nor on a meta action
//!   ([`crate::Table`] allows each seat one draw offer per turn by it).
//! * **End (§5).** (a) `EndGame`; (b) two passes in a row (two consecutive seats without a
//!   legal action, or a chosen pass next to an automatic one); (c) both
//!   seats with exactly one card on the board and none in hand; (d) a seat with no card on the
//!   board or in hand; (e) [`Config::no_progress_turns`] turns in a row without an attack, pawn
//!   move, pawn scoring or placement (0 = off); (f) [`Config::max_turns`] turns. Scores are the
//!   point pile plus 3 for a King never attacked, if the deck has a King (§4).
//! * **Timeouts (§7.16, docs/rules/conventions.md §8).** Every seat to act is on the clock, so
//!   both are during the setup steps until they have chosen. A timeout ends the game: the other
//!   seat wins unless it could no longer outscore the seat that ran out of time
//!   ([`Game::can_win`]), and then it is a draw. It is not scored, like a resignation.
//! * **Hidden information (§6).** See `view.rs` and `resample.rs`. Error messages never name a
//!   face-down card or another seat's hand.
//! * **Randomness.** Only the two deck shuffles at the start, from the generator seeded by the
//!   game's seed and kept in the state; each is reported as [`Event::DeckShuffled`].

mod action;
mod config;
mod evaluation;
mod event;
mod movement;
mod observation;
mod piece;
mod resample;
mod setup;
mod state;
mod turn;
mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use config::{Config, MAX_DECK, MIN_DECK};
pub use event::{Event, EventView, RowSide};
pub use observation::{Observation, Phase, PlayerView, SpotView};
pub use piece::{BadSpot, COLUMNS, ROWS, Spot};
pub use state::State;


use std::ops::RangeInclusive;

use crate::game::{Game, PlayError};
use crate::games::common;
use crate::seat::{Seat, Viewer};

/// Pigeon Chess: chess cards on a 3 × 4 grid (docs/rules/pigeon_chess.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PigeonChess;

impl Game for PigeonChess {
    const ID: &'static str = "pigeon_chess";
    const NAME: &'static str = "Pigeon Chess";
    const SUMMARY: &'static str = "Chess-piece cards on a 3×4 grid: set up two rows in secret, \
        then move, attack and place cards; captures and pawns reaching the far row score, and an \
        unattacked King is worth 3 more.";
    const SEATS: RangeInclusive<usize> = state::SEATS..=state::SEATS;

    common::game_layout!();

    fn evaluate(state: &State, seat: Seat) -> f32 {
        evaluation::evaluate(state, seat)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if !state.to_act().contains(seat) {
            return Vec::new();
        }
        match state.phase {
            Phase::Play => turn::legal_actions(state, seat),
            _ => setup::legal_actions(state, seat),
        }
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, PlayError> {
        common::check_may_act::<Self>(state, seat)?;
        match *action {
            Action::PlaceFrontRow(pieces) => setup::place_row(state, seat, RowSide::Front, pieces),
            Action::PlaceBackRow(pieces) => setup::place_row(state, seat, RowSide::Back, pieces),
            Action::RevealForFirst(piece) => setup::reveal_for_first(state, seat, piece),
            Action::Move { from, to } => turn::play_move(state, seat, from, to),
            Action::Place { piece, spot } => turn::place(state, seat, piece, spot),
            Action::EndGame => turn::end_game(state, seat),
            Action::Pass => turn::pass(state, seat),
        }
    }

    fn turn_number(state: &State) -> u32 {
        match state.phase {
            Phase::FrontRow => 0,
            Phase::BackRow => 1,
            Phase::FirstPlayer => 2,
            // Play turn n (from 1) starts once n - 1 turns are taken. Saturating: a config may
            // allow up to u32::MAX turns, and the number must never wrap back.
            Phase::Play | Phase::Finished => state.turns_taken.saturating_add(3),
        }
    }

    /// §7.16: whether `seat` could still outscore its opponent. Both seats are on the clock
    /// while both make a setup choice (the default [`Game::clock_seats`]).
    fn can_win(state: &State, seat: Seat) -> bool {
        state.can_win(seat)
    }

    fn view_event(event: &Event, viewer: Viewer) -> Option<EventView> {
        Some(event.view(viewer))
    }

    fn reveal_event(event: &Event) -> EventView {
        event.reveal()
    }
}
