//! §7 end of the game: King capture and an empty hand win at once; an accepted draw offer, a
//! player who can neither draw nor play, and surrender.

use super::super::Colour::Red;
use super::super::{Chuno, Event, Observation};
use super::support::*;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::{meta, won};
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::{MetaAction, Table, TableAction};

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2"];

#[test]
fn s7_capturing_the_king_wins_at_once_even_mid_turn() {
    let state = table(0, [&["R2", "B1", "B2"], &["R2", "G1"]], "R0", Red, DECK);
    let mut state = with_fen(state, "4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1");
    act(&mut state, 0, "play R2");
    let events = act(&mut state, 0, "e1e8");
    assert!(
        events
            .iter()
            .any(|event| matches!(event, Event::Moved(record) if record.king_captured))
    );
    assert_eq!(Chuno::outcome(&state), won(0, EndReason::KingCaptured));
    assert_eq!(state.moves_left, 0, "the second move is not made");
    assert_eq!(Chuno::to_act(&state), SeatSet::EMPTY);
    assert!(Chuno::legal_actions(&state, Seat(0)).is_empty());
}

#[test]
fn s7_playing_the_last_card_wins_before_its_effect() {
    let mut state = table(0, [&["R+2"], &["R2", "G1"]], "R0", Red, DECK);
    act(&mut state, 0, "play R+2");
    assert_eq!(Chuno::outcome(&state), won(0, EndReason::OutOfCards));
    assert_eq!(state.hands[1].len(), 2, "the Draw Two is not applied");
    assert_eq!(state.skips, [0, 0]);
    assert_eq!(state.chuno, None, "no call is due after going out");
}

#[test]
fn s7_an_accepted_draw_offer_draws_and_an_offer_lapses_when_the_other_plays() {
    let state = table(0, [&["R2", "B1", "B2"], &["R2", "G1"]], "R0", Red, DECK);
    let mut offered = Table::<Chuno>::from_state(state.clone());
    offered
        .apply(Seat(1), &TableAction::Meta(MetaAction::OfferDraw))
        .unwrap();
    let seen: Observation = offered.observe(Viewer::Seat(Seat(0)));
    assert_eq!(seen.draw_offered_by, Some(Seat(1)));
    let mut accepted = offered.clone();
    accepted
        .apply(Seat(0), &TableAction::Meta(MetaAction::AcceptDraw))
        .unwrap();
    assert_eq!(
        accepted.outcome(),
        Some(Outcome::draw(EndReason::DrawAgreed))
    );

    offered
        .apply(Seat(0), &TableAction::Game(action("draw")))
        .unwrap();
    assert_eq!(offered.draw_offer(), None);
    assert_eq!(offered.observe(Viewer::Spectator).draw_offered_by, None);
}

#[test]
fn s7_a_player_who_can_neither_draw_nor_play_draws_the_game() {
    // Seat 0 draws the last card there is; seat 1 then holds nothing playable on a red 2.
    let mut state = table(0, [&["B1", "B0"], &["G0", "B1"]], "R2", Red, &[]);
    state.discard = cards(&["Y1", "R2"]);
    act(&mut state, 0, "draw");
    assert_eq!(
        Chuno::outcome(&state),
        Some(Outcome::draw(EndReason::Stalemate))
    );
    assert!(Chuno::to_act(&state).is_empty());

    // With a playable card the player must play it: it cannot draw.
    let mut state = table(0, [&["B1", "B0"], &["G2", "B1"]], "R2", Red, &[]);
    state.discard = cards(&["Y1", "R2"]);
    act(&mut state, 0, "draw");
    assert_eq!(Chuno::outcome(&state), None);
    assert_eq!(listed(&state, 1), ["play G2"]);
}

#[test]
fn s7_surrender_is_allowed_at_any_time_and_the_opponent_wins() {
    let mut state = table(0, [&["R2", "B1", "B2"], &["R2", "G1"]], "R0", Red, DECK);
    act(&mut state, 0, "play R2");
    let mut table = Table::<Chuno>::from_state(state);
    // Seat 1 surrenders during seat 0's turn.
    meta(&mut table, 1, MetaAction::Resign);
    assert_eq!(table.outcome(), won(0, EndReason::Resignation));
    assert!(
        table
            .apply(Seat(0), &TableAction::Game(action("e2e4")))
            .is_err()
    );
}
