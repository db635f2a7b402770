//! §3 turns, §4 check and legality, §5 chess moves: the legal actions and applying them.

use super::RaindropChess;
use super::action::Action;
use super::card::Card;
use super::config::JokerEffect;
use super::end::{extra_turn, finish, lose};
use super::event::Event;
use super::observation::Stage;
use super::placement::{
    block_possible, has_placement_square, may_place, placement_squares, removal_targets,
};
use super::state::{State, colour_of};
use crate::chess::ChessMove;
use crate::chess::{Move, Piece, Role, Square};
use crate::edition::Edition;
use crate::game::PlayError;
use crate::games::common;
use crate::seat::Seat;

/// §3, §4: whether `seat` may flip now: its deck holds a card, and if its King is in check, a
/// flip could answer the check: a placement could block it (judged on the check alone, §8.22),
/// or (edition 2, §8.10) a joker is still in the deck. Only public facts decide, never the
/// hidden top card, so the listed actions tell nothing about the deck order (§7). A flipped
/// card that then cannot end the check loses at once (§4, §8.5).
pub(crate) fn may_flip(state: &State, seat: Seat) -> bool {
    let colour = colour_of(seat);
    if state.decks[seat.index()].is_empty() {
        return false;
    }
    if !state.position.in_check(colour) || block_possible(&state.position, colour) {
        return true;
    }
    // Edition 1 (§10.1) offered the flip in check only when a placement could block.
    state.edition.has(Edition::SECOND) && jokers_left(state, seat) > 0
}

/// §1, §7: the jokers still in `seat`'s deck: those shuffled in less those it flipped. Jokers
/// are set aside once flipped and never return, and both numbers are public.
pub(crate) fn jokers_left(state: &State, seat: Seat) -> usize {
    let flipped = state.flipped[seat.index()]
        .iter()
        .filter(|card| **card == Card::Joker)
        .count();
    usize::from(state.config.jokers_per_deck).saturating_sub(flipped)
}

/// §3, §5: calls `visit` with each chess move of `seat`, in the generator's order: none before
/// its King is placed. Visiting instead of listing spares the move list a listing does not
/// keep.
fn visit_chess_moves(state: &State, seat: Seat, visit: impl FnMut(Move)) {
    if state.position.king(colour_of(seat)).is_none() {
        return;
    }
    state.position.visit_legal_moves(&state.rules(seat), visit);
}

/// The chess move of `seat` that `chess_move` names, if it is one of its moves (§3, §5): only
/// the moved piece's moves are generated.
fn find_chess_move(state: &State, seat: Seat, chess_move: ChessMove) -> Option<Move> {
    state.position.king(colour_of(seat))?;
    state.position.find_legal_move(
        &state.rules(seat),
        chess_move.from,
        chess_move.to,
        chess_move.promotion,
    )
}

/// Every action `seat` may take now, in a fixed order.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if state.outcome.is_some() || seat != state.current {
        return Vec::new();
    }
    match state.stage {
        Stage::Turn => {
            // Enough for most turns: the flip and a few dozen moves.
            let mut actions = Vec::with_capacity(48);
            if may_flip(state, seat) {
                actions.push(Action::Flip);
            }
            visit_chess_moves(state, seat, |mv| {
                actions.push(Action::Move(ChessMove {
                    from: mv.from,
                    to: mv.to,
                    promotion: mv.promotion,
                }));
            });
            actions
        }
        Stage::Place(card) => placement_squares(state, seat, card)
            .into_iter()
            .map(Action::Place)
            .collect(),
        Stage::Remove => removal_targets(state, seat)
            .into_iter()
            .map(Action::Remove)
            .collect(),
        Stage::Finished => Vec::new(),
    }
}

/// Applies `action` of `seat`, or leaves the state untouched and says why not.
pub(crate) fn apply(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, PlayError> {
    common::check_may_act::<RaindropChess>(state, seat)?;
    let mut events = Vec::new();
    match (state.stage, *action) {
        (Stage::Turn, Action::Flip) => {
            if !may_flip(state, seat) {
                return Err(illegal(state, seat, "you may not flip now"));
            }
            flip(state, seat, &mut events);
        }
        (Stage::Turn, Action::Move(chess_move)) => {
            let Some(mv) = find_chess_move(state, seat, chess_move) else {
                return Err(PlayError::Illegal(format!(
                    "{chess_move} is not a legal chess move"
                )));
            };
            play_move(state, seat, &mv, &mut events);
        }
        (Stage::Place(card), Action::Place(square)) => {
            if !may_place(state, seat, card, square) {
                return Err(PlayError::Illegal(format!(
                    "the {card} card may not be placed on {square}"
                )));
            }
            place(state, seat, card, square, &mut events);
        }
        (Stage::Remove, Action::Remove(square)) => {
            if !removal_targets(state, seat).contains(&square) {
                return Err(PlayError::Illegal(format!(
                    "the piece on {square} may not be removed"
                )));
            }
            remove(state, seat, square, &mut events);
        }
        (Stage::Place(_), _) => {
            return Err(PlayError::Illegal(
                "the flipped piece must be placed first".to_string(),
            ));
        }
        (Stage::Remove, _) => {
            return Err(PlayError::Illegal(
                "the joker's enemy piece must be removed first".to_string(),
            ));
        }
        (Stage::Turn, _) => {
            return Err(PlayError::Illegal(
                "flip a card or make a chess move".to_string(),
            ));
        }
        (Stage::Finished, _) => return Err(PlayError::GameOver),
    }
    Ok(events)
}

/// An illegal-action error for a flip refused: says why in public terms.
fn illegal(state: &State, seat: Seat, fallback: &str) -> PlayError {
    if state.decks[seat.index()].is_empty() {
        PlayError::Illegal("your deck is empty".to_string())
    } else if state.position.in_check(colour_of(seat)) {
        if state.edition.has(Edition::SECOND) && state.config.jokers_per_deck > 0 {
            PlayError::Illegal(
                "a placement cannot block this check and no joker is left in your deck".to_string(),
            )
        } else {
            PlayError::Illegal("a placement cannot block this check".to_string())
        }
    } else {
        PlayError::Illegal(fallback.to_string())
    }
}

/// §3, §4: turns over the top card and sets up what it asks for.
fn flip(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    let index = seat.index();
    let card = state.decks[index]
        .pop()
        .expect("a flip needs a card in the deck");
    state.returned[index] = state.returned[index].min(state.decks[index].len());
    state.flipped[index].push(card);
    events.push(Event::Flipped { seat, card });
    let in_check = state.position.in_check(colour_of(seat));
    match card {
        Card::Joker => match state.config.joker_effect {
            // §3, §4: another full turn; the duty to end a check passes to it.
            JokerEffect::ExtraTurn => {
                events.push(Event::ExtraTurn { seat });
                extra_turn(state, seat);
            }
            JokerEffect::RemovePiece => {
                if !removal_targets(state, seat).is_empty() {
                    state.stage = Stage::Remove;
                } else if in_check {
                    // §4: the joker cannot end the check: the flipper loses.
                    lose(state, seat, events);
                } else {
                    events.push(Event::JokerUnused { seat });
                    finish(state, seat, true);
                }
            }
        },
        _ => {
            if has_placement_square(state, seat, card) {
                state.stage = Stage::Place(card);
            } else if in_check {
                // §4: the revealed piece cannot block: the flipper loses at once.
                lose(state, seat, events);
            } else {
                // §3.4, §8.6: no legal square: the card goes to the bottom, the turn ends.
                state.decks[index].insert(0, card);
                state.returned[index] += 1;
                events.push(Event::CardReturned { seat, card });
                finish(state, seat, false);
            }
        }
    }
}

/// §3: puts the flipped piece on `square`; the turn ends.
fn place(state: &mut State, seat: Seat, card: Card, square: Square, events: &mut Vec<Event>) {
    let colour = colour_of(seat);
    let role = card.role().expect("only piece cards are placed");
    state
        .position
        .place(Piece::new(colour, role), square)
        .expect("placement squares are empty and a side has one King card");
    events.push(Event::Placed {
        seat,
        role,
        square,
        check: state.position.in_check(colour.other()),
    });
    finish(state, seat, true);
}

/// §3 joker `REMOVE_PIECE`: takes the enemy piece off `square`; the turn ends.
fn remove(state: &mut State, seat: Seat, square: Square, events: &mut Vec<Event>) {
    let piece = state
        .position
        .remove(square)
        .expect("removal targets hold a piece");
    release_promotion_piece(state, square, piece);
    events.push(Event::PieceRemoved {
        seat,
        role: piece.role,
        square,
    });
    finish(state, seat, true);
}

/// §8.3: a promotion piece leaving the board; with the option on it returns to its owner's pool.
fn release_promotion_piece(state: &mut State, square: Square, piece: Piece) {
    let bit = 1u64 << square.index();
    if state.promoted & bit != 0 {
        state.promoted &= !bit;
        if state.config.captured_promotion_returns {
            let owner = super::state::seat_of(piece.color).index();
            state.pools[owner] = state.pools[owner].with(piece.role);
        }
    }
}

/// §5: plays a chess move, with the promotion pool bookkeeping; the turn ends.
fn play_move(state: &mut State, seat: Seat, mv: &Move, events: &mut Vec<Event>) {
    let colour = colour_of(seat);
    if let Some(captured) = state.position.piece_at(mv.to) {
        release_promotion_piece(state, mv.to, captured);
    }
    let outcome = state.position.play(mv);
    // Keep the side to move with the current seat until `finish` hands the turn over.
    state.position.set_side_to_move(colour);
    let from_bit = 1u64 << mv.from.index();
    let to_bit = 1u64 << mv.to.index();
    if state.promoted & from_bit != 0 {
        state.promoted = (state.promoted & !from_bit) | to_bit;
    }
    if let Some(role) = outcome.promoted {
        state.pools[seat.index()] = state.pools[seat.index()].without(role);
        state.promoted |= to_bit;
    }
    events.push(Event::Moved {
        seat,
        chess_move: ChessMove {
            from: mv.from,
            to: mv.to,
            promotion: mv.promotion,
        },
        role: outcome.moved.role,
        captured: outcome.captured.map(|piece| piece.role),
        check: state.position.in_check(colour.other()),
    });
    let irreversible = outcome.captured.is_some()
        || outcome.moved.role == Role::Pawn
        || outcome.promoted.is_some();
    finish(state, seat, irreversible);
}
