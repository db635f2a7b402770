//! When the scheduler should next look at a game (docs/CLOCKS.md, "The due index").

use std::time::Duration;

use crate::bots::bot_to_act;
use crate::live::LiveGame;

/// Whether `game` is ever filed in the due index: it has clocks or bot seats. Commits of other
/// games never touch the index (nor read the store's clock).
pub fn files_due(game: &dyn LiveGame) -> bool {
    game.clock().is_some() || !game.bot_seats().is_empty()
}

/// When the scheduler should look at `game`, as committed at `now_ms`: its first clock deadline,
/// or, while a bot seat is to act, `bot_backstop` after `now_ms` if that is sooner (the bot's
/// turn counts as lost then, and another replica resumes it). `None` once nothing is pending.
pub fn due_at(game: &dyn LiveGame, now_ms: u64, bot_backstop: Duration) -> Option<u64> {
    if game.is_over() {
        return None;
    }
    let deadline = game
        .clock()
        .and_then(|clock| clock.deadline())
        .map(|(at, _)| at);
    let backstop = bot_to_act(game).then(|| {
        let backstop_ms = u64::try_from(bot_backstop.as_millis()).unwrap_or(u64::MAX);
        now_ms.saturating_add(backstop_ms)
    });
    match (deadline, backstop) {
        (Some(deadline), Some(backstop)) => Some(deadline.min(backstop)),
        (deadline, backstop) => deadline.or(backstop),
    }
}
