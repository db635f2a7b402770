//! Seats, sets of seats and viewers.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's seat, 0-based. Seat 0 moves first by rule (White / Red) unless a game's own rules
/// decide otherwise (docs/rules/conventions.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index, for indexing per-seat arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The other seat of a two-seat game.
    pub fn opponent(self) -> Seat {
        Seat(1 - self.0.min(1))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A set of seats (at most [`SeatSet::CAPACITY`]), ordered by seat index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatSet(u8);

impl SeatSet {
    /// The largest seat count any game may have.
    pub const CAPACITY: usize = 8;

    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set holding only `seat`.
    pub fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// The set of seats `0..count`.
    pub fn first(count: usize) -> SeatSet {
        let count = count.min(Self::CAPACITY);
        SeatSet(((1u16 << count) - 1) as u8)
    }

    /// Adds `seat`.
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    /// Removes `seat`.
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// Whether `seat` is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of seats in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..Self::CAPACITY as u8)
            .filter(move |bit| self.0 & (1 << bit) != 0)
            .map(Seat)
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

/// Who is looking at a game: a seat (which sees its own hidden information) or a spectator
/// (which sees only public information).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// A player, seeing what its seat may know.
    Seat(Seat),
    /// Anyone else, seeing only public information.
    Spectator,
}

impl Viewer {
    /// The viewer's seat, if it has one.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }

    /// Whether this viewer is the given seat.
    pub fn is(self, seat: Seat) -> bool {
        self == Viewer::Seat(seat)
    }

    /// The viewer's own entry of a list kept by seat (its hand, its player record); `None` for
    /// a spectator or a seat the list does not reach.
    pub fn own<T>(self, by_seat: &[T]) -> Option<&T> {
        self.seat().and_then(|seat| by_seat.get(seat.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_set_holds_and_orders_seats() {
        let mut set = SeatSet::EMPTY;
        set.insert(Seat(3));
        set.insert(Seat(0));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![Seat(0), Seat(3)]);
        assert_eq!(set.len(), 2);
        set.remove(Seat(3));
        assert!(set.contains(Seat(0)) && !set.contains(Seat(3)));
        assert_eq!(SeatSet::first(8).len(), 8);
    }

    #[test]
    fn opponent_of_two_seat_game() {
        assert_eq!(Seat(0).opponent(), Seat(1));
        assert_eq!(Seat(1).opponent(), Seat(0));
    }
}
