//! [`LiveGame::acted`], the copy an `Act` commits, is the game `act` gives on a copy and leaves
//! the game it was made from as it was: for every game the server hosts, random games where at
//! every ply the acting seat's legal action and a refused one are applied both ways and the
//! results compared by their stored bytes and every viewer's view.

use deckmate_engine::{Seat, Seed, Viewer};
use deckmate_proto::v1 as pb;

use crate::catalog;
use crate::codec::test_support::Picker;
use crate::live::LiveGame;

/// Random games per game.
const GAMES: u64 = 2;

/// Plies per game at most (kept short for debug builds).
const MAX_PLIES: usize = 150;

/// Every viewer's view of `game`.
fn views(game: &dyn LiveGame) -> Vec<pb::ObserveResponse> {
    (0..game.seats() as u8)
        .map(|seat| Viewer::Seat(Seat(seat)))
        .chain([Viewer::Spectator])
        .map(|viewer| game.view(viewer))
        .collect()
}

/// The same game: the same stored bytes and the same views for everyone.
fn assert_same(left: &dyn LiveGame, right: &dyn LiveGame, what: &str) {
    assert_eq!(left.encode().unwrap(), right.encode().unwrap(), "{what}");
    assert_eq!(views(left), views(right), "{what}");
}

/// Plays one random game through `acted`, checking it against `act` on a copy at every ply.
fn play(mut game: Box<dyn LiveGame>, picker: &mut Picker) -> usize {
    let mut compared = 0;
    for _ in 0..MAX_PLIES {
        if game.is_over() {
            break;
        }
        let to_act = game.to_act();
        let seat = to_act[picker.below(to_act.len())];
        let legal = game.view(Viewer::Seat(seat)).legal_actions;
        if legal.is_empty() {
            break;
        }
        let before = game.encode().unwrap();

        // A seat that may not act now is refused the same way, and nothing changes.
        let idle = (0..game.seats() as u8)
            .map(Seat)
            .find(|seat| !to_act.contains(seat));
        if let Some(idle) = idle {
            let refused = game.acted(idle, &legal[0]).map(|_| ());
            let mut copy = game.clone_box();
            assert_eq!(refused, copy.act(idle, &legal[0]), "refused action");
            assert!(refused.is_err(), "a seat not to act acted");
            assert_eq!(
                game.encode().unwrap(),
                before,
                "a refused action changed the game"
            );
        }

        let action = &legal[picker.below(legal.len())];
        let next = game.acted(seat, action).expect("a listed action applies");
        assert_eq!(
            game.encode().unwrap(),
            before,
            "acted changed the game it copied"
        );
        let mut expected = game.clone_box();
        expected.act(seat, action).unwrap();
        assert_same(next.as_ref(), expected.as_ref(), "acted and act disagree");
        compared += 1;
        game = next;
    }
    compared
}

#[test]
fn acted_is_act_on_a_copy_and_leaves_the_game_as_it_was() {
    for variant in catalog::variants() {
        let config = variant.default_config.clone().expect("a default config");
        let mut compared = 0;
        for seed in 0..GAMES {
            let game = catalog::new_game(&config, variant.min_seats, Seed::from_u64(seed))
                .unwrap_or_else(|error| panic!("{}: {error}", variant.id));
            compared += play(game, &mut Picker::new(seed));
        }
        assert!(compared > 20, "{}: only {compared} plies", variant.id);
    }
}
