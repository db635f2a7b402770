//! §3 which cards are playable: colour, number, action type, Wild, and Wild Draw Four only
//! without a card of the active colour.

use super::super::Colour::{Blue, Green, Red, Yellow};
use super::support::*;

const DECK: &[&str] = &["G1", "G1", "B2", "Y0"];

/// The cards `seat` 0 may play, in notation.
fn plays(hand_cards: &[&str], top: &str, active: super::super::Colour) -> Vec<String> {
    let state = table(0, [hand_cards, &["B1"]], top, active, DECK);
    listed(&state, 0)
        .into_iter()
        .filter(|text| text.starts_with("play"))
        .collect()
}

#[test]
fn s3_colour_number_and_action_type_match() {
    // On a red 2: any red card, any 2; not a green Skip or a blue 0.
    assert_eq!(
        plays(&["R1", "Y2", "GS", "B0"], "R2", Red),
        ["play R1", "play Y2"]
    );
    // On a yellow Skip: yellow cards and Skips of any colour, not another action type.
    assert_eq!(
        plays(&["Y1", "BS", "B+2", "GR"], "YS", Yellow),
        ["play Y1", "play BS"]
    );
    // Numbers match numbers only: a 1 does not match a Draw Two.
    assert_eq!(plays(&["R1", "B+2"], "G+2", Green), ["play B+2"]);
}

#[test]
fn s3_a_wild_is_always_playable_with_any_colour_chosen() {
    assert_eq!(
        plays(&["B0", "W"], "R2", Red),
        ["play W R", "play W Y", "play W G", "play W B"]
    );
}

#[test]
fn s3_wild_draw_four_needs_no_card_of_the_active_colour() {
    // Holding a red card: not playable.
    let with_red = plays(&["R0", "W+4"], "R2", Red);
    assert_eq!(with_red, ["play R0"]);
    let state = table(0, [&["R0", "W+4"], &["B1"]], "R2", Red, DECK);
    let message = rejected(&state, 0, "play W+4 B");
    assert!(message.contains("no other red card"), "{message}");
    // Colourless Wilds do not count as the active colour; other colours do not either.
    assert_eq!(
        plays(&["B1", "W", "W+4"], "R2", Red),
        [
            "play W R",
            "play W Y",
            "play W G",
            "play W B",
            "play W+4 R",
            "play W+4 Y",
            "play W+4 G",
            "play W+4 B"
        ]
    );
}

#[test]
fn s3_after_a_wild_the_chosen_colour_is_matched() {
    // A Wild on top that chose blue: blue cards match, the Wild's symbol matches nothing else.
    assert_eq!(plays(&["B2", "R2", "Y1"], "W", Blue), ["play B2"]);
}

#[test]
fn s3_unplayable_and_unheld_cards_are_refused_in_public_terms() {
    let state = table(0, [&["GS", "R1"], &["B1"]], "R2", Red, DECK);
    let message = rejected(&state, 0, "play GS");
    assert!(
        message.contains("GS") && message.contains("red"),
        "{message}"
    );
    let message = rejected(&state, 0, "play Y1");
    assert!(message.contains("you hold no Y1"), "{message}");
    let message = rejected(&state, 0, "play R1 G");
    assert!(
        message.contains("only a wild card chooses a colour"),
        "{message}"
    );
}
