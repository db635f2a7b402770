//! Turn clocks (docs/CLOCKS.md): settings, every seat's time, and the scheduler that ends a turn
//! whose time ran out.
//!
//! A game created with `clock` keeps a [`GameClock`] in its record. Every commit (an Act, a bot
//! move, a timeout) charges it at the store's time ([`crate::store::SessionStore::now_ms`]:
//! Redis `TIME` with the Redis stores, never a replica's own clock) and then files the game in
//! the store's due index under its next deadline ([`due_at`]). The [`Scheduler`] of every replica
//! claims due entries with a lease (`--timer-lease`) every `--timer-poll`, and fires each:
//! a commit of the timeout over the version the deadline was computed from ([`expire`]), so a
//! second firing of the same deadline conflicts and does nothing. The Act path checks the
//! deadline too and commits the timeout before it looks at the action, so a late action never
//! beats the clock. A replica lost while holding a lease leaves the entry to come due again when
//! the lease ends, and another replica fires it.
//!
//! Bot turns share the due index: a commit after which a bot seat is to act files the game at
//! `--bot-max-think` plus the lease from then (or its deadline, if sooner), so if the replica
//! playing the bot is lost, the scheduler of another resumes the turn.

mod due;
mod expire;
mod game_clock;
mod scheduler;
pub mod spec;

pub use due::{due_at, files_due};
pub use expire::{Expired, charge, expire, start_clock};
pub use game_clock::GameClock;
pub use scheduler::{ClockSettings, Scheduler};
pub use spec::{ClockKind, ClockSpec, TimeoutPolicy};

#[cfg(test)]
mod tests;
