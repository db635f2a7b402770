//! Draw offers under the latest edition (docs/rules/conventions.md §4): one offer per seat per
//! turn, a declined offer renewable on a later turn, only the offeree's own game action declines
//! it, and offers can never keep a game going. The first edition's rules stay as they were.
//!
//! Card Chess (one action per turn) and CHUNO (several actions per turn: a number card, then
//! its chess moves) are the test beds; the table's rules are the same for every game, and the
//! conformance suite checks them for every game at every ply.

use deckmate_engine::games::card_chess::CardChess;
use deckmate_engine::games::chuno::{Action as ChunoAction, Chuno};
use deckmate_engine::{
    Edition, Game, MetaAction, MetaEvent, PlayError, Seat, Seed, Table, TableAction, TableEvent,
};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn meta<A>(meta: MetaAction) -> TableAction<A> {
    TableAction::Meta(meta)
}

fn offers<G: Game>(table: &Table<G>, seat: Seat) -> bool {
    table.meta_actions(seat).contains(&MetaAction::OfferDraw)
}

/// The one seat to act (these tests stay in positions where only one seat may act).
fn mover<G: Game>(table: &Table<G>) -> Seat {
    let to_act: Vec<Seat> = table.to_act().iter().collect();
    assert_eq!(to_act.len(), 1, "one seat to act");
    to_act[0]
}

/// A random listed game action of the one seat to act, chosen by `pick`.
fn play<G: Game>(table: &mut Table<G>, pick: &mut impl Rng) -> Vec<TableEvent<G::Event>> {
    let seat = mover(table);
    let legal = table.legal_actions(seat);
    let action = legal.choose(pick).expect("a listed action").clone();
    table
        .apply(seat, &TableAction::Game(action))
        .expect("a listed action applies")
}

/// A CHUNO table whose seat to act is in the middle of a turn (a number card played, chess
/// moves to come), with no offer standing, and a listed action of that seat after which its
/// turn still goes on.
fn chuno_mid_turn(edition: Edition) -> (Table<Chuno>, ChunoAction) {
    for seed in 0..500 {
        let (mut table, _) =
            Table::<Chuno>::new_in(&Default::default(), 2, Seed::from_u64(seed), edition)
                .expect("a game");
        let mut pick = ChaCha8Rng::seed_from_u64(seed);
        while !table.is_over() && table.to_act().len() == 1 {
            let player = mover(&table);
            let turn = Chuno::turn_number(table.state());
            let keeps_turn = table.legal_actions(player).into_iter().find(|action| {
                let mut after = table.clone();
                after.apply(player, &TableAction::Game(*action)).is_ok()
                    && !after.is_over()
                    && Chuno::turn_number(after.state()) == turn
                    && after.to_act().iter().eq([player])
            });
            if let Some(action) = keeps_turn
                && table.draw_offer().is_none()
                && offers(&table, player)
            {
                return (table, action);
            }
            play(&mut table, &mut pick);
        }
    }
    panic!("no CHUNO turn of several actions in 500 seeds");
}

#[test]
fn draw_offers_are_limited_to_one_per_seat_per_turn() {
    let (mut table, action) = chuno_mid_turn(Edition::LATEST);
    let player = mover(&table);
    let opponent = player.opponent();
    table.apply(player, &meta(MetaAction::OfferDraw)).unwrap();
    table
        .apply(opponent, &meta(MetaAction::DeclineDraw))
        .unwrap();
    // The player's turn goes on with another action of its own: still no second offer.
    table.apply(player, &TableAction::Game(action)).unwrap();
    assert!(!offers(&table, player), "a second offer in one turn");
    assert_eq!(
        table.apply(player, &meta(MetaAction::OfferDraw)),
        Err(PlayError::Illegal("a draw cannot be offered now".into()))
    );
    // The opponent still has its own one offer of this turn, and then neither has any.
    assert!(offers(&table, opponent));
    table.apply(opponent, &meta(MetaAction::OfferDraw)).unwrap();
    table.apply(player, &meta(MetaAction::DeclineDraw)).unwrap();
    assert!(!offers(&table, opponent) && !offers(&table, player));
}

#[test]
fn first_edition_draw_offers_free_the_offerer_after_its_own_game_action() {
    let (mut table, action) = chuno_mid_turn(Edition::FIRST);
    let player = mover(&table);
    table.apply(player, &meta(MetaAction::OfferDraw)).unwrap();
    table
        .apply(player.opponent(), &meta(MetaAction::DeclineDraw))
        .unwrap();
    assert!(!offers(&table, player));
    table.apply(player, &TableAction::Game(action)).unwrap();
    assert!(offers(&table, player), "edition 1 frees the offerer");
}

#[test]
fn a_declined_draw_offer_may_be_renewed_on_a_later_turn() {
    for edition in [Edition::LATEST, Edition::FIRST] {
        let (mut table, _) =
            Table::<CardChess>::new_in(&Default::default(), 2, Seed::from_u64(3), edition).unwrap();
        let player = mover(&table);
        let opponent = player.opponent();
        // The opponent offers during the player's turn; the player declines, then plays.
        table.apply(opponent, &meta(MetaAction::OfferDraw)).unwrap();
        table.apply(player, &meta(MetaAction::DeclineDraw)).unwrap();
        assert!(!offers(&table, opponent), "renewed in the same turn");
        let mut pick = ChaCha8Rng::seed_from_u64(3);
        play(&mut table, &mut pick);
        assert_eq!(mover(&table), opponent, "the turn passed");
        // A new turn: under the latest edition the offer may be made again at once; under the
        // first, only after the offerer's own game action.
        assert_eq!(offers(&table, opponent), edition.has(Edition::SECOND));
        if edition.has(Edition::SECOND) {
            let events = table.apply(opponent, &meta(MetaAction::OfferDraw)).unwrap();
            assert_eq!(events, [TableEvent::Meta(MetaEvent::DrawOffered(opponent))]);
        }
    }
}

#[test]
fn only_the_offerees_own_game_action_declines_a_draw_offer() {
    let (mut table, _) =
        Table::<CardChess>::new(&Default::default(), 2, Seed::from_u64(4)).unwrap();
    let mut pick = ChaCha8Rng::seed_from_u64(4);
    let player = mover(&table);
    let opponent = player.opponent();
    // The player offers and plays on: its own action leaves its offer standing.
    table.apply(player, &meta(MetaAction::OfferDraw)).unwrap();
    let events = play(&mut table, &mut pick);
    assert_eq!(table.draw_offer(), Some(player));
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, TableEvent::Meta(_))),
        "the offerer's action answered its own offer"
    );
    // The offeree plays on: that declines it.
    assert_eq!(mover(&table), opponent);
    let events = play(&mut table, &mut pick);
    assert_eq!(table.draw_offer(), None);
    assert!(events.contains(&TableEvent::Meta(MetaEvent::DrawDeclined(opponent))));
}

/// Random interleavings of offers, declines and game actions: however the seats use them, no
/// turn sees more than one offer per seat, so offers alone can never keep a game going.
#[test]
fn draw_offers_never_loop_a_game_forever() {
    for seed in 0..40 {
        let (mut table, _) =
            Table::<Chuno>::new(&Default::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut pick = ChaCha8Rng::seed_from_u64(seed);
        let mut offers_this_turn = [0u32; 2];
        let mut turn = Chuno::turn_number(table.state());
        for _ in 0..50_000 {
            if table.is_over() {
                break;
            }
            let now = Chuno::turn_number(table.state());
            if now != turn {
                turn = now;
                offers_this_turn = [0; 2];
            }
            // Offer or decline whenever possible, half the time; otherwise play on.
            let seat = Seat(pick.random_range(0..2));
            let listed = table.meta_actions(seat);
            let chosen = [MetaAction::OfferDraw, MetaAction::DeclineDraw]
                .into_iter()
                .find(|meta| listed.contains(meta));
            match chosen {
                Some(action) if pick.random_bool(0.5) => {
                    table.apply(seat, &TableAction::Meta(action)).unwrap();
                    if action == MetaAction::OfferDraw {
                        offers_this_turn[seat.index()] += 1;
                        assert!(
                            offers_this_turn[seat.index()] <= 1,
                            "seed {seed}: {seat} offered twice in turn {turn}"
                        );
                    }
                }
                _ => {
                    let to_act: Vec<Seat> = table.to_act().iter().collect();
                    let seat = *to_act.choose(&mut pick).unwrap();
                    let legal = table.legal_actions(seat);
                    let action = *legal.choose(&mut pick).unwrap();
                    table.apply(seat, &TableAction::Game(action)).unwrap();
                }
            }
        }
        assert!(table.is_over(), "seed {seed}: the game did not end");
    }
}
