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
//! ```text
//! deckmate-load arena --target 127.0.0.1:50051 --variant chuno --games 200 --a search --b greedy
//! ...
//! a=search b=greedy games=200 win=118 draw=9 loss=73 score=0.61 ci95=[0.54,0.68]
//! ```

mod score;

use std::sync::Arc;
use std::time::Duration;

use deckmate::{Client, pb};
use futures::StreamExt;
use tokio::sync::Mutex;
use tokio::task::JoinSet;

pub use score::{ArenaScore, GameResult};

use crate::SetupError;
use crate::connect::normalize_target;
use crate::options::VariantSelection;
use crate::plan::{self, PlannedVariant};

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
    /// Print a line per finished game to stderr.
    pub progress: bool,
}

/// Why an arena game failed.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// The run could not start.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A call failed.
    #[error("game {number}: {what}: {error}")]
    Call {
        /// The game's number in the run.
        number: u64,
        /// The call.
        what: &'static str,
        /// The error.
        error: deckmate::Error,
    },
    /// A game ended without a readable outcome, or did not end in time.
    #[error("game {number}: {problem}")]
    Game {
        /// The game's number in the run.
        number: u64,
        /// What went wrong.
        problem: String,
    },
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

/// Plays the arena and returns its score.
pub async fn run(options: &ArenaOptions) -> Result<ArenaScore, ArenaError> {
    let client = Client::connect(normalize_target(&options.target))
        .await
        .map_err(|error| SetupError::Connect(error.to_string()))?;
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
    let mut running = JoinSet::new();
    let mut next = 0;
    loop {
        while next < options.games && running.len() < options.in_flight.max(1) {
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
        match running.join_next().await {
            Some(joined) => joined.map_err(|error| ArenaError::Game {
                number: next,
                problem: format!("a game task failed: {error}"),
            })??,
            None => break,
        }
    }
    let score = score.lock().await.clone();
    Ok(score)
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
    let created = client
        .raw()
        .create_game(request)
        .await
        .map_err(|status| ArenaError::Call {
            number,
            what: "CreateGame",
            error: deckmate::Error::from_status(status),
        })?
        .into_inner();
    let spectator = client.spectate(created.game_id);
    let watched = tokio::time::timeout(GAME_TIMEOUT, async {
        let mut versions = spectator.watch(0);
        let mut last = None;
        while let Some(view) = versions.next().await {
            let view = view.map_err(|error| ArenaError::Call {
                number,
                what: "Watch",
                error,
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
