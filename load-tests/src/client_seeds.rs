//! Client seeds: `--game-seeds` and the arena fix every game's seed, which a server accepts only
//! when started with `--allow-client-seed`. A server that does not refuses each such
//! `CreateGame` with a bare `INVALID_REQUEST`, whose message (in the first release) says nothing
//! of the flag; this module says what to do instead, in one place for the load scenarios and the
//! arena.
//!
//! The run asks each server first (`GetServerInfo` reports `features.client_seeds`, see
//! [`crate::preflight`]). A server too old to answer that is recognised by its refusal: the
//! first `CreateGame` that sent a seed and came back `INVALID_REQUEST` without a field
//! violation. Everything else in the generator's requests is the server's own (its default
//! configs, seat counts in its ranges), so the seed is what it refused; the message is not read,
//! since it is written for people and may change.

use tonic::Code;

/// The advice, written once for both hints below.
macro_rules! seed_refused {
    () => {
        "the server refuses client seeds: start it with `--allow-client-seed`"
    };
}

/// What to tell the user of the arena, which always sends seeds (so that a run can be
/// replayed), about a server that refuses them.
pub(crate) const SEED_REFUSED_HINT: &str = seed_refused!();

/// What to tell the user of `--game-seeds` about a server that refuses them.
pub(crate) const GAME_SEEDS_HINT: &str = concat!(
    seed_refused!(),
    ", or run without `--game-seeds` (the server then draws secret seeds)"
);

/// Whether an SDK error of a `CreateGame` that sent a seed is the refusal of the seed. (The SDK
/// keeps the reason alone: a field violation would have named a field of the config or seats,
/// which the generator takes from the server.)
pub(crate) fn is_refusal(error: &deckmate::Error) -> bool {
    matches!(error, deckmate::Error::InvalidRequest(_))
}

/// Whether the status of a `CreateGame` that sent a seed is the refusal of the seed:
/// `INVALID_ARGUMENT` `INVALID_REQUEST` without a field violation (a refused option, such as a
/// game of bots only, is `PERMISSION_DENIED`).
pub(crate) fn is_refusal_status(status: &tonic::Status) -> bool {
    status.code() == Code::InvalidArgument
        && !crate::status_details::has_bad_request(status)
        && deckmate::Error::from_status(status.clone()).reason() == Some("INVALID_REQUEST")
}

#[cfg(test)]
mod tests {
    use deckmate_server::auth::choose_seed;
    use deckmate_server::error::ApiError;

    use super::*;

    #[test]
    fn the_server_refusal_of_a_seed_is_recognised_by_code_and_reason() {
        let refusal = choose_seed(Some(7), false).expect_err("seeds are off");
        let status = tonic::Status::from(refusal);
        assert!(is_refusal_status(&status), "{status:?}");
        assert!(is_refusal(&deckmate::Error::from_status(status)));
    }

    #[test]
    fn other_refusals_are_not_taken_for_it() {
        let bad_field = tonic::Status::from(ApiError::invalid_field("seats", "too many"));
        let bots_only = tonic::Status::from(ApiError::OptionRefused("bots only".into()));
        let limited = tonic::Status::from(ApiError::LimitReached("games".into()));
        for status in [bad_field, bots_only, limited] {
            assert!(!is_refusal_status(&status), "{status:?}");
        }
        assert!(!is_refusal(&deckmate::Error::LimitReached(
            Default::default()
        )));
    }

    #[test]
    fn both_hints_name_the_server_flag() {
        for hint in [SEED_REFUSED_HINT, GAME_SEEDS_HINT] {
            assert!(hint.contains("`--allow-client-seed`"), "{hint}");
        }
    }
}
