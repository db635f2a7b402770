//! Pile Chess (`pile_chess`), as specified by docs/rules/pile_chess.md.
//!
//! Every player owns a 16-card deck of chess pieces (8 P, 2 N, 2 B, 2 R, 1 Q, 1 K). Each round
//! every player opens a pile with the top card of their deck; then players take turns putting
//! hand cards on any pile. When the round's play step ends, each pile goes to the side with the
//! highest total value, which captures the other sides' cards in it. Losing the King loses the
//! game; a third deck shortfall ends it as a stalemate, decided by captured value. Two, three
//! or four players play free for all, or in teams split any way (2 against 2, 1 against 2, …).
//!
//! The cards carry no special abilities: the source text says they have some but gives none, so
//! this is the "vanilla" game until their texts are known (§1, §7.3). Pile resolution lives in
//! one place (`resolve.rs`) so that abilities can be added there.
//!
//! # Decisions
//!
//! Where the source text leaves something open, this module decides as the rule file says
//! (§7 lists every decision); in short:
//!
//! * **Seats and sides (§5, §7.12).** 2 to 4 seats; seat 0 is White and the first player of
//!   round 1. Free for all is the default: every player is a side of one. [`Config::teams`]
//!   turns on the team game: any split of the seats into at least two non-empty teams, every
//!   seat in exactly one (such as `[[0, 2], [1, 3]]`, see [`Config::two_vs_two`], or
//!   `[[0], [1, 2]]`); anything else is [`crate::SetupError::InvalidConfig`]. Teams of one seat
//!   each play exactly as free for all. A side's captured pile is shared by its players and is
//!   indexed by side (the seat in free for all, the team's position in `teams` otherwise). In a
//!   team game an "opponent" (en passant) is a player of another team.
//! * **Steps (§3).** Step 1 (opening piles), step 3 (resolution) and step 4 (draws) need no
//!   decision and happen inside the action that ends the play step. The random hand card of a
//!   player with an empty deck comes from the game's generator and is announced in
//!   [`PublicEvent::PileOpened`]. Passing is always legal, also for a player with nothing to
//!   play; a player who is out is skipped.
//! * **Round end (§3, §5, §7.4).** After a pass, the play step ends once every player still in,
//!   except the last one to play (castling and en passant are plays), has passed since that
//!   play, or, if nobody played, once everyone has passed. The last player to play opens the
//!   next round; if nobody played, the first player stays (§7.5); if that player is out, the
//!   next player still in, in seat order.
//! * **Piles.** A pile is known by its owner's seat. It stays a pile for the whole round even if
//!   en passant empties it, and cards may be played on it. En passant moves the most recently
//!   arrived Pawns first.
//! * **Ties (§7.2).** A shared highest total captures every card of the pile, and only the tied
//!   sides share them: highest value first, each card to the tied side other than its owner's
//!   that has received the least so far, between equals the first after the owner's side in
//!   side order. Games dealt under the first edition keep its sharing among every involved side
//!   (§13).
//! * **Promotion (§3 step 3, §7.7)** is a decision of the winning player, asked after the
//!   King-loss rule, pile by pile in seat order of their owners; a chance with no card to take
//!   back is skipped without asking. In a team game the pile must have been won with Pawns only
//!   by the team, and the chance goes to the first team player, in seat order from the pile's
//!   owner, who is still in and had a Pawn in it. The taken-back card cannot be a King.
//! * **King loss (§4, §5, §7.10).** A player whose King is in an opponent's captured pile is
//!   out. The game ends when at most one side has a player left: that side wins (reason
//!   [`crate::EndReason::KingCaptured`], without scores); if the last players of every side lose
//!   their Kings at once, their sides' captured values decide (same reason, with scores), equal
//!   values draw. In free for all the leaving player's deck, hand and reuse pile go to the
//!   removed zone (listed in [`PublicEvent::CardsLeftGame`]: the cards of deck and hand together
//!   follow from the public zones anyway), and so does their captured pile unless
//!   [`Config::eliminated_captures_count`] keeps it, in which case it still competes at a
//!   stalemate.
//! * **Teams (§5, §7.13).** A leaving teammate gives up to two cards (possibly none) from deck,
//!   hand or reuse pile to the hand of a teammate still in; the gift is public, the gifted cards
//!   become the receiver's own (their owner changes), and the rest goes to the removed zone. The
//!   gift is asked before any promotion of the same resolution. A player with no teammate still
//!   in (a team of one, or the last of a team) is asked nothing: their cards leave at once. A
//!   team loses when all its players are out.
//! * **Stalemate (§3 step 4, §4, §8).** The shortfall after [`Config::max_reshuffles`]
//!   reshuffles ends the game at once (reason [`crate::EndReason::OutOfCards`]); so does the end
//!   of round [`Config::max_rounds`], after its draw step (reason
//!   [`crate::EndReason::TurnCap`]). Each side still in
//!   scores its captured pile's value; the single best side wins (all its seats), a shared best
//!   draws. Outcome scores list every seat's side value.
//! * **Resignation (§4).** With two seats the other seat wins. With more, the player is out as
//!   if their King had been captured, but gives no gift (a resigning player whose gift was
//!   awaited gives none) and loses any promotion chance; their cards on this round's piles leave
//!   the game too, and the others play on until one side is left (reason
//!   [`crate::EndReason::Resignation`]). A player who resigned is never among the winners, not
//!   even when their team goes on to win.
//! * **Clocks and timeouts (§14, docs/rules/conventions.md §8).** The seat to act is on the
//!   clock: the player to move in the play step, the leaving teammate choosing a gift, the
//!   player choosing a promotion. With two seats a timeout ends the game and the other seat
//!   wins ([`Game::can_win`]: a player in the game always can). With more, the player who ran
//!   out of time leaves exactly as a resigning one does (shared code, `elimination::forfeit`),
//!   reported as [`OutReason::TimedOut`], and an ending it causes has the reason
//!   [`crate::EndReason::Timeout`].
//! * **Turns (§7.14).** Every game action (a play, pass, castle or en passant move, a gift, a
//!   promotion choice) is one turn of the seat that takes it, so [`Game::turn_number`] counts
//!   game actions; a meta action changes nothing (docs/rules/conventions.md §4).
//! * **Hidden information (§6).** See `view.rs` and `resample.rs`: hands are owner-only, deck
//!   order is hidden from everyone, every other zone and event is public except the drawn cards.
//!   Error messages never name another player's hand or any deck's contents.

mod action;
mod config;
mod draw;
mod elimination;
mod evaluation;
mod event;
mod observation;
mod piece;
mod play;
mod promotion;
mod resample;
mod resolve;
mod round;
mod scoring;
mod setup;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use config::{
    Config, MAX_EN_PASSANT, MAX_RESHUFFLES, MAX_ROUNDS, MAX_SEATS, MAX_VALUE, MIN_SEATS, TeamsError,
};
pub use event::{CapturedCard, Event, EventView, OutReason, PileSource, PublicEvent, SideTotal};
pub use observation::{CapturedPileView, Observation, Pending, PileView, PlayerView, Step};
pub use piece::{Card, DECK, DECK_SIZE};
pub use state::State;


use std::ops::RangeInclusive;

use crate::game::{Game, PlayError};
use crate::games::common;
use crate::seat::{Seat, Viewer};
use elimination::Forfeit;

/// Pile Chess: chess-piece decks fight over piles (docs/rules/pile_chess.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PileChess;

impl Game for PileChess {
    const ID: &'static str = "pile_chess";
    const NAME: &'static str = "Pile Chess";
    const SUMMARY: &'static str = "Each round every player opens a pile from their 16-card chess \
        deck and plays hand cards onto any pile; the highest total takes each pile and captures \
        the rest. Lose your King and you lose; after a third reshuffle the captured values \
        decide. 2 to 4 players, free for all or in teams.";
    const SEATS: RangeInclusive<usize> = MIN_SEATS..=MAX_SEATS;

    common::game_layout!();

    fn evaluate(state: &State, seat: Seat) -> f32 {
        evaluation::evaluate(state, seat)
    }

    fn seat_count(state: &State) -> usize {
        state.seat_count()
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if !state.to_act().contains(seat) {
            return Vec::new();
        }
        match state.step() {
            Step::Play => play::legal_actions(state, seat),
            Step::Gift => elimination::legal_actions(state, seat),
            Step::Promotion => promotion::legal_actions(state, seat),
            Step::Finished => Vec::new(),
        }
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, PlayError> {
        common::check_may_act::<Self>(state, seat)?;
        let events = match action {
            Action::Play { piece, pile } => play::play(state, seat, *piece, *pile),
            Action::Pass => play::pass(state, seat),
            Action::Castle => play::castle(state, seat),
            Action::EnPassant { from, to, pawns } => {
                play::en_passant(state, seat, *from, *to, *pawns)
            }
            Action::Gift { to, pieces } => elimination::gift(state, seat, *to, pieces),
            Action::Promote {
                captured_pile,
                piece,
            } => promotion::promote(state, seat, *captured_pile, *piece),
            Action::DeclinePromotion => promotion::decline(state, seat),
        }?;
        // §7.14: every game action is one turn, so the next one (whoever's) is a new turn.
        state.turns += 1;
        Ok(events)
    }

    fn turn_number(state: &State) -> u32 {
        state.turns
    }

    fn view_event(event: &Event, viewer: Viewer) -> Option<EventView> {
        Some(event.view(viewer))
    }

    fn reveal_event(event: &Event) -> EventView {
        event.reveal()
    }

    fn resign(state: &mut State, seat: Seat) -> Option<Vec<Event>> {
        elimination::forfeit(state, seat, Forfeit::Resigned)
    }

    /// §14: with more than two seats the player who ran out of time leaves as a resigning one
    /// does, in the play step or while a gift or promotion of theirs is awaited, and the others
    /// play on; with two, the table ends the game.
    fn time_out(state: &mut State, seat: Seat) -> Option<Vec<Event>> {
        elimination::forfeit(state, seat, Forfeit::TimedOut)
    }

    /// §14: whether `seat` can still be among the winners.
    fn can_win(state: &State, seat: Seat) -> bool {
        scoring::can_win(state, seat)
    }
}
