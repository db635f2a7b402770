//! §7 hidden information: observations. Everything but deck order is public, so every viewer
//! gets the same observation; a shuffle's order is shown only in the complete history of a
//! finished game (declared with the events, `event.rs`).

use super::observation::{Observation, SideView};
use super::state::{State, colour_of, seats};
use crate::chess::Square;
use crate::seat::Viewer;

/// The game as any viewer may see it: the board, deck sizes (never their order), every flipped
/// card, the returned cards at the bottom, each King's presence and check, the unused promotion
/// pieces. Nothing is hidden from one viewer that another sees, so `_viewer` changes nothing.
pub(crate) fn observe(state: &State, _viewer: Viewer) -> Observation {
    let mut board = [None; 64];
    for square in Square::all() {
        board[usize::from(square.index())] = state.position.piece_at(square);
    }
    let sides = seats()
        .map(|seat| {
            let index = seat.index();
            let colour = colour_of(seat);
            SideView {
                deck_count: state.decks[index].len() as u32,
                flipped: state.flipped[index].clone(),
                returned: state.decks[index][..state.returned[index]].to_vec(),
                king_placed: state.position.king(colour).is_some(),
                in_check: state.position.in_check(colour),
                promotion_pool: state.pools[index].iter().collect(),
            }
        })
        .collect();
    Observation {
        board,
        sides,
        current_player: state.current,
        stage: state.stage,
        plies: state.plies,
        quiet_plies: state.quiet_plies,
        config: state.config.clone(),
    }
}
