//! The one door through which a bot sees a table: the seat's own view, never the hidden state.

use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};
use crate::table::Table;

/// What a bot seat may use of a table: its observation, its legal actions and samples of the
/// hidden state consistent with what it sees ([`Game::resample`] for its viewer). The table's
/// true state is not reachable through it, so bot code cannot peek by mistake.
pub struct Determinizer<'a, G: Game> {
    table: &'a Table<G>,
    seat: Seat,
}

impl<'a, G: Game> Determinizer<'a, G> {
    /// The view of `seat` at `table`.
    pub fn new(table: &'a Table<G>, seat: Seat) -> Self {
        Determinizer { table, seat }
    }

    /// The bot's seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whether the seat may take a game action now (public: who is to act is seen by all).
    pub fn may_act(&self) -> bool {
        self.seat.index() < self.table.seat_count() && self.table.to_act().contains(self.seat)
    }

    /// The game as the seat sees it.
    pub fn observation(&self) -> G::Observation {
        self.table.observe(Viewer::Seat(self.seat))
    }

    /// The seat's legal game actions, in the game's order.
    pub fn legal_actions(&self) -> Vec<G::Action> {
        self.table.legal_actions(self.seat)
    }

    /// A full state the seat cannot tell apart from the true one, drawn from `rng`. It depends
    /// only on what the seat sees and on `rng`.
    pub fn sample(&self, rng: &mut GameRng) -> G::State {
        G::resample(self.table.state(), Viewer::Seat(self.seat), rng)
    }
}
