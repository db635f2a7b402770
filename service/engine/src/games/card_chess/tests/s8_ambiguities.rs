//! §8 decisions: each point the original text leaves open, in the order of the rule file.

use rand::SeedableRng;

use super::super::{AceCapture, Action, BoardRank, CardChess, Config, Event};
use super::support::*;
use crate::cards::{Rank, Suit, standard_decks};
use crate::game::{EndReason, Game, Outcome};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, Viewer};

#[test]
fn s8_1_the_ranks_use_the_five_ids_with_middle_as_the_placeholder() {
    let ids: Vec<(u8, &str)> = BoardRank::ALL
        .iter()
        .map(|rank| (rank.index(), rank.name()))
        .collect();
    assert_eq!(
        ids,
        [
            (0, "red castle"),
            (1, "red kingdom"),
            (2, "middle"),
            (3, "black kingdom"),
            (4, "black castle")
        ]
    );
    assert_eq!(sp("MIDDLE 2"), sp("middle 2"));
}

#[test]
fn s8_2_by_default_aces_capture_anything_and_only_aces_capture_aces() {
    assert_eq!(Config::default().ace_capture, AceCapture::OnlyAces);
    let state = position(
        1,
        &[
            ("middle 3", "AH"),
            ("middle 2", "KS"),
            ("middle 4", "AS"),
            ("red kingdom 3", "KC"),
        ],
    );
    assert!(!moves_from(&state, 1, "middle 2").contains(&"middle 3".to_string()));
    assert!(moves_from(&state, 1, "middle 4").contains(&"middle 3".to_string()));
    let mut red = state.clone();
    red.current = Seat(0);
    let listed = moves_from(&red, 0, "middle 3");
    for target in ["middle 2", "middle 4", "red kingdom 3"] {
        assert!(
            listed.contains(&target.to_string()),
            "the Ace takes {target}"
        );
    }
}

#[test]
fn s8_3_from_castle_means_the_own_castle_rank_where_sideways_captures_are_pointless() {
    // A Queen in its castle moves sideways only to empty spots; enemy pieces there are in
    // check and cannot be attacked at all.
    let mut state = position(0, &[("red castle 3", "QH"), ("red castle 2", "KS")]);
    set_check(&mut state, "red castle 2");
    assert_eq!(
        moves_from(&state, 0, "red castle 3"),
        names(&["red castle 4", "red kingdom 3"])
    );
    // One rank out, the general grid applies.
    let out = position(0, &[("red kingdom 3", "QH")]);
    assert_eq!(
        moves_from(&out, 0, "red kingdom 3"),
        names(&["red castle 3", "red kingdom 2", "red kingdom 4", "middle 3"])
    );
}

#[test]
fn s8_4_after_a_capture_the_movers_piece_is_whatever_was_underneath() {
    let mut state = position(0, &[("middle 3", "KH"), ("middle 4", "2S")]);
    set_base(&mut state, "middle 4", "3C");
    act(&mut state, 0, mv("middle 3", "middle 4"));
    act(&mut state, 0, Action::KeepRevealed);
    assert_eq!(state.piece(sp("middle 4")), Some(c("3C")));
    assert_eq!(state.piece_owner(sp("middle 4")), Some(Seat(1)));
    assert_eq!(state.pieces_in_play(Seat(0)), 0, "Red's King went under");
}

#[test]
fn s8_5_the_replacement_is_any_opponent_card_of_any_rank_and_is_not_a_play_in() {
    // Red has five pieces in play, so it could not play in; replacing is still allowed, even
    // with a card stronger than the revealed one.
    let mut state = position(
        0,
        &[
            ("middle 3", "KH"),
            ("middle 4", "2S"),
            ("red kingdom 1", "2H"),
            ("red kingdom 2", "3H"),
            ("red kingdom 3", "4H"),
            ("red kingdom 4", "5H"),
        ],
    );
    set_base(&mut state, "middle 4", "3C");
    set_hand(&mut state, 0, &["AS", "KC", "7H", "8H", "9H"]);
    assert_eq!(state.pieces_in_play(Seat(0)), 5);
    act(&mut state, 0, mv("middle 3", "middle 4"));
    assert_eq!(
        CardChess::legal_actions(&state, Seat(0)),
        vec![
            Action::KeepRevealed,
            Action::Replace { card: c("KC") },
            Action::Replace { card: c("AS") },
        ]
    );
    act(&mut state, 0, Action::Replace { card: c("AS") });
    assert_eq!(state.piece(sp("middle 4")), Some(c("AS")));
    assert_eq!(state.hands[0].len(), 5, "refilled as usual");
    assert_eq!(state.turns_without_progress, 0);
}

#[test]
fn s8_6_revealed_pieces_may_exceed_five_in_play_the_limit_only_restricts_playing_in() {
    // A reveal never adds a piece on balance (the capturer goes under as the revealed card
    // comes up), so six red pieces in play are built by hand: they all keep moving and
    // capturing, a capture revealing a red card is resolved as usual, and only playing in is
    // refused.
    let mut state = position(
        0,
        &[
            ("red kingdom 1", "2H"),
            ("red kingdom 2", "3H"),
            ("red kingdom 3", "4H"),
            ("red kingdom 4", "5H"),
            ("red kingdom 5", "6H"),
            ("middle 3", "KH"),
            ("black kingdom 3", "QS"),
        ],
    );
    set_hand(&mut state, 0, &["7H", "8H", "9H", "10H", "JH"]);
    set_base(&mut state, "black kingdom 3", "QD");
    assert_eq!(state.pieces_in_play(Seat(0)), 6);
    let actions = CardChess::legal_actions(&state, Seat(0));
    assert!(
        !actions
            .iter()
            .any(|action| matches!(action, Action::PlayIn { .. }))
    );
    assert!(actions.contains(&mv("red kingdom 1", "middle 1")));
    act(&mut state, 0, mv("middle 3", "black kingdom 3"));
    assert_eq!(state.piece(sp("black kingdom 3")), Some(c("QD")));
    assert_eq!(state.pieces_in_play(Seat(0)), 6);
}

#[test]
fn s8_7_pieces_in_check_are_jumped_over_but_never_targets() {
    let mut state = position(
        0,
        &[
            ("red castle 1", "AH"),
            ("red castle 2", "2S"),
            ("red kingdom 2", "9S"),
        ],
    );
    set_check(&mut state, "red castle 2");
    let listed = moves_from(&state, 0, "red castle 1");
    assert!(
        listed.contains(&"red castle 3".to_string()),
        "jump over the piece in check"
    );
    assert!(
        !listed.contains(&"red castle 2".to_string()),
        "never a target"
    );
    assert!(
        listed.contains(&"red kingdom 2".to_string()),
        "the free 9S is a target"
    );
}

#[test]
fn s8_8_check_is_evaluated_only_on_the_destination_spot() {
    // A red piece stands on Black's castle rank without check (a hand-built position); another
    // Red move elsewhere does not put it in check.
    let mut state = position(0, &[("black castle 1", "2H"), ("middle 3", "KH")]);
    let events = act(&mut state, 0, mv("middle 3", "middle 2"));
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, Event::Checked { .. }))
    );
    assert!(!state.spot(sp("black castle 1")).in_check);
}

#[test]
fn s8_9_the_loss_is_judged_at_the_start_of_the_turn_and_an_exchange_does_not_count() {
    // Black has no legal action when its turn starts; Red could still exchange but could not
    // play in or move, so it is a stalemate, not a Red win.
    let mut state = position(0, &[("black kingdom 3", "5H")]);
    state.exchanged_last[1] = true;
    set_hand(&mut state, 1, &["2H", "3H", "4D", "5D", "6H"]);
    state.draw_pile = cards(&["2S", "3S", "4S", "5S", "6S"]);
    act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    assert!(
        !state.exchanged_last[0],
        "Red could exchange on its next turn"
    );
    assert_eq!(
        CardChess::outcome(&state),
        Some(Outcome::draw(EndReason::Stalemate))
    );
}

#[test]
fn s8_10_there_are_no_jokers() {
    let shoe = standard_decks(2);
    assert_eq!(shoe.len(), 104);
    assert!(
        shoe.iter()
            .all(|card| Rank::ALL.contains(&card.rank) && Suit::ALL.contains(&card.suit))
    );
}

#[test]
fn s8_11_the_piles_always_hold_at_least_44_cards_and_the_draw_pile_never_stays_empty() {
    let mut steps = 0;
    for seed in 0..30 {
        let (mut state, _) =
            CardChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        loop {
            let piles = state.draw_pile.len() + state.discard.len();
            assert!(piles >= 44, "seed {seed}: only {piles} cards in the piles");
            // §8.12: from the second edition the draw pile is refilled the moment it empties.
            assert!(!state.draw_pile.is_empty(), "seed {seed}: empty draw pile");
            steps += 1;
            if random_step(&mut state, &mut rng).is_none() {
                break;
            }
        }
    }
    assert!(steps > 1000, "only {steps} positions checked");
}

#[test]
fn s8_13_an_exchange_is_allowed_on_the_first_turn_and_the_hand_is_shown_to_everyone() {
    let (mut state, _) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(4)).unwrap();
    assert!(CardChess::legal_actions(&state, Seat(0)).contains(&Action::Exchange));
    let hand = state.hands[0].clone();
    act(&mut state, 0, Action::Exchange);
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        assert_eq!(CardChess::observe(&state, viewer).discard, hand);
    }
    // An opponent's exchange does not stop the next one of its own.
    assert!(CardChess::legal_actions(&state, Seat(1)).contains(&Action::Exchange));
}

#[test]
fn s8_21_a_fifth_check_on_the_last_allowed_turn_wins_rather_than_draws() {
    let mut state = position(
        0,
        &[
            ("black castle 1", "2H"),
            ("black castle 2", "3H"),
            ("black castle 3", "4H"),
            ("black castle 4", "5D"),
            ("black kingdom 5", "6D"),
        ],
    );
    for file in 1..=4 {
        set_check(&mut state, &format!("black castle {file}"));
    }
    state.config = Config {
        no_progress_turns: 10,
        max_turns: 20,
        ..Config::default()
    };
    state.turns_taken = 19;
    state.turns_without_progress = 9;
    act(&mut state, 0, mv("black kingdom 5", "black castle 5"));
    let outcome = CardChess::outcome(&state).expect("the game is over");
    assert_eq!(outcome.reason, EndReason::Score);
    assert_eq!(outcome.scores, vec![5, 0]);
}
