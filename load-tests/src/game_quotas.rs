//! The server's per-caller quotas: by default a caller may create 60 games a minute, in bursts of
//! 20 (`--create-rate`, `--create-burst`), hold 1,000 (`--max-games-per-client`) and open 1,000
//! `Watch` streams, 64 on one game (`--max-watchers-per-client`, `--max-watchers-per-game`); the
//! server holds at most `--max-games`. One load generator is one caller creating games far
//! faster than that, so a scenario run against a server started with its defaults would meet a
//! `LIMIT_REACHED` on its first games.
//!
//! Two checks say so, each naming the server's own figures (`GetServerInfo`'s `limits`) and the
//! flags to change, rather than failing `CreateGame` until the error limit with a count that
//! names no flag:
//!
//! * before any load, a run whose opening creations or watchers exceed a target's quota (the
//!   least share of them any target gets against each target's own figures), and so would
//!   certainly be refused there, does not start ([`opening_refusal`]);
//! * during the run, the first refusal stops it ([`hint`]): a run may still outgrow the
//!   create rate, or the server's `--max-games`, which it does not report.
//!
//! A run that means to measure the refusals passes `--expect LIMIT_REACHED` and meets neither.
//! (The arena waits out the create rate instead, [`crate::arena`]: its games are few and each is
//! worth finishing.)

use std::time::Duration;

use deckmate::pb;

/// A count that `GetServerInfo` reports as 4294967295: no practical limit.
const UNLIMITED: u32 = u32::MAX;

/// What the server's defaults allow one caller, for a server that does not report its quotas.
const DEFAULT_QUOTAS: &str =
    "60 games a minute in bursts of 20 and 1,000 held, by default; `GetServerInfo` reports them";

/// What the server flags that lift the game quotas are, and how to keep a run going instead.
const WHAT_TO_CHANGE: &str = concat!(
    "start the server with `--create-rate off --max-games-per-client 1000000` (and a higher ",
    "`--max-games` if it holds that many), or pass `--expect LIMIT_REACHED` to count the refusals"
);

/// What the run opens at once on each target before the server can free anything: its first
/// games and their spectators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Opening {
    /// Games created at once through one target (the least any target gets).
    pub(crate) games: u64,
    /// Spectators of each game.
    pub(crate) watchers_per_game: u64,
    /// `Watch` streams open at once through one target (the least any target gets).
    pub(crate) watchers: u64,
}

/// Why a run opening with `opening` on a server with `limits` would be refused at once, with what
/// to change; `None` when it fits.
pub(crate) fn opening_refusal(limits: &pb::ServerLimits, opening: Opening) -> Option<String> {
    let exceeds = |count: u64, limit: u32| limit != UNLIMITED && count > u64::from(limit);
    if let Some(rate) = &limits.create_rate
        && exceeds(opening.games, rate.burst)
    {
        return Some(format!(
            "the run creates {} games at once on this server, which lets one caller create {} \
             (its create rate is {}): {WHAT_TO_CHANGE}, or open fewer at once (`--in-flight`, \
             `--games-per-worker`)",
            thousands(opening.games),
            thousands(u64::from(rate.burst)),
            describe_rate(rate)
        ));
    }
    if exceeds(opening.games, limits.max_games_per_client) {
        return Some(format!(
            "the run holds {} games at once on this server, which lets one caller hold {} \
             (`--max-games-per-client`): {WHAT_TO_CHANGE}, or open fewer at once (`--in-flight`, \
             `--games-per-worker`)",
            thousands(opening.games),
            thousands(u64::from(limits.max_games_per_client))
        ));
    }
    if exceeds(opening.watchers_per_game, limits.max_watchers_per_game) {
        return Some(format!(
            "the run opens {} spectators' `Watch` streams on each game, and this server admits {} \
             (`--max-watchers-per-game`): start it with a higher limit, give fewer `--watchers`, \
             or pass `--expect LIMIT_REACHED` to count the refusals",
            thousands(opening.watchers_per_game),
            thousands(u64::from(limits.max_watchers_per_game))
        ));
    }
    if exceeds(opening.watchers, limits.max_watchers_per_client) {
        return Some(format!(
            "the run opens {} `Watch` streams at once on this server, which admits {} from one \
             client (`--max-watchers-per-client`): start it with a higher limit, give fewer \
             `--watchers` or `--in-flight`, or pass `--expect LIMIT_REACHED` to count the refusals",
            thousands(opening.watchers),
            thousands(u64::from(limits.max_watchers_per_client))
        ));
    }
    None
}

/// What to tell the user when a server with `limits` (`None`: it did not report them) refuses a
/// `CreateGame` during the run for one of its game quotas.
pub(crate) fn hint(limits: Option<&pb::ServerLimits>) -> String {
    let quotas = match limits {
        Some(limits) => describe(limits),
        None => DEFAULT_QUOTAS.to_owned(),
    };
    format!(
        "the server refused a CreateGame with LIMIT_REACHED: a load generator creates games \
         faster than a server lets one caller ({quotas}); {WHAT_TO_CHANGE}"
    )
}

/// The game quotas of `limits` in words: `60 games a minute in bursts of 20 and 1,000 held`.
fn describe(limits: &pb::ServerLimits) -> String {
    let rate = match &limits.create_rate {
        Some(rate) => describe_rate(rate),
        None => "no create rate".to_owned(),
    };
    let held = match limits.max_games_per_client {
        UNLIMITED => "no limit on the games held".to_owned(),
        most => format!("{} held", thousands(u64::from(most))),
    };
    format!("this one allows {rate} and {held}")
}

/// A create rate in words: `60 games a minute in bursts of 20`.
fn describe_rate(rate: &pb::CallRate) -> String {
    let period = rate
        .period
        .and_then(|period| Duration::try_from(period).ok())
        .unwrap_or_default();
    let per = match period.as_millis() {
        1_000 => "a second".to_owned(),
        60_000 => "a minute".to_owned(),
        3_600_000 => "an hour".to_owned(),
        _ => format!("per {period:?}"),
    };
    let games = if rate.count == 1 { "game" } else { "games" };
    format!(
        "{} {games} {per} in bursts of {}",
        thousands(u64::from(rate.count)),
        thousands(u64::from(rate.burst))
    )
}

/// `value` with thousands separated by commas, as the rest of the run's text writes counts.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// Whether an SDK error of a `CreateGame` is a refusal for a game quota. (A `CreateGame`
/// request of the generator is far below the message-size limit, the other `LIMIT_REACHED`.)
pub(crate) fn is_refusal(error: &deckmate::Error) -> bool {
    matches!(error, deckmate::Error::LimitReached(_))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use deckmate_server::error::ApiError;

    use super::*;

    /// The quotas of a server started with its defaults.
    fn defaults() -> pb::ServerLimits {
        pb::ServerLimits {
            create_rate: Some(pb::CallRate {
                count: 60,
                period: Some(Duration::from_secs(60).try_into().unwrap()),
                burst: 20,
            }),
            max_games_per_client: 1000,
            max_watchers_per_game: 64,
            max_watchers_per_client: 1000,
            ..pb::ServerLimits::default()
        }
    }

    #[test]
    fn the_create_rate_and_the_game_limits_are_quota_refusals() {
        let rate = ApiError::RateLimited {
            message: "this caller creates games too fast".into(),
            retry_after: Duration::from_secs(1),
        };
        let held = ApiError::LimitReached("this caller holds its most games".into());
        for refusal in [rate, held] {
            let error = deckmate::Error::from_status(tonic::Status::from(refusal));
            assert!(is_refusal(&error), "{error:?}");
        }
        let overloaded = deckmate::Error::from_status(tonic::Status::from(ApiError::Overloaded));
        assert!(!is_refusal(&overloaded), "{overloaded:?}");
    }

    #[test]
    fn the_hint_names_the_servers_quotas_the_flags_and_the_way_to_keep_going() {
        let reported = hint(Some(&defaults()));
        assert!(
            reported.contains("this one allows 60 games a minute in bursts of 20 and 1,000 held"),
            "{reported}"
        );
        let lifted = pb::ServerLimits {
            create_rate: Some(pb::CallRate {
                count: 5000,
                period: Some(Duration::from_secs(1).try_into().unwrap()),
                burst: 12_000,
            }),
            max_games_per_client: u32::MAX,
            ..defaults()
        };
        let lifted = hint(Some(&lifted));
        assert!(
            lifted.contains("5,000 games a second in bursts of 12,000 and no limit on the games"),
            "{lifted}"
        );
        let unreported = hint(None);
        assert!(unreported.contains("by default"), "{unreported}");
        for text in [reported, lifted, unreported] {
            for flag in [
                "`--create-rate off --max-games-per-client 1000000`",
                "`--max-games`",
                "`--expect LIMIT_REACHED`",
            ] {
                assert!(text.contains(flag), "{flag} in {text}");
            }
        }
    }

    #[test]
    fn an_opening_beyond_a_quota_is_refused_with_the_servers_figure() {
        let act = Opening {
            games: 128,
            ..Opening::default()
        };
        let refused = opening_refusal(&defaults(), act).expect("beyond the burst");
        assert!(refused.contains("creates 128 games at once"), "{refused}");
        assert!(refused.contains("lets one caller create 20"), "{refused}");
        assert!(
            refused.contains("60 games a minute in bursts of 20"),
            "{refused}"
        );
        assert!(refused.contains("`--expect LIMIT_REACHED`"), "{refused}");

        let no_rate = pb::ServerLimits {
            create_rate: None,
            ..defaults()
        };
        assert_eq!(opening_refusal(&no_rate, act), None);
        let at_the_burst = Opening {
            games: 20,
            ..Opening::default()
        };
        assert_eq!(opening_refusal(&defaults(), at_the_burst), None);

        let held = pb::ServerLimits {
            max_games_per_client: 100,
            ..no_rate
        };
        let refused = opening_refusal(&held, act).expect("beyond the games held");
        assert!(refused.contains("`--max-games-per-client`"), "{refused}");
        let unlimited = pb::ServerLimits {
            max_games_per_client: u32::MAX,
            ..no_rate
        };
        let huge = Opening {
            games: u64::from(u32::MAX) + 1,
            ..Opening::default()
        };
        assert_eq!(opening_refusal(&unlimited, huge), None);
    }

    #[test]
    fn watchers_beyond_a_games_or_a_clients_limit_are_refused() {
        let limits = pb::ServerLimits {
            create_rate: None,
            ..defaults()
        };
        let watch = |watchers_per_game, games| Opening {
            games,
            watchers_per_game,
            watchers: watchers_per_game * games,
        };
        assert_eq!(opening_refusal(&limits, watch(4, 32)), None);
        let crowded = opening_refusal(&limits, watch(65, 1)).expect("beyond a game's");
        assert!(crowded.contains("`--max-watchers-per-game`"), "{crowded}");
        assert!(crowded.contains("admits 64"), "{crowded}");
        let many = opening_refusal(&limits, watch(40, 26)).expect("beyond a client's");
        assert!(many.contains("opens 1,040 `Watch` streams"), "{many}");
        assert!(many.contains("`--max-watchers-per-client`"), "{many}");
    }

    #[test]
    fn counts_are_written_with_thousands_separated() {
        for (value, text) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (12_345, "12,345"),
            (1_000_000, "1,000,000"),
        ] {
            assert_eq!(thousands(value), text);
        }
    }
}
