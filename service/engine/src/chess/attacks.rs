//! Attack sets: which squares a piece on a square attacks.
//!
//! Knight, king and pawn attacks, and the "between" and "line" relations used for pins and
//! checks, are tables computed at compile time. Rook and bishop attacks depend on the
//! occupancy and come from the magic tables in `magic.rs`.

use super::bitboard::Bitboard;
use super::magic;
use super::piece::{Color, Role};
use super::square::Square;
use super::steps::{KING_STEPS, KNIGHT_STEPS};

/// The eight ray directions as (file step, rank step); the first four are rook directions.
pub(crate) const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// The square one step away, as an index, or -1 off the board.
const fn step(sq: usize, (df, dr): (i8, i8)) -> i32 {
    let file = (sq % 8) as i32 + df as i32;
    let rank = (sq / 8) as i32 + dr as i32;
    if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
        rank * 8 + file
    } else {
        -1
    }
}

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let to = step(sq, steps[i]);
            if to >= 0 {
                table[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[u64; 64]; 2] {
    [
        leaper_table(&[(-1, 1), (1, 1)]),
        leaper_table(&[(-1, -1), (1, -1)]),
    ]
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
const fn between_table() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let mut passed = 0u64;
            let mut to = step(sq, DIRECTIONS[d]);
            while to >= 0 {
                table[sq][to as usize] = passed;
                passed |= 1 << to;
                to = step(to as usize, DIRECTIONS[d]);
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// `LINE[a][b]`: the whole rank, file or diagonal through `a` and `b` (both included) when they
/// share one; empty otherwise.
const fn line_table() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            // Directions come in opposite pairs (d, d + 1).
            let mut line = 1u64 << sq;
            let mut half = 0;
            while half < 2 {
                let mut to = step(sq, DIRECTIONS[d + half]);
                while to >= 0 {
                    line |= 1 << to;
                    to = step(to as usize, DIRECTIONS[d + half]);
                }
                half += 1;
            }
            let mut half = 0;
            while half < 2 {
                let mut to = step(sq, DIRECTIONS[d + half]);
                while to >= 0 {
                    table[sq][to as usize] = line;
                    to = step(to as usize, DIRECTIONS[d + half]);
                }
                half += 1;
            }
            d += 2;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [u64; 64] = leaper_table(&KING_STEPS);
static PAWN: [[u64; 64]; 2] = pawn_table();
static BETWEEN: [[u64; 64]; 64] = between_table();
static LINE: [[u64; 64]; 64] = line_table();

/// The squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index() as usize])
}

/// The squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index() as usize])
}

/// The squares a pawn of `color` on `sq` attacks (its diagonal capture squares).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index() as usize])
}

/// The squares a rook on `sq` attacks when the squares in `occupied` are taken.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::rook_attacks(sq, occupied)
}

/// The squares a bishop on `sq` attacks when the squares in `occupied` are taken.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::bishop_attacks(sq, occupied)
}

/// The squares a queen on `sq` attacks when the squares in `occupied` are taken.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares a piece of `role` and `color` on `sq` attacks given the occupancy.
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` on their shared line (empty if none).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() as usize][b.index() as usize])
}

/// The full line through `a` and `b` (empty if they share no rank, file or diagonal).
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() as usize][b.index() as usize])
}

/// Walks the rays from `sq` in the given directions, stopping at (and including) the first
/// taken square. Slow; used to fill the magic tables and to check them.
pub(crate) fn ray_attacks(sq: Square, occupied: Bitboard, directions: &[(i8, i8)]) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    for &(df, dr) in directions {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            result = result.with(next);
            if occupied.contains(next) {
                break;
            }
            cur = next;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().map(|n| sq(n)).collect()
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq("a1")), set(&["b3", "c2"]));
        assert_eq!(knight_attacks(sq("e4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")), set(&["g8", "g7", "h7"]));
        assert_eq!(pawn_attacks(Color::White, sq("a2")), set(&["b3"]));
        assert_eq!(pawn_attacks(Color::Black, sq("e5")), set(&["d4", "f4"]));
        assert_eq!(pawn_attacks(Color::White, sq("e8")), Bitboard::EMPTY);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")), set(&["b2", "c3"]));
        assert_eq!(between(sq("d4"), sq("a1")), set(&["b2", "c3"]));
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(between(sq("e1"), sq("e2")), Bitboard::EMPTY);
        assert_eq!(line(sq("b2"), sq("c3")).count(), 8);
        assert!(line(sq("b2"), sq("c3")).contains(sq("a1")));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("e4"), sq("e7")), Bitboard::FILE_A.shift(4));
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occupied = set(&["e6", "c4", "e2"]);
        assert_eq!(
            rook_attacks(sq("e4"), occupied),
            set(&["e5", "e6", "e3", "e2", "d4", "c4", "f4", "g4", "h4"])
        );
        assert_eq!(bishop_attacks(sq("a1"), set(&["c3"])), set(&["b2", "c3"]));
        assert_eq!(queen_attacks(sq("d1"), Bitboard::EMPTY).count(), 21);
    }
}
