//! §2 setup: shuffle, 25 face-down base cards, five cards each, 69 to draw, Red first.

use super::super::{CardChess, Config, Event, Phase, Spot};
use super::support::*;
use crate::game::{Game, PlayError, SetupError};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet, Viewer};

#[test]
fn s2_deal_puts_a_face_down_base_card_on_every_spot_five_cards_in_each_hand_and_69_in_the_pile() {
    let (state, events) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(8)).unwrap();
    for spot in Spot::all() {
        let here = state.spot(spot);
        assert!(here.piece.is_none(), "no pieces yet on {spot}");
        assert!(
            !here.base_known,
            "{spot}'s base card is face down and unseen"
        );
        assert!(!here.in_check);
    }
    assert_eq!(state.hands[0].len(), 5);
    assert_eq!(state.hands[1].len(), 5);
    assert_eq!(state.draw_pile.len(), 69);
    assert!(state.discard.is_empty());
    assert_eq!(state.phase, Phase::Play);

    assert_eq!(
        events[..2],
        [
            Event::DeckShuffled { cards: 104 },
            Event::BoardDealt { spots: 25 }
        ]
    );
    let drawn: Vec<(Seat, usize)> = events[2..]
        .iter()
        .map(|event| match event {
            Event::CardsDrawn { seat, cards } => (*seat, cards.len()),
            other => panic!("unexpected setup event {other:?}"),
        })
        .collect();
    assert_eq!(drawn, [(Seat(0), 5), (Seat(1), 5)]);
}

#[test]
fn s2_red_is_seat_zero_and_moves_first_then_turns_alternate() {
    let (mut state, _) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(9)).unwrap();
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(0)));
    assert!(CardChess::legal_actions(&state, Seat(1)).is_empty());
    let action = CardChess::legal_actions(&state, Seat(0))[0];
    assert_eq!(
        CardChess::apply(&mut state, Seat(1), &action),
        Err(PlayError::NotYourTurn)
    );
    let first = CardChess::legal_actions(&state, Seat(0))[0];
    CardChess::apply(&mut state, Seat(0), &first).unwrap();
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(1)));
    let view = CardChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.current_player, Some(Seat(1)));

    let mut state = position(0, &[("middle 1", "KH"), ("middle 5", "KS")]);
    for (seat, from, to) in [
        (0, "middle 1", "middle 2"),
        (1, "middle 5", "middle 4"),
        (0, "middle 2", "middle 1"),
        (1, "middle 4", "middle 5"),
    ] {
        assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(seat)));
        act(&mut state, seat, mv(from, to));
    }
    assert_eq!(CardChess::to_act(&state), SeatSet::only(Seat(0)));
}

#[test]
fn s2_the_shuffle_comes_from_the_seed() {
    let deal = |seed| CardChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
    assert_eq!(deal(4), deal(4));
    assert_ne!(deal(4).0.board, deal(5).0.board);
    assert_ne!(deal(4).0.hands, deal(5).0.hands);
}

#[test]
fn s2_the_game_is_for_two_seats_and_needs_a_turn_cap() {
    for seats in [1, 3] {
        assert!(matches!(
            CardChess::new_game(&Config::default(), seats, Seed::from_u64(1)),
            Err(SetupError::SeatCount { requested, .. }) if requested == seats
        ));
    }
    let config = Config {
        max_turns: 0,
        ..Config::default()
    };
    assert!(matches!(
        CardChess::new_game(&config, 2, Seed::from_u64(1)),
        Err(SetupError::InvalidConfig { field, .. }) if field == "max_turns"
    ));
}
