//! How good a Pile Chess position is for one seat, for bots ([`crate::Game::evaluate`]).
//!
//! A side wins by the value of its captured pile (§4) unless a King loss decides first (§3 step
//! 3, §4). So the evaluation compares the seat's side with its best opponent side on: the
//! captured value; what the piles of this round would give if they were resolved now (§3 step 3:
//! the side with the highest total alone captures the other sides' cards); a King lying in a pile
//! another side leads (it would be lost); and, a little, the value of the cards each side still
//! owns to fight with (deck, hand, reuse pile).

use super::state::{Hand, State};
use crate::bots::{outcome_score, squash};
use crate::chess::Role;
use crate::seat::Seat;

/// A pile's projected capture against one already made: it may still change hands this round.
const PROJECTED: f32 = 0.6;
/// A King in a pile another side leads: the game (or the seat) is about to be lost.
const KING_AT_RISK: f32 = 12.0;
/// The value of cards still owned, against captured value.
const OWNED: f32 = 0.1;
/// The advantage that gives about 0.76 (a Queen is worth 9 by default).
const SCALE: f32 = 10.0;

/// The value of `state` for `seat` in `[0, 1]`.
pub(crate) fn evaluate(state: &State, seat: Seat) -> f32 {
    if let Some(outcome) = &state.outcome {
        return outcome_score(outcome, seat);
    }
    let sides = state.side_count();
    let mine = usize::from(state.side(seat));
    let alive: Vec<bool> = (0..sides as u8)
        .map(|side| state.side_seats(side).iter().any(|s| state.is_in(s)))
        .collect();
    // §5: a player out of a free-for-all game has lost whatever happens next.
    if !alive[mine] || (!state.config.is_team_game() && !state.is_in(seat)) {
        return 0.0;
    }
    let mut values: Vec<f32> = (0..sides as u8)
        .map(|side| state.captured_value(side) as f32)
        .collect();
    add_piles(state, &mut values);
    for player_seat in state.seats() {
        let player = state.player(player_seat);
        if player.out {
            continue;
        }
        let owned = hand_value(state, &player.hand)
            + player
                .deck
                .iter()
                .chain(&player.reuse)
                .map(|piece| state.value(*piece) as f32)
                .sum::<f32>();
        values[usize::from(state.side(player_seat))] += OWNED * owned;
    }
    let best_other = (0..sides)
        .filter(|side| *side != mine && alive[*side])
        .map(|side| values[side])
        .fold(f32::NEG_INFINITY, f32::max);
    if best_other == f32::NEG_INFINITY {
        return 1.0;
    }
    squash(values[mine] - best_other, SCALE)
}

/// Adds to each side's value what this round's piles would give it if resolved now (§3 step 3),
/// and takes [`KING_AT_RISK`] from a side whose King lies in a pile another side leads.
fn add_piles(state: &State, values: &mut [f32]) {
    let sides = values.len();
    for pile in state.piles.iter().flatten() {
        let mut totals = vec![0u32; sides];
        for card in &pile.cards {
            totals[usize::from(state.side(card.owner))] += state.value(card.piece);
        }
        let best = totals.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..sides).filter(|side| totals[*side] == best).collect();
        let [leader] = leaders.as_slice() else {
            continue;
        };
        for card in &pile.cards {
            let side = usize::from(state.side(card.owner));
            if side == *leader {
                continue;
            }
            values[*leader] += PROJECTED * state.value(card.piece) as f32;
            if card.piece == Role::King {
                values[side] -= KING_AT_RISK;
            }
        }
    }
}

/// The value of the cards in `hand`.
fn hand_value(state: &State, hand: &Hand) -> f32 {
    Role::ALL
        .iter()
        .map(|piece| f32::from(hand[piece.index()]) * state.value(*piece) as f32)
        .sum()
}
