//! §10 rules editions: what the second edition changed, each with the first edition's behaviour
//! beside it, because games stored under the first edition keep their rules (`edition.rs`).
//! Also the turn numbering draw offers rely on (§8.18), which both editions share.

use super::super::{Action, CardChess, Event, Phase, State};
use super::support::*;
use crate::cards::Suit;
use crate::edition::Edition;
use crate::game::{EndReason, Game, Outcome};
use crate::games::testing::meta;
use crate::seat::{Seat, SeatSet, Viewer};
use crate::table::{MetaAction, MetaEvent, Table, TableAction, TableEvent};

/// Red holds five red cards, the draw pile holds only the 2S and the discard pile ten clubs;
/// Black holds five hearts it will exchange.
fn last_card_on_the_draw_pile(edition: Edition) -> State {
    let mut state = position(0, &[]);
    state.edition = edition;
    set_hand(&mut state, 0, &["7H", "8H", "9H", "10H", "JH"]);
    set_hand(&mut state, 1, &["2H", "3H", "4H", "5H", "6H"]);
    state.draw_pile = cards(&["2S"]);
    state.discard = cards(&["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC"]);
    state
}

fn play_in(card: &str, spot: &str) -> Action {
    Action::PlayIn {
        card: c(card),
        spot: sp(spot),
    }
}

#[test]
fn s10_2_the_discard_pile_is_reshuffled_as_soon_as_the_draw_pile_becomes_empty() {
    let mut state = last_card_on_the_draw_pile(Edition::SECOND);
    let events = act(&mut state, 0, play_in("7H", "red castle 1"));
    // Red's refill takes the last card, and the discard pile becomes the draw pile at once.
    assert_eq!(
        events[1..],
        [
            Event::CardsDrawn {
                seat: Seat(0),
                cards: cards(&["2S"]),
            },
            Event::DiscardReshuffled { cards: 10 },
        ]
    );
    assert_eq!(state.draw_pile.len(), 10);
    assert!(state.discard.is_empty());
    let view = CardChess::observe(&state, Viewer::Spectator);
    assert_eq!((view.draw_count, view.discard.len()), (10, 0));

    // Black's exchanged hand goes to the new discard pile and cannot come straight back.
    let events = act(&mut state, 1, Action::Exchange);
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, Event::DiscardReshuffled { .. })),
        "no second reshuffle: {events:?}"
    );
    assert_eq!(state.discard, cards(&["2H", "3H", "4H", "5H", "6H"]));
    assert_eq!(state.hands[1].len(), 5);
    assert!(
        state.hands[1].iter().all(|card| card.suit == Suit::Clubs),
        "Black drew only from the reshuffled clubs: {:?}",
        state.hands[1]
    );
}

#[test]
fn s10_2_the_first_edition_reshuffled_only_when_a_card_had_to_be_drawn() {
    let mut state = last_card_on_the_draw_pile(Edition::FIRST);
    let events = act(&mut state, 0, play_in("7H", "red castle 1"));
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, Event::DiscardReshuffled { .. }))
    );
    // The draw pile stands empty between the turns.
    assert!(state.draw_pile.is_empty());
    assert_eq!(state.discard.len(), 10);
    assert_eq!(CardChess::observe(&state, Viewer::Spectator).draw_count, 0);

    // Black's exchange discards its hand first, so the reshuffle takes those five cards too.
    let events = act(&mut state, 1, Action::Exchange);
    assert!(events.contains(&Event::DiscardReshuffled { cards: 15 }));
    assert_eq!(state.draw_pile.len(), 10);
    assert!(state.discard.is_empty());
}

/// Red moves its only piece into check; Black, whose previous turn was an exchange, then has no
/// piece, only red cards and may not exchange. Red refills to spades only, so it could not play
/// in or move either.
fn stalemate(edition: Edition) -> State {
    let mut state = position(0, &[("black kingdom 3", "5H")]);
    state.edition = edition;
    state.exchanged_last[1] = true;
    set_hand(&mut state, 1, &["2H", "3H", "4D", "5D", "6H"]);
    state.draw_pile = cards(&["2S", "3S", "4S", "5S", "6S", "7S"]);
    act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
    state
}

#[test]
fn s10_1_a_draw_without_a_legal_action_is_reported_as_a_stalemate() {
    let state = stalemate(Edition::SECOND);
    assert_eq!(
        CardChess::outcome(&state),
        Some(Outcome::draw(EndReason::Stalemate))
    );
    assert_eq!(state.phase, Phase::Finished);
}

#[test]
fn s10_1_the_first_edition_reported_the_stalemate_as_no_legal_action() {
    let state = stalemate(Edition::FIRST);
    assert_eq!(
        CardChess::outcome(&state),
        Some(Outcome::draw(EndReason::NoLegalAction))
    );
}

#[test]
fn s10_1_a_loss_without_a_legal_action_is_no_legal_action_in_both_editions() {
    for edition in [Edition::FIRST, Edition::SECOND] {
        let mut state = position(0, &[("black kingdom 3", "5H")]);
        state.edition = edition;
        state.exchanged_last[1] = true;
        set_hand(&mut state, 1, &["2H", "3H", "4D", "5D", "6H"]);
        // Red refills with a red card, so it could play in: Black loses.
        state.draw_pile = cards(&["2S", "3S", "4S", "5S", "7H"]);
        act(&mut state, 0, mv("black kingdom 3", "black castle 3"));
        assert_eq!(
            CardChess::outcome(&state),
            Some(Outcome::win(Seat(0), EndReason::NoLegalAction)),
            "{edition}"
        );
    }
}

#[test]
fn s8_18_a_capture_and_its_replacement_choice_are_one_turn_for_draw_offers() {
    // Red's King takes the 2S on middle 4 and reveals the black 3C: Red then chooses whether to
    // replace it, still in the same turn.
    let mut state = position(
        0,
        &[("middle 3", "KH"), ("middle 4", "2S"), ("middle 1", "KS")],
    );
    set_base(&mut state, "middle 4", "3C");
    let mut table = Table::<CardChess>::from_state(state);
    let turn = |table: &Table<CardChess>| CardChess::turn_number(table.state());
    assert_eq!(turn(&table), 0);

    // Black offers a draw during Red's turn; Red's capture declines it.
    meta(&mut table, 1, MetaAction::OfferDraw);
    let events = table
        .apply(Seat(0), &TableAction::Game(mv("middle 3", "middle 4")))
        .unwrap();
    assert!(events.contains(&TableEvent::Meta(MetaEvent::DrawDeclined(Seat(0)))));
    assert_eq!(table.state().phase, Phase::Replacement);
    assert_eq!(
        turn(&table),
        0,
        "the replacement choice is part of the turn"
    );
    assert!(
        !table.meta_actions(Seat(1)).contains(&MetaAction::OfferDraw),
        "Black already offered in this turn"
    );
    // A meta action does not move the count either.
    meta(&mut table, 0, MetaAction::OfferDraw);
    table
        .apply(Seat(1), &TableAction::Meta(MetaAction::DeclineDraw))
        .unwrap();
    assert_eq!(turn(&table), 0);

    // Keeping the revealed card ends the turn; Black's turn is a new one.
    table
        .apply(Seat(0), &TableAction::Game(Action::KeepRevealed))
        .unwrap();
    assert_eq!(turn(&table), 1);
    assert_eq!(CardChess::to_act(table.state()), SeatSet::only(Seat(1)));
    assert!(table.meta_actions(Seat(1)).contains(&MetaAction::OfferDraw));
    assert!(
        table.meta_actions(Seat(0)).contains(&MetaAction::OfferDraw),
        "Red's declined offer may be renewed in a later turn"
    );
}
