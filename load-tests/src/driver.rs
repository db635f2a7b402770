//! [`GameInPlay`]: one game driven by one worker, the way a client plays: observe as a seat
//! that may act, send one of its listed actions with the version it observed, and continue from
//! the actor's new view that `Act` returns.
//!
//! Only game actions are sent (no resignations or draw offers), so every game runs to the end
//! its rules give it. Each answer is checked against the API's promises: versions grow by one
//! per action, a running game always has a seat with a legal action, and `Act` returns the
//! actor's view; a broken promise is counted as a client-check error.
//!
//! With several targets, the game is created on one and each seat plays through the target the
//! routing rule ([`crate::routing`]) gives it.
//!
//! Games are created through the SDK; their turns (`Observe`, `Act`) are made with
//! [`crate::lean_calls`], which decodes only the fields a turn reads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use deckmate::{CreateOptions, SeatHandle, pb};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use tokio::time::Instant;

use crate::client_seeds;
use crate::connect::WorkerConnections;
use crate::errors::{ClientFault, ErrorKey};
use crate::game_quotas;
use crate::lean_calls::{TurnCalls, TurnView};
use crate::plan::{GamePlan, NextGame};
use crate::recorder::{Method, Recorder};
use crate::routing::Routing;

/// Actions after which a game that has not ended is abandoned as broken. The games' own caps
/// end every game long before.
const MAX_PLIES: u64 = 100_000;

/// What one step of a game did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// An action was accepted and the game goes on.
    Acted,
    /// The game has finished.
    Finished,
    /// A call failed or a check broke (already recorded); the game is abandoned.
    Failed,
}

/// When each version's action was sent, for measuring how long watchers wait for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct SentTimes {
    sent: Arc<Mutex<HashMap<u64, Instant>>>,
}

impl SentTimes {
    /// Notes that the action meant to make `version` was sent at `at`.
    pub(crate) fn mark(&self, version: u64, at: Instant) {
        self.lock().insert(version, at);
    }

    /// When the action that made `version` was sent.
    pub(crate) fn sent_at(&self, version: u64) -> Option<Instant> {
        self.lock().get(&version).copied()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Instant>> {
        // A panic elsewhere cannot leave the map half-written: recover it.
        self.sent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A game created by this load generator and played by one worker.
#[derive(Debug)]
pub(crate) struct GameInPlay {
    /// The variant's index in the plan.
    pub(crate) variant: usize,
    /// The game's number in the run, for the routing rule.
    number: u64,
    game: deckmate::Game,
    /// Each seat's turn calls, on the target the routing rule gives the seat.
    turns: Vec<TurnCalls>,
    /// The seat whose view the next action is chosen from, and that view.
    view: Option<(usize, TurnView)>,
    /// The game's version as this driver knows it.
    version: u64,
    plies: u64,
    finished: bool,
}

impl GameInPlay {
    /// Creates game `next` of `plan` through the target the routing rule gives it, with each
    /// seat's handle on its own target. A refused client seed or an unexpected refusal for a game
    /// quota stops the run: every other game would be refused the same way
    /// ([`crate::client_seeds`], [`crate::game_quotas`]).
    pub(crate) async fn create(
        connections: &WorkerConnections,
        recorder: &mut Recorder,
        plan: &GamePlan,
        next: NextGame,
    ) -> Option<GameInPlay> {
        let NextGame { variant, number } = next;
        let planned = plan.variant(variant);
        let routing = Routing::new(connections.targets());
        let client = &connections.to(routing.create(number)).client;
        let seed = plan.seed_of(number);
        let created = client.create_game(
            planned.config.clone(),
            planned.seats,
            CreateOptions {
                seed,
                ..CreateOptions::default()
            },
        );
        let mut seed_refused = false;
        let mut quota_refusal = None;
        let created = async {
            let created = created.await;
            if let Err(error) = &created {
                seed_refused = seed.is_some() && client_seeds::is_refusal(error);
                quota_refusal = game_quotas::is_refusal(error).then(|| ErrorKey::from_sdk(error));
            }
            created
        };
        let created = recorder.sdk(Method::CreateGame, created).await;
        // Every other game would be refused the same way: stop and say why, once.
        if seed_refused {
            recorder.stop_because(client_seeds::GAME_SEEDS_HINT);
        }
        if quota_refusal.is_some_and(|key| !recorder.expects(&key)) {
            recorder.stop_because(plan.quota_hint().clone());
        }
        let mut game = created?;
        if game.seats.len() != planned.seats as usize || game.version != 0 {
            recorder.fault(ClientFault::VersionSkew);
            return None;
        }
        if connections.targets() > 1 {
            game.seats = route_seats(connections, routing, number, &game, recorder)?;
        }
        let mut turns = Vec::with_capacity(game.seats.len());
        for (index, seat) in game.seats.iter().enumerate() {
            let channel = connections.to(routing.seat(number, index)).keyed.clone();
            match TurnCalls::new(channel, seat) {
                Ok(calls) => turns.push(calls),
                Err(status) => {
                    recorder.failed(ErrorKey::from_status(&status));
                    return None;
                }
            }
        }
        Some(GameInPlay {
            variant,
            number,
            version: game.version,
            game,
            turns,
            view: None,
            plies: 0,
            finished: false,
        })
    }

    /// The game's id.
    pub(crate) fn id(&self) -> &str {
        &self.game.id
    }

    /// The game's number in the run.
    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    /// The game's seat count.
    pub(crate) fn seats(&self) -> usize {
        self.game.seats.len()
    }

    /// The game's version as this driver knows it.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// Observes the first seat, so that the next step can act at once; false on failure.
    pub(crate) async fn observe_first_seat(&mut self, recorder: &mut Recorder) -> bool {
        match self.observe(recorder, 0).await {
            Some(view) => {
                self.view = Some((0, view));
                true
            }
            None => false,
        }
    }

    /// Plays one action: observes a seat that may act if the last view cannot, then sends one
    /// of that seat's legal actions chosen with `rng`. `sent` notes when it was sent.
    pub(crate) async fn step(
        &mut self,
        recorder: &mut Recorder,
        rng: &mut ChaCha8Rng,
        sent: Option<&SentTimes>,
    ) -> Step {
        if self.finished {
            return Step::Finished;
        }
        let mut observed_others = 0;
        let (seat, view) = loop {
            let (seat, view) = match self.view.take() {
                Some(current) => current,
                None => match self.observe(recorder, 0).await {
                    Some(view) => (0, view),
                    None => return Step::Failed,
                },
            };
            if view.status() == pb::GameStatus::Finished {
                self.finished = true;
                recorder.game_finished(self.variant, Instant::now());
                return Step::Finished;
            }
            if !view.legal_actions.is_empty() {
                break (seat, view);
            }
            // This seat cannot act: ask one that can. A seat taken from `to_act` must list an
            // action, so a second miss means the game is stuck.
            observed_others += 1;
            let candidates: Vec<usize> = view
                .to_act
                .iter()
                .map(|&other| other as usize)
                .filter(|&other| other != seat && other < self.game.seats.len())
                .collect();
            let next = match candidates.choose(rng) {
                Some(&next) if observed_others == 1 => next,
                _ => {
                    recorder.fault(ClientFault::GameStuck);
                    return Step::Failed;
                }
            };
            match self.observe(recorder, next).await {
                Some(next_view) => self.view = Some((next, next_view)),
                None => return Step::Failed,
            }
        };
        self.act(recorder, rng, sent, seat, &view).await
    }

    /// Sends a random legal action of `seat`, whose current view is `view`.
    async fn act(
        &mut self,
        recorder: &mut Recorder,
        rng: &mut ChaCha8Rng,
        sent: Option<&SentTimes>,
        seat: usize,
        view: &TurnView,
    ) -> Step {
        let Some(action) = view.legal_actions.choose(rng) else {
            recorder.fault(ClientFault::GameStuck);
            return Step::Failed;
        };
        let expected = self.version;
        if let Some(sent) = sent {
            sent.mark(expected + 1, Instant::now());
        }
        let Some((response, answered)) = recorder
            .raw_answered(Method::Act, self.turns[seat].act(action.clone(), expected))
            .await
        else {
            return Step::Failed;
        };
        if response.version != expected + 1 {
            recorder.fault(ClientFault::VersionSkew);
            return Step::Failed;
        }
        self.version = response.version;
        self.plies += 1;
        recorder.action(self.variant, answered);
        let Some(observation) = response.observation else {
            recorder.fault(ClientFault::MissingObservation);
            return Step::Failed;
        };
        if observation.status() == pb::GameStatus::Finished {
            self.finished = true;
            recorder.game_finished(self.variant, answered);
            return Step::Finished;
        }
        if self.plies >= MAX_PLIES {
            recorder.fault(ClientFault::GameTooLong);
            return Step::Failed;
        }
        self.view = Some((seat, observation));
        Step::Acted
    }

    /// The game as seat `seat` sees it, checked to be at the known version.
    async fn observe(&self, recorder: &mut Recorder, seat: usize) -> Option<TurnView> {
        let view = recorder
            .raw(Method::Observe, self.turns[seat].observe())
            .await?;
        if view.version != self.version {
            recorder.fault(ClientFault::VersionSkew);
            return None;
        }
        Some(view)
    }
}

/// The seats of `game` (game `number` of the run), each rebuilt on the connection to the target
/// the routing rule gives it.
fn route_seats(
    connections: &WorkerConnections,
    routing: Routing,
    number: u64,
    game: &deckmate::Game,
    recorder: &mut Recorder,
) -> Option<Vec<SeatHandle>> {
    let mut seats = Vec::with_capacity(game.seats.len());
    for (index, handle) in game.seats.iter().enumerate() {
        let client = &connections.to(routing.seat(number, index)).client;
        match client.seat(game.id.clone(), handle.seat(), handle.token()) {
            Ok(routed) => seats.push(routed),
            Err(error) => {
                recorder.failed(ErrorKey::from_sdk(&error));
                return None;
            }
        }
    }
    Some(seats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sent_times_remember_each_version() {
        let sent = SentTimes::default();
        let first = Instant::now();
        sent.mark(1, first);
        let shared = sent.clone();
        let second = first + std::time::Duration::from_millis(3);
        shared.mark(2, second);
        assert_eq!(sent.sent_at(1), Some(first));
        assert_eq!(sent.sent_at(2), Some(second));
        assert_eq!(sent.sent_at(3), None);
    }
}
