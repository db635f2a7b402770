//! The server's game quotas: by default a caller may create 60 games a minute, in bursts of 20
//! (`--create-rate`, `--create-burst`), and hold 1,000 (`--max-games-per-client`), and the
//! server holds at most `--max-games`. One load generator is one caller creating games far
//! faster than that, so a scenario run against a server started with its defaults meets a
//! `LIMIT_REACHED` on its first games. That refusal stops the run at once and says which flags
//! to change, rather than failing `CreateGame` until the error limit with a count that names no
//! flag; a run that means to measure the refusals passes `--expect LIMIT_REACHED` and is not
//! stopped. (The arena waits out the create rate instead, [`crate::arena`]: its games are few
//! and each is worth finishing.)

/// What to tell the user when the server refuses a `CreateGame` for one of its game quotas.
pub(crate) const QUOTA_HINT: &str = concat!(
    "the server refused a CreateGame with LIMIT_REACHED: a load generator creates games faster ",
    "than a server's default quotas allow one caller (60 a minute in bursts of 20, 1,000 held); ",
    "start the server with `--create-rate off --max-games-per-client 1000000` (and a higher ",
    "`--max-games` if it holds that many), or pass `--expect LIMIT_REACHED` to count the refusals"
);

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
    fn the_hint_names_the_flags_and_the_way_to_keep_going() {
        for flag in [
            "`--create-rate off --max-games-per-client 1000000`",
            "`--max-games`",
            "`--expect LIMIT_REACHED`",
        ] {
            assert!(QUOTA_HINT.contains(flag), "{flag}");
        }
    }
}
