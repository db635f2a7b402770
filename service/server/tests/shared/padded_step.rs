//! The next action of a game kept long on purpose, shared by the store suite and the `Act`
//! benchmark, which both need games with many versions.

use deckmate_engine::{Seat, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_server::live::LiveGame;

/// The next action of `game` and the seat to send it: a draw offered or declined whenever a seat
/// may (so that the game lasts), otherwise the first legal game action of the first seat to act.
/// Panics when nobody can act.
pub(crate) fn padded_step(game: &dyn LiveGame) -> (Seat, pb::Action) {
    let seats = || (0..game.seats()).map(|index| Seat(index as u8));
    for seat in seats() {
        let view = game.view(Viewer::Seat(seat));
        let padding = view.meta_actions.iter().find(|meta| {
            meta.kind == pb::MetaActionKind::OfferDraw as i32
                || meta.kind == pb::MetaActionKind::DeclineDraw as i32
        });
        if let Some(meta) = padding {
            let action = pb::Action {
                kind: Some(pb::action::Kind::Meta(*meta)),
            };
            return (seat, action);
        }
    }
    for seat in seats() {
        if let Some(action) = game.view(Viewer::Seat(seat)).legal_actions.first() {
            return (seat, action.clone());
        }
    }
    panic!("no seat can act at version {}", game.version());
}
