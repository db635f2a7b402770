//! §1 components: the deck (counts and colours), the zones and the state to match.

use super::super::{Card, Chuno, Colour, Config, Kind};
use super::support::*;
use crate::game::Game;
use crate::rng::Seed;
use crate::seat::{Seat, Viewer};

#[test]
fn s1_the_default_deck_is_the_itemised_table_of_96_cards() {
    let deck = Config::default().build_deck();
    assert_eq!(deck.len(), 96);
    let count = |kind: Kind| deck.iter().filter(|card| card.kind == kind).count();
    let expected = [
        (Kind::Zero, 6),
        (Kind::One, 30),
        (Kind::Two, 20),
        (Kind::Skip, 8),
        (Kind::Reverse, 8),
        (Kind::DrawTwo, 8),
        (Kind::Wild, 10),
        (Kind::WildDrawFour, 6),
    ];
    for (kind, number) in expected {
        assert_eq!(count(kind), number, "{kind:?}");
    }
}

#[test]
fn s1_colours_follow_the_round_robin_table_and_wilds_have_none() {
    let deck = Config::default().build_deck();
    let count = |kind: Kind, colour: Colour| {
        deck.iter()
            .filter(|card| **card == Card::coloured(colour, kind))
            .count()
    };
    // Rows of the colour table of §1: RED, YELLOW, GREEN, BLUE.
    let table = [
        (Kind::Zero, [2, 2, 1, 1]),
        (Kind::One, [8, 8, 7, 7]),
        (Kind::Two, [5, 5, 5, 5]),
        (Kind::Skip, [2, 2, 2, 2]),
        (Kind::Reverse, [2, 2, 2, 2]),
        (Kind::DrawTwo, [2, 2, 2, 2]),
    ];
    for (kind, row) in table {
        let got = Colour::ALL.map(|colour| count(kind, colour));
        assert_eq!(got, row, "{kind:?}");
    }
    assert!(
        deck.iter()
            .filter(|card| card.kind.is_wild())
            .all(|card| card.colour.is_none())
    );
    assert!(deck.iter().all(|card| card.is_well_formed()));
}

#[test]
fn s1_deck_composition_and_colour_count_are_config() {
    let config = Config {
        deck: [2, 10, 6, 1, 1, 1, 3, 2],
        colours: 2,
        ..Config::default()
    };
    let (state, _) = Chuno::new_game(&config, 2, Seed::from_u64(4)).unwrap();
    let all = all_cards(&state);
    assert_eq!(all.len(), 26);
    assert!(
        all.iter()
            .filter_map(|card| card.colour)
            .all(|colour| matches!(colour, Colour::Red | Colour::Yellow))
    );
}

#[test]
fn s1_zones_hands_are_owner_only_the_discard_and_counts_are_public() {
    let (state, _) = new_game(3);
    let mine = Chuno::observe(&state, Viewer::Seat(Seat(0)));
    let theirs = Chuno::observe(&state, Viewer::Seat(Seat(1)));
    assert_eq!(mine.hand, state.hands[0]);
    assert_eq!(theirs.hand, state.hands[1]);
    assert_eq!(mine.hand_counts, vec![7, 7]);
    assert_eq!(mine.deck_count, 96 - 14 - 1);
    // The discard pile, its top card and the active colour (the top card's colour at the start).
    assert_eq!(mine.discard, state.discard);
    assert_eq!(mine.top_card, state.top());
    assert_eq!(Some(mine.active_colour), state.top().colour);
    assert_eq!(mine.discard, theirs.discard);
}
