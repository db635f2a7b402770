//! Protobuf <-> engine conversions.
//!
//! # What a game says once
//!
//! Each game implements [`GameCodec`] in `codec/<id>.rs`, and says there only what is its own:
//!
//! - its `GameKind`, its config and action messages and which member of the `GameConfig` and
//!   `Action` oneofs is its own, in one `oneof_members!` line;
//! - how its config message's fields read into the engine's `Config`, unset fields keeping the
//!   `Config::default()` value ([`GameCodec::read_config`]), and back
//!   ([`GameCodec::config_message`]);
//! - how the engine checks its options: `validate_without_seats!(Config)` for options that do
//!   not depend on the seat count, or its own [`ValidateConfig`] (Pile Chess). The engine's own
//!   `Config::validate` is the only range check there is;
//! - how its action message reads into an engine `Action` and back, and how its observations
//!   and events are written;
//! - its enum tables, one `proto_enum_map!` line per engine enum <-> proto enum;
//! - optionally, its observations and actions written straight into their bytes
//!   ([`GameCodec::write_observation`], [`GameCodec::write_action`], with the field helpers of
//!   [`written`]), which `Act` and `Observe` answer with; without them, the built messages are
//!   written. `tests/wire_encoding.rs` checks both give the same bytes for every game.
//!
//! Everything else is shared: the provided methods of [`GameCodec`] dispatch on the oneofs and
//! refuse another game's config or action and a meta action where a game action belongs;
//! [`config`] turns every config problem (a field that cannot be read, an option the engine
//! refuses, at decode time or once CreateGame knows the seat count) into the one error shape;
//! [`enums`] reads and writes every enum table; [`common`] holds what every game shares on the
//! wire (seats, outcomes, meta actions, the event envelope). One generic test
//! (`codec/conformance.rs`) checks every game's codec the same way, from the `Samples` each
//! game's file supplies. Adding a game means its file here and its `pub mod` line below; the
//! catalog finds its config through `oneof_members!` (docs/ARCHITECTURE.md §8).
//!
//! Decoding is strict: anything a client sends that does not name a valid value of this game
//! (an action of another game, a missing field, an unknown or `*_UNSPECIFIED` enum value, a bad
//! spot name, an out-of-range option) is refused. A config problem is always
//! [`ApiError::InvalidField`] naming the field by its proto path (`config.chuno.colours`,
//! `config.pile_chess.teams[1]`, or `config.chuno` when options clash together), which reaches
//! the client as INVALID_REQUEST with a `google.rpc.BadRequest` field violation. A game's action
//! message is read the same way: a missing or bad field is [`ApiError::InvalidField`] naming its
//! path (`action.chuno.play.card.colour`, `action.pile_chess.play.pile`), and so is an action of
//! another game (`action`). A config of another game or with no game set is
//! [`ApiError::InvalidField`] on `config` ([`no_game_set`]), and the envelope's own problems
//! are too: no action set (`action`) and a meta action of no known kind (`action.meta.kind`,
//! `common::decode_table_action`). Decoding checks form only; whether an action is legal now is
//! the engine's decision.

pub mod card_chess;
pub mod chuno;
pub mod common;
pub mod config;
#[cfg(test)]
mod conformance;
pub mod enums;
pub mod pigeon_chess;
pub mod pile_chess;
pub mod raindrop_chess;
pub mod written;

pub use config::ValidateConfig;

use deckmate_engine::length::CappedLength;
use deckmate_engine::{Game, GameKind, SetupError};
use deckmate_proto::v1 as pb;
use deckmate_proto::wire::{ReverseWriter, WireEncode};

use crate::error::ApiError;

/// The protobuf face of one game: the required items are what the game says once, the
/// provided methods are shared by every game. The game's options are checked by the engine's
/// own `Config::validate` ([`ValidateConfig`]).
pub trait GameCodec: Game<Config: ValidateConfig> {
    /// The registry entry of this game.
    const KIND: GameKind;

    /// The game's config message (`ChunoConfig`).
    type ConfigMessage: Clone + Default + PartialEq + std::fmt::Debug;

    /// The game's action message (`ChunoAction`).
    type ActionMessage: Clone + Default + PartialEq + std::fmt::Debug;

    /// The game's own config message in a `GameConfig`, if it is this game's.
    fn own_config(game: &pb::game_config::Game) -> Option<&Self::ConfigMessage>;

    /// A config message as the `GameConfig` oneof member.
    fn config_member(message: Self::ConfigMessage) -> pb::game_config::Game;

    /// The game's own action message in an `Action`, if it is this game's.
    fn own_action(kind: &pb::action::Kind) -> Option<&Self::ActionMessage>;

    /// An action message as the `Action` oneof member.
    fn action_member(message: Self::ActionMessage) -> pb::action::Kind;

    /// Reads the config message's fields; unset fields keep the value of
    /// `Self::Config::default()`. Only what cannot be read at all is refused here (an unknown
    /// enum value, a number too large for the engine's field), as a
    /// [`SetupError::InvalidConfig`] naming the field; ranges are the engine's ([`ValidateConfig`]).
    fn read_config(message: &Self::ConfigMessage) -> Result<Self::Config, SetupError>;

    /// The options with every field set; [`GameCodec::read_config`] reads them back unchanged.
    fn config_message(config: &Self::Config) -> Self::ConfigMessage;

    /// Reads one action message. Missing fields and invalid values are refused naming their
    /// path (`action.chuno.play.card`).
    fn read_action(message: &Self::ActionMessage) -> Result<Self::Action, ApiError>;

    /// Writes one action; [`GameCodec::read_action`] reads it back unchanged.
    fn action_message(action: &Self::Action) -> Self::ActionMessage;

    /// Writes one viewer's observation.
    fn encode_observation(observation: &Self::Observation) -> pb::Observation;

    /// Writes one viewer's observation as the fields of its `pb::Observation`, back to front,
    /// the same bytes as [`GameCodec::encode_observation`]'s message. Games whose answers are
    /// large write it from the engine's observation without building the message.
    fn write_observation(observation: &Self::Observation, writer: &mut ReverseWriter) {
        Self::encode_observation(observation).write_reverse(writer);
    }

    /// Writes one game action as the fields of its `pb::Action`, back to front, the same bytes
    /// as [`GameCodec::encode_action`]'s message.
    fn write_action(action: &Self::Action, writer: &mut ReverseWriter) {
        Self::encode_action(action).write_reverse(writer);
    }

    /// Writes one event as a viewer may know it (the `kind` of a `pb::Event`).
    fn encode_event(event: &Self::EventView) -> pb::event::Kind;

    /// Reads and validates the options of a new game from `config`, its length caps included
    /// ([`deckmate_engine::length`]; stored games are not read here, so those dealt under wider
    /// caps still load). A config of another game, or with no game, is
    /// [`ApiError::InvalidField`] on `config`; a field that cannot be read or an option the
    /// engine refuses is [`ApiError::InvalidField`] naming it.
    fn decode_config(config: &pb::GameConfig) -> Result<Self::Config, ApiError> {
        let message = match &config.game {
            None => return Err(no_game_set()),
            Some(game) => Self::own_config(game).ok_or_else(|| {
                ApiError::invalid_field("config", format!("not a {} config", Self::ID))
            })?,
        };
        let config = Self::read_config(message).map_err(config::setup_error::<Self>)?;
        // The caps first: their ranges for new games are narrower than what the engine deals.
        config
            .length_caps()
            .check()
            .and_then(|()| config.validate_for(None))
            .map_err(config::setup_error::<Self>)?;
        Ok(config)
    }

    /// The effective options as a `GameConfig` with every field set.
    fn encode_config(config: &Self::Config) -> pb::GameConfig {
        pb::GameConfig {
            game: Some(Self::config_member(Self::config_message(config))),
        }
    }

    /// Reads one game action; the game's own are read by [`GameCodec::read_action`]. An action
    /// of another game, which a client can send, is [`ApiError::InvalidField`] on `action`. A
    /// meta action is [`ApiError::InvalidRequest`]: callers read meta actions before they come
    /// here, so one arriving here is the caller's mistake, not the client's.
    fn decode_action(kind: &pb::action::Kind) -> Result<Self::Action, ApiError> {
        match (Self::own_action(kind), kind) {
            (Some(message), _) => Self::read_action(message),
            (None, pb::action::Kind::Meta(_)) => Err(ApiError::InvalidRequest(format!(
                "action: a meta action is not a {} action",
                Self::ID
            ))),
            (None, _) => Err(ApiError::invalid_field(
                "action",
                format!("not a {} action", Self::ID),
            )),
        }
    }

    /// Writes one game action; [`GameCodec::decode_action`] reads it back unchanged.
    fn encode_action(action: &Self::Action) -> pb::Action {
        pb::Action {
            kind: Some(Self::action_member(Self::action_message(action))),
        }
    }
}

/// The error for a `GameConfig` that names no game: none is set, or one this server does not
/// know (which decoding drops, leaving none). Said once, as CreateGame and
/// [`GameCodec::decode_config`] both refuse it.
pub fn no_game_set() -> ApiError {
    ApiError::invalid_field("config", "no game is set")
}

/// Writes the items of [`GameCodec`] that only name things: [`GameCodec::KIND`], the message
/// types, and the oneof items ([`GameCodec::own_config`], [`GameCodec::config_member`],
/// [`GameCodec::own_action`], [`GameCodec::action_member`]) for the game whose `GameKind` and
/// member of every oneof are named `$member`:
/// `oneof_members!(Chuno, pb::ChunoConfig, pb::ChunoAction);`.
macro_rules! oneof_members {
    ($member:ident, $config:ty, $action:ty) => {
        const KIND: ::deckmate_engine::GameKind = ::deckmate_engine::GameKind::$member;
        type ConfigMessage = $config;
        type ActionMessage = $action;

        fn own_config(game: &pb::game_config::Game) -> Option<&Self::ConfigMessage> {
            match game {
                pb::game_config::Game::$member(message) => Some(message),
                _ => None,
            }
        }

        fn config_member(message: Self::ConfigMessage) -> pb::game_config::Game {
            pb::game_config::Game::$member(message)
        }

        fn own_action(kind: &pb::action::Kind) -> Option<&Self::ActionMessage> {
            match kind {
                pb::action::Kind::$member(message) => Some(message),
                _ => None,
            }
        }

        fn action_member(message: Self::ActionMessage) -> pb::action::Kind {
            pb::action::Kind::$member(message)
        }
    };
}
pub(crate) use oneof_members;

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
