//! Rook and bishop attacks by magic multiplication.
//!
//! For each square, the occupancy of the squares that can block the slider (its "relevant
//! mask") is multiplied by a per-square factor; the top bits of the product index a table of
//! precomputed attack sets. The factors below were found by [`find_factor`] (a search with a
//! fixed-seed generator); filling the tables checks each one, and a factor that did not fit
//! would be searched for again, so the tables are always right.

use super::attacks::{DIRECTIONS, ray_attacks};
use super::bitboard::Bitboard;
use super::square::Square;
use std::sync::OnceLock;

/// One square's lookup parameters.
#[derive(Clone, Copy, Default)]
struct Entry {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: u32,
}

impl Entry {
    #[inline]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset as usize
            + ((occupied.0 & self.mask).wrapping_mul(self.factor) >> self.shift) as usize
    }
}

/// Rook factors, a1 to h8.
const ROOK_FACTORS: [u64; 64] = [
    0x1080_0040_0880_1020,
    0x0840_0920_02c0_3000,
    0x1900_2000_1040_0900,
    0x0880_1000_0800_0480,
    0x4200_1004_2008_0200,
    0x8100_0201_0008_0400,
    0x0200_0401_1088_6200,
    0x0200_0080_4022_0411,
    0x0404_8000_8440_0220,
    0x0000_4010_0040_2000,
    0x0086_0010_8122_0440,
    0x0408_8008_0010_0280,
    0x000a_0012_0104_0820,
    0x8848_8002_0084_0080,
    0x4001_0001_0004_0200,
    0x0442_0001_0210_5084,
    0x9080_0100_2080_4100,
    0x0040_4040_0020_1009,
    0x0000_8080_1000_2009,
    0x2200_0900_21d0_0100,
    0x0008_0080_0804_0080,
    0x0004_0040_0201_0040,
    0x0011_0400_0801_5042,
    0x0000_0a00_0176_8104,
    0x0000_8000_8020_4009,
    0x2010_0041_4000_2001,
    0x9800_2002_8010_0080,
    0x1000_1000_8008_0080,
    0x0050_5005_0008_0100,
    0x0000_0200_8004_0080,
    0x0c10_0104_0042_0810,
    0x1040_0082_0000_5104,
    0x0180_8240_0880_04a0,
    0x0882_8040_0480_2000,
    0x0880_4020_0100_1100,
    0x2000_2104_0900_1000,
    0x2000_4801_3100_1500,
    0x0000_8004_0080_0200,
    0x0000_0238_0c00_1003,
    0x4600_0848_8200_0431,
    0x0080_0020_0050_4000,
    0x0300_5000_2000_4002,
    0x0040_4082_0022_0011,
    0x0010_0400_0800_4040,
    0x0000_0800_0400_8080,
    0x0010_0400_0200_8080,
    0x2012_0048_8102_0004,
    0x8300_8424_4482_0011,
    0x0088_4038_8201_0200,
    0x0820_4000_8021_0100,
    0x0110_9100_40a0_0300,
    0x0801_1002_8008_0480,
    0x0242_0090_0820_0600,
    0x1002_0004_8950_0200,
    0x0040_8002_0001_0080,
    0x0091_8000_4100_0080,
    0x0000_2093_0048_8001,
    0x04c1_0024_1482_4001,
    0x0200_2000_0b00_1041,
    0x7000_1000_0420_0901,
    0x8002_0020_0410_0802,
    0x3001_0002_084c_0007,
    0x0888_2218_0081_3004,
    0x4000_0028_4084_0112,
];

/// Bishop factors, a1 to h8.
const BISHOP_FACTORS: [u64; 64] = [
    0x20c0_0909_0106_1081,
    0x0024_0400_9403_0104,
    0x8210_8102_0029_0200,
    0x0011_0404_8462_0000,
    0x0081_1040_0222_1000,
    0x0009_0120_1100_1350,
    0x0081_0108_0240_0380,
    0x0000_4202_1001_0408,
    0x0008_1050_0228_0050,
    0x0001_0284_8404_0044,
    0x2a00_8808_1040_8804,
    0x7020_0222_8200_0100,
    0x0084_0404_2010_0a50,
    0x0004_0101_0840_e000,
    0x2020_0202_1042_0888,
    0x0008_0842_0201_2010,
    0x2010_4008_1001_8800,
    0x0445_1220_0802_0840,
    0x0804_1008_0800_2008,
    0x0008_0021_0411_0100,
    0x0061_0058_2008_0800,
    0x2001_0002_0082_0100,
    0x480c_2100_8401_0800,
    0x3004_4425_0048_0420,
    0x1010_1022_4004_8100,
    0x0018_2009_0842_20a3,
    0x8803_090a_1000_4205,
    0x0208_0800_4020_2020,
    0x000c_0440_8401_0040,
    0x00a1_0100_0200_4106,
    0x6008_2100_2064_0202,
    0x1600_9021_1286_0801,
    0x0004_2008_c122_0200,
    0x010c_0420_0244_0140,
    0x5022_0802_0004_0820,
    0x0402_0040_4294_0100,
    0x0860_1084_0000_8020,
    0x000c_0800_2202_1000,
    0x0264_0806_5282_2100,
    0x4005_0312_2101_0401,
    0x0004_5024_1000_8400,
    0x0005_00b0_10a2_0400,
    0x0415_0940_5008_0800,
    0x0800_0020_1800_a104,
    0x4022_a803_0400_0110,
    0x4012_1408_0202_8020,
    0x4020_0104_0101_00a0,
    0x1281_0806_008b_0c41,
    0x0020_4410_0808_0000,
    0x2002_1200_8404_5420,
    0x0704_0200_6208_0002,
    0x0000_0010_8404_0001,
    0x0322_2008_9124_0200,
    0xf040_2002_1002_4800,
    0x0140_8248_3200_8042,
    0x0002_1002_0a00_4602,
    0x0083_0428_0514_1020,
    0x002c_1200_9a01_1000,
    0x0041_a000_4414_0400,
    0x0000_4004_020a_0202,
    0x0000_1400_1002_0210,
    0x2864_1608_1101_2200,
    0x2060_0808_4108_2a17,
    0xa010_0411_0800_3100,
];

struct Tables {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    attacks: Vec<Bitboard>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// Builds the sliding-piece attack tables now rather than on the first move generation, so that
/// a server pays for them (some milliseconds) at start-up, not in its first chess call.
pub fn prepare_tables() {
    tables();
}

#[inline]
fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

/// Rook attacks from `sq` given the occupancy.
#[inline]
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    t.attacks[t.rook[sq.index() as usize].index(occupied)]
}

/// Bishop attacks from `sq` given the occupancy.
#[inline]
pub(crate) fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    t.attacks[t.bishop[sq.index() as usize].index(occupied)]
}

/// A small deterministic generator (xorshift64*), enough to draw candidate factors.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Candidates with few set bits succeed far more often.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// The squares whose occupancy can change the slider's attacks: each ray without its last
/// square (a piece on the board's edge blocks nothing further).
fn relevant_mask(sq: Square, directions: &[(i8, i8)]) -> u64 {
    let mut mask = 0u64;
    for &(df, dr) in directions {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next.index();
            cur = next;
        }
    }
    mask
}

/// Every subset of `mask` (carry-rippler enumeration) with the slider's true attack set.
fn occupancies(sq: Square, mask: u64, directions: &[(i8, i8)]) -> Vec<(u64, Bitboard)> {
    let mut all = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        all.push((subset, ray_attacks(sq, Bitboard(subset), directions)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return all;
        }
    }
}

/// The table `factor` yields for these occupancies, or `None` if two occupancies with
/// different attacks collide on one slot.
fn fill(occupancies: &[(u64, Bitboard)], factor: u64, shift: u32) -> Option<Vec<Bitboard>> {
    let mut slots: Vec<Option<Bitboard>> = vec![None; 1 << (64 - shift)];
    for &(occ, att) in occupancies {
        let slot = &mut slots[(occ.wrapping_mul(factor) >> shift) as usize];
        match slot {
            Some(existing) if *existing != att => return None,
            _ => *slot = Some(att),
        }
    }
    Some(slots.into_iter().map(Option::unwrap_or_default).collect())
}

/// Searches for a factor that maps the occupancies without harmful collisions.
fn find_factor(occupancies: &[(u64, Bitboard)], mask: u64, shift: u32, rng: &mut Xorshift) -> u64 {
    let size = 1usize << (64 - shift);
    let mut slots = vec![Bitboard::EMPTY; size];
    let mut stamps = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let factor = rng.sparse();
        // Factors that spread the mask's bits too little into the top byte rarely work.
        if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let fits = occupancies.iter().all(|&(occ, att)| {
            let i = (occ.wrapping_mul(factor) >> shift) as usize;
            if stamps[i] == attempt {
                slots[i] == att
            } else {
                stamps[i] = attempt;
                slots[i] = att;
                true
            }
        });
        if fits {
            return factor;
        }
    }
}

/// Builds one square's entry from its recorded factor (searching anew only if it does not fit)
/// and appends its attack table to `attacks`.
fn entry(sq: Square, directions: &[(i8, i8)], factor: u64, attacks: &mut Vec<Bitboard>) -> Entry {
    let mask = relevant_mask(sq, directions);
    let shift = 64 - mask.count_ones();
    let occupancies = occupancies(sq, mask, directions);
    let (factor, table) = match fill(&occupancies, factor, shift) {
        Some(table) => (factor, table),
        None => {
            let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15 ^ u64::from(sq.index()));
            let factor = find_factor(&occupancies, mask, shift, &mut rng);
            let table = fill(&occupancies, factor, shift).expect("a factor that was just checked");
            (factor, table)
        }
    };
    let offset = attacks.len() as u32;
    attacks.extend(table);
    Entry {
        mask,
        factor,
        shift,
        offset,
    }
}

fn build() -> Tables {
    let mut attacks = Vec::with_capacity(102_400 + 5_248);
    let mut rook = [Entry::default(); 64];
    let mut bishop = [Entry::default(); 64];
    for sq in Square::all() {
        let i = sq.index() as usize;
        rook[i] = entry(sq, &DIRECTIONS[..4], ROOK_FACTORS[i], &mut attacks);
        bishop[i] = entry(sq, &DIRECTIONS[4..], BISHOP_FACTORS[i], &mut attacks);
    }
    Tables {
        rook,
        bishop,
        attacks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepared_tables_are_the_ones_move_generation_reads() {
        prepare_tables();
        let prepared: *const Tables = TABLES.get().expect("built");
        assert!(std::ptr::eq(prepared, tables()));
    }

    /// Every square and a spread of occupancies agree with the slow ray walk.
    #[test]
    fn magic_lookup_matches_ray_walk() {
        let mut rng = Xorshift(12345);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = Bitboard(rng.next() & rng.next());
                assert_eq!(
                    rook_attacks(sq, occ),
                    ray_attacks(sq, occ, &DIRECTIONS[..4]),
                    "rook on {sq}"
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    ray_attacks(sq, occ, &DIRECTIONS[4..]),
                    "bishop on {sq}"
                );
            }
        }
    }

    #[test]
    fn relevant_masks_have_the_known_sizes() {
        let rook_bits: u32 = Square::all()
            .map(|s| relevant_mask(s, &DIRECTIONS[..4]).count_ones())
            .map(|b| 1 << b)
            .sum();
        let bishop_bits: u32 = Square::all()
            .map(|s| relevant_mask(s, &DIRECTIONS[4..]).count_ones())
            .map(|b| 1 << b)
            .sum();
        assert_eq!(rook_bits, 102_400);
        assert_eq!(bishop_bits, 5_248);
    }

    #[test]
    fn recorded_factors_fit() {
        for sq in Square::all() {
            let i = sq.index() as usize;
            for (directions, factor) in [
                (&DIRECTIONS[..4], ROOK_FACTORS[i]),
                (&DIRECTIONS[4..], BISHOP_FACTORS[i]),
            ] {
                let mask = relevant_mask(sq, directions);
                let occupancies = occupancies(sq, mask, directions);
                assert!(
                    fill(&occupancies, factor, 64 - mask.count_ones()).is_some(),
                    "{sq}"
                );
            }
        }
    }

    #[test]
    fn search_finds_working_factors() {
        let mut rng = Xorshift(7);
        for sq in [Square::A1, Square::new(28).unwrap(), Square::H8] {
            for directions in [&DIRECTIONS[..4], &DIRECTIONS[4..]] {
                let mask = relevant_mask(sq, directions);
                let shift = 64 - mask.count_ones();
                let occupancies = occupancies(sq, mask, directions);
                let factor = find_factor(&occupancies, mask, shift, &mut rng);
                assert!(fill(&occupancies, factor, shift).is_some());
                // A factor of zero maps everything to one slot, which cannot work.
                assert!(fill(&occupancies, 0, shift).is_none());
            }
        }
    }
}
