//! Inputs the fuzz targets found crashing (docs/RELIABILITY.md, "Fuzzing"), kept as tests so
//! that the crashes stay fixed.

use deckmate_engine::{
    Game, GameKind, PlayError, Seat, SeatSet, Seed, Table, TableAction, with_game,
};

/// `apply_actions` found that `Table::legal_actions` passed a seat number beyond the table's
/// seats on to the game, and Card Chess indexed its hands with it (index out of bounds). The
/// table now answers such seats itself: no listed action, and every action refused.
#[test]
fn seats_beyond_the_table_have_no_actions_in_every_game() {
    for kind in GameKind::ALL {
        with_game!(*kind, G => check_seats_beyond_the_table::<G>());
    }
}

fn check_seats_beyond_the_table<G: Game>() {
    for seats in G::SEATS {
        let (mut table, _) = Table::<G>::new(&G::Config::default(), seats, Seed::from_u64(7))
            .unwrap_or_else(|error| panic!("{} seats={seats}: {error}", G::ID));
        let actor = table
            .to_act()
            .iter()
            .next()
            .expect("a new game has a seat to act");
        let action = table.legal_actions(actor)[0].clone();
        for beyond in seats..SeatSet::CAPACITY + 1 {
            let seat = Seat(beyond as u8);
            assert!(
                table.legal_actions(seat).is_empty(),
                "{} seats={seats}: {seat} has listed actions",
                G::ID
            );
            let before = table.clone();
            assert_eq!(
                table.apply(seat, &TableAction::Game(action.clone())),
                Err(PlayError::NotYourTurn),
                "{} seats={seats}: {seat} acted",
                G::ID
            );
            assert!(
                table == before,
                "{} seats={seats}: a refused action changed the table",
                G::ID
            );
        }
    }
}

/// The crashing input itself: a Card Chess table for two asked for the actions of seat 8.
#[test]
fn card_chess_lists_nothing_for_seat_eight() {
    with_game!(GameKind::CardChess, G => {
        let (table, _) = Table::<G>::new(&Default::default(), 2, Seed::from_u64(0x0059_0000_0001_023a))
            .expect("a default Card Chess game");
        assert!(table.legal_actions(Seat(8)).is_empty());
    });
}

/// `apply_actions` found that a decoded Card Chess action could name a spot off the board
/// (index 199 of 25) and `apply` indexed the board with it. Spots now refuse such indices when
/// decoded, in Card Chess and Pigeon Chess alike, so no action, state or stored log holds one.
#[test]
fn spots_off_the_board_do_not_decode() {
    use deckmate_engine::games::{card_chess, pigeon_chess};
    assert!(postcard::from_bytes::<card_chess::Spot>(&[199]).is_err());
    assert!(postcard::from_bytes::<card_chess::Spot>(&[25]).is_err());
    assert!(postcard::from_bytes::<card_chess::Spot>(&[24]).is_ok());
    assert!(serde_json::from_str::<card_chess::Spot>("25").is_err());
    assert!(postcard::from_bytes::<pigeon_chess::Spot>(&[12]).is_err());
    assert!(postcard::from_bytes::<pigeon_chess::Spot>(&[11]).is_ok());
    assert!(serde_json::from_str::<pigeon_chess::Spot>("12").is_err());
}

/// The crashing input: a raw Card Chess action decoded from fuzz bytes and applied. Whatever
/// those bytes decode to now, applying it cannot panic.
#[test]
fn card_chess_raw_action_with_a_spot_off_the_board_is_refused() {
    with_game!(GameKind::CardChess, G => {
        let bytes: [u8; 8] = [2, 199, 28, 199, 28, 13, 113, 136];
        for start in 0..bytes.len() {
            if let Ok(action) = postcard::from_bytes::<<G as Game>::Action>(&bytes[start..]) {
                let (mut table, _) =
                    Table::<G>::new(&Default::default(), 2, Seed::from_u64(1)).expect("a game");
                let seat = table.to_act().iter().next().expect("a seat to act");
                let _ = table.apply(seat, &TableAction::Game(action));
            }
        }
    });
}
