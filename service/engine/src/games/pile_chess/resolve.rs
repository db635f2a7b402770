//! §3 step 3 resolution of every pile, per side (a player in free for all, a team in a team
//! game, §5). Cards carry no abilities (§1, §7.3): a pile is decided by its values alone, here
//! and nowhere else.
//!
//! A shared highest total is shared out by [`share_tie`] (§7.2, edition 2) or, in games dealt
//! under the first edition, by [`share_out_first_edition`] (§13), which could leave a tied side
//! with nothing.

use super::event::{CapturedCard, Event, PublicEvent, SideTotal};
use super::piece::Card;
use super::state::State;
use crate::edition::Edition;
use crate::seat::Seat;

/// A pile one side won outright, kept for the Promotion rule.
#[derive(Clone, Debug)]
pub(crate) struct Won {
    /// The pile's owner.
    pub(crate) pile: Seat,
    /// The winning side.
    pub(crate) side: u8,
    /// The pile's cards as they were when resolved.
    pub(crate) cards: Vec<Card>,
}

/// Resolves every pile of the round, in seat order of their owners, and empties them.
pub(crate) fn resolve_all(state: &mut State, events: &mut Vec<Event>) -> Vec<Won> {
    let mut won = Vec::new();
    for owner in state.seats() {
        if let Some(pile) = state.piles[owner.index()].take() {
            won.extend(resolve_pile(state, owner, pile.cards, events));
        }
    }
    won
}

/// §3 step 3 for one pile: the single highest side total takes its cards back to their owners'
/// reuse piles and captures everyone else's; a shared highest total captures every card and
/// shares them out (§7.2, §13 for the first edition). A pile with one involved side is won by
/// it.
fn resolve_pile(
    state: &mut State,
    owner: Seat,
    cards: Vec<Card>,
    events: &mut Vec<Event>,
) -> Option<Won> {
    let mut totals: Vec<Option<u32>> = vec![None; state.side_count()];
    for card in &cards {
        let slot = &mut totals[usize::from(state.side(card.owner))];
        *slot = Some(slot.unwrap_or(0) + state.value(card.piece));
    }
    let side_totals: Vec<SideTotal> = totals
        .iter()
        .enumerate()
        .filter_map(|(side, total)| {
            total.map(|total| SideTotal {
                side: side as u8,
                total,
            })
        })
        .collect();
    let best = side_totals.iter().map(|entry| entry.total).max();
    let leaders: Vec<u8> = side_totals
        .iter()
        .filter(|entry| Some(entry.total) == best)
        .map(|entry| entry.side)
        .collect();
    let winner = match leaders.as_slice() {
        [single] => Some(*single),
        _ => None,
    };
    let mut returned = Vec::new();
    let mut captured = Vec::new();
    match winner {
        Some(side) => {
            for card in &cards {
                if state.side(card.owner) == side {
                    returned.push(*card);
                } else {
                    captured.push(CapturedCard { side, card: *card });
                }
            }
        }
        None if leaders.len() > 1 => {
            captured = if state.edition.has(Edition::SECOND) {
                share_tie(state, &cards, &leaders)
            } else {
                let involved: Vec<u8> = side_totals.iter().map(|entry| entry.side).collect();
                share_out_first_edition(state, owner, &cards, &involved)
            };
        }
        None => {}
    }
    for card in &returned {
        state.player_mut(card.owner).reuse.push(card.piece);
    }
    for entry in &captured {
        state.captured[usize::from(entry.side)].push(entry.card);
    }
    events.push(Event::Public(PublicEvent::PileResolved {
        pile: owner,
        totals: side_totals,
        winner,
        returned,
        captured,
    }));
    winner.map(|side| Won {
        pile: owner,
        side,
        cards,
    })
}

/// The order in which a tied pile's cards are dealt (§7.2): highest value first, then King
/// before Queen before … Pawn, then in pile order. Both editions deal in this order.
fn deal_order(state: &State, cards: &[Card]) -> Vec<Card> {
    let mut order: Vec<(usize, Card)> = cards.iter().copied().enumerate().collect();
    order.sort_by(|(a_index, a), (b_index, b)| {
        state
            .value(b.piece)
            .cmp(&state.value(a.piece))
            .then(b.piece.cmp(&a.piece))
            .then(a_index.cmp(b_index))
    });
    order.into_iter().map(|(_, card)| card).collect()
}

/// §7.2 (edition 2), a shared highest total: every card of the pile is captured and dealt out
/// among the tied sides only, in [`deal_order`]. Each card goes to the tied side, other than
/// its owner's, that has received the least value so far in this deal; between equals, to the
/// first one after the owner's side in the cyclic order of side numbers. So a card never goes
/// back to its own side, a tied King is always captured, a side with a lower total shares in
/// nothing, and sides that tied get shares as even as a card-by-card deal allows (with two sides
/// exactly "each captures the other's cards").
pub(crate) fn share_tie(state: &State, cards: &[Card], tied: &[u8]) -> Vec<CapturedCard> {
    let sides = state.side_count();
    let mut received = vec![0u32; sides];
    let mut shared = Vec::with_capacity(cards.len());
    for card in deal_order(state, cards) {
        let own = usize::from(state.side(card.owner));
        // The tied sides in cyclic order from the one after the owner's side; the first with
        // the least received value wins the card (`min_by_key` keeps the first of equals). A
        // tie has at least two sides, so one of them is not the owner's and the fallback never
        // applies; it only keeps every card dealt.
        let receiver = (1..=sides)
            .map(|step| ((own + step) % sides) as u8)
            .filter(|side| usize::from(*side) != own && tied.contains(side))
            .min_by_key(|side| received[usize::from(*side)])
            .unwrap_or(tied[0]);
        received[usize::from(receiver)] += state.value(card.piece);
        shared.push(CapturedCard {
            side: receiver,
            card,
        });
    }
    shared
}

/// §13, the first edition's sharing of a shared highest total, kept unchanged for the games
/// dealt under it: every card is captured and dealt out among every involved side (lower
/// totals included) in [`deal_order`], round-robin in seat order starting with the pile owner's
/// side, and a side never receives its own card: it goes to the next side in the rotation
/// instead. With two sides this is "each side captures the other's cards"; with three or more
/// it can leave a tied side with nothing.
pub(crate) fn share_out_first_edition(
    state: &State,
    owner: Seat,
    cards: &[Card],
    involved: &[u8],
) -> Vec<CapturedCard> {
    let n = state.seat_count();
    let mut rotation: Vec<u8> = Vec::new();
    for step in 0..n {
        let side = state.side(Seat(((owner.index() + step) % n) as u8));
        if involved.contains(&side) && !rotation.contains(&side) {
            rotation.push(side);
        }
    }
    let mut next = 0;
    let mut shared = Vec::with_capacity(cards.len());
    for card in deal_order(state, cards) {
        let own = state.side(card.owner);
        // A tie needs two involved sides, so another side always exists.
        let offset = (0..rotation.len())
            .find(|offset| rotation[(next + offset) % rotation.len()] != own)
            .unwrap_or(0);
        let receiver = rotation[(next + offset) % rotation.len()];
        next = (next + offset + 1) % rotation.len();
        shared.push(CapturedCard {
            side: receiver,
            card,
        });
    }
    shared
}
