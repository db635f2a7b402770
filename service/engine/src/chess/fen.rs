//! Forsyth–Edwards Notation: reading and writing positions.

use super::castling::{CastleSide, CastlingRights};
use super::piece::{Color, Piece};
use super::position::{PlaceError, Position};
use super::square::Square;

/// Why a FEN string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The board field is malformed (not eight ranks of eight squares, or an unknown letter).
    #[error("bad board field in FEN")]
    Board,
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TwoKings(Color),
    /// The side-to-move field is neither `w` nor `b`.
    #[error("bad side-to-move field in FEN")]
    SideToMove,
    /// The castling field is malformed, or names a right whose king or rook is not home.
    #[error("bad castling field in FEN")]
    Castling,
    /// The en passant field is malformed or on the wrong rank for the side to move.
    #[error("bad en passant field in FEN")]
    EnPassant,
    /// A clock field is not a number.
    #[error("bad clock field in FEN")]
    Clock,
    /// A field is missing, or there are more than six.
    #[error("FEN has the wrong number of fields")]
    Fields,
}

/// The FEN of the start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// Reads a FEN string. The clock fields may be left out (then 0 and 1). Kings are
    /// optional; at most one per side.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::Fields);
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::SideToMove),
        };
        let mut pos = Position::empty(turn);
        read_board(&mut pos, fields[0])?;
        pos.castling = read_castling(&pos, fields[2])?;
        pos.ep = read_en_passant(fields[3], turn)?;
        let clock = |i: usize, default: u32| {
            fields.get(i).map_or(Ok(default), |f| {
                f.parse::<u32>().map_err(|_| FenError::Clock)
            })
        };
        pos.halfmove = clock(4, 0)?;
        pos.fullmove = clock(5, 1)?.max(1);
        Ok(pos)
    }

    /// The position as a FEN string. Views carry it, so it is written straight into one
    /// string rather than through the formatting machinery.
    pub fn fen(&self) -> String {
        let mut text = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut gap = 0;
            for file in 0..8u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    Some(piece) => {
                        if gap > 0 {
                            text.push(char::from(b'0' + gap));
                            gap = 0;
                        }
                        text.push(piece.fen_char());
                    }
                    None => gap += 1,
                }
            }
            if gap > 0 {
                text.push(char::from(b'0' + gap));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        text.push(self.turn.letter());
        text.push(' ');
        self.castling.write_fen(&mut text);
        text.push(' ');
        match self.ep {
            Some(sq) => text.push_str(sq.notation().as_str()),
            None => text.push('-'),
        }
        text.push(' ');
        push_decimal(&mut text, self.halfmove);
        text.push(' ');
        push_decimal(&mut text, self.fullmove);
        text
    }
}

/// Appends `number` in decimal.
fn push_decimal(text: &mut String, number: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut rest = number;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    text.extend(digits[start..].iter().copied().map(char::from));
}

fn read_board(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board);
    }
    for (rank_text, rank) in ranks.iter().zip((0..8u8).rev()) {
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(gap) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += gap as u8;
            } else {
                let piece = Piece::from_fen_char(c).ok_or(FenError::Board)?;
                let sq = Square::from_coords(file, rank).ok_or(FenError::Board)?;
                pos.place(piece, sq).map_err(|e| match e {
                    PlaceError::SecondKing(color) => FenError::TwoKings(color),
                    PlaceError::Occupied(_) => FenError::Board,
                })?;
                file += 1;
            }
            if file > 8 {
                return Err(FenError::Board);
            }
        }
        if file != 8 {
            return Err(FenError::Board);
        }
    }
    Ok(())
}

fn read_castling(pos: &Position, field: &str) -> Result<CastlingRights, FenError> {
    if field == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for c in field.chars() {
        let (color, side) = match c {
            'K' => (Color::White, CastleSide::King),
            'Q' => (Color::White, CastleSide::Queen),
            'k' => (Color::Black, CastleSide::King),
            'q' => (Color::Black, CastleSide::Queen),
            _ => return Err(FenError::Castling),
        };
        if rights.has(color, side) || !pos.castling_pieces_home(color, side) {
            return Err(FenError::Castling);
        }
        rights = rights.with(color, side);
    }
    Ok(rights)
}

fn read_en_passant(field: &str, turn: Color) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq: Square = field.parse().map_err(|_| FenError::EnPassant)?;
    // The square a pawn of the side that just moved passed over: rank 3 after a White double
    // step (Black to move), rank 6 after a Black one.
    let expected_rank = match turn {
        Color::White => 5,
        Color::Black => 2,
    };
    if sq.rank() != expected_rank {
        return Err(FenError::EnPassant);
    }
    Ok(Some(sq))
}

impl From<Position> for String {
    fn from(pos: Position) -> String {
        pos.fen()
    }
}

impl TryFrom<String> for Position {
    type Error = FenError;
    fn try_from(fen: String) -> Result<Position, FenError> {
        Position::from_fen(&fen)
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.fen(), START_FEN);
    }

    #[test]
    fn positions_round_trip() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pppp1ppp/8/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3",
            "8/8/8/8/8/8/8/8 b - - 12 40",
            "4q3/8/8/8/8/8/8/3Q4 w - - 0 1",
            "k7/8/8/8/8/8/8/7K w - - 100 4294967295",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn clocks_are_optional() {
        let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (0, 1));
    }

    #[test]
    fn rejects_malformed() {
        let bad = [
            ("8/8/8/8/8/8/8 w - - 0 1", FenError::Board),
            ("9/8/8/8/8/8/8/8 w - - 0 1", FenError::Board),
            ("7/8/8/8/8/8/8/8 w - - 0 1", FenError::Board),
            ("ppppppppp/8/8/8/8/8/8/8 w - - 0 1", FenError::Board),
            ("x7/8/8/8/8/8/8/8 w - - 0 1", FenError::Board),
            (
                "KK6/8/8/8/8/8/8/8 w - - 0 1",
                FenError::TwoKings(Color::White),
            ),
            ("8/8/8/8/8/8/8/8 x - - 0 1", FenError::SideToMove),
            ("8/8/8/8/8/8/8/8 w K - 0 1", FenError::Castling),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", FenError::Castling),
            ("8/8/8/8/8/8/8/8 w - e3 0 1", FenError::EnPassant),
            ("8/8/8/8/8/8/8/8 w - z9 0 1", FenError::EnPassant),
            ("8/8/8/8/8/8/8/8 w - - x 1", FenError::Clock),
            ("8/8/8/8/8/8/8/8 w", FenError::Fields),
        ];
        for (fen, err) in bad {
            assert_eq!(Position::from_fen(fen), Err(err), "{fen}");
        }
    }

    #[test]
    fn serde_uses_fen() {
        let pos = Position::startpos();
        let json = serde_json::to_string(&pos).unwrap();
        assert_eq!(json, format!("\"{START_FEN}\""));
        assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
        assert!(serde_json::from_str::<Position>("\"nonsense\"").is_err());
    }
}
