//! Protobuf <-> engine conversions.
//!
//! [`GameCodec`] is implemented once per game, in `codec/<id>.rs`, and converts that game's
//! engine types to and from its `deckmate.v1` messages. [`common`] holds what every game shares
//! (seats, outcomes, meta actions, the event envelope). Adding a game means one new file here
//! and one line per `match` in `catalog.rs`.
//!
//! Decoding is strict: anything a client sends that does not name a valid value of this game
//! (an action of another game, a missing field, an unknown or `*_UNSPECIFIED` enum value, a bad
//! spot name, an out-of-range option) is refused. When one field is at fault the error is
//! [`ApiError::InvalidField`] naming the field by its proto path (`config.chuno.colours`), which
//! reaches the client as a `google.rpc.BadRequest` field violation; otherwise it is
//! [`ApiError::InvalidRequest`]. Decoding checks form only; whether an action is legal now is
//! the engine's decision.

pub mod card_chess;
pub mod chuno;
pub mod common;
pub mod pigeon_chess;
pub mod pile_chess;
pub mod raindrop_chess;

use deckmate_engine::{Game, GameKind};
use deckmate_proto::v1 as pb;

use crate::error::ApiError;

/// The protobuf face of one game.
pub trait GameCodec: Game {
    /// The registry entry of this game.
    const KIND: GameKind;

    /// Reads the game's options from `config`: unset optional fields take the value of
    /// `Self::Config::default()`. A config of another game, or with no game, is
    /// [`ApiError::InvalidRequest`]; an out-of-range value is [`ApiError::InvalidField`] naming
    /// it.
    fn decode_config(config: &pb::GameConfig) -> Result<Self::Config, ApiError>;

    /// Checks decoded options against the seat count, once CreateGame knows it, so that an
    /// option that cannot fit the seats is reported on its field (a Pile Chess team list that
    /// does not split exactly the game's seats). The default accepts everything; the engine
    /// still checks every option when it deals.
    fn check_seats(config: &Self::Config, seats: usize) -> Result<(), ApiError> {
        let _ = (config, seats);
        Ok(())
    }

    /// The effective options as a `GameConfig` with every field set.
    fn encode_config(config: &Self::Config) -> pb::GameConfig;

    /// Reads one game action. Meta actions, actions of other games, missing fields and invalid
    /// values are [`ApiError::InvalidRequest`].
    fn decode_action(kind: &pb::action::Kind) -> Result<Self::Action, ApiError>;

    /// Writes one game action; [`GameCodec::decode_action`] reads it back unchanged.
    fn encode_action(action: &Self::Action) -> pb::Action;

    /// Writes one viewer's observation.
    fn encode_observation(observation: &Self::Observation) -> pb::Observation;

    /// Writes one event as a viewer may know it (the `kind` of a `pb::Event`).
    fn encode_event(event: &Self::EventView) -> pb::event::Kind;
}

/// Helpers for the codec tests.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::error::ApiError;

    /// Asserts that `result` is an `InvalidRequest` whose message names `needle` (the field
    /// or value at fault).
    pub(crate) fn invalid(result: Result<impl std::fmt::Debug, ApiError>, needle: &str) {
        match result {
            Err(ApiError::InvalidRequest(message)) => assert!(
                message.contains(needle),
                "{message:?} should name {needle:?}"
            ),
            other => panic!("expected InvalidRequest naming {needle:?}, got {other:?}"),
        }
    }

    /// Asserts that `result` is an `InvalidField` naming exactly `field` (its proto path) with a
    /// description.
    pub(crate) fn invalid_field(result: Result<impl std::fmt::Debug, ApiError>, field: &str) {
        invalid_field_saying(result, field, "");
    }

    /// Asserts that `result` is an `InvalidField` naming exactly `field` whose description says
    /// `needle`.
    pub(crate) fn invalid_field_saying(
        result: Result<impl std::fmt::Debug, ApiError>,
        field: &str,
        needle: &str,
    ) {
        match result {
            Err(ApiError::InvalidField {
                field: named,
                description,
            }) => {
                assert_eq!(named, field, "{description}");
                assert!(!description.is_empty(), "no description for {field}");
                assert!(
                    description.contains(needle),
                    "{description:?} should say {needle:?}"
                );
            }
            other => panic!("expected an invalid {field}, got {other:?}"),
        }
    }

    /// Deterministic pseudo-random choices (SplitMix64), so random playouts need no RNG crate
    /// and every failure reproduces from its seed.
    pub(crate) struct Picker(u64);

    impl Picker {
        /// A picker started from `seed`.
        pub(crate) fn new(seed: u64) -> Picker {
            Picker(seed)
        }

        /// A number in `0..bound` (`bound` > 0).
        pub(crate) fn below(&mut self, bound: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut mixed = self.0;
            mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            mixed ^= mixed >> 31;
            (mixed % bound as u64) as usize
        }
    }
}
