//! Players leaving the game: the King-loss rule (§3 step 3, §4, §5), the leaving teammate's gift
//! (§5), and resignation and timeouts with more than two seats (§4, engine addition; §14).
//!
//! A player whose King lands in an opponent's captured pile is out. With two players that ends
//! the game; with more, the others play on until one side is left. In a team game a leaving
//! player with a teammate still in the game first gives up to two of their remaining cards to
//! that teammate (an action of the leaving seat; everyone else waits); a team of one, or the
//! last player of a team, has nobody to give to and leaves at once (§7.13). A team loses when
//! all its players are out. A leaving player's remaining cards (deck, hand, reuse pile) go to the removed zone; in
//! free for all their captured pile goes with them unless
//! [`super::Config::eliminated_captures_count`] keeps it.

use super::action::Action;
use super::event::{Event, OutReason, PublicEvent};
use super::observation::{Pending, Step};
use super::piece::{Card, Role};
use super::play;
use super::round;
use super::scoring;
use super::state::{Hand, State, distinct_pieces, hand_cards};
use crate::edition::Edition;
use crate::game::{EndReason, PlayError};
use crate::seat::Seat;

/// §5: the most cards a leaving teammate gives.
pub(crate) const GIFT_SIZE: usize = 2;

/// The King-loss rule, after every pile is resolved. Returns whether the game ended.
pub(crate) fn apply_king_loss(state: &mut State, events: &mut Vec<Event>) -> bool {
    let losers: Vec<Seat> = state
        .seats()
        .filter(|seat| state.is_in(*seat) && king_captured(state, *seat))
        .collect();
    if losers.is_empty() {
        return false;
    }
    for seat in &losers {
        state.player_mut(*seat).out = true;
        events.push(Event::Public(PublicEvent::SeatOut {
            seat: *seat,
            reason: OutReason::KingCaptured,
        }));
    }
    // §4, §7.10: a King loss decides whatever was captured; if every side still in lost its
    // King at once, the captured piles decide.
    if end_if_decided(state, &losers, EndReason::KingCaptured) {
        return true;
    }
    // §5, §7.13: a player with a teammate still in chooses a gift before leaving; anyone else
    // (free for all, a team of one, the last of a team) has nobody to give to and leaves now.
    for seat in losers {
        if gift_possible(state, seat) {
            state.pending.push(Pending::Gift { seat });
        } else {
            leave(state, seat, Vec::new(), events);
        }
    }
    false
}

/// Whether `seat`'s King lies in the captured pile of another side.
fn king_captured(state: &State, seat: Seat) -> bool {
    let king = Card::new(seat, Role::King);
    state
        .captured
        .iter()
        .enumerate()
        .any(|(side, cards)| side as u8 != state.side(seat) && cards.contains(&king))
}

/// Ends the game once at most one side has a player in it: that side wins; if none is left,
/// the sides of the players who just left are compared by captured value. Returns whether the
/// game ended.
fn end_if_decided(state: &mut State, just_out: &[Seat], reason: EndReason) -> bool {
    let mut sides_in: Vec<u8> = state
        .seats()
        .filter(|seat| state.is_in(*seat))
        .map(|seat| state.side(seat))
        .collect();
    sides_in.sort_unstable();
    sides_in.dedup();
    let outcome = match sides_in.as_slice() {
        [] => {
            let mut sides: Vec<u8> = just_out.iter().map(|seat| state.side(*seat)).collect();
            sides.sort_unstable();
            sides.dedup();
            scoring::decide_by_captures(state, &sides, reason)
        }
        [side] => scoring::side_wins(state, *side, reason),
        _ => return false,
    };
    scoring::finish(state, outcome);
    true
}

/// The leaving player's remaining cards (and `extra`, their cards taken off this round's piles)
/// go to the removed zone; in free for all their captured pile goes too unless configured.
pub(crate) fn leave(state: &mut State, seat: Seat, extra: Vec<Card>, events: &mut Vec<Event>) {
    let side = usize::from(state.side(seat));
    let keep_captures = state.config.is_team_game() || state.config.eliminated_captures_count;
    let player = state.player_mut(seat);
    let mut own: Vec<Role> = std::mem::take(&mut player.deck);
    own.extend(hand_cards(&player.hand));
    own.append(&mut player.reuse);
    player.hand = [0; 6];
    let mut cards = extra;
    cards.extend(own.into_iter().map(|piece| Card::new(seat, piece)));
    if !keep_captures {
        cards.append(&mut state.captured[side]);
    }
    cards.sort_unstable_by(|a, b| a.owner.cmp(&b.owner).then(b.piece.cmp(&a.piece)));
    state.removed.extend(cards.iter().copied());
    events.push(Event::Public(PublicEvent::CardsLeftGame { seat, cards }));
}

/// Teammates of `seat` still in the game.
fn teammates_in(state: &State, seat: Seat) -> Vec<Seat> {
    state
        .side_seats(state.side(seat))
        .iter()
        .filter(|mate| *mate != seat && state.is_in(*mate))
        .collect()
}

/// Whether the leaving `seat` has a teammate to give cards to.
pub(crate) fn gift_possible(state: &State, seat: Seat) -> bool {
    state.config.is_team_game() && !teammates_in(state, seat).is_empty()
}

/// Every card the leaving `seat` still has, wherever it lies (deck, hand, reuse pile).
fn remaining(state: &State, seat: Seat) -> Hand {
    let player = state.player(seat);
    let mut pool = player.hand;
    for piece in player.deck.iter().chain(&player.reuse) {
        pool[piece.index()] += 1;
    }
    pool
}

/// §5, §7.13: every gift of up to two remaining cards to every teammate still in: the empty
/// gift once, addressed to the first teammate still in (who receives it makes no difference,
/// so it is one choice, not one per teammate), then for each teammate the single cards, then
/// the pairs, King side first.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if state.pending.first() != Some(&Pending::Gift { seat }) {
        return Vec::new();
    }
    let pool = remaining(state, seat);
    let mates = teammates_in(state, seat);
    let mut actions: Vec<Action> = mates
        .first()
        .map(|to| Action::Gift {
            to: *to,
            pieces: Vec::new(),
        })
        .into_iter()
        .collect();
    let mut gifts: Vec<Vec<Role>> = Vec::new();
    gifts.extend(distinct_pieces(&pool).map(|piece| vec![piece]));
    for first in distinct_pieces(&pool) {
        for second in distinct_pieces(&pool).filter(|second| *second <= first) {
            if second != first || pool[first.index()] >= 2 {
                gifts.push(vec![first, second]);
            }
        }
    }
    actions.extend(mates.into_iter().flat_map(|to| {
        gifts
            .iter()
            .map(move |pieces| Action::Gift {
                to,
                pieces: pieces.clone(),
            })
            .collect::<Vec<_>>()
    }));
    actions
}

/// §5: the leaving `seat` gives `pieces` to teammate `to`, whose own cards they become; then its
/// other cards leave the game and the round goes on.
pub(crate) fn gift(
    state: &mut State,
    seat: Seat,
    to: Seat,
    pieces: &[Role],
) -> Result<Vec<Event>, PlayError> {
    if state.pending.first() != Some(&Pending::Gift { seat }) {
        return Err(PlayError::Illegal(
            "only a player whose King was just captured gives cards, before leaving".into(),
        ));
    }
    let mates = teammates_in(state, seat);
    if !mates.contains(&to) {
        return Err(PlayError::Illegal(format!(
            "seat {} is not a teammate still in the game",
            to.0
        )));
    }
    if pieces.is_empty() && mates.first() != Some(&to) {
        return Err(PlayError::Illegal(format!(
            "a gift of no cards is addressed to seat {}, the first teammate still in the game",
            mates[0].0
        )));
    }
    if pieces.len() > GIFT_SIZE {
        return Err(PlayError::Illegal(format!(
            "a gift holds at most {GIFT_SIZE} cards"
        )));
    }
    if pieces.windows(2).any(|pair| pair[0] < pair[1]) {
        return Err(PlayError::Illegal(
            "list the gift's cards King side first".into(),
        ));
    }
    let mut pool = remaining(state, seat);
    for piece in pieces {
        let count = &mut pool[piece.index()];
        if *count == 0 {
            return Err(PlayError::Illegal(format!(
                "you have no {piece} left to give"
            )));
        }
        *count -= 1;
    }
    for piece in pieces {
        take_remaining(state, seat, *piece);
        state.player_mut(to).hand[piece.index()] += 1;
    }
    let mut events = vec![Event::Public(PublicEvent::Gifted {
        seat,
        to,
        pieces: pieces.to_vec(),
    })];
    state.pending.remove(0);
    leave(state, seat, Vec::new(), &mut events);
    round::continue_round(state, &mut events);
    Ok(events)
}

/// Removes one `piece` from the leaving seat's cards: reuse pile, then hand, then deck. Which
/// zone gives it makes no difference, since the rest leaves the game at once.
fn take_remaining(state: &mut State, seat: Seat, piece: Role) {
    let player = state.player_mut(seat);
    if let Some(index) = player.reuse.iter().position(|card| *card == piece) {
        player.reuse.remove(index);
    } else if player.hand[piece.index()] > 0 {
        player.hand[piece.index()] -= 1;
    } else if let Some(index) = player.deck.iter().position(|card| *card == piece) {
        player.deck.remove(index);
    }
}

/// How a player leaves of their own accord rather than by losing their King: by resigning, or
/// by letting their clock run out (§4, docs/rules/conventions.md §8). Both leave the same way;
/// only the reasons reported differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Forfeit {
    /// The player resigned.
    Resigned,
    /// The player's clock ran out.
    TimedOut,
}

impl Forfeit {
    /// The reason the player's [`PublicEvent::SeatOut`] gives.
    fn out_reason(self) -> OutReason {
        match self {
            Forfeit::Resigned => OutReason::Resigned,
            Forfeit::TimedOut => OutReason::TimedOut,
        }
    }

    /// The reason of an ending the forfeit causes.
    fn end_reason(self) -> EndReason {
        match self {
            Forfeit::Resigned => EndReason::Resignation,
            Forfeit::TimedOut => EndReason::Timeout,
        }
    }
}

/// §4 resignation or timeout with more than two seats: the player is out, their cards on this
/// round's piles and their remaining cards leave the game (a leaving teammate whose gift was
/// awaited gives none), and the others play on; the game ends when one side is left, for the
/// forfeit's reason. A player who forfeited never wins, not even when their team does. It may
/// come in any step: in the play step the turn passes on if it was theirs, in the gift or
/// promotion step their pending decisions are dropped and the round goes on. A player already
/// out (by a King loss) who forfeits leaves nothing else behind, but from edition 2 no longer
/// counts among the winners when their side wins, nor competes at a stalemate (§4; §13 for
/// edition 1, where such a resignation changed nothing). With two seats it returns `None`, and
/// the table ends the game.
pub(crate) fn forfeit(state: &mut State, seat: Seat, how: Forfeit) -> Option<Vec<Event>> {
    if state.seat_count() == 2 {
        return None;
    }
    let mut events = Vec::new();
    if state.outcome.is_some() || seat.index() >= state.seat_count() {
        return Some(events);
    }
    let gift_waiting = state.pending.contains(&Pending::Gift { seat });
    if !state.is_in(seat) && !gift_waiting {
        if state.edition.has(Edition::SECOND) {
            state.player_mut(seat).resigned = true;
        }
        return Some(events);
    }
    let step = state.step();
    let mut on_piles = Vec::new();
    // A leaving teammate who forfeits instead of choosing a gift gives nothing.
    state.player_mut(seat).resigned = true;
    if state.is_in(seat) {
        state.player_mut(seat).out = true;
        events.push(Event::Public(PublicEvent::SeatOut {
            seat,
            reason: how.out_reason(),
        }));
        for pile in state.piles.iter_mut().flatten() {
            pile.cards.retain(|card| {
                let own = card.owner == seat;
                if own {
                    on_piles.push(*card);
                }
                !own
            });
        }
    }
    state.pending.retain(|pending| pending.seat() != seat);
    leave(state, seat, on_piles, &mut events);
    if end_if_decided(state, &[seat], how.end_reason()) {
        return Some(events);
    }
    match step {
        Step::Play => {
            if state.current == Some(seat) {
                state.current = state.next_active_after(seat);
            }
            if play::round_over(state) {
                round::end_play_step(state, &mut events);
            }
        }
        Step::Gift | Step::Promotion => round::continue_round(state, &mut events),
        Step::Finished => {}
    }
    Some(events)
}
