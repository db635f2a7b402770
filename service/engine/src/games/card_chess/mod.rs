//! Card Chess (`card_chess`), as specified by docs/rules/card_chess.md.
//!
//! Two players, Red (seat 0) and Black (seat 1), fight on a 5 × 5 board of face-down playing
//! cards from two shuffled decks. Cards of a player's colour are played in from the hand onto
//! its castle rank and move like chess-flavoured pieces (Pawns 2–10, Jacks, Queens, Kings and
//! jumping Aces). A capture flips the spot: the capturer goes face down and the old base card
//! turns up as the new piece, owned by its colour. A piece reaching the opponent's castle is in
//! check for good; five checks win.
//!
//! # Decisions
//!
//! Where the original text leaves something open, this module decides as docs/rules/card_chess.md
//! §8 says; in short:
//!
//! * **Board (§1, §8.1, §8.22).** Ranks are numbered from Red's side: red castle, red kingdom,
//!   middle, black kingdom, black castle. Spots are named `<rank name> <file>` such as
//!   `red castle 3`; parsing also accepts the rule file's rank ids (`RED_CASTLE 3`) and any
//!   letter case. The board is listed rank by rank from the red castle, files 1 to 5 (see
//!   [`Spot`]).
//! * **Cards (§8.15).** Standard playing cards come from [`crate::cards`]. Equal cards of the two
//!   decks are not told apart: hands are sorted, and each distinct card is one action.
//! * **Replacement (§5.4, §8.5, §8.14) is its own decision.** After a capture that reveals a card
//!   of the opponent's colour the capturer chooses, in [`Phase::Replacement`], between
//!   [`Action::KeepRevealed`] and [`Action::Replace`] with any opponent-coloured hand card. The
//!   choice is offered even when the hand holds no such card (then only keeping is listed), so
//!   that the flow of the game never tells the opponent what the capturer holds. The check rule
//!   and the end of turn follow the choice.
//! * **Check (§3, §8.8)** is evaluated on the destination spot only, after any flip and
//!   replacement: a piece of the mover's colour on the opponent's castle rank goes into check.
//!   A check spot always holds its piece, so "no piece" already excludes check spots from
//!   moves; the check flag is tested as well.
//! * **End of turn (§3, §8.11, §8.12).** The mover refills to five. From the second edition the
//!   discard pile is reshuffled into a new draw pile as soon as the draw pile becomes empty, as
//!   the original text says; the first edition waited until a card had to be drawn (§10.2).
//!   With 25 base cards and at most 25 pieces, at least 44 cards are always in the two piles, so
//!   a refill never actually runs dry.
//! * **Pieces in play (§3.A, §8.6)** are limited only when playing in; nothing else checks the
//!   count. (A capture never adds a piece to a side on balance: the capturer or the captured
//!   piece leaves as the revealed card arrives.)
//! * **No legal action (§6, §8.9, §8.16)** is judged automatically when a turn starts. The game
//!   ends at once: the seat loses if the opponent could play in or move, otherwise it is a
//!   stalemate. Both hands are shown ([`Event::NoLegalAction`], `shown_hand` in the
//!   observation), because the result depends on them.
//! * **Outcomes (§8.17).** Five checks win with [`crate::EndReason::Score`] and the scores are
//!   each seat's checks (so it reads "seat 0 wins 5 to 2"). No legal action is a win for the
//!   opponent with [`crate::EndReason::NoLegalAction`], or a draw: [`crate::EndReason::Stalemate`]
//!   from the second edition, [`crate::EndReason::NoLegalAction`] in the first (§10.1). The §9
//!   limits end with [`crate::EndReason::NoProgress`] and [`crate::EndReason::TurnCap`] draws.
//! * **Turns (§9, §8.18).** A turn is one play-in, exchange or move, together with its
//!   replacement choice; [`Game::turn_number`] is the number of turns completed, which grows
//!   exactly when the next turn begins. Progress is a capture, a play-in or a new check;
//!   [`Config::no_progress_turns`] = 0 switches the no-progress draw off, while
//!   [`Config::max_turns`] (at least 1) always holds.
//! * **Timeouts (§8.23).** The seat to act is on the clock; its timeout always loses, since a
//!   seat can always still win ([`Game::can_win`]).
//! * **Ace captures (§8.2)** follow [`Config::ace_capture`], default [`AceCapture::OnlyAces`].
//! * **Hidden information (§7).** See `view.rs` and `resample.rs`. No event names a base card
//!   that has never been face up: the board deal reports only its size, even in the history of
//!   a finished game. Error messages speak only of public facts and the actor's own hand.
//! * **Randomness (§7).** The initial shuffle and each reshuffle of the discard pile, both from
//!   the generator seeded by the game's seed and kept in the state, reported as
//!   [`Event::DeckShuffled`] and [`Event::DiscardReshuffled`].

mod action;
mod capture;
mod config;
mod evaluation;
mod event;
mod movement;
mod observation;
mod resample;
mod setup;
mod spot;
mod state;
mod turn;
mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use config::{AceCapture, Config};
pub use event::{Event, EventView};
pub use observation::{Observation, Phase, PlayerView, SpotView};
pub use spot::{BadSpot, BoardRank, SIZE, SPOTS, Spot};
pub use state::State;

use std::ops::RangeInclusive;

use crate::game::Game;
use crate::games::common;
use crate::seat::{Seat, Viewer};

/// Card Chess: a 5 × 5 board of face-down playing cards (docs/rules/card_chess.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardChess;

impl Game for CardChess {
    const ID: &'static str = "card_chess";
    const NAME: &'static str = "Card Chess";
    const SUMMARY: &'static str = "Two decks of playing cards on a 5×5 board of face-down cards: \
        play cards of your colour into your castle, move them as pawns, jacks, queens, kings and \
        jumping aces, capture to flip the spot, and put five pieces in check in the enemy castle.";
    const SEATS: RangeInclusive<usize> = state::SEATS..=state::SEATS;

    common::game_layout!(turn);

    fn evaluate(state: &State, seat: Seat) -> f32 {
        evaluation::evaluate(state, seat)
    }

    /// §8.18: the turns completed so far. A turn ends only after its action has fully resolved,
    /// including the replacement choice after a capture, and the next turn begins at that very
    /// moment; so the number grows exactly when a new turn begins and stays put within a turn
    /// (a pending replacement too) and on meta actions, which never touch the state.
    fn turn_number(state: &State) -> u32 {
        state.turns_taken
    }

    /// §8.23: a seat can always still win, so a timeout always loses
    /// (docs/rules/conventions.md §8). The cards of its colour keep coming round through the
    /// draw and discard piles, which never run dry together (§8.11), and every spot of the
    /// opponent's castle not yet in check is still open to it: no material can run out.
    fn can_win(state: &State, seat: Seat) -> bool {
        let _ = (state, seat);
        true
    }

    fn view_event(event: &Event, viewer: Viewer) -> Option<EventView> {
        Some(event.view(viewer))
    }

    fn reveal_event(event: &Event) -> EventView {
        event.reveal()
    }
}
