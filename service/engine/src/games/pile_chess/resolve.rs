//! §3 step 3 resolution of every pile, per side (a player in free for all, a team in a team
//! game, §5). Cards carry no abilities (§1, §7.3): a pile is decided by its values alone, here
//! and nowhere else.

use super::event::{CapturedCard, Event, PublicEvent, SideTotal};
use super::piece::Card;
use super::state::State;
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
/// shares them out (§7.2). A pile with one involved side is won by it.
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
            let involved: Vec<u8> = side_totals.iter().map(|entry| entry.side).collect();
            captured = share_out(state, owner, &cards, &involved);
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

/// §3 step 3.4 and §7.2, a shared highest total: every card is captured and shared out among
/// the involved sides. The cards go out highest value first (then King before Pawn, then in
/// pile order), round-robin over the involved sides in seat order starting with the pile
/// owner's side, and a side never receives its own card: it goes to the next side in the
/// rotation instead. With two sides this is exactly "each side captures the other's cards", and
/// a King is always captured.
pub(crate) fn share_out(
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
    let mut order: Vec<(usize, Card)> = cards.iter().copied().enumerate().collect();
    order.sort_by(|(a_index, a), (b_index, b)| {
        state
            .value(b.piece)
            .cmp(&state.value(a.piece))
            .then(b.piece.cmp(&a.piece))
            .then(a_index.cmp(b_index))
    });
    let mut next = 0;
    let mut shared = Vec::with_capacity(cards.len());
    for (_, card) in order {
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
