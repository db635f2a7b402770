//! §9 ambiguities and their resolutions, one test per numbered item.

use super::super::Colour::{Green, Red, Yellow};
use super::super::observation::Stage;
use super::super::{Card, Chuno, Config, Kind};
use super::support::*;
use crate::game::{EndReason, Game, Outcome};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet};
use crate::table::{MetaAction, Table, TableAction, TableEvent};

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
fn s9_4_castling_through_check_is_allowed_and_a_flag_forbids_it() {
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
    table
        .apply(Seat(0), &TableAction::Meta(MetaAction::OfferDraw))
        .unwrap();
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
