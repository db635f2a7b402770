//! §3: which cards in hand are playable on the top card and the active colour.
//!
//! Decision (§9.17): a Wild Draw Four is playable only by its own condition (no card of the active
//! colour in hand), never because the top card is also a Wild Draw Four: §3 lists it apart from
//! the "same action type" rule, and the source text says it is "only legal" under that
//! condition.

use super::card::{Card, Colour, Kind};

/// §3: whether `card` from `hand` may be played on `top` with `active` the colour to match.
pub(crate) fn is_playable(card: Card, hand: &[Card], top: Card, active: Colour) -> bool {
    match card.kind {
        Kind::Wild => true,
        Kind::WildDrawFour => !holds_colour(hand, active),
        // Same colour, same number, or the same action type.
        _ => card.colour == Some(active) || card.kind == top.kind,
    }
}

/// Whether `hand` holds a card of `colour`; wild cards have no colour and do not count (§3).
pub(crate) fn holds_colour(hand: &[Card], colour: Colour) -> bool {
    hand.iter().any(|card| card.colour == Some(colour))
}

/// The distinct playable cards of the sorted `hand`, in hand order.
pub(crate) fn playable_cards(hand: &[Card], top: Card, active: Colour) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    for card in hand {
        if out.last() != Some(card) && is_playable(*card, hand, top, active) {
            out.push(*card);
        }
    }
    out
}

/// Why `card` is not playable, in words that name only the player's own hand and public cards.
pub(crate) fn why_not_playable(card: Card, top: Card, active: Colour) -> String {
    match card.kind {
        Kind::WildDrawFour => {
            format!("a Wild Draw Four may be played only when you hold no other {active} card")
        }
        _ => format!("{card} matches neither the active colour {active} nor the top card {top}"),
    }
}
