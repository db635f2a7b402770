//! §3 Turn: flip before the King is placed, the placement table, checks by placed pieces, cards
//! with no legal square, jokers.

use super::super::observation::Stage;
use super::super::{Action, Card, Config, Event, JokerEffect, RaindropChess};
use super::support::{deck_with_top, game, play, position_state, sq};
use crate::chess::Square;
use crate::game::Game;
use crate::games::testing::meta;
use crate::seat::Seat;

fn placements(state: &super::super::State, seat: Seat) -> Vec<Square> {
    RaindropChess::legal_actions(state, seat)
        .into_iter()
        .map(|action| match action {
            Action::Place(square) => square,
            other => panic!("expected placements, got {other}"),
        })
        .collect()
}

#[test]
fn s3_without_a_king_the_only_action_is_to_flip() {
    let state = position_state(
        &["Qd1", "ke8"],
        [deck_with_top(Card::King), vec![]],
        Seat(0),
    );
    assert_eq!(
        RaindropChess::legal_actions(&state, Seat(0)),
        vec![Action::Flip]
    );
}

#[test]
fn s3_with_a_king_the_player_flips_or_moves_and_an_empty_deck_leaves_moves_only() {
    let state = position_state(
        &["Ke1", "ke8"],
        [deck_with_top(Card::Pawn), vec![]],
        Seat(0),
    );
    let actions = RaindropChess::legal_actions(&state, Seat(0));
    assert_eq!(actions[0], Action::Flip);
    assert_eq!(actions.len(), 1 + 5);
    let state = position_state(&["Ke1", "ke8", "Ph2"], [vec![], vec![]], Seat(1));
    let actions = RaindropChess::legal_actions(&state, Seat(1));
    assert!(!actions.contains(&Action::Flip));
    assert_eq!(actions.len(), 5);
}

#[test]
fn s3_pawns_are_placed_on_their_ranks_only() {
    let mut white = position_state(&[], [deck_with_top(Card::Pawn), vec![]], Seat(0));
    play(&mut white, Seat(0), Action::Flip);
    let squares = placements(&white, Seat(0));
    assert_eq!(squares.len(), 40);
    assert!(
        squares
            .iter()
            .all(|square| (1..=5).contains(&square.rank()))
    );
    let mut black = position_state(&[], [vec![], deck_with_top(Card::Pawn)], Seat(1));
    play(&mut black, Seat(1), Action::Flip);
    let squares = placements(&black, Seat(1));
    assert_eq!(squares.len(), 40);
    assert!(
        squares
            .iter()
            .all(|square| (2..=6).contains(&square.rank()))
    );
}

#[test]
fn s3_other_pieces_go_on_any_empty_square() {
    for card in [Card::Queen, Card::Rook, Card::Bishop, Card::Knight] {
        let mut state = position_state(&["ke8", "Pe4"], [deck_with_top(card), vec![]], Seat(0));
        play(&mut state, Seat(0), Action::Flip);
        let squares = placements(&state, Seat(0));
        assert_eq!(squares.len(), 62, "{card}");
        assert!(!squares.contains(&sq("e4")) && !squares.contains(&sq("e8")));
    }
}

#[test]
fn s3_a_king_may_not_be_placed_on_an_attacked_square() {
    // Black's rook on d5 and bishop on h1 attack the d-file, rank 5 and the long diagonal;
    // their King is not even placed: every piece attacks (§4, §8.8).
    let mut state = position_state(
        &["rd5", "bh1"],
        [deck_with_top(Card::King), vec![]],
        Seat(0),
    );
    play(&mut state, Seat(0), Action::Flip);
    let squares = placements(&state, Seat(0));
    for attacked in ["d1", "d8", "a5", "h5", "e4", "g2"] {
        assert!(!squares.contains(&sq(attacked)), "{attacked} is attacked");
    }
    // The rook on d5 shields a8 from the bishop.
    assert!(squares.contains(&sq("a8")) && squares.contains(&sq("e1")));
    let error = RaindropChess::apply(&mut state.clone(), Seat(0), &Action::Place(sq("d1")));
    assert!(error.is_err());
}

#[test]
fn s3_a_placed_piece_may_give_check() {
    let mut state = position_state(
        &["Ke1", "ke8"],
        [deck_with_top(Card::Rook), vec![]],
        Seat(0),
    );
    play(&mut state, Seat(0), Action::Flip);
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Place(sq("e5"))).unwrap();
    assert!(events.contains(&Event::Placed {
        seat: Seat(0),
        role: crate::chess::Role::Rook,
        square: sq("e5"),
        check: true,
    }));
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s3_a_card_with_no_legal_square_goes_to_the_bottom_and_the_turn_ends() {
    // Every empty square is attacked by Black's queens, so White's King has nowhere to go.
    let mut pieces = vec![];
    let names: Vec<String> = (0..8)
        .map(|file| format!("q{}8", (b'a' + file) as char))
        .collect();
    for name in &names {
        pieces.push(name.as_str());
    }
    let mut state = position_state(
        &pieces,
        [deck_with_top(Card::King), vec![Card::Pawn]],
        Seat(0),
    );
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::CardReturned {
        seat: Seat(0),
        card: Card::King
    }));
    assert_eq!(state.decks[0][0], Card::King);
    assert_eq!(state.current, Seat(1));
    let observation = RaindropChess::observe(&state, crate::seat::Viewer::Spectator);
    assert_eq!(observation.sides[0].returned, vec![Card::King]);
}

#[test]
fn s3_an_extra_turn_joker_gives_another_turn() {
    let config = Config {
        jokers_per_deck: 1,
        ..Config::default()
    };
    let mut state = game(&config, 0);
    state.decks[0].push(Card::Joker);
    let events = RaindropChess::apply(&mut state, Seat(0), &Action::Flip).unwrap();
    assert!(events.contains(&Event::ExtraTurn { seat: Seat(0) }));
    assert_eq!(state.current, Seat(0));
    assert_eq!(state.stage, Stage::Turn);
}

#[test]
fn s3_a_remove_piece_joker_removes_an_enemy_piece_but_not_the_king() {
    let mut state = position_state(
        &["Ke1", "ke8", "nb8", "pa6"],
        [deck_with_top(Card::Joker), vec![]],
        Seat(0),
    );
    state.config.joker_effect = JokerEffect::RemovePiece;
    play(&mut state, Seat(0), Action::Flip);
    assert_eq!(state.stage, Stage::Remove);
    let actions = RaindropChess::legal_actions(&state, Seat(0));
    assert_eq!(
        actions,
        vec![Action::Remove(sq("a6")), Action::Remove(sq("b8"))]
    );
    assert!(RaindropChess::apply(&mut state.clone(), Seat(0), &Action::Remove(sq("e8"))).is_err());
    play(&mut state, Seat(0), Action::Remove(sq("b8")));
    assert!(state.position.piece_at(sq("b8")).is_none());
    assert_eq!(state.current, Seat(1));
}

#[test]
fn s3_the_turn_number_grows_once_per_turn_and_a_jokers_extra_turn_is_a_new_turn() {
    use crate::table::{MetaAction, Table, TableAction};
    // §14: White's joker is on top of its deck (it holds one, as configured).
    let config = Config {
        jokers_per_deck: 1,
        ..Config::default()
    };
    let mut state = game(&config, 0);
    let deck = &mut state.decks[0];
    let joker = deck
        .iter()
        .position(|card| *card == Card::Joker)
        .expect("a joker");
    let top = deck.len() - 1;
    deck.swap(joker, top);
    let mut table = Table::<RaindropChess>::from_state(state);
    let turn = |table: &Table<RaindropChess>| RaindropChess::turn_number(table.state());
    let offer = TableAction::Meta(MetaAction::OfferDraw);
    assert_eq!(turn(&table), 0);
    // An offer and its refusal are no turn; the offerer may not offer again in this turn.
    table.apply(Seat(0), &offer).unwrap();
    meta(&mut table, 1, MetaAction::DeclineDraw);
    assert_eq!(turn(&table), 0);
    assert!(!table.meta_actions(Seat(0)).contains(&MetaAction::OfferDraw));
    // The joker's turn ends; the extra turn is a new turn, in which White may offer again.
    let events = table
        .apply(Seat(0), &TableAction::Game(Action::Flip))
        .unwrap();
    assert!(
        events.contains(&crate::table::TableEvent::Game(Event::ExtraTurn {
            seat: Seat(0)
        }))
    );
    assert_eq!(table.state().current, Seat(0));
    assert_eq!(turn(&table), 1);
    assert!(table.meta_actions(Seat(0)).contains(&MetaAction::OfferDraw));
    // A flip and its placement are one turn.
    table
        .apply(Seat(0), &TableAction::Game(Action::Flip))
        .unwrap();
    assert_eq!(turn(&table), 1);
    let place = RaindropChess::legal_actions(table.state(), Seat(0))[0];
    assert!(matches!(place, Action::Place(_)));
    table.apply(Seat(0), &TableAction::Game(place)).unwrap();
    assert_eq!(turn(&table), 2);
    assert_eq!(table.state().current, Seat(1));
}
