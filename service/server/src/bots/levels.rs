//! Bot levels between the wire (`deckmate.v1.BotLevel`), storage and the metrics.

use deckmate_engine::bots::BotLevel;
use deckmate_proto::v1 as pb;

/// The engine level a wire value names; `None` for `BOT_LEVEL_UNSPECIFIED` and unknown values.
pub fn from_proto(value: i32) -> Option<BotLevel> {
    match pb::BotLevel::try_from(value).ok()? {
        pb::BotLevel::Unspecified => None,
        pb::BotLevel::Random => Some(BotLevel::Random),
        pb::BotLevel::Greedy => Some(BotLevel::Greedy),
        pb::BotLevel::Search => Some(BotLevel::Search),
    }
}

/// The wire value of `level`.
pub fn to_proto(level: BotLevel) -> pb::BotLevel {
    match level {
        BotLevel::Random => pb::BotLevel::Random,
        BotLevel::Greedy => pb::BotLevel::Greedy,
        BotLevel::Search => pb::BotLevel::Search,
    }
}

/// The stored form of `level`: its wire number, which never changes (the engine enum's serde
/// layout is the engine's business, so records do not depend on it).
pub fn to_code(level: BotLevel) -> u8 {
    match level {
        BotLevel::Random => 1,
        BotLevel::Greedy => 2,
        BotLevel::Search => 3,
    }
}

/// The level a stored code names.
pub fn from_code(code: u8) -> Option<BotLevel> {
    from_proto(i32::from(code))
}

/// The `level` label of the bot metrics.
pub fn label(level: BotLevel) -> &'static str {
    match level {
        BotLevel::Random => "random",
        BotLevel::Greedy => "greedy",
        BotLevel::Search => "search",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_through_the_wire_and_storage() {
        for level in [BotLevel::Random, BotLevel::Greedy, BotLevel::Search] {
            assert_eq!(from_proto(to_proto(level).into()), Some(level));
            assert_eq!(from_code(to_code(level)), Some(level));
            assert_eq!(i32::from(to_code(level)), to_proto(level) as i32);
        }
        assert_eq!(from_proto(0), None);
        assert_eq!(from_proto(99), None);
        assert_eq!(from_code(0), None);
        assert_eq!(label(BotLevel::Greedy), "greedy");
    }
}
