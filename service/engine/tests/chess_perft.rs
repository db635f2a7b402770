//! Perft of the chess core against the standard published node counts.
//!
//! The default tier runs the start position to depth 5 and the other positions to depth 4 or 5
//! (about 17 million nodes). The deep tier, run with
//! `cargo test --release --test chess_perft -- --ignored`, goes on to the published depths:
//! about 788 million nodes, over six times the start position's depth-6 count.

use deckmate_engine::chess::{Position, Rules, START_FEN, perft};

/// The start position: the original reference table.
const START: (&str, &[u64]) = (
    START_FEN,
    &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
);

/// "Kiwipete": castling, pins, en passant and promotions in one position.
const KIWIPETE: (&str, &[u64]) = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    &[48, 2_039, 97_862, 4_085_603, 193_690_690],
);

/// Position 3: a sparse endgame full of discovered checks and en passant pins.
const POSITION_3: (&str, &[u64]) = (
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    &[14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661],
);

/// Position 4: promotions with capture, castling rights of the side not to move.
const POSITION_4: (&str, &[u64]) = (
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    &[6, 264, 9_467, 422_333, 15_833_292],
);

/// Position 4 with colours swapped: the same counts.
const POSITION_4_MIRRORED: (&str, &[u64]) = (
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    &[6, 264, 9_467, 422_333, 15_833_292],
);

/// Position 5: a promotion-rich middlegame.
const POSITION_5: (&str, &[u64]) = (
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    &[44, 1_486, 62_379, 2_103_487, 89_941_194],
);

/// Position 6: a symmetrical middlegame.
const POSITION_6: (&str, &[u64]) = (
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    &[46, 2_079, 89_890, 3_894_594, 164_075_551],
);

/// Checks depths `first_depth..=max_depth` of one table entry under the standard rules.
fn check(table: (&str, &[u64]), first_depth: usize, max_depth: usize) {
    let (fen, counts) = table;
    let pos = Position::from_fen(fen).expect("valid FEN");
    let rules = Rules::standard();
    for depth in first_depth..=max_depth {
        let nodes = perft(&pos, &rules, depth as u32);
        assert_eq!(nodes, counts[depth - 1], "perft({depth}) of {fen}");
    }
}

#[test]
fn start_position_to_depth_5() {
    check(START, 1, 5);
}

#[test]
fn kiwipete_to_depth_4() {
    check(KIWIPETE, 1, 4);
}

#[test]
fn position_3_to_depth_5() {
    check(POSITION_3, 1, 5);
}

#[test]
fn position_4_to_depth_4() {
    check(POSITION_4, 1, 4);
    check(POSITION_4_MIRRORED, 1, 4);
}

#[test]
fn position_5_to_depth_4() {
    check(POSITION_5, 1, 4);
}

#[test]
fn position_6_to_depth_4() {
    check(POSITION_6, 1, 4);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_start_position() {
    check(START, 6, 6);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_kiwipete() {
    check(KIWIPETE, 5, 5);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_position_3() {
    check(POSITION_3, 6, 7);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_position_4() {
    check(POSITION_4, 5, 5);
    check(POSITION_4_MIRRORED, 5, 5);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_position_5() {
    check(POSITION_5, 5, 5);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_position_6() {
    check(POSITION_6, 5, 5);
}

/// The deep tier covers at least the start position's depth-6 count in total.
#[test]
fn deep_tier_total_is_large_enough() {
    let deep: u64 = [
        START.1[5],
        KIWIPETE.1[4],
        POSITION_3.1[5] + POSITION_3.1[6],
        2 * POSITION_4.1[4],
        POSITION_5.1[4],
        POSITION_6.1[4],
    ]
    .iter()
    .sum();
    assert!(deep >= 119_060_324, "deep tier counts {deep} nodes");
}
