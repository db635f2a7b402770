//! [`Table`]: any [`Game`] plus the meta actions every game shares, and timeouts.
//!
//! Resignation is allowed at any time to any seat of a running game. In two-seat games either
//! seat may offer a draw, and the other seat accepts or declines it
//! (docs/rules/conventions.md §4). Under [`Edition::SECOND`] and later:
//!
//! * each seat may offer at most once per turn, its own or the opponent's
//!   ([`Game::turn_number`]); a declined offer may be renewed on a later turn;
//! * an offer stands until the offeree accepts or declines it, or takes a game action that
//!   answers it ([`Game::answers_draw_offer`]): every turn action does, CHUNO's call does not.
//!
//! So between two turns at most two offers can be made, and offers can never keep a game going.
//! Under [`Edition::FIRST`] a declined seat could offer again only after a game action of its
//! own, and any game action of the offeree declined the offer.
//!
//! Before an accepted meta action takes effect, the game may react to it through
//! [`Game::before_meta_action`].
//!
//! # Clocks
//!
//! The crate keeps no time: a server that runs turn clocks (docs/rules/conventions.md §8) asks
//! [`Table::clock_seats`] whose clock runs, and when one runs out it applies
//! [`TableAction::TimeOut`] for that seat and logs it like any other decision, so replays
//! reproduce it (or, where the server moves for a seat whose time ran out,
//! [`TableAction::MovedOnTimeout`] with that move). A timeout is announced by
//! [`MetaEvent::TimedOut`]. After a plain timeout the game either eliminates the seat and
//! plays on ([`Game::time_out`], multi-seat Pile Chess), or the table
//! ends the game ([`EndReason::Timeout`]): every other seat that still has the means to win
//! ([`Game::can_win`]) wins, and the game is drawn when none has. A standing draw offer does
//! not stop the clocks, and a timeout does not answer it; it lapses only when the game ends.

use serde::{Deserialize, Serialize};

use crate::edition::Edition;
use crate::game::{EndReason, Game, Outcome, PlayError, SetupError};
use crate::rng::Seed;
use crate::seat::{Seat, SeatSet, Viewer};

/// An action outside a game's own rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MetaAction {
    /// Give up.
    Resign,
    /// Offer a draw (two-seat games).
    OfferDraw,
    /// Accept the opponent's standing draw offer.
    AcceptDraw,
    /// Decline the opponent's standing draw offer.
    DeclineDraw,
}

/// One seat's decision at a [`Table`]: a meta action, one of the game's own actions, or a
/// timeout the server enters for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableAction<A> {
    /// Resign or handle a draw offer.
    Meta(MetaAction),
    /// A game action.
    Game(A),
    /// The seat's clock ran out; entered by a server that runs clocks, never sent by a player
    /// (docs/rules/conventions.md §8).
    TimeOut,
    /// The seat's clock ran out and the server made this game action for it
    /// (docs/rules/conventions.md §8, item 7): announced as a timeout, then applied as the seat's
    /// own game action would be. Variants are only ever appended, so that stored
    /// logs keep their encoding.
    MovedOnTimeout(A),
}

/// Something that happened at the table, outside the game's own rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MetaEvent {
    /// The seat resigned.
    Resigned(Seat),
    /// The seat offered a draw.
    DrawOffered(Seat),
    /// The seat accepted the draw offer.
    DrawAccepted(Seat),
    /// The seat declined the draw offer, or played on, which declines it.
    DrawDeclined(Seat),
    /// The seat's clock ran out (docs/rules/conventions.md §8).
    TimedOut(Seat),
}

/// An event at a table: from the game, from a meta action, or the end of the game. `E` is the
/// game's event type (full) or its per-viewer view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TableEvent<E> {
    /// A game event.
    Game(E),
    /// A meta event; always public.
    Meta(MetaEvent),
    /// The game ended; always public.
    Ended(Outcome),
}

/// A table and the events its setup produced.
pub type Dealt<G> = (Table<G>, Vec<TableEvent<<G as Game>::Event>>);

/// One entry of a game's action log: who acted and what they did.
pub type LoggedAction<A> = (Seat, TableAction<A>);

/// A running game with resignation, draw offers and timeouts. This is what a session stores.
#[derive(Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Table<G: Game> {
    /// The rules edition the game was dealt under (the game's state keeps it too).
    edition: Edition,
    state: G::State,
    draw_offer: Option<Seat>,
    /// [`Edition::FIRST`]: seats whose offer was declined, until their next game action.
    offer_blocked: SeatSet,
    /// [`Edition::SECOND`] on: the turn in which each seat of a two-seat game last offered.
    last_offer_turn: [Option<u32>; 2],
    ended: Option<Outcome>,
}

impl<G: Game> Clone for Table<G> {
    fn clone(&self) -> Self {
        Table {
            edition: self.edition,
            state: self.state.clone(),
            draw_offer: self.draw_offer,
            offer_blocked: self.offer_blocked,
            last_offer_turn: self.last_offer_turn,
            ended: self.ended.clone(),
        }
    }
}

impl<G: Game> PartialEq for Table<G> {
    fn eq(&self, other: &Self) -> bool {
        self.edition == other.edition
            && self.state == other.state
            && self.draw_offer == other.draw_offer
            && self.offer_blocked == other.offer_blocked
            && self.last_offer_turn == other.last_offer_turn
            && self.ended == other.ended
    }
}

impl<G: Game> Table<G> {
    /// Deals a new game under the latest rules; returns the table and the setup events.
    pub fn new(config: &G::Config, seats: usize, seed: Seed) -> Result<Dealt<G>, SetupError> {
        Table::new_in(config, seats, seed, Edition::LATEST)
    }

    /// Deals a new game under `edition` of the rules.
    pub fn new_in(
        config: &G::Config,
        seats: usize,
        seed: Seed,
        edition: Edition,
    ) -> Result<Dealt<G>, SetupError> {
        if !G::SEATS.contains(&seats) {
            return Err(SetupError::SeatCount {
                min: *G::SEATS.start(),
                max: *G::SEATS.end(),
                requested: seats,
            });
        }
        let (state, events) = G::new_game_in(config, seats, seed, edition)?;
        let table = Table {
            edition,
            state,
            draw_offer: None,
            offer_blocked: SeatSet::EMPTY,
            last_offer_turn: [None; 2],
            ended: None,
        };
        Ok((table, events.into_iter().map(TableEvent::Game).collect()))
    }

    /// Rebuilds a table of the latest edition from its creation parameters and action log.
    pub fn replay<'a>(
        config: &G::Config,
        seats: usize,
        seed: Seed,
        log: impl IntoIterator<Item = &'a LoggedAction<G::Action>>,
    ) -> Result<Self, ReplayError> {
        Table::replay_in(config, seats, seed, Edition::LATEST, log)
    }

    /// Rebuilds a table of `edition` from its creation parameters and action log.
    pub fn replay_in<'a>(
        config: &G::Config,
        seats: usize,
        seed: Seed,
        edition: Edition,
        log: impl IntoIterator<Item = &'a LoggedAction<G::Action>>,
    ) -> Result<Self, ReplayError> {
        let (mut table, _) =
            Table::new_in(config, seats, seed, edition).map_err(ReplayError::Setup)?;
        for (index, (seat, action)) in log.into_iter().enumerate() {
            table
                .apply(*seat, action)
                .map_err(|error| ReplayError::Action { index, error })?;
        }
        Ok(table)
    }

    /// Wraps an existing game state of the latest edition (for tests and tools).
    pub fn from_state(state: G::State) -> Self {
        Table {
            edition: Edition::LATEST,
            state,
            draw_offer: None,
            offer_blocked: SeatSet::EMPTY,
            last_offer_turn: [None; 2],
            ended: None,
        }
    }

    /// This table with its game state replaced by `state` and everything else (edition, draw
    /// offer, an ended game) kept: for tests that put a resampled state in place of the true one
    /// (the bots' no-peek test), not for play.
    #[doc(hidden)]
    pub fn with_state(&self, state: G::State) -> Self {
        Table {
            state,
            ..self.clone()
        }
    }

    /// The rules edition the game was dealt under.
    pub fn edition(&self) -> Edition {
        self.edition
    }

    /// The game state. Authoritative and full of secrets: never send it to a client.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// Number of seats.
    pub fn seat_count(&self) -> usize {
        G::seat_count(&self.state)
    }

    /// The result, once the game has ended by its rules, a resignation, an agreed draw or a
    /// timeout.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.clone().or_else(|| G::outcome(&self.state))
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.ended.is_some() || G::outcome(&self.state).is_some()
    }

    /// Seats that may take a game action now.
    pub fn to_act(&self) -> SeatSet {
        if self.ended.is_some() {
            SeatSet::EMPTY
        } else {
            G::to_act(&self.state)
        }
    }

    /// The seats whose clock runs now (docs/rules/conventions.md §8): none once the game is
    /// over, else [`Game::clock_seats`], the seats whose turn it is. A server that runs clocks
    /// applies [`TableAction::TimeOut`] for a seat of this set whose time is up.
    pub fn clock_seats(&self) -> SeatSet {
        if self.is_over() {
            SeatSet::EMPTY
        } else {
            G::clock_seats(&self.state)
        }
    }

    /// The game actions `seat` may take now; none for a seat number beyond the table's seats.
    pub fn legal_actions(&self, seat: Seat) -> Vec<G::Action> {
        // Games index their per-seat arrays by seat: a seat the table does not have is answered
        // here rather than passed on.
        if self.ended.is_some() || seat.index() >= self.seat_count() {
            Vec::new()
        } else {
            G::legal_actions(&self.state, seat)
        }
    }

    /// The meta actions `seat` may take now.
    pub fn meta_actions(&self, seat: Seat) -> Vec<MetaAction> {
        if self.is_over() || seat.index() >= self.seat_count() {
            return Vec::new();
        }
        // At most three: resign, and accept and decline an offer.
        let mut actions = Vec::with_capacity(3);
        actions.push(MetaAction::Resign);
        if self.seat_count() == 2 {
            match self.draw_offer {
                None if self.may_offer(seat) => actions.push(MetaAction::OfferDraw),
                Some(offerer) if offerer != seat => {
                    actions.push(MetaAction::AcceptDraw);
                    actions.push(MetaAction::DeclineDraw);
                }
                _ => {}
            }
        }
        actions
    }

    /// Whether `seat` may offer a draw when none stands.
    fn may_offer(&self, seat: Seat) -> bool {
        if self.edition.has(Edition::SECOND) {
            self.last_offer_turn[seat.index()] != Some(G::turn_number(&self.state))
        } else {
            !self.offer_blocked.contains(seat)
        }
    }

    /// The seat whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Seat> {
        self.draw_offer
    }

    /// The game as `viewer` may see it.
    pub fn observe(&self, viewer: Viewer) -> G::Observation {
        G::observe(&self.state, viewer)
    }

    /// Applies one decision of `seat`. On error nothing changes.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: &TableAction<G::Action>,
    ) -> Result<Vec<TableEvent<G::Event>>, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if seat.index() >= self.seat_count() {
            return Err(PlayError::NotYourTurn);
        }
        let mut events = match action {
            TableAction::Meta(meta) => self.apply_meta(seat, *meta)?,
            TableAction::Game(game_action) => self.apply_game(seat, game_action, Vec::new())?,
            TableAction::TimeOut => self.apply_timeout(seat)?,
            TableAction::MovedOnTimeout(game_action) => {
                if !self.clock_seats().contains(seat) {
                    return Err(PlayError::NotYourTurn);
                }
                let timed_out = vec![TableEvent::Meta(MetaEvent::TimedOut(seat))];
                self.apply_game(seat, game_action, timed_out)?
            }
        };
        if let Some(outcome) = self.outcome() {
            self.draw_offer = None;
            events.push(TableEvent::Ended(outcome));
        }
        Ok(events)
    }

    /// A game action of `seat`, its events after `events`; it answers a standing draw offer of
    /// the other seat as the edition says (docs/rules/conventions.md §4).
    fn apply_game(
        &mut self,
        seat: Seat,
        game_action: &G::Action,
        mut events: Vec<TableEvent<G::Event>>,
    ) -> Result<Vec<TableEvent<G::Event>>, PlayError> {
        if !G::to_act(&self.state).contains(seat) {
            return Err(PlayError::NotYourTurn);
        }
        let game_events = G::apply(&mut self.state, seat, game_action)?;
        events.extend(game_events.into_iter().map(TableEvent::Game));
        let answers = !self.edition.has(Edition::SECOND) || G::answers_draw_offer(game_action);
        if let Some(offerer) = self.draw_offer.filter(|offerer| *offerer != seat)
            && answers
        {
            self.draw_offer = None;
            if !self.edition.has(Edition::SECOND) {
                self.offer_blocked.insert(offerer);
            }
            events.push(TableEvent::Meta(MetaEvent::DrawDeclined(seat)));
        }
        self.offer_blocked.remove(seat);
        Ok(events)
    }

    fn apply_meta(
        &mut self,
        seat: Seat,
        meta: MetaAction,
    ) -> Result<Vec<TableEvent<G::Event>>, PlayError> {
        if !self.meta_actions(seat).contains(&meta) {
            return Err(PlayError::Illegal(match meta {
                MetaAction::Resign => "resignation is not possible now".into(),
                MetaAction::OfferDraw => "a draw cannot be offered now".into(),
                MetaAction::AcceptDraw | MetaAction::DeclineDraw => {
                    "there is no draw offer to answer".into()
                }
            }));
        }
        // The game reacts first (e.g. a CHUNO penalty): its events precede the meta event.
        let mut events: Vec<_> = G::before_meta_action(&mut self.state, seat, meta)
            .into_iter()
            .map(TableEvent::Game)
            .collect();
        match meta {
            MetaAction::Resign => {
                events.push(TableEvent::Meta(MetaEvent::Resigned(seat)));
                match G::resign(&mut self.state, seat) {
                    Some(game_events) => {
                        events.extend(game_events.into_iter().map(TableEvent::Game))
                    }
                    None => {
                        let mut winners = SeatSet::first(self.seat_count());
                        winners.remove(seat);
                        self.ended = Some(Outcome {
                            winners,
                            reason: EndReason::Resignation,
                            scores: Vec::new(),
                        });
                    }
                }
            }
            MetaAction::OfferDraw => {
                self.draw_offer = Some(seat);
                self.last_offer_turn[seat.index()] = Some(G::turn_number(&self.state));
                events.push(TableEvent::Meta(MetaEvent::DrawOffered(seat)));
            }
            MetaAction::AcceptDraw => {
                self.draw_offer = None;
                self.ended = Some(Outcome::draw(EndReason::DrawAgreed));
                events.push(TableEvent::Meta(MetaEvent::DrawAccepted(seat)));
            }
            MetaAction::DeclineDraw => {
                if let Some(offerer) = self.draw_offer.take()
                    && !self.edition.has(Edition::SECOND)
                {
                    self.offer_blocked.insert(offerer);
                }
                events.push(TableEvent::Meta(MetaEvent::DrawDeclined(seat)));
            }
        }
        Ok(events)
    }

    /// A timeout of `seat` (docs/rules/conventions.md §8): the seat must be on the clock. The
    /// game eliminates the seat ([`Game::time_out`]), or the table ends the game: every other
    /// seat that can still win ([`Game::can_win`]) wins, and the game is drawn when none can.
    /// A standing draw offer is left as it is: [`Table::apply`] clears it if the game ended.
    fn apply_timeout(&mut self, seat: Seat) -> Result<Vec<TableEvent<G::Event>>, PlayError> {
        if !self.clock_seats().contains(seat) {
            return Err(PlayError::NotYourTurn);
        }
        let mut events = vec![TableEvent::Meta(MetaEvent::TimedOut(seat))];
        match G::time_out(&mut self.state, seat) {
            Some(game_events) => events.extend(game_events.into_iter().map(TableEvent::Game)),
            None => {
                let winners: SeatSet = SeatSet::first(self.seat_count())
                    .iter()
                    .filter(|other| *other != seat && G::can_win(&self.state, *other))
                    .collect();
                self.ended = Some(if winners.is_empty() {
                    Outcome::draw(EndReason::Timeout)
                } else {
                    Outcome {
                        winners,
                        reason: EndReason::Timeout,
                        scores: Vec::new(),
                    }
                });
            }
        }
        Ok(events)
    }

    /// `event` as `viewer` may know it.
    pub fn view_event(
        event: &TableEvent<G::Event>,
        viewer: Viewer,
    ) -> Option<TableEvent<G::EventView>> {
        match event {
            TableEvent::Game(game_event) => G::view_event(game_event, viewer).map(TableEvent::Game),
            TableEvent::Meta(meta) => Some(TableEvent::Meta(*meta)),
            TableEvent::Ended(outcome) => Some(TableEvent::Ended(outcome.clone())),
        }
    }

    /// `event` with every detail, for the history of a finished game.
    pub fn reveal_event(event: &TableEvent<G::Event>) -> TableEvent<G::EventView> {
        match event {
            TableEvent::Game(game_event) => TableEvent::Game(G::reveal_event(game_event)),
            TableEvent::Meta(meta) => TableEvent::Meta(*meta),
            TableEvent::Ended(outcome) => TableEvent::Ended(outcome.clone()),
        }
    }
}

/// Why a replay failed: the log does not belong to these creation parameters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The game could not be created.
    #[error("setup failed: {0}")]
    Setup(SetupError),
    /// An action of the log was rejected.
    #[error("action {index} of the log was rejected: {error}")]
    Action {
        /// Position in the log.
        index: usize,
        /// The rejection.
        error: PlayError,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored logs and events keep their postcard encoding: the timeout variants come after
    /// every older one (docs/rules/conventions.md §8).
    #[test]
    fn timeouts_are_encoded_after_every_older_variant() {
        let bytes = |action: &TableAction<u8>| postcard::to_allocvec(action).expect("encodes");
        assert_eq!(bytes(&TableAction::Meta(MetaAction::DeclineDraw)), [0, 3]);
        assert_eq!(bytes(&TableAction::Game(7)), [1, 7]);
        assert_eq!(bytes(&TableAction::TimeOut), [2]);
        assert_eq!(bytes(&TableAction::MovedOnTimeout(7)), [3, 7]);
        let event = |event: &MetaEvent| postcard::to_allocvec(event).expect("encodes");
        assert_eq!(event(&MetaEvent::DrawDeclined(Seat(1))), [3, 1]);
        assert_eq!(event(&MetaEvent::TimedOut(Seat(1))), [4, 1]);
        let reason = |reason: EndReason| postcard::to_allocvec(&reason).expect("encodes");
        assert_eq!(reason(EndReason::InsufficientMaterial), [12]);
        assert_eq!(reason(EndReason::Timeout), [13]);
    }
}
