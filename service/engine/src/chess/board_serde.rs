//! A board of 64 squares as eight rank strings, for serializing observations readably: rank 8
//! first, file a first in each string, a piece as its FEN letter and an empty square as `.`.

use serde::Serializer;
use serde::ser::SerializeSeq;

use super::piece::Piece;

/// Serializes `board` (a1 first, h8 last) as `["rnbqkbnr", …, "RNBQKBNR"]`.
pub fn serialize_ranks<S: Serializer>(
    board: &[Option<Piece>; 64],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut ranks = serializer.serialize_seq(Some(8))?;
    for rank in (0..8).rev() {
        let row: String = board[rank * 8..rank * 8 + 8]
            .iter()
            .map(|square| square.map_or('.', Piece::fen_char))
            .collect();
        ranks.serialize_element(&row)?;
    }
    ranks.end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Color, Role};

    #[derive(serde::Serialize)]
    struct Board(#[serde(serialize_with = "serialize_ranks")] [Option<Piece>; 64]);

    #[test]
    fn ranks_run_from_eight_to_one() {
        let mut board = [None; 64];
        board[4] = Some(Piece {
            color: Color::White,
            role: Role::King,
        });
        board[60] = Some(Piece {
            color: Color::Black,
            role: Role::King,
        });
        let json = serde_json::to_string(&Board(board)).unwrap();
        assert_eq!(
            json,
            r#"["....k...","........","........","........","........","........","........","....K..."]"#
        );
    }
}
