//! §6 hidden information: observations and per-viewer event views.
//!
//! A seat sees its own hand and its own face-down cards; of the opponent it sees counts, face-up
//! cards and where face-down cards lie. A spectator sees only the public part. Secret setup
//! choices are shown only to the seat that made them, until the step resolves.

use super::event::{Event, EventView};
use super::observation::{Observation, PlayerView, SpotView};
use super::piece::Spot;
use super::state::{State, hand_cards, seats};
use crate::seat::Viewer;

/// The game as `viewer` may see it.
pub(crate) fn observe(state: &State, viewer: Viewer) -> Observation {
    let mut board = [SpotView::default(); 12];
    for spot in Spot::all() {
        if let Some(card) = state.card(spot) {
            let visible = !card.face_down || viewer.is(card.owner);
            board[spot.index()] = SpotView {
                owner: Some(card.owner),
                face_down: card.face_down,
                piece: visible.then_some(card.piece),
            };
        }
    }
    let players = seats()
        .map(|seat| PlayerView {
            hand_count: state.hand_count(seat) as u32,
            deck_count: state.decks[seat.index()].len() as u32,
            point_pile: state.point_piles[seat.index()].clone(),
            king_alive: state.king_alive(seat),
            score: state.score(seat),
            committed: state.committed(seat),
            first_player_reveals: state.first_reveals[seat.index()].clone(),
        })
        .collect();
    let hand = viewer.own(&state.hands).map(hand_cards).unwrap_or_default();
    Observation {
        phase: state.phase,
        board,
        players,
        hand,
        group_discard: state.discard.clone(),
        first_player: state.first_player,
        current_player: state.current,
        turn: state.turns_taken,
        turns_without_progress: state.turns_without_progress,
        config: state.config.clone(),
    }
}

/// `event` as `viewer` may know it. Every event is at least partly public, so this always
/// returns a view.
pub(crate) fn view_event(event: &Event, viewer: Viewer) -> EventView {
    match event {
        Event::CardsDrawn { seat, pieces } => EventView::CardsDrawn {
            seat: *seat,
            count: pieces.len() as u32,
            pieces: viewer.is(*seat).then(|| pieces.clone()),
        },
        Event::RowCommitted { seat, side, pieces } => EventView::RowCommitted {
            seat: *seat,
            side: *side,
            pieces: viewer.is(*seat).then_some(*pieces),
        },
        Event::FirstPlayerPicked { seat, piece } => EventView::FirstPlayerPicked {
            seat: *seat,
            piece: viewer.is(*seat).then_some(*piece),
        },
        Event::Placed { seat, spot, piece } => EventView::Placed {
            seat: *seat,
            spot: *spot,
            piece: viewer.is(*seat).then_some(*piece),
        },
        public => reveal_event(public),
    }
}

/// `event` with every detail.
pub(crate) fn reveal_event(event: &Event) -> EventView {
    match event.clone() {
        Event::DeckShuffled { seat } => EventView::DeckShuffled { seat },
        Event::CardsDrawn { seat, pieces } => EventView::CardsDrawn {
            seat,
            count: pieces.len() as u32,
            pieces: Some(pieces),
        },
        Event::RowCommitted { seat, side, pieces } => EventView::RowCommitted {
            seat,
            side,
            pieces: Some(pieces),
        },
        Event::RowsRevealed { side, rows } => EventView::RowsRevealed { side, rows },
        Event::FirstPlayerPicked { seat, piece } => EventView::FirstPlayerPicked {
            seat,
            piece: Some(piece),
        },
        Event::FirstPlayerChosen {
            reveals,
            first_player,
            decided_by_arrival,
        } => EventView::FirstPlayerChosen {
            reveals,
            first_player,
            decided_by_arrival,
        },
        Event::TurnStarted { seat, turn } => EventView::TurnStarted { seat, turn },
        Event::Flipped { seat, spot, piece } => EventView::Flipped { seat, spot, piece },
        Event::Moved {
            seat,
            from,
            to,
            piece,
            captured,
            captured_scored,
            pawn_scored,
        } => EventView::Moved {
            seat,
            from,
            to,
            piece,
            captured,
            captured_scored,
            pawn_scored,
        },
        Event::Placed { seat, spot, piece } => EventView::Placed {
            seat,
            spot,
            piece: Some(piece),
        },
        Event::Passed { seat } => EventView::Passed { seat },
        Event::PassedByChoice { seat } => EventView::PassedByChoice { seat },
    }
}
