//! §4 the turn: number cards and their moves, the Wild, Skip, Draw Two, Wild Draw Four, Reverse
//! chains, drawing, skips in a two-player game, and refilling the deck.

use super::super::Colour::{Green, Red};
use super::super::observation::Stage;
use super::super::{DrawReason, Event};
use super::support::*;
use crate::seat::Seat;

const DECK: &[&str] = &["G1", "G1", "B2", "Y0", "B1", "Y2"];

#[test]
fn s4_1_a_number_card_grants_up_to_n_moves_and_one_piece_may_move_twice() {
    let mut state = table(0, [&["R2", "B1"], &["G0", "G1"]], "R0", Red, DECK);
    act(&mut state, 0, "play R2");
    assert_eq!((state.stage, state.moves_left), (Stage::Moves, 2));
    assert!(lists(&state, 0, "end"));
    act(&mut state, 0, "e2e4");
    assert_eq!((state.current, state.moves_left), (Seat(0), 1));
    // The same pawn moves again; the second move ends the turn.
    assert!(lists(&state, 0, "e4e5"));
    act(&mut state, 0, "e4e5");
    assert_eq!((state.current, state.stage), (Seat(1), Stage::Start));
    assert_eq!(
        state.position.fen(),
        "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn s4_1_the_turn_may_end_early_and_a_zero_gives_no_moves() {
    let mut state = table(0, [&["R2", "R0", "B1"], &["G0", "G1"]], "R1", Red, DECK);
    act(&mut state, 0, "play R2");
    act(&mut state, 0, "g1f3");
    act(&mut state, 0, "end");
    assert_eq!(state.current, Seat(1));

    let mut state = table(0, [&["R0", "B1"], &["G0", "G1"]], "R1", Red, DECK);
    let events = act(&mut state, 0, "play R0");
    assert_eq!((state.current, state.stage), (Seat(1), Stage::Start));
    assert!(!events.iter().any(|event| matches!(event, Event::Moved(_))));
}

#[test]
fn s4_2_a_wild_chooses_the_colour_then_exactly_one_compulsory_move() {
    let mut state = table(0, [&["W", "B1", "B2"], &["G0", "G1"]], "R1", Red, DECK);
    act(&mut state, 0, "play W G");
    assert_eq!(state.active_colour, Green);
    assert_eq!((state.stage, state.moves_left), (Stage::WildMove, 1));
    let options = listed(&state, 0);
    assert_eq!(
        options.len(),
        20,
        "the 20 opening moves, and no end: {options:?}"
    );
    assert!(!lists(&state, 0, "end"));
    act(&mut state, 0, "b1c3");
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s4_2_a_wild_without_a_legal_move_ends_the_turn() {
    // White has only a blocked pawn.
    let state = table(0, [&["W", "R1", "B1"], &["G0", "G1"]], "R1", Red, DECK);
    let mut state = with_fen(state, "4k3/8/8/8/8/p7/P7/8 w - - 0 1");
    let events = act(&mut state, 0, "play W R");
    assert!(events.contains(&Event::NoMovePossible { seat: Seat(0) }));
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s4_3_skip_the_opponent_loses_its_next_turn() {
    let mut state = table(0, [&["RS", "R1", "B1"], &["G0", "G1"]], "R2", Red, DECK);
    let events = act(&mut state, 0, "play RS");
    assert!(events.contains(&Event::SkipAdded {
        seat: Seat(1),
        counter: 1
    }));
    assert!(events.contains(&Event::TurnSkipped {
        seat: Seat(1),
        remaining: 0
    }));
    assert_eq!((state.current, state.stage), (Seat(0), Stage::Start));
    assert_eq!(state.skips, [0, 0]);
    // No chess move follows an action card.
    assert!(!events.iter().any(|event| matches!(event, Event::Moved(_))));
}

#[test]
fn s4_3_draw_two_the_opponent_draws_two_and_is_skipped() {
    let mut state = table(0, [&["R+2", "R1", "B1"], &["G0", "G1"]], "R2", Red, DECK);
    let events = act(&mut state, 0, "play R+2");
    assert_eq!(state.hands[1].len(), 4);
    assert!(events.iter().any(|event| matches!(
        event,
        Event::CardsDrawn { seat: Seat(1), cards, reason: DrawReason::DrawTwo } if cards.len() == 2
    )));
    assert_eq!(state.current, Seat(0));
}

#[test]
fn s4_3_wild_draw_four_chooses_the_colour_and_the_opponent_draws_four_and_is_skipped() {
    let mut state = table(0, [&["W+4", "B1", "G2"], &["G0", "G1"]], "R2", Red, DECK);
    act(&mut state, 0, "play W+4 G");
    assert_eq!(state.active_colour, Green);
    assert_eq!(state.hands[1].len(), 6);
    assert_eq!((state.current, state.stage), (Seat(0), Stage::Start));
}

#[test]
fn s4_3_reverse_lets_the_player_play_a_matching_card_with_its_full_effect() {
    let mut state = table(
        0,
        [&["RR", "R1", "BR", "B1", "G2"], &["G0", "G1"]],
        "R2",
        Red,
        DECK,
    );
    act(&mut state, 0, "play RR");
    assert_eq!(state.stage, Stage::AfterReverse);
    // It must match the Reverse on top: red cards or another Reverse; no drawing instead.
    let options = listed(&state, 0);
    assert_eq!(options, ["play R1", "play BR", "end"]);
    assert!(rejected(&state, 0, "draw").contains("draw only at the start"));
    // The follow-up card's chess moves apply.
    act(&mut state, 0, "play R1");
    assert_eq!((state.stage, state.moves_left), (Stage::Moves, 1));
    act(&mut state, 0, "d2d4");
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s4_3_a_chain_has_at_most_three_cards_and_a_third_reverse_gives_no_play() {
    let mut state = table(
        0,
        [&["RR", "RR", "YR", "R1", "Y1"], &["G0", "G1"]],
        "R2",
        Red,
        DECK,
    );
    act(&mut state, 0, "play RR");
    act(&mut state, 0, "play RR");
    assert_eq!(state.stage, Stage::AfterReverse);
    act(&mut state, 0, "play YR");
    assert_eq!(state.cards_this_turn, 0, "a new turn began");
    assert_eq!(state.current, Seat(1));

    // A third card that is a number card still grants its moves.
    let mut state = table(
        0,
        [&["RR", "RR", "R2", "B1"], &["G0", "G1"]],
        "R1",
        Red,
        DECK,
    );
    act(&mut state, 0, "play RR");
    act(&mut state, 0, "play RR");
    act(&mut state, 0, "play R2");
    assert_eq!(
        (state.stage, state.moves_left, state.cards_this_turn),
        (Stage::Moves, 2, 3)
    );
}

#[test]
fn s4_4_drawing_ends_the_turn_at_once_and_is_allowed_with_playable_cards() {
    let mut state = table(0, [&["R1", "B1"], &["G0", "G1"]], "R2", Red, DECK);
    assert!(lists(&state, 0, "play R1") && lists(&state, 0, "draw"));
    let events = act(&mut state, 0, "draw");
    assert_eq!(state.hands[0].len(), 3);
    assert!(state.hands[0].contains(&card("Y2")), "the top of the deck");
    assert!(events.iter().any(|event| matches!(
        event,
        Event::CardsDrawn {
            seat: Seat(0),
            reason: DrawReason::Draw,
            ..
        }
    )));
    // The drawn card cannot be played this turn: the turn is over.
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s4_skips_return_the_turn_to_the_current_player_and_count_down() {
    let mut state = table(
        0,
        [&["RS", "R1", "B1", "B2"], &["G0", "G1"]],
        "R2",
        Red,
        DECK,
    );
    state.skips = [0, 1];
    act(&mut state, 0, "play RS");
    // The counter was 2: one skip now, one at the end of the next turn.
    assert_eq!((state.current, state.skips), (Seat(0), [0, 1]));
    act(&mut state, 0, "draw");
    assert_eq!((state.current, state.skips), (Seat(0), [0, 0]));
    act(&mut state, 0, "draw");
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s4_refill_shuffles_the_discards_under_the_top_card_into_a_new_deck() {
    let mut state = table(0, [&["B1", "B0"], &["G0", "G1"]], "R2", Red, &[]);
    state.discard = cards(&["Y1", "B2", "G0", "R2"]);
    let events = act(&mut state, 0, "draw");
    assert!(events.contains(&Event::Reshuffled { cards: 3 }));
    assert_eq!(state.discard, cards(&["R2"]), "the top card stays");
    assert_eq!(state.active_colour, Red, "and so does the active colour");
    assert_eq!(state.deck.len(), 2);
    assert_eq!(state.hands[0].len(), 3);
}

#[test]
fn s4_refill_with_nothing_left_gives_fewer_cards_and_no_draw_action() {
    // The deck is empty and the discard pile holds only its top card: nothing to draw.
    let state = table(0, [&["R+2", "B1"], &["G0", "G1"]], "R2", Red, &[]);
    assert!(!lists(&state, 0, "draw"));
    assert!(rejected(&state, 0, "draw").contains("deck is empty"));
    // A Draw Two then gets only the one card under it.
    let mut state = state;
    act(&mut state, 0, "play R+2");
    assert_eq!(state.hands[1].len(), 3);
    assert_eq!(state.discard, cards(&["R+2"]));
}
