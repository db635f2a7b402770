//! Starting, charging and running out a game's clocks, on a copy of the game about to be
//! committed (docs/CLOCKS.md, "Timeouts").

use deckmate_engine::Seat;
use deckmate_engine::bots::{BotLevel, Budget};

use super::{ClockSpec, GameClock, TimeoutPolicy};
use crate::bots::seed::move_seed;
use crate::error::ApiError;
use crate::live::LiveGame;

/// Gives a new `game` its clocks at `now_ms` (the store's clock), running for the seats on turn.
pub fn start_clock(game: &mut dyn LiveGame, spec: ClockSpec, now_ms: u64) {
    let clock = GameClock::start(spec, game.seats(), game.clock_seats(), now_ms);
    game.set_clock(clock);
}

/// Charges `game`'s clocks, if it has any, for a commit at `now_ms` of `moved`'s action or of
/// `timed_out`'s timeout ([`GameClock::advance`]), after the action was applied.
pub fn charge(game: &mut dyn LiveGame, now_ms: u64, moved: Option<Seat>, timed_out: Option<Seat>) {
    let running = game.clock_seats();
    if let Some(clock) = game.clock_mut() {
        clock.advance(now_ms, moved, timed_out, running);
    }
}

/// A game whose clock ran out, after the server dealt with it.
#[derive(Debug)]
pub struct Expired {
    /// The game after the timeout (or the move made for the seat), clocks charged.
    pub game: Box<dyn LiveGame>,
    /// The seat whose time ran out.
    pub seat: Seat,
    /// What was done: `BOT_MOVE` only when the server moved for the seat (a game nobody plays
    /// forfeits instead).
    pub policy: TimeoutPolicy,
}

/// When a clock of `game` has run out at `now_ms`: a copy with the seat's timeout entered
/// (`FORFEIT`) or its greedy bot's move made with it (`BOT_MOVE`), ready to commit over `game`'s
/// version.
/// `None` when the game has no clocks, is over, or no time ran out.
pub fn expire(game: &dyn LiveGame, now_ms: u64) -> Result<Option<Expired>, ApiError> {
    let Some(clock) = game.clock() else {
        return Ok(None);
    };
    if game.is_over() {
        return Ok(None);
    }
    let Some(seat) = clock.expired(now_ms) else {
        return Ok(None);
    };
    // Under BOT_MOVE, a seat the server moved for before forfeits when no player has decided
    // anything since: the server does not play on a game nobody plays (docs/CLOCKS.md).
    let policy = match clock.spec().on_timeout {
        TimeoutPolicy::BotMove if !game.may_move_on_timeout(seat)? => TimeoutPolicy::Forfeit,
        policy => policy,
    };
    let mut next = game.clone_box();
    match policy {
        TimeoutPolicy::Forfeit => {
            next.time_out(seat)?;
            charge(next.as_mut(), now_ms, None, Some(seat));
        }
        TimeoutPolicy::BotMove => {
            // The move a GREEDY bot seat would make, from the seed a bot seat's move would use.
            let seed = move_seed(game.seed(), game.version(), seat);
            let level = BotLevel::Greedy;
            let action = game
                .bot_action(seat, level, Budget::standard(level), seed, &|| false)
                .ok_or_else(|| {
                    ApiError::Internal(format!(
                        "a {} seat on the clock had no action to make for it",
                        game.kind().id()
                    ))
                })?;
            next.moved_on_timeout(seat, &action)?;
            charge(next.as_mut(), now_ms, Some(seat), None);
        }
    }
    Ok(Some(Expired {
        game: next,
        seat,
        policy,
    }))
}
