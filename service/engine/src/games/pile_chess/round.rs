//! The round (docs/rules/pile_chess.md §3): step 1 opens the piles, step 2 is played by the seats
//! (`play.rs`), and when it ends step 3 resolves every pile, the King-loss rule and Promotion
//! follow, then step 4 draws and the next round begins.
//!
//! Only step 2, a leaving teammate's gift (§5) and the optional Promotion wait for a decision;
//! everything else happens inside the action that ends the play step or the last decision.

use rand::Rng;

use super::draw;
use super::elimination;
use super::event::{Event, PileSource, PublicEvent};
use super::observation::Pending;
use super::piece::Card;
use super::promotion;
use super::resolve;
use super::scoring;
use super::state::{Pile, State, hand_cards};
use crate::game::EndReason;
use crate::seat::{Seat, SeatSet};

/// Starts the next round: resets the round's bookkeeping, opens the piles (step 1) and gives the
/// turn to the first player.
pub(crate) fn start_round(state: &mut State, events: &mut Vec<Event>) {
    state.round += 1;
    state.acted = SeatSet::EMPTY;
    state.passed = SeatSet::EMPTY;
    state.last_player = None;
    for player in &mut state.players {
        player.plays = 0;
        player.pawns_only = true;
        player.en_passant_used = 0;
    }
    events.push(Event::Public(PublicEvent::RoundStarted {
        round: state.round,
        first_player: state.first_player,
    }));
    open_piles(state, events);
    state.current = Some(state.first_player);
}

/// §3 step 1, done for every player at once: the deck's top card opens the pile; with an empty
/// deck the server picks a uniformly random hand card; with neither there is no pile (§7.9).
fn open_piles(state: &mut State, events: &mut Vec<Event>) {
    for seat in state.seats() {
        state.piles[seat.index()] = None;
        if !state.is_in(seat) {
            continue;
        }
        let top = state.player_mut(seat).deck.pop();
        let opened = match top {
            Some(piece) => Some((piece, PileSource::DeckTop)),
            None => {
                let hand = hand_cards(&state.player(seat).hand);
                if hand.is_empty() {
                    None
                } else {
                    // Uniform over the hand's cards, so a piece held twice is twice as likely.
                    let piece = hand[state.rng.random_range(0..hand.len())];
                    state.player_mut(seat).hand[piece.index()] -= 1;
                    Some((piece, PileSource::RandomFromHand))
                }
            }
        };
        match opened {
            Some((piece, source)) => {
                state.piles[seat.index()] = Some(Pile {
                    cards: vec![Card::new(seat, piece)],
                    source,
                });
                events.push(Event::Public(PublicEvent::PileOpened {
                    seat,
                    piece,
                    source,
                }));
            }
            None => events.push(Event::Public(PublicEvent::NoPile { seat })),
        }
    }
}

/// The play step is over: step 3 resolves the piles, then the King-loss rule and Promotion
/// apply in that order, and the round goes on as far as it can without a decision.
pub(crate) fn end_play_step(state: &mut State, events: &mut Vec<Event>) {
    events.push(Event::Public(PublicEvent::RoundEnded {
        round: state.round,
    }));
    state.current = None;
    let won = resolve::resolve_all(state, events);
    if elimination::apply_king_loss(state, events) {
        return;
    }
    promotion::queue(state, &won);
    continue_round(state, events);
}

/// Skips waiting decisions that can no longer be taken (a gift without a teammate left, a
/// promotion with nothing to take back) and, once none is left, finishes the round.
pub(crate) fn continue_round(state: &mut State, events: &mut Vec<Event>) {
    while let Some(pending) = state.pending.first().copied() {
        let possible = match pending {
            Pending::Gift { seat } => elimination::gift_possible(state, seat),
            Pending::Promotion { seat, .. } => promotion::possible(state, seat),
        };
        if possible {
            return;
        }
        state.pending.remove(0);
        if let Pending::Gift { seat } = pending {
            elimination::leave(state, seat, Vec::new(), events);
        }
    }
    finish_round(state, events);
}

/// §3 step 4 and the round cap (§8); then the next round, opened by the last player to play
/// this round (§3, §7.5: the same first player when nobody played).
fn finish_round(state: &mut State, events: &mut Vec<Event>) {
    if draw::draw_step(state, events) {
        return;
    }
    if state.round >= state.config.max_rounds {
        scoring::stalemate(state, EndReason::TurnCap);
        return;
    }
    state.first_player = next_first_player(state);
    start_round(state, events);
}

/// The first player of the next round: the last player to play this round, else this round's
/// first player; if that player is out, the next player still in, in seat order.
fn next_first_player(state: &State) -> Seat {
    let candidate = state.last_player.unwrap_or(state.first_player);
    if state.is_in(candidate) {
        candidate
    } else {
        state.next_active_after(candidate).unwrap_or(candidate)
    }
}
