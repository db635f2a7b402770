//! §9 decisions, one test (or more) per numbered item: the specification's resolutions of the
//! original rules' gaps (items 1–12), then the decisions taken while implementing them.

use rand::{Rng, SeedableRng};

use super::super::Colour::{Green, Red, Yellow};
use super::super::observation::Stage;
use super::super::{Action, Card, Chuno, Config, Event, Kind, State};
use super::support::*;
use crate::edition::Edition;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::meta;
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::{MetaAction, MetaEvent, Table, TableAction, TableEvent};

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2"];

#[test]
fn s9_1_the_deck_holds_the_itemised_96_cards_and_is_configurable() {
    assert_eq!(Config::default().deck_size(), 96);
    let config = Config {
        deck: [6, 30, 20, 8, 8, 8, 14, 10],
        ..Config::default()
    };
    let (state, _) = Chuno::new_game(&config, 2, Seed::from_u64(1)).unwrap();
    assert_eq!(all_cards(&state).len(), 104);
}

#[test]
fn s9_2_four_colours_by_default_and_the_count_is_configurable() {
    let config = Config {
        colours: 2,
        ..Config::default()
    };
    let (mut state, _) = Chuno::new_game(&config, 2, Seed::from_u64(2)).unwrap();
    state.hands[0] = hand(&["W", "B1"]);
    assert_eq!(listed(&state, 0)[..2], ["play W R", "play W Y"]);
    assert!(!lists(&state, 0, "play W G"));
    assert!(rejected(&state, 0, "play W G").contains("red, yellow"));
}

#[test]
fn s9_3_wild_starters_are_reburied_and_action_starters_do_nothing() {
    for seed in 0..100 {
        let (state, _) = new_game(seed);
        assert!(!state.top().is_wild(), "seed {seed}");
        assert_eq!(state.skips, [0, 0], "seed {seed}");
        assert_eq!(all_cards(&state).len(), 96);
    }
}

#[test]
fn s9_4_castling_ignores_attacks_unless_strict_castling_asks_it_to_avoid_them() {
    // The King is in check from the rook on e8 and castles anyway.
    let fen = "k3r3/8/8/8/8/8/8/4K2R w K - 0 1";
    for (strict, allowed) in [(false, true), (true, false)] {
        let mut state = with_fen(table(0, [&["R1", "B1"], &["G1"]], "R0", Red, DECK), fen);
        state.config.strict_castling = strict;
        act(&mut state, 0, "play R1");
        assert_eq!(lists(&state, 0, "e1g1"), allowed, "strict {strict}");
    }
}

#[test]
fn s9_5_the_card_after_a_reverse_is_optional() {
    let mut state = table(0, [&["RR", "R1", "B1"], &["G1", "G2"]], "R0", Red, DECK);
    act(&mut state, 0, "play RR");
    assert!(lists(&state, 0, "end") && lists(&state, 0, "play R1"));
    act(&mut state, 0, "end");
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s9_6_the_wilds_move_is_compulsory_when_a_move_exists() {
    let mut state = table(0, [&["W", "R1", "B1"], &["G1", "G2"]], "R0", Red, DECK);
    act(&mut state, 0, "play W Y");
    assert_eq!(state.active_colour, Yellow);
    assert!(rejected(&state, 0, "end").contains("compulsory"));
}

#[test]
fn s9_7_draw_cards_cannot_be_stacked_or_challenged() {
    // After a Draw Two the opponent has drawn and lost its turn: it has no chance to answer with
    // its own Draw Two, and no challenge exists for a Wild Draw Four.
    let mut state = table(0, [&["R+2", "W+4", "B1"], &["G+2", "R+2"]], "R0", Red, DECK);
    act(&mut state, 0, "play R+2");
    assert_eq!(Chuno::to_act(&state), SeatSet::only(Seat(0)));
    assert!(Chuno::legal_actions(&state, Seat(1)).is_empty());
    act(&mut state, 0, "play W+4 G");
    assert_eq!(state.active_colour, Green);
    assert_eq!(state.hands[1].len(), 8);
    assert!(Chuno::legal_actions(&state, Seat(1)).is_empty());
}

#[test]
fn s9_8_several_skips_add_up_on_the_counter() {
    let mut state = table(0, [&["RS", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    state.skips = [0, 2];
    act(&mut state, 0, "play RS");
    assert_eq!(state.skips, [0, 2], "3, less the skip just taken");
    assert_eq!(state.current, Seat(0));
}

#[test]
fn s9_9_going_out_on_the_last_card_wins_whatever_its_type() {
    for kind in Kind::ALL {
        let last = if kind.is_wild() {
            Card { kind, colour: None }
        } else {
            Card::coloured(Red, kind)
        };
        let mut state = table(0, [&[], &["G1", "G2"]], "R0", Red, DECK);
        state.hands[0] = vec![last];
        let text = if kind.is_wild() {
            format!("play {last} R")
        } else {
            format!("play {last}")
        };
        act(&mut state, 0, &text);
        assert_eq!(
            Chuno::outcome(&state),
            Some(Outcome::win(Seat(0), EndReason::OutOfCards)),
            "{text}"
        );
        assert_eq!(state.stage, Stage::Finished);
    }
}

#[test]
fn s9_10_the_en_passant_window_is_the_very_next_chess_move_across_turns() {
    // White double-steps as its last move; Black draws (no chess move); White moves again: the
    // chance passed to Black's very next chess move, which came after White's.
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let mut state = with_fen(
        table(
            0,
            [&["R1", "R1", "B1"], &["R1", "R1", "G1"]],
            "R0",
            Red,
            DECK,
        ),
        fen,
    );
    act(&mut state, 0, "play R1");
    act(&mut state, 0, "e2e4");
    let mut waited = state.clone();
    act(&mut waited, 1, "draw");
    act(&mut waited, 0, "play R1");
    act(&mut waited, 0, "e1d1");
    act(&mut waited, 1, "play R1");
    assert!(!lists(&waited, 1, "d4e3"));
    // Black drawing first keeps the chance: its next chess move is the very next one.
    act(&mut state, 1, "draw");
    act(&mut state, 0, "draw");
    act(&mut state, 1, "play R1");
    assert!(lists(&state, 1, "d4e3"));
}

#[test]
fn s9_11_draw_offers_answers_and_surrender_close_the_chuno_window_but_calling_does_not() {
    let mut state = table(0, [&["R1", "B1"], &["R2", "G1", "G2"]], "R0", Red, DECK);
    act(&mut state, 0, "play R1");
    act(&mut state, 0, "end");
    let table_at = Table::<Chuno>::from_state(state);
    for meta in [MetaAction::OfferDraw, MetaAction::Resign] {
        let mut table = table_at.clone();
        let events = table.apply(Seat(1), &TableAction::Meta(meta)).unwrap();
        assert!(matches!(
            events[0],
            TableEvent::Game(super::super::Event::ChunoMissed { .. })
        ));
    }
    let mut table = table_at.clone();
    meta(&mut table, 0, MetaAction::OfferDraw);
    let events = table
        .apply(Seat(1), &TableAction::Meta(MetaAction::AcceptDraw))
        .unwrap();
    assert!(matches!(
        events[0],
        TableEvent::Game(super::super::Event::ChunoMissed { .. })
    ));
    // Calling is not a game action of the opponent: it closes nothing else.
    let mut table = table_at;
    table
        .apply(Seat(0), &TableAction::Game(action("chuno")))
        .unwrap();
    assert_eq!(table.state().hands[0].len(), 1);
}

#[test]
fn s9_12_seat_0_plays_white_and_starts() {
    let (state, _) = new_game(5);
    assert_eq!(state.current, Seat(0));
    assert_eq!(state.position.side_to_move(), crate::chess::Color::White);
    assert!(state.position.fen().contains(" w "));
}

/// Seat 0 plays R1 from a hand of two and ends its turn: in seat 1's turn, seat 0 owes its call.
fn call_owed_out_of_turn() -> State {
    let mut state = table(0, [&["R1", "B1"], &["R2", "G1", "G2"]], "R0", Red, DECK);
    act(&mut state, 0, "play R1");
    act(&mut state, 0, "end");
    assert_eq!((state.current, state.chuno), (Seat(1), Some(Seat(0))));
    state
}

/// The draw offer the observation shows agrees with the table's, for every viewer.
fn assert_offer_agrees(table: &Table<Chuno>, context: &str) {
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            table.observe(viewer).draw_offered_by,
            table.draw_offer(),
            "{context}: {viewer:?} is shown another draw offer than the table's"
        );
    }
}

#[test]
fn s9_13_a_chuno_call_by_the_offeree_leaves_the_draw_offer_standing() {
    let mut table = table_with(call_owed_out_of_turn(), Edition::SECOND, Some(Seat(1)));
    let events = table
        .apply(Seat(0), &TableAction::Game(action("chuno")))
        .unwrap();
    assert_eq!(
        events,
        [TableEvent::Game(Event::ChunoCalled { seat: Seat(0) })],
        "the call neither declines the offer nor does anything else"
    );
    assert_eq!(table.draw_offer(), Some(Seat(1)));
    assert_offer_agrees(&table, "after the call");
    assert!(
        table
            .meta_actions(Seat(0))
            .contains(&MetaAction::AcceptDraw),
        "the offer may still be accepted"
    );
    // The offerer's own turn leaves its offer standing; the offeree's turn action answers it.
    table
        .apply(Seat(1), &TableAction::Game(action("draw")))
        .unwrap();
    assert_eq!(table.draw_offer(), Some(Seat(1)));
    assert_offer_agrees(&table, "after the offerer's draw");
    let events = table
        .apply(Seat(0), &TableAction::Game(action("draw")))
        .unwrap();
    assert!(events.contains(&TableEvent::Meta(MetaEvent::DrawDeclined(Seat(0)))));
    assert_eq!(table.draw_offer(), None);
    assert_offer_agrees(&table, "after the offeree's draw");
}

#[test]
fn s9_13_only_the_chuno_call_leaves_a_draw_offer_unanswered() {
    assert!(!Chuno::answers_draw_offer(&Action::CallChuno));
    for text in ["play R2", "play W G", "e2e4", "e7e8q", "end", "draw"] {
        assert!(Chuno::answers_draw_offer(&action(text)), "{text}");
    }
}

/// A random decision at `table`: now and then a meta action of a random seat (rarely an
/// acceptance, never a resignation, so that games run long), otherwise a listed game action of
/// a random seat to act.
fn random_decision(table: &Table<Chuno>, rng: &mut GameRng) -> (Seat, TableAction<Action>) {
    let seat = Seat(rng.random_range(0..2u8));
    if rng.random_range(0..6) == 0 {
        let metas: Vec<MetaAction> = table
            .meta_actions(seat)
            .into_iter()
            .filter(|meta| match meta {
                MetaAction::Resign => false,
                MetaAction::AcceptDraw => rng.random_range(0..25) == 0,
                MetaAction::OfferDraw | MetaAction::DeclineDraw => true,
            })
            .collect();
        if !metas.is_empty() {
            let meta = metas[rng.random_range(0..metas.len())];
            return (seat, TableAction::Meta(meta));
        }
    }
    let to_act: Vec<Seat> = table.to_act().iter().collect();
    let seat = to_act[rng.random_range(0..to_act.len())];
    let legal = table.legal_actions(seat);
    let chosen = legal[rng.random_range(0..legal.len())];
    (seat, TableAction::Game(chosen))
}

#[test]
fn s9_13_the_observed_draw_offer_agrees_with_the_table_after_every_action() {
    // Under both editions: random games with offers, answers and CHUNO calls, checked after
    // every action. Wherever a call is owed out of turn, a branch also puts an offer to the
    // obliged seat in place and lets it call (§9.11 keeps that from arising in play): the offer
    // stands under edition 2 and is declined under edition 1 (§14.2), in the table and the
    // observation alike.
    for edition in [Edition::SECOND, Edition::FIRST] {
        let mut branches = 0;
        let mut offers = 0;
        for seed in 0..10 {
            let context = |ply: usize| format!("{edition}, seed {seed}, ply {ply}");
            let (mut table, _) =
                Table::<Chuno>::new_in(&Config::default(), 2, Seed::from_u64(seed), edition)
                    .unwrap();
            let mut rng = GameRng::seed_from_u64(seed);
            let mut ply = 0;
            while !table.is_over() {
                let state = table.state();
                if let Some(obliged) = state.chuno.filter(|seat| *seat != state.current)
                    && table.draw_offer().is_none()
                {
                    let offerer = obliged.opponent();
                    let mut branch = table_with(state.clone(), edition, Some(offerer));
                    branch
                        .apply(obliged, &TableAction::Game(Action::CallChuno))
                        .unwrap();
                    let standing = edition.has(Edition::SECOND).then_some(offerer);
                    assert_eq!(branch.draw_offer(), standing, "{}", context(ply));
                    assert_offer_agrees(&branch, &context(ply));
                    branches += 1;
                }
                let (seat, decision) = random_decision(&table, &mut rng);
                if decision == TableAction::Meta(MetaAction::OfferDraw) {
                    offers += 1;
                }
                table
                    .apply(seat, &decision)
                    .unwrap_or_else(|error| panic!("{}: {error}", context(ply)));
                assert_offer_agrees(&table, &context(ply));
                ply += 1;
                assert!(ply < 20_000, "{}: the game does not end", context(ply));
            }
        }
        assert!(branches > 0 && offers > 0, "{edition}: {branches} {offers}");
    }
}

#[test]
fn s9_14_a_deadlock_at_the_start_of_a_turn_is_a_stalemate() {
    // Seat 0 draws the last card there is; seat 1 then holds nothing playable on a red 2.
    let mut state = table(0, [&["B1", "B0"], &["G0", "B1"]], "R2", Red, &[]);
    state.discard = cards(&["Y1", "R2"]);
    let mut table = Table::<Chuno>::from_state(state);
    let events = table
        .apply(Seat(0), &TableAction::Game(action("draw")))
        .unwrap();
    let stalemate = Outcome::draw(EndReason::Stalemate);
    assert_eq!(table.outcome(), Some(stalemate.clone()));
    assert_eq!(events.last(), Some(&TableEvent::Ended(stalemate)));
    assert_eq!(
        table.state().current,
        Seat(1),
        "the stuck player is the one to move"
    );
}

#[test]
fn s9_15_a_turn_given_back_by_a_skip_is_a_new_turn() {
    let mut state = table(0, [&["RS", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    assert_eq!(Chuno::turn_number(&state), 1);
    let events = act(&mut state, 0, "play RS");
    assert_eq!(state.current, Seat(0), "the skip gives the turn back");
    assert_eq!(Chuno::turn_number(&state), 2);
    assert!(events.contains(&Event::TurnStarted {
        seat: Seat(0),
        turn: 2
    }));
    assert_eq!(Chuno::observe(&state, Viewer::Spectator).turn, 2);
    // The skipped turn has no number: seat 1's next turn is the third.
    act(&mut state, 0, "draw");
    assert_eq!((state.current, Chuno::turn_number(&state)), (Seat(1), 3));
}

#[test]
fn s9_15_the_turn_number_holds_within_a_turn_and_through_meta_actions() {
    let mut state = table(
        0,
        [&["R2", "RR", "R1", "B1"], &["G1", "G2"]],
        "R0",
        Red,
        DECK,
    );
    state.hands[1] = hand(&["G1", "G2", "Y1"]);
    let mut table = Table::<Chuno>::from_state(state);
    let steps: [(u8, TableAction<Action>); 6] = [
        (0, TableAction::Game(action("play RR"))),
        (1, TableAction::Meta(MetaAction::OfferDraw)),
        (0, TableAction::Meta(MetaAction::DeclineDraw)),
        (0, TableAction::Game(action("play R2"))),
        (0, TableAction::Meta(MetaAction::OfferDraw)),
        (0, TableAction::Game(action("e2e4"))),
    ];
    for (seat, step) in steps {
        table.apply(Seat(seat), &step).unwrap();
        assert_eq!(Chuno::turn_number(table.state()), 1, "after {step:?}");
    }
    table
        .apply(Seat(0), &TableAction::Game(action("e4e5")))
        .unwrap();
    assert_eq!(
        (table.state().current, Chuno::turn_number(table.state())),
        (Seat(1), 2)
    );
}

#[test]
fn s9_15_a_seat_may_offer_a_draw_again_in_the_turn_a_skip_gives_back() {
    let state = table(0, [&["RS", "B1", "B2"], &["G1", "G2"]], "R0", Red, DECK);
    let mut table = Table::<Chuno>::from_state(state);
    meta(&mut table, 0, MetaAction::OfferDraw);
    table
        .apply(Seat(1), &TableAction::Meta(MetaAction::DeclineDraw))
        .unwrap();
    assert!(
        !table.meta_actions(Seat(0)).contains(&MetaAction::OfferDraw),
        "one offer per seat per turn"
    );
    table
        .apply(Seat(0), &TableAction::Game(action("play RS")))
        .unwrap();
    assert_eq!(table.state().current, Seat(0));
    assert!(
        table.meta_actions(Seat(0)).contains(&MetaAction::OfferDraw),
        "the turn the skip gave back is a new turn"
    );
}

#[test]
fn s9_24_a_deadlock_at_the_first_turn_draws_the_game_at_setup() {
    // 15 coloured cards and no wild card: after the deal and the starting card the deck is
    // empty and the discard pile holds only its top card.
    let config = Config {
        deck: [3, 3, 3, 3, 3, 0, 0, 0],
        ..Config::default()
    };
    let mut stuck = 0;
    let mut playing = 0;
    for seed in 0..3_000 {
        let (state, events) = Chuno::new_game(&config, 2, Seed::from_u64(seed)).unwrap();
        assert!(state.deck.is_empty() && state.discard.len() == 1);
        match Chuno::outcome(&state) {
            Some(outcome) => {
                assert_eq!(outcome, Outcome::draw(EndReason::Stalemate), "seed {seed}");
                assert_eq!(state.current, Seat(0));
                assert!(Chuno::to_act(&state).is_empty());
                assert!(matches!(
                    events.last(),
                    Some(Event::TurnStarted {
                        seat: Seat(0),
                        turn: 1
                    })
                ));
                stuck += 1;
            }
            None => {
                assert!(
                    Chuno::legal_actions(&state, Seat(0))
                        .iter()
                        .all(|action| matches!(action, Action::Play { .. }))
                );
                playing += 1;
            }
        }
    }
    assert!(stuck > 0 && playing > 0, "{stuck} stuck, {playing} playing");
}
