//! Bot seats: the seats of a game the server plays itself (CreateGame `seat_options`).
//!
//! A bot moves whenever its seat is to act. After every commit of a running game that leaves a
//! bot seat in `to_act` (CreateGame, Act, and the bots' own moves), the replica that committed
//! schedules a bot turn for that game and version ([`BotRunner::schedule`]). A turn waits for
//! one of `--bot-workers` places, loads the game, and does nothing unless the game is still at
//! that version (a newer commit scheduled its own turn). It then computes the move on a
//! blocking thread, off the request path, with `--bot-max-think` as the engine's stop cap, and
//! commits it through the path of a person's Act (`api/act.rs`) with the version it was chosen
//! at as the expected version: a racing commit makes the move a no-op, and the commit that won
//! schedules again. In a simultaneous turn every bot seat to act moves, one commit after
//! another: the turn at version `v` moves bot seat `v mod n` of the `n` bot seats to act.
//!
//! A move's seed comes from the game's seed, the version and the seat ([`seed::move_seed`]), so
//! a game made from a client seed replays the same bot moves while the game seed stays secret.
//!
//! Recovery: a bot turn lives in the memory of the replica that scheduled it, so a replica lost
//! mid-turn would leave the game waiting. Every commit that leaves a bot seat to act therefore
//! files the game in the store's due index at `--bot-max-think` plus `--timer-lease` from then
//! (`crate::clocks`): if the turn is not committed by then, the clock scheduler of whichever
//! replica claims the entry resumes it ([`BotRunner::resume`], cheap and deduplicated per
//! replica). Observe, Watch and Act of such a game resume it sooner, on any replica.
//!
//! On shutdown no turn starts, a bot thinking is told to stop, and nothing more is committed.

pub mod hosted;
pub mod levels;
mod runner;
pub mod seed;

pub use runner::{BotRunner, BotSettings};

use crate::live::LiveGame;

/// Whether a bot seat of `game` is to act now (never once the game is over).
pub fn bot_to_act(game: &dyn LiveGame) -> bool {
    let bots = game.bot_seats();
    !bots.is_empty()
        && !game.is_over()
        && game
            .to_act()
            .iter()
            .any(|seat| bots.iter().any(|(bot, _)| bot == seat))
}
