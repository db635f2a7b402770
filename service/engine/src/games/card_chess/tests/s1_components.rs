//! §1 components: the 104-card shoe, colours, the board's ranks and files, the zones and the
//! spot flags.

use rand::SeedableRng;

use super::super::{BoardRank, CardChess, Config, Spot};
use super::support::*;
use crate::cards::{Card, Colour, Rank, Suit, standard_decks};
use crate::game::Game;
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, Viewer};

#[test]
fn s1_two_standard_decks_make_104_cards_each_card_twice_and_no_jokers() {
    let (state, _) = CardChess::new_game(&Config::default(), 2, Seed::from_u64(3)).unwrap();
    let mut expected = standard_decks(2);
    expected.sort_unstable();
    assert_eq!(all_cards(&state), expected);
    assert_eq!(expected.len(), 104);
    for suit in Suit::ALL {
        for rank in Rank::ALL {
            let count = expected
                .iter()
                .filter(|card| **card == Card::new(rank, suit))
                .count();
            assert_eq!(count, 2, "{rank:?} of {suit:?}");
        }
    }
}

#[test]
fn s1_colour_decides_ownership_hearts_and_diamonds_red_spades_and_clubs_black() {
    assert_eq!(c("7H").colour(), Colour::Red);
    assert_eq!(c("7D").colour(), Colour::Red);
    assert_eq!(c("7S").colour(), Colour::Black);
    assert_eq!(c("7C").colour(), Colour::Black);
    let state = position(
        0,
        &[
            ("middle 1", "KH"),
            ("middle 2", "KD"),
            ("middle 3", "KS"),
            ("middle 4", "KC"),
        ],
    );
    let view = CardChess::observe(&state, Viewer::Spectator);
    let owners: Vec<Option<Seat>> = ["middle 1", "middle 2", "middle 3", "middle 4"]
        .iter()
        .map(|name| view.board[sp(name).index()].owner)
        .collect();
    assert_eq!(
        owners,
        [Some(Seat(0)), Some(Seat(0)), Some(Seat(1)), Some(Seat(1))]
    );
    assert_eq!(view.players[0].colour, Colour::Red);
    assert_eq!(view.players[1].colour, Colour::Black);
}

#[test]
fn s1_the_board_is_five_ranks_by_five_numbered_files_named_rank_then_file() {
    assert_eq!(Spot::all().count(), 25);
    let names: Vec<&str> = BoardRank::ALL.iter().map(|rank| rank.name()).collect();
    assert_eq!(
        names,
        [
            "red castle",
            "red kingdom",
            "middle",
            "black kingdom",
            "black castle"
        ]
    );
    for (index, rank) in BoardRank::ALL.iter().enumerate() {
        assert_eq!(usize::from(rank.index()), index, "rank id of {rank}");
    }
    let spot = sp("red castle 3");
    assert_eq!((spot.rank(), spot.file()), (BoardRank::RedCastle, 3));
    assert_eq!(spot.to_string(), "red castle 3");
    assert_eq!(sp("BLACK_KINGDOM 1").to_string(), "black kingdom 1");
    assert!("middle 6".parse::<Spot>().is_err());
}

#[test]
fn s1_every_spot_keeps_one_base_card_the_flags_never_clear_and_no_card_is_lost() {
    for seed in 0..30 {
        let (mut state, _) =
            CardChess::new_game(&Config::default(), 2, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        let mut expected = standard_decks(2);
        expected.sort_unstable();
        loop {
            let before = state.clone();
            if random_step(&mut state, &mut rng).is_none() {
                break;
            }
            assert_eq!(all_cards(&state), expected, "seed {seed}: 104 cards");
            for spot in Spot::all() {
                let (old, new) = (before.spot(spot), state.spot(spot));
                assert!(!old.in_check || new.in_check, "inCheck is permanent");
                assert!(!old.base_known || new.base_known, "baseKnown never clears");
                if old.in_check {
                    assert_eq!(old.piece, new.piece, "a piece in check stays");
                }
                if new.in_check {
                    assert!(new.piece.is_some(), "a check spot holds its piece");
                }
            }
            assert!(state.hands.iter().all(|hand| hand.len() <= 5));
        }
    }
}
