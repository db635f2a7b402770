//! The Watch stream limits of one replica besides the server-wide `--max-watchers`:
//! `--max-watchers-per-game` ([`WatchersPerGame`]) and `--max-watchers-per-client`
//! ([`WatchersPerClient`]).
//!
//! Per game, spectators and seat holders are counted apart, so that spectators can never use up
//! the places of the players: the spectators of a game share `--max-watchers-per-game` streams,
//! and each seat (a caller presenting that seat's token) has as many of its own. A seat's
//! allowance is bounded too, so that one leaked or misused token cannot open streams without end;
//! a player needs one stream per device or tab, far fewer than the limit. A game therefore has at
//! most `limit × (seats + 1)` streams on a replica.
//!
//! Per client, every stream a caller has open on this replica counts, whatever the game, so that
//! one client watching many games cannot take all of `--max-watchers` from the others. Watch
//! needs no API key, so the caller is its address ([`super::caller`], `--trusted-proxies`).

use deckmate_engine::Viewer;

use super::caller::Caller;
use super::open_counts::{OpenCounts, Place};
use crate::error::ApiError;

/// One open stream's place under `--max-watchers-per-game`.
pub type WatchSlot = Place<(String, Viewer)>;

/// One open stream's place under `--max-watchers-per-client`.
pub type ClientWatchSlot = Place<Caller>;

/// Open Watch streams per game: its spectators' together, and each seat's.
#[derive(Clone, Debug)]
pub struct WatchersPerGame {
    open: OpenCounts<(String, Viewer)>,
}

impl WatchersPerGame {
    /// At most `limit` open streams for the spectators of a game, and as many for each seat.
    pub fn new(limit: usize) -> WatchersPerGame {
        WatchersPerGame {
            open: OpenCounts::new(limit),
        }
    }

    /// A place for one more stream of game `id` watched by `viewer`, held until the slot is
    /// dropped; refused with `LIMIT_REACHED` when the game's spectators (for a spectator) or the
    /// viewer's seat (for a seat holder) have their maximum. A refusal changes no count.
    pub fn open(&self, id: &str, viewer: Viewer) -> Result<WatchSlot, ApiError> {
        self.open.take((id.to_string(), viewer)).ok_or_else(|| {
            let limit = self.open.limit();
            // The message names only what the caller already knows: its own kind of viewer and
            // the server's limit, never how many others watch.
            ApiError::LimitReached(match viewer {
                Viewer::Spectator => format!(
                    "this game has its maximum of {limit} open spectator watch streams; retry later"
                ),
                Viewer::Seat(_) => format!(
                    "this seat has its maximum of {limit} open watch streams on this game; close \
                     one or retry later"
                ),
            })
        })
    }

    /// Streams open now on game `id` watched by `viewer` (all spectators count as one viewer).
    pub fn count(&self, id: &str, viewer: Viewer) -> usize {
        self.open.count(&(id.to_string(), viewer))
    }
}

/// Open Watch streams per client, over every game.
#[derive(Clone, Debug)]
pub struct WatchersPerClient {
    open: OpenCounts<Caller>,
}

impl WatchersPerClient {
    /// At most `limit` open streams for each client.
    pub fn new(limit: usize) -> WatchersPerClient {
        WatchersPerClient {
            open: OpenCounts::new(limit),
        }
    }

    /// A place for one more stream of `client`, held until the slot is dropped; refused with
    /// `LIMIT_REACHED` when the client has its maximum open. A refusal changes no count.
    pub fn open(&self, client: Caller) -> Result<ClientWatchSlot, ApiError> {
        self.open.take(client).ok_or_else(|| {
            ApiError::LimitReached(format!(
                "this client has its maximum of {} open watch streams on this server; close one \
                 or retry later",
                self.open.limit()
            ))
        })
    }

    /// Streams `client` has open now.
    pub fn count(&self, client: &Caller) -> usize {
        self.open.count(client)
    }
}

#[cfg(test)]
mod tests {
    use deckmate_engine::Seat;

    use super::*;

    const SPECTATOR: Viewer = Viewer::Spectator;

    fn seat(index: u8) -> Viewer {
        Viewer::Seat(Seat(index))
    }

    #[test]
    fn slots_are_per_game_and_given_back() {
        let watchers = WatchersPerGame::new(2);
        let first = watchers.open("a", SPECTATOR).unwrap();
        let _second = watchers.open("a", SPECTATOR).unwrap();
        assert_eq!(
            watchers.open("a", SPECTATOR).unwrap_err().reason(),
            "LIMIT_REACHED"
        );
        let _other = watchers.open("b", SPECTATOR).unwrap();
        drop(first);
        let _again = watchers.open("a", SPECTATOR).unwrap();
        assert_eq!(watchers.count("a", SPECTATOR), 2);
    }

    #[test]
    fn spectators_never_take_the_places_of_seats() {
        let watchers = WatchersPerGame::new(1);
        let _spectator = watchers.open("a", SPECTATOR).unwrap();
        assert!(watchers.open("a", SPECTATOR).is_err());
        // Both seats still get a stream each with the spectators' places all taken.
        let _seat0 = watchers.open("a", seat(0)).unwrap();
        let _seat1 = watchers.open("a", seat(1)).unwrap();
        assert_eq!(watchers.count("a", SPECTATOR), 1);
        assert_eq!(watchers.count("a", seat(0)), 1);
    }

    #[test]
    fn each_seat_is_bounded_on_its_own() {
        let watchers = WatchersPerGame::new(2);
        let _first = watchers.open("a", seat(0)).unwrap();
        let _second = watchers.open("a", seat(0)).unwrap();
        let refused = watchers.open("a", seat(0)).unwrap_err();
        assert_eq!(refused.reason(), "LIMIT_REACHED");
        assert!(refused.to_string().contains("seat"), "{refused}");
        // The seat's streams leave the other seat's and the spectators' places alone.
        let _other_seat = watchers.open("a", seat(1)).unwrap();
        let _spectator = watchers.open("a", SPECTATOR).unwrap();
        // The same seat of another game is another count.
        let _elsewhere = watchers.open("b", seat(0)).unwrap();
    }

    #[test]
    fn a_refusal_changes_no_count_and_the_table_empties() {
        let watchers = WatchersPerGame::new(1);
        let slot = watchers.open("a", seat(0)).unwrap();
        for _ in 0..3 {
            assert!(watchers.open("a", seat(0)).is_err());
        }
        assert_eq!(watchers.count("a", seat(0)), 1);
        drop(slot);
        assert_eq!(watchers.count("a", seat(0)), 0);
        assert_eq!(watchers.open.keys(), 0);
    }

    #[test]
    fn each_client_is_bounded_over_every_game() {
        let clients = WatchersPerClient::new(2);
        let client = |address: &str| Caller::Address(address.parse().unwrap());
        let first = clients.open(client("10.0.0.1")).unwrap();
        let _second = clients.open(client("10.0.0.1")).unwrap();
        let refused = clients.open(client("10.0.0.1")).unwrap_err();
        assert_eq!(refused.reason(), "LIMIT_REACHED");
        assert!(refused.to_string().contains("client"), "{refused}");
        assert_eq!(clients.count(&client("10.0.0.1")), 2);
        // Another client has places of its own.
        let _other = clients.open(client("10.0.0.2")).unwrap();
        drop(first);
        let _again = clients.open(client("10.0.0.1")).unwrap();
        assert_eq!(clients.count(&client("10.0.0.1")), 2);
    }
}
