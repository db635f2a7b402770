//! The bot arena: bot-vs-bot games played by the server, through the public API only.
//!
//! For each game the arena calls `CreateGame` with every seat a bot (`seat_options`; the server
//! needs `--allow-bot-only-games` or an API key, and `--allow-client-seed` for the fixed seeds),
//! level A on one seat and level B on every other, A's seat moving round the table from one game
//! to the next (in two-seat games A and B alternate who moves first). It then watches the game
//! as a spectator from version 0 to its final version and scores the outcome from A's side. A
//! few games run at once (`--in-flight`). Game `n` is dealt from `--seed` and `n`, so a run can
//! be repeated exactly against the same server build.
//!
//! A `CreateGame` refused for a while (the server's create rate, load shedding) is sent again
//! after the delay the server asks for (`retry.rs`). A run that stops before its last game (a
//! failed game, or [`StopSignal`]: Ctrl-C) still returns the score of the games it finished.
//!
//! ```text
//! deckmate-load arena --target 127.0.0.1:50051 --variant chuno --games 200 --a search --b greedy
//! ...
//! a=search b=greedy games=200 win=118 draw=9 loss=73 score=0.61 ci95=[0.54,0.68]
//! ```

mod retry;
mod score;

use std::sync::Arc;
use std::time::Duration;

use deckmate::{Client, ConnectOptions, pb};
use futures::StreamExt;
use tokio::sync::Mutex;
use tokio::task::JoinSet;

pub use score::{ArenaScore, GameResult};

use crate::api_key::ApiKey;
use crate::clock::StopSignal;
use crate::connect::normalize_target;
use crate::options::VariantSelection;
use crate::plan::{self, PlannedVariant};
use crate::preflight::{self, Needs};
use crate::{SetupError, client_seeds};

/// How long one game may take before the arena gives up on it.
const GAME_TIMEOUT: Duration = Duration::from_secs(600);

/// What an arena run plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaOptions {
    /// The server.
    pub target: String,
    /// The variant id, such as `chuno`.
    pub variant: String,
    /// Seats per game; 0 means the variant's smallest count.
    pub seats: u32,
    /// Games to play.
    pub games: u64,
    /// Bot A's level.
    pub a: pb::BotLevel,
    /// Bot B's level.
    pub b: pb::BotLevel,
    /// The base of the games' seeds.
    pub seed: u64,
    /// Games played at once.
    pub in_flight: usize,
    /// Sent as `x-api-key` on every call; with a key, the server allows games of bots only.
    pub api_key: Option<ApiKey>,
    /// Print a line per finished game (and per retried call) to stderr.
    pub progress: bool,
}

/// Why an arena game failed.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// The run could not start.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A call failed.
    #[error("game {number}: {what}: {error}{}", after_retries(*retries))]
    Call {
        /// The game's number in the run.
        number: u64,
        /// The call.
        what: &'static str,
        /// The error.
        error: deckmate::Error,
        /// How many times the call had been sent again after a refusal that asked for a wait.
        retries: u32,
    },
    /// The server refused the game's seed (it was not started with `--allow-client-seed`).
    #[error("game {number}: CreateGame: {}", client_seeds::SEED_REFUSED_HINT)]
    SeedRefused {
        /// The game's number in the run.
        number: u64,
    },
    /// The run was interrupted ([`StopSignal`]).
    #[error("interrupted")]
    Interrupted,
    /// A game ended without a readable outcome, or did not end in time.
    #[error("game {number}: {problem}")]
    Game {
        /// The game's number in the run.
        number: u64,
        /// What went wrong.
        problem: String,
    },
}

/// ` (after N retries)`, or nothing for a call sent once.
fn after_retries(retries: u32) -> String {
    match retries {
        0 => String::new(),
        1 => " (after 1 retry)".to_string(),
        n => format!(" (after {n} retries)"),
    }
}

/// An arena run that ended before its last game.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct ArenaStopped {
    /// Why it ended.
    pub error: ArenaError,
    /// The score of the games finished by then; `None` when it ended before creating any game
    /// (it could not connect, or the server cannot host the arena).
    pub partial: Option<ArenaScore>,
}

impl From<SetupError> for ArenaStopped {
    fn from(error: SetupError) -> ArenaStopped {
        ArenaStopped {
            error: error.into(),
            partial: None,
        }
    }
}

/// The level's name as the command line writes it (`search`).
pub fn level_name(level: pb::BotLevel) -> &'static str {
    match level {
        pb::BotLevel::Random => "random",
        pb::BotLevel::Greedy => "greedy",
        pb::BotLevel::Search => "search",
        pb::BotLevel::Unspecified => "unspecified",
    }
}

/// Plays the arena and returns its score. `stop` ends it early; the games still being played
/// are then abandoned, and the error carries the score of those finished.
pub async fn run(options: &ArenaOptions, stop: &StopSignal) -> Result<ArenaScore, ArenaStopped> {
    let target = normalize_target(&options.target);
    let mut connect = ConnectOptions::default();
    if let Some(key) = &options.api_key {
        connect = connect.with_api_key(key.expose());
    }
    let client = Client::connect_with(target.clone(), connect)
        .await
        .map_err(|error| SetupError::Connect(error.to_string()))?;
    let needs = Needs {
        client_seeds: Some(client_seeds::SEED_REFUSED_HINT),
        has_api_key: options.api_key.is_some(),
        // The arena waits out the create rate, and plays one game at a time.
        opening: None,
    };
    preflight::check(&client, &target, needs).await?;
    let variant = plan::resolve(
        &client,
        &VariantSelection::Only(vec![options.variant.clone()]),
        options.seats,
    )
    .await?
    .remove(0);
    let score = Arc::new(Mutex::new(ArenaScore::new(
        level_name(options.a),
        level_name(options.b),
    )));
    // Dropped on return, which abandons the games still running when the arena stops early.
    let mut running = JoinSet::new();
    let mut next = 0;
    loop {
        while !stop.is_triggered()
            && next < options.games
            && running.len() < options.in_flight.max(1)
        {
            let (client, variant, options, score) = (
                client.clone(),
                variant.clone(),
                options.clone(),
                score.clone(),
            );
            let number = next;
            running.spawn(async move {
                let result = play_one(&client, &variant, &options, number).await?;
                let mut score = score.lock().await;
                score.record(result);
                if options.progress {
                    eprintln!("game {number}: {result:?} for A; {}", *score);
                }
                Ok::<(), ArenaError>(())
            });
            next += 1;
        }
        let joined = tokio::select! {
            biased;
            () = stop.triggered() => return Err(stopped(ArenaError::Interrupted, &score).await),
            joined = running.join_next() => joined,
        };
        let failed = match joined {
            Some(Ok(Ok(()))) => continue,
            Some(Ok(Err(error))) => error,
            Some(Err(error)) => ArenaError::Game {
                number: next,
                problem: format!("a game task failed: {error}"),
            },
            None => break,
        };
        return Err(stopped(failed, &score).await);
    }
    let score = score.lock().await.clone();
    Ok(score)
}

/// The end of a run stopped by `error`, with the score of the games finished by then.
async fn stopped(error: ArenaError, score: &Mutex<ArenaScore>) -> ArenaStopped {
    ArenaStopped {
        error,
        partial: Some(score.lock().await.clone()),
    }
}

/// The seat bot A takes in game `number`.
fn seat_of_a(number: u64, seats: u32) -> u32 {
    (number % u64::from(seats.max(1))) as u32
}

/// Creates game `number` with bots on every seat, watches it to the end and scores it for A.
async fn play_one(
    client: &Client,
    variant: &PlannedVariant,
    options: &ArenaOptions,
    number: u64,
) -> Result<GameResult, ArenaError> {
    let a_seat = seat_of_a(number, variant.seats);
    let seat_options = (0..variant.seats)
        .map(|seat| pb::SeatOptions {
            seat,
            bot: if seat == a_seat { options.a } else { options.b }.into(),
        })
        .collect();
    let request = pb::CreateGameRequest {
        config: Some(variant.config.clone()),
        seats: variant.seats,
        seed: Some(plan::mix(options.seed, number)),
        request_id: deckmate::new_request_id(),
        spectator_policy: pb::SpectatorPolicy::Allowed.into(),
        seat_options,
        clock: None,
    };
    let created = create_game(client, options, number, request).await?;
    let spectator = client.spectate(created.game_id);
    let watched = tokio::time::timeout(GAME_TIMEOUT, async {
        let mut versions = spectator.watch(0);
        let mut last = None;
        while let Some(view) = versions.next().await {
            let view = view.map_err(|error| ArenaError::Call {
                number,
                what: "Watch",
                error,
                retries: 0,
            })?;
            let finished = view.status() == pb::GameStatus::Finished;
            last = Some(view);
            if finished {
                break;
            }
        }
        Ok::<_, ArenaError>(last)
    })
    .await
    .map_err(|_| ArenaError::Game {
        number,
        problem: format!("not finished after {GAME_TIMEOUT:?}"),
    })??;
    let outcome = watched
        .filter(|view| view.status() == pb::GameStatus::Finished)
        .and_then(|view| view.outcome)
        .ok_or_else(|| ArenaError::Game {
            number,
            problem: "the watch ended before the game did".into(),
        })?;
    Ok(result_for(&outcome, a_seat))
}

/// Sends `request` (game `number`'s `CreateGame`), again after each refusal that asks for a
/// wait the arena accepts ([`retry`]).
async fn create_game(
    client: &Client,
    options: &ArenaOptions,
    number: u64,
    request: pb::CreateGameRequest,
) -> Result<pb::CreateGameResponse, ArenaError> {
    let mut retries = 0;
    loop {
        // The raw call carries no key of its own, unlike the SDK's.
        let mut call = tonic::Request::new(request.clone());
        if let Some(key) = &options.api_key {
            key.apply(&mut call);
        }
        let status = match client.raw().create_game(call).await {
            Ok(created) => return Ok(created.into_inner()),
            Err(status) => status,
        };
        if client_seeds::is_refusal_status(&status) {
            return Err(ArenaError::SeedRefused { number });
        }
        let Some(delay) = retry::delay_before_retry(&status, retries) else {
            return Err(ArenaError::Call {
                number,
                what: "CreateGame",
                error: deckmate::Error::from_status(status),
                retries,
            });
        };
        retries += 1;
        if options.progress {
            let reason = deckmate::Error::from_status(status).reason().unwrap_or("");
            eprintln!(
                "game {number}: CreateGame refused ({reason}); retry {retries} of {} in {:.1} s",
                retry::MAX_RETRIES,
                delay.as_secs_f64()
            );
        }
        tokio::time::sleep(delay).await;
    }
}

/// How `outcome` reads for the seat `a_seat`.
fn result_for(outcome: &pb::Outcome, a_seat: u32) -> GameResult {
    if outcome.winners.contains(&a_seat) {
        GameResult::Win
    } else if outcome.draw || outcome.winners.is_empty() {
        GameResult::Draw
    } else {
        GameResult::Loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moves_round_the_table() {
        let seats: Vec<u32> = (0..6).map(|number| seat_of_a(number, 3)).collect();
        assert_eq!(seats, [0, 1, 2, 0, 1, 2]);
        assert_eq!(seat_of_a(5, 2), 1);
    }

    #[test]
    fn outcomes_score_from_a_side() {
        let won = pb::Outcome {
            winners: vec![1],
            ..Default::default()
        };
        assert_eq!(result_for(&won, 1), GameResult::Win);
        assert_eq!(result_for(&won, 0), GameResult::Loss);
        let drawn = pb::Outcome {
            draw: true,
            ..Default::default()
        };
        assert_eq!(result_for(&drawn, 0), GameResult::Draw);
    }
}
