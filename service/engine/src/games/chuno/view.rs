//! §8 hidden information: observations and per-viewer event views.
//!
//! A seat sees its own hand; of the opponent only the hand size. Nobody sees the deck order.
//! Everything else is public: the board, the whole discard pile, the active colour, skip
//! counters, a pending CHUNO call and a draw offer. Drawn cards are shown only to the drawer.

use super::event::{Event, EventView};
use super::moves::display_fen;
use super::observation::Observation;
use super::state::{State, colour_of, seats};
use crate::chess::Square;
use crate::seat::Viewer;

/// The game as `viewer` may see it.
pub(crate) fn observe(state: &State, viewer: Viewer) -> Observation {
    let mut board = [None; 64];
    for square in Square::all() {
        board[usize::from(square.index())] = state.position.piece_at(square);
    }
    let hand = viewer.own(&state.hands).cloned().unwrap_or_default();
    Observation {
        board,
        fen: display_fen(&state.position, colour_of(state.current)),
        hand,
        hand_counts: seats()
            .map(|seat| state.hands[seat.index()].len() as u32)
            .collect(),
        deck_count: state.deck.len() as u32,
        discard: state.discard.clone(),
        top_card: state.top(),
        active_colour: state.active_colour,
        current_player: state.current,
        stage: state.stage,
        moves_left: u32::from(state.moves_left),
        cards_played_this_turn: u32::from(state.cards_this_turn),
        skips: state.skips.to_vec(),
        chuno_pending: state.chuno,
        draw_offered_by: state.draw_offer,
        en_passant: state.position.en_passant(),
        turn: state.turn_number(),
        quiet_moves: state.quiet_moves,
        config: state.config.clone(),
    }
}

/// `event` as `viewer` may know it. Every event is at least partly public.
pub(crate) fn view_event(event: &Event, viewer: Viewer) -> EventView {
    match event {
        Event::CardsDrawn {
            seat,
            cards,
            reason,
        } => EventView::CardsDrawn {
            seat: *seat,
            count: cards.len() as u32,
            cards: viewer.is(*seat).then(|| cards.clone()),
            reason: *reason,
        },
        public => reveal_event(public),
    }
}

/// `event` with every detail.
pub(crate) fn reveal_event(event: &Event) -> EventView {
    match event.clone() {
        Event::DeckShuffled { cards } => EventView::DeckShuffled { cards },
        Event::CardsDrawn {
            seat,
            cards,
            reason,
        } => EventView::CardsDrawn {
            seat,
            count: cards.len() as u32,
            cards: Some(cards),
            reason,
        },
        Event::StarterReburied { card } => EventView::StarterReburied { card },
        Event::StarterTurned { card } => EventView::StarterTurned { card },
        Event::TurnStarted { seat, turn } => EventView::TurnStarted { seat, turn },
        Event::TurnSkipped { seat, remaining } => EventView::TurnSkipped { seat, remaining },
        Event::CardPlayed {
            seat,
            card,
            active_colour,
        } => EventView::CardPlayed {
            seat,
            card,
            active_colour,
        },
        Event::SkipAdded { seat, counter } => EventView::SkipAdded { seat, counter },
        Event::Moved(record) => EventView::Moved(record),
        Event::NoMovePossible { seat } => EventView::NoMovePossible { seat },
        Event::Reshuffled { cards } => EventView::Reshuffled { cards },
        Event::ChunoObliged { seat } => EventView::ChunoObliged { seat },
        Event::ChunoCalled { seat } => EventView::ChunoCalled { seat },
        Event::ChunoMissed { seat } => EventView::ChunoMissed { seat },
    }
}
