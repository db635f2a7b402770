//! Perft: counting the leaf nodes of the move tree, the standard check of a move generator.

use super::movegen::{MoveCounter, generate};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::rules::Rules;

/// The number of move sequences of length `depth` from `pos` under `rules`.
///
/// A move that captures a king ends the game (only under
/// [`CheckRule::Ignored`](super::CheckRule::Ignored)): its position has no further moves.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut counter = MoveCounter::default();
            generate(pos, rules, &mut counter);
            counter.0
        }
        _ => {
            let mut moves = MoveList::new();
            generate(pos, rules, &mut moves);
            let mut nodes = 0;
            for mv in &moves {
                let mut child = pos.clone();
                if !child.play(mv).king_captured {
                    nodes += perft(&child, rules, depth - 1);
                }
            }
            nodes
        }
    }
}

/// Perft split by first move: each move with the number of sequences it starts (for finding
/// where two generators disagree).
pub fn perft_divide(pos: &Position, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves(rules)
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            let nodes = if child.play(&mv).king_captured {
                u64::from(depth == 1)
            } else {
                perft(&child, rules, depth - 1)
            };
            (mv, nodes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_adds_up_to_perft() {
        let pos = Position::startpos();
        let rules = Rules::standard();
        let divided = perft_divide(&pos, &rules, 3);
        assert_eq!(divided.len(), 20);
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
        assert_eq!(perft(&pos, &rules, 0), 1);
        assert!(perft_divide(&pos, &rules, 0).is_empty());
    }
}
