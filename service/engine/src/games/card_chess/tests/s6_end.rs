//! §6 end of game: five checks win; a player without a legal action at the start of its turn
//! loses if the opponent could play in or move, and is stalemated otherwise; resignation.

use super::super::{Action, CardChess, Event, Phase, State};
use super::support::*;
use crate::game::{EndReason, Game, Outcome, PlayError};
use crate::games::testing::{meta, won};
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::{MetaAction, Table};

#[test]
fn s6_five_checks_in_the_enemy_castle_win() {
    let mut state = position(
        0,
        &[
            ("black castle 1", "2H"),
            ("black castle 2", "3H"),
            ("black castle 3", "4H"),
            ("black castle 4", "5D"),
            ("black kingdom 5", "6D"),
            ("red castle 1", "KS"),
        ],
    );
    for file in 1..=4 {
        set_check(&mut state, &format!("black castle {file}"));
    }
    set_check(&mut state, "red castle 1");
    let events = act(&mut state, 0, mv("black kingdom 5", "black castle 5"));
    assert!(events.contains(&Event::Checked {
        seat: Seat(0),
        spot: sp("black castle 5"),
        piece: c("6D")
    }));
    let outcome = CardChess::outcome(&state).expect("the game is over");
    assert_eq!(outcome.winners, SeatSet::only(Seat(0)));
    assert_eq!(outcome.reason, EndReason::Score);
    assert_eq!(outcome.scores, vec![5, 1]);
    assert_eq!(state.phase, Phase::Finished);
    assert!(CardChess::to_act(&state).is_empty());
    assert!(CardChess::legal_actions(&state, Seat(1)).is_empty());
    assert_eq!(
        CardChess::apply(&mut state, Seat(1), &Action::Exchange),
        Err(PlayError::GameOver)
    );
    assert_eq!(
        CardChess::observe(&state, Viewer::Spectator).current_player,
        None
    );
}

/// Red moves its only piece into check; Black, whose previous turn was an exchange, then has no
/// piece and only red cards. Red refills from `red_draws` (drawn from the end).
fn black_stuck_after_red_checks(red_draws: &[&str]) -> State {
    let mut state = position(0, &[("black kingdom 3", "5H")]);
    state.exchanged_last[1] = true;
    set_hand(&mut state, 1, &["2H", "3H", "4D", "5D", "6H"]);
    state.draw_pile = cards(red_draws);
    state
}

#[test]
fn s6_no_legal_action_loses_when_the_opponent_could_play_in_or_move() {
    let mut state = black_stuck_after_red_checks(&["2S", "3S", "4S", "5S", "7H"]);
    let events = act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    let hands = [
        cards(&["2S", "3S", "4S", "5S", "7H"]),
        cards(&["2H", "3H", "4D", "5D", "6H"]),
    ];
    let mut sorted = hands.clone();
    sorted[0].sort_unstable();
    assert_eq!(
        events.last(),
        Some(&Event::NoLegalAction {
            seat: Seat(1),
            hands: sorted.clone(),
            opponent_could_act: true
        })
    );
    assert_eq!(CardChess::outcome(&state), won(0, EndReason::NoLegalAction));
    // The hands were shown to judge the result.
    let view = CardChess::observe(&state, Viewer::Spectator);
    assert_eq!(view.players[0].shown_hand.as_ref(), Some(&sorted[0]));
    assert_eq!(view.players[1].shown_hand.as_ref(), Some(&sorted[1]));
}

#[test]
fn s6_no_legal_action_is_a_stalemate_when_the_opponent_could_not_play_in_or_move_either() {
    let mut state = black_stuck_after_red_checks(&["2S", "3S", "4S", "5S", "6S"]);
    let events = act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    assert!(matches!(
        events.last(),
        Some(Event::NoLegalAction {
            seat: Seat(1),
            opponent_could_act: false,
            ..
        })
    ));
    // Reported as a stalemate, as the original text calls it (§10.1).
    assert_eq!(
        CardChess::outcome(&state),
        Some(Outcome::draw(EndReason::Stalemate))
    );
}

#[test]
fn s6_a_player_always_has_an_action_unless_its_previous_turn_was_an_exchange() {
    let mut state = black_stuck_after_red_checks(&["2S", "3S", "4S", "5S", "6S"]);
    state.exchanged_last[1] = false;
    act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    assert_eq!(CardChess::outcome(&state), None);
    assert_eq!(
        CardChess::legal_actions(&state, Seat(1)),
        vec![Action::Exchange]
    );
    let view = CardChess::observe(&state, Viewer::Spectator);
    assert!(
        view.players
            .iter()
            .all(|player| player.shown_hand.is_none())
    );
}

#[test]
fn s6_resignation_ends_the_game_for_the_opponent() {
    let (mut table, _) =
        Table::<CardChess>::new(&Default::default(), 2, crate::rng::Seed::from_u64(2)).unwrap();
    meta(&mut table, 1, MetaAction::Resign);
    assert_eq!(table.outcome(), won(0, EndReason::Resignation));
}
