//! Colours, piece kinds (roles), pieces and sets of roles.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A side: White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Color {
    /// White, whose pawns move towards rank 8.
    White,
    /// Black, whose pawns move towards rank 1.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black (for per-colour arrays).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A kind of chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// 0 (pawn) to 5 (king), for per-role arrays (`Role::ALL[r.index()] == r`).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter: P, N, B, R, Q, K.
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role named by a letter of either case (P, N, B, R, Q, K), or `None`.
    pub const fn from_letter(letter: char) -> Option<Role> {
        match letter.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A piece: a role of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece of this colour and role.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.letter(),
            Color::Black => self.role.letter().to_ascii_lowercase(),
        }
    }

    /// The piece named by a FEN letter (upper case White, lower case Black), or `None`.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_letter(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A set of roles, e.g. the roles a pawn may promote to.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoleSet(u8);

impl RoleSet {
    /// No role.
    pub const EMPTY: RoleSet = RoleSet(0);
    /// Queen, rook, bishop and knight: the standard promotion choices.
    pub const STANDARD_PROMOTIONS: RoleSet = RoleSet::EMPTY
        .with(Role::Queen)
        .with(Role::Rook)
        .with(Role::Bishop)
        .with(Role::Knight);

    /// The set with `role` added.
    #[must_use]
    pub const fn with(self, role: Role) -> RoleSet {
        RoleSet(self.0 | 1 << role as u8)
    }

    /// The set with `role` removed.
    #[must_use]
    pub const fn without(self, role: Role) -> RoleSet {
        RoleSet(self.0 & !(1 << role as u8))
    }

    /// Whether `role` is in the set.
    #[inline]
    pub const fn contains(self, role: Role) -> bool {
        self.0 >> role as u8 & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of roles in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The roles of the set, strongest first (king, queen, rook, bishop, knight, pawn).
    pub fn iter(self) -> impl Iterator<Item = Role> {
        Role::ALL
            .into_iter()
            .rev()
            .filter(move |&r| self.contains(r))
    }
}

impl FromIterator<Role> for RoleSet {
    fn from_iter<I: IntoIterator<Item = Role>>(iter: I) -> RoleSet {
        iter.into_iter().fold(RoleSet::EMPTY, RoleSet::with)
    }
}

impl fmt::Debug for RoleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::from_letter(role.letter()), Some(role));
            assert_eq!(Role::ALL[role.index()], role);
            for color in Color::ALL {
                let piece = Piece::new(color, role);
                assert_eq!(Piece::from_fen_char(piece.fen_char()), Some(piece));
            }
        }
        assert_eq!(Role::from_letter('x'), None);
        assert_eq!(Piece::new(Color::Black, Role::Knight).fen_char(), 'n');
        assert_eq!(Color::White.other(), Color::Black);
    }

    #[test]
    fn role_sets() {
        let set = RoleSet::STANDARD_PROMOTIONS;
        assert_eq!(set.len(), 4);
        assert!(!set.contains(Role::Pawn) && !set.contains(Role::King));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        );
        assert!(set.without(Role::Queen).without(Role::Rook).len() == 2);
        assert!(RoleSet::EMPTY.is_empty());
        let collected: RoleSet = [Role::Knight, Role::Knight].into_iter().collect();
        assert_eq!(collected.len(), 1);
    }
}
