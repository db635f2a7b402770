//! [`Routing`]: which target (server replica) each call of a game goes to when the run has
//! several `--target`s.
//!
//! Game `g` (the `g`-th game the run creates, from 0) is created on target `g mod n`, seat `i`
//! plays it through target `(g + i) mod n`, and its watchers follow it through target
//! `(g + seats) mod n`. Consecutive games therefore start on different replicas, the seats of
//! one game act through different replicas, and the watchers follow through the replica after
//! the last seat's, so that commits and watch deliveries cross replicas. With one target every
//! call goes to it.

/// The routing rule over `targets` targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Routing {
    targets: usize,
}

impl Routing {
    /// The rule over `targets` targets (at least one).
    pub(crate) fn new(targets: usize) -> Routing {
        assert!(targets > 0, "a run needs a target");
        Routing { targets }
    }

    /// The target that creates game `game`.
    pub(crate) fn create(&self, game: u64) -> usize {
        self.wrap(game)
    }

    /// The target seat `seat` of game `game` plays through.
    pub(crate) fn seat(&self, game: u64, seat: usize) -> usize {
        self.wrap(game.wrapping_add(seat as u64))
    }

    /// The target the watchers of game `game`, a game of `seats` seats, follow it through.
    pub(crate) fn watchers(&self, game: u64, seats: usize) -> usize {
        self.wrap(game.wrapping_add(seats as u64))
    }

    /// `value mod targets`.
    fn wrap(&self, value: u64) -> usize {
        // The remainder is below `targets`, a usize, so the cast back cannot truncate.
        (value % self.targets as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_target_takes_every_call() {
        let routing = Routing::new(1);
        for game in [0, 1, 7, u64::MAX] {
            assert_eq!(routing.create(game), 0);
            assert_eq!(routing.seat(game, 3), 0);
            assert_eq!(routing.watchers(game, 2), 0);
        }
    }

    #[test]
    fn games_seats_and_watchers_rotate_over_the_targets() {
        let routing = Routing::new(3);
        let creators: Vec<usize> = (0..6).map(|game| routing.create(game)).collect();
        assert_eq!(creators, [0, 1, 2, 0, 1, 2]);
        // Game 1 of two seats: created on 1, seats on 1 and 2, watchers on 0.
        assert_eq!((routing.seat(1, 0), routing.seat(1, 1)), (1, 2));
        assert_eq!(routing.watchers(1, 2), 0);
        // Game 5 of three seats: seats on 2, 0, 1; watchers back on 2.
        let seats: Vec<usize> = (0..3).map(|seat| routing.seat(5, seat)).collect();
        assert_eq!(seats, [2, 0, 1]);
        assert_eq!(routing.watchers(5, 3), 2);
    }

    #[test]
    fn with_two_targets_the_seats_of_a_duel_act_through_both() {
        let routing = Routing::new(2);
        for game in 0..10 {
            assert_ne!(routing.seat(game, 0), routing.seat(game, 1), "game {game}");
            // Seat 0 acts through the creating replica; the watchers through the same one,
            // so the other seat's commits cross over to them.
            assert_eq!(routing.seat(game, 0), routing.create(game));
            assert_eq!(routing.watchers(game, 2), routing.create(game));
        }
    }

    #[test]
    fn counters_near_the_top_wrap_without_overflow() {
        let routing = Routing::new(4);
        assert_eq!(routing.seat(u64::MAX, 1), 0);
        assert!(routing.watchers(u64::MAX, 5) < 4);
    }
}
