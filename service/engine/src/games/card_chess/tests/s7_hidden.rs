//! §7 hidden information and randomness: unseen base cards are nobody's, flipped-down cards are
//! everyone's, hands are the owner's, the draw-pile order is nobody's and the discard pile is
//! public; events, resampling and error messages keep it that way.

use rand::SeedableRng;

use super::super::turn::has_legal_action;
use super::super::{Action, CardChess, Config, Event, EventView, Spot, State};
use super::support::*;
use crate::cards::Card;
use crate::game::{Game, PlayError};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, Viewer};

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Spectator,
];

#[test]
fn s7_a_base_card_is_shown_to_everyone_exactly_when_it_has_been_face_up() {
    let mut saw_known = false;
    for seed in 0..20 {
        let (mut state, _) =
            CardChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        loop {
            for viewer in VIEWERS {
                let view = CardChess::observe(&state, viewer);
                for spot in Spot::all() {
                    let here = state.spot(spot);
                    let shown = view.board[spot.index()].base;
                    assert_eq!(shown, here.base_known.then_some(here.base), "{spot}");
                    saw_known |= shown.is_some();
                }
            }
            if random_step(&mut state, &mut rng).is_none() {
                break;
            }
        }
    }
    assert!(saw_known, "some capture flipped a known card down");
}

#[test]
fn s7_hands_are_the_owners_only_and_spectators_see_counts() {
    let (state, _) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(21)).unwrap();
    for seat in [Seat(0), Seat(1)] {
        let view = CardChess::observe(&state, Viewer::Seat(seat));
        assert_eq!(view.hand, state.hands[seat.index()]);
        assert!(
            view.hand.windows(2).all(|pair| pair[0] <= pair[1]),
            "sorted"
        );
    }
    let spectator = CardChess::observe(&state, Viewer::Spectator);
    assert!(spectator.hand.is_empty());
    assert_eq!(spectator.players[0].hand_count, 5);
    assert_eq!(spectator.players[1].hand_count, 5);
    assert!(
        spectator
            .players
            .iter()
            .all(|player| player.shown_hand.is_none())
    );
}

#[test]
fn s7_the_draw_pile_order_is_hidden_and_the_discard_pile_public() {
    let (mut state, _) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(22)).unwrap();
    act(&mut state, 0, Action::Exchange);
    let mut reordered = state.clone();
    reordered.draw_pile.reverse();
    for viewer in VIEWERS {
        let view = CardChess::observe(&state, viewer);
        assert_eq!(view, CardChess::observe(&reordered, viewer));
        assert_eq!(view.draw_count, 64);
        assert_eq!(view.discard, state.discard);
        assert_eq!(view.discard.len(), 5);
    }
}

#[test]
fn s7_only_draws_are_secret_and_only_to_the_drawer_and_the_deal_names_no_card() {
    let drawn = Event::CardsDrawn {
        seat: Seat(1),
        cards: cards(&["2H", "KS"]),
    };
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        assert_eq!(
            CardChess::view_event(&drawn, viewer),
            Some(EventView::CardsDrawn {
                seat: Seat(1),
                count: 2,
                cards: None
            })
        );
    }
    assert_eq!(
        CardChess::view_event(&drawn, Viewer::Seat(Seat(1))),
        Some(CardChess::reveal_event(&drawn))
    );
    let (_, setup) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(3)).unwrap();
    assert_eq!(
        CardChess::reveal_event(&setup[1]),
        EventView::BoardDealt { spots: 25 }
    );
    let public = [
        Event::DeckShuffled { cards: 104 },
        Event::BoardDealt { spots: 25 },
        Event::DiscardReshuffled { cards: 30 },
        Event::PlayedIn {
            seat: Seat(0),
            card: c("2H"),
            spot: sp("red castle 1"),
        },
        Event::Exchanged {
            seat: Seat(1),
            cards: cards(&["2H", "3S"]),
        },
        Event::Moved {
            seat: Seat(0),
            from: sp("middle 1"),
            to: sp("middle 3"),
            piece: c("AH"),
            jump: true,
        },
        Event::Captured {
            seat: Seat(0),
            from: sp("middle 1"),
            to: sp("middle 2"),
            piece: c("AH"),
            captured: c("9C"),
            revealed: c("QS"),
        },
        Event::Replaced {
            seat: Seat(0),
            spot: sp("middle 2"),
            card: c("2S"),
            discarded: c("QS"),
        },
        Event::RevealedKept {
            seat: Seat(1),
            spot: sp("middle 2"),
        },
        Event::Checked {
            seat: Seat(0),
            spot: sp("black castle 1"),
            piece: c("2H"),
        },
        Event::NoLegalAction {
            seat: Seat(1),
            hands: [cards(&["2S"]), cards(&["3H"])],
            opponent_could_act: true,
        },
    ];
    for event in &public {
        for viewer in VIEWERS {
            assert_eq!(
                CardChess::view_event(event, viewer),
                Some(CardChess::reveal_event(event))
            );
        }
    }
}

/// The cards a viewer cannot place: unknown base cards, the draw pile and hidden hands.
fn hidden_cards(state: &State, viewer: Viewer) -> Vec<Card> {
    let mut out: Vec<Card> = state
        .board
        .iter()
        .filter(|spot| !spot.base_known)
        .map(|spot| spot.base)
        .collect();
    out.extend(state.draw_pile.iter().copied());
    for seat in [Seat(0), Seat(1)] {
        if !viewer.is(seat) && state.shown_hands.is_none() {
            out.extend(state.hands[seat.index()].iter().copied());
        }
    }
    out.sort_unstable();
    out
}

#[test]
fn s7_resampling_redraws_unseen_base_cards_hands_and_pile_and_changes_no_observation() {
    let mut resample_rng = GameRng::seed_from_u64(99);
    let (mut bases_changed, mut hands_changed) = (false, false);
    for seed in 0..40 {
        let (mut state, _) =
            CardChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut play_rng = GameRng::seed_from_u64(seed);
        loop {
            for viewer in VIEWERS {
                let other = CardChess::resample(&state, viewer, &mut resample_rng);
                assert_eq!(
                    CardChess::observe(&other, viewer),
                    CardChess::observe(&state, viewer),
                    "seed {seed}"
                );
                assert_eq!(CardChess::to_act(&other), CardChess::to_act(&state));
                assert_eq!(hidden_cards(&other, viewer), hidden_cards(&state, viewer));
                for seat in CardChess::to_act(&other).iter() {
                    assert!(!CardChess::legal_actions(&other, seat).is_empty());
                }
                if let Viewer::Seat(seat) = viewer {
                    assert_eq!(
                        CardChess::legal_actions(&other, seat),
                        CardChess::legal_actions(&state, seat)
                    );
                    let opponent = seat.opponent().index();
                    hands_changed |= other.hands[opponent] != state.hands[opponent];
                }
                for spot in Spot::all() {
                    let (mine, theirs) = (state.spot(spot), other.spot(spot));
                    if mine.base_known {
                        assert_eq!(mine.base, theirs.base, "a known base card is kept");
                    } else {
                        bases_changed |= mine.base != theirs.base;
                    }
                }
            }
            if random_step(&mut state, &mut play_rng).is_none() {
                break;
            }
        }
    }
    assert!(bases_changed, "resampling redraws unseen base cards");
    assert!(hands_changed, "resampling redraws the opponent's hand");
}

#[test]
fn s7_resampling_keeps_a_hand_that_the_seat_to_act_needs_to_play_in() {
    // Black exchanged last turn and has no piece: its one black card is its only way to act.
    let mut state = position(1, &[("middle 1", "KH")]);
    state.exchanged_last[1] = true;
    set_hand(&mut state, 1, &["2S", "3H", "4H", "5H", "6H"]);
    state
        .draw_pile
        .retain(|card| card.colour() == crate::cards::Colour::Red);
    state.draw_pile.push(c("9C"));
    let mut rng = GameRng::seed_from_u64(5);
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        for _ in 0..50 {
            let other = CardChess::resample(&state, viewer, &mut rng);
            assert!(has_legal_action(&other, Seat(1)), "{viewer:?}");
            assert_eq!(
                CardChess::observe(&other, viewer),
                CardChess::observe(&state, viewer)
            );
        }
    }
}

#[test]
fn s7_error_messages_do_not_depend_on_hidden_cards() {
    let messages = |base: &str, their_hand: [&str; 5]| {
        let mut state = position(0, &[("middle 3", "5H"), ("black kingdom 3", "KS")]);
        set_base(&mut state, "black kingdom 3", base);
        set_base(&mut state, "middle 4", base);
        set_hand(&mut state, 0, &["2H", "3S", "4H", "5H", "6H"]);
        set_hand(&mut state, 1, &their_hand);
        let tries = [
            mv("middle 3", "black kingdom 3"),
            mv("middle 3", "middle 4"),
            mv("black kingdom 3", "middle 3"),
            Action::PlayIn {
                card: c("3S"),
                spot: sp("red castle 1"),
            },
            Action::Replace { card: c("2S") },
            Action::KeepRevealed,
        ];
        tries.map(
            |action| match CardChess::apply(&mut state.clone(), Seat(0), &action) {
                Err(PlayError::Illegal(message)) => message,
                other => panic!("{action} should be illegal, got {other:?}"),
            },
        )
    };
    let first = messages("AH", ["2S", "3S", "4S", "5S", "6S"]);
    assert_eq!(first, messages("2C", ["7H", "8H", "JC", "QC", "KD"]));
    for message in &first {
        assert!(
            !message.contains("AH") && !message.contains("2C"),
            "{message}"
        );
    }
}
