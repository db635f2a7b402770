//! One test of every game's codec, the same way: random playouts where every legal action
//! round-trips and every observation and event encodes, config round trips, the length caps'
//! ranges, another game's
//! config or action and meta actions refused, every enum table exact with `UNSPECIFIED` refused.
//! What a game must supply for it is in [`Samples`], which each game implements in its own
//! codec file; per-game tests keep only what is specific
//! to a game (field paths, notation, what an encoded view shows).

use deckmate_engine::length::CappedLength;
use deckmate_engine::{
    Game, GameKind, Seat, Seed, Table, TableAction, TableEvent, Viewer, with_game,
};
use deckmate_proto::v1 as pb;
use std::collections::HashSet;
use std::mem::discriminant;

use super::common::{decode_table_action, encode_table_action, encode_table_event};
use super::enums::ProtoEnum;
use super::enums::tests::check_table;
use super::test_support::{Picker, invalid, invalid_field_saying};
use super::{GameCodec, ValidateConfig};
use crate::error::ApiError;

/// What the generic test needs of a game.
pub(super) trait Samples: GameCodec {
    /// Random games played per setup.
    const GAMES: u64;
    /// The fewest different engine action kinds random play must show.
    const ACTION_KINDS: usize;
    /// The fewest different engine event kinds random play must show.
    const EVENT_KINDS: usize;

    /// Options and seat counts to play: the defaults and the game's other shapes.
    fn setups() -> Vec<(Self::Config, usize)>;

    /// Options with every field away from its default where the field allows.
    fn custom_config() -> Self::Config;

    /// Checks every enum table of the game.
    fn check_tables();

    /// An action message holding an `UNSPECIFIED` enum value, and the path its refusal names;
    /// `None` for a game whose actions hold no enum.
    fn unspecified_action() -> Option<(Self::ActionMessage, &'static str)>;

    /// A further check of one legal action and its wire form (its notation, say).
    fn check_action(action: &Self::Action, wire: &Self::ActionMessage) {
        let _ = (action, wire);
    }
}

/// Plays every setup of `G` at random. At every step each legal action of the seat to act
/// round-trips, and now and then every viewer's observation encodes; after each game every
/// event encodes, in full and as every viewer may know it.
fn playouts<G: Samples>() {
    let mut checked = 0usize;
    let mut action_kinds = HashSet::new();
    let mut event_kinds = HashSet::new();
    for (config, seats) in G::setups() {
        for seed in 0..G::GAMES {
            let (mut table, mut events) = Table::<G>::new(&config, seats, Seed::from_u64(seed))
                .unwrap_or_else(|error| panic!("{}: {error}", G::ID));
            let mut picker = Picker::new(seed ^ seats as u64);
            while !table.is_over() {
                let to_act: Vec<Seat> = table.to_act().iter().collect();
                let seat = to_act[picker.below(to_act.len())];
                let legal = table.legal_actions(seat);
                for action in &legal {
                    let message = G::action_message(action);
                    assert_eq!(G::read_action(&message).as_ref(), Ok(action), "{}", G::ID);
                    G::check_action(action, &message);
                    let table_action = TableAction::Game(action.clone());
                    let wire = encode_table_action::<G>(&table_action);
                    assert_eq!(decode_table_action::<G>(&wire), Ok(table_action));
                    action_kinds.insert(discriminant(action));
                    checked += 1;
                }
                if picker.below(8) == 0 {
                    observe_everyone(&table, seats);
                }
                let action = legal[picker.below(legal.len())].clone();
                events.extend(table.apply(seat, &TableAction::Game(action)).unwrap());
            }
            observe_everyone(&table, seats);
            for event in &events {
                if let TableEvent::Game(game) = event {
                    event_kinds.insert(wire_kind(&G::encode_event(&G::reveal_event(game))));
                }
                check_event::<G>(event, seats);
            }
        }
    }
    assert!(
        checked > 10_000,
        "{}: only {checked} actions checked",
        G::ID
    );
    assert!(
        action_kinds.len() >= G::ACTION_KINDS,
        "{}: only {} action kinds seen",
        G::ID,
        action_kinds.len()
    );
    assert!(
        event_kinds.len() >= G::EVENT_KINDS,
        "{}: only {} event kinds seen",
        G::ID,
        event_kinds.len()
    );
}

/// The name of a game event's own kind (`RoundStarted`), read from the debug form of
/// `Game(GameEvent { kind: Some(RoundStarted(..)) })` so that one test serves every game.
fn wire_kind(kind: &pb::event::Kind) -> String {
    let text = format!("{kind:?}");
    let inner = text
        .split_once("kind: Some(")
        .map(|(_, rest)| rest)
        .expect("a game event with a kind");
    inner
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The viewers of a game of `seats` seats: every seat and a spectator.
fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    (0..seats as u8)
        .map(|seat| Viewer::Seat(Seat(seat)))
        .chain([Viewer::Spectator])
}

/// Every viewer's observation encodes.
fn observe_everyone<G: GameCodec>(table: &Table<G>, seats: usize) {
    for viewer in viewers(seats) {
        let observation = G::encode_observation(&table.observe(viewer));
        assert!(observation.game.is_some(), "{}: no observation", G::ID);
    }
}

/// An event encodes in full and as every viewer may know it, a game event through
/// [`GameCodec::encode_event`].
fn check_event<G: GameCodec>(event: &TableEvent<G::Event>, seats: usize) {
    let full = Table::<G>::reveal_event(event);
    let views = viewers(seats).filter_map(|viewer| Table::<G>::view_event(event, viewer));
    for view in views.chain([full]) {
        let encoded = encode_table_event::<G>(&view, 1, Some(Seat(0)));
        match &view {
            TableEvent::Game(game) => assert_eq!(encoded.kind, Some(G::encode_event(game))),
            _ => assert!(encoded.kind.is_some()),
        }
    }
}

/// The default and a custom config round-trip; an empty message reads as the defaults, and
/// every seat count accepts the defaults.
fn check_configs<G: Samples>() {
    let default = G::Config::default();
    assert_eq!(
        G::decode_config(&G::encode_config(&default)),
        Ok(default.clone())
    );
    let empty = pb::GameConfig {
        game: Some(G::config_member(G::ConfigMessage::default())),
    };
    assert_eq!(G::decode_config(&empty), Ok(default.clone()));
    let custom = G::custom_config();
    assert_ne!(custom, default, "{}", G::ID);
    assert_eq!(G::decode_config(&G::encode_config(&custom)), Ok(custom));
    for seats in G::SEATS {
        assert_eq!(default.validate_for(Some(seats)), Ok(()), "{}", G::ID);
    }
}

/// A config or action of every other game, a config with no game, a meta action where a game
/// action belongs and an `UNSPECIFIED` enum value are refused; what a client can send wrong is
/// a field violation whose message still reads `field: description`.
fn check_refusals<G: Samples>() {
    let no_game = G::decode_config(&pb::GameConfig { game: None });
    assert_eq!(
        no_game.as_ref().map_err(ToString::to_string),
        Err("config: no game is set".to_string())
    );
    invalid_field_saying(no_game, "config", "no game is set");
    for other in GameKind::ALL
        .iter()
        .copied()
        .filter(|kind| *kind != G::KIND)
    {
        let (config, action) = with_game!(other, H => (
            H::encode_config(&<H as Game>::Config::default()),
            H::action_member(<H as GameCodec>::ActionMessage::default()),
        ));
        let wrong_config = G::decode_config(&config);
        assert_eq!(
            wrong_config.as_ref().map_err(ToString::to_string),
            Err(format!("config: not a {} config", G::ID))
        );
        invalid_field_saying(wrong_config, "config", G::ID);
        let wrong_action = G::decode_action(&action);
        assert_eq!(
            wrong_action.as_ref().map_err(ToString::to_string),
            Err(format!("action: not a {} action", G::ID))
        );
        invalid_field_saying(wrong_action, "action", G::ID);
    }
    let meta = pb::action::Kind::Meta(pb::MetaAction {
        kind: pb::MetaActionKind::Resign.into(),
    });
    invalid(
        G::decode_action(&meta),
        &format!("a meta action is not a {} action", G::ID),
    );
    G::check_tables();
    if let Some((message, field)) = G::unspecified_action() {
        match G::decode_action(&G::action_member(message)) {
            Err(ApiError::InvalidField {
                field: named,
                description,
            }) => assert_eq!(
                (named.as_str(), description.as_str()),
                (field, "must be set")
            ),
            other => panic!("{}: {other:?}", G::ID),
        }
    }
}

/// The default options of `G` with `changes` (config field, value) made, as CreateGame
/// decodes them.
fn decode_changed<G: GameCodec>(changes: &[(&str, u32)]) -> Result<G::Config, ApiError> {
    let mut fields = serde_json::to_value(G::Config::default()).unwrap();
    for (field, value) in changes {
        assert!(
            fields.get(field).is_some(),
            "{} has no field {field}",
            G::ID
        );
        fields[field] = (*value).into();
    }
    let config: G::Config = serde_json::from_value(fields).unwrap();
    let decoded = G::decode_config(&G::encode_config(&config));
    if let Ok(decoded) = &decoded {
        assert_eq!(decoded, &config, "{}", G::ID);
    }
    decoded
}

/// Asserts that `result` is a refusal of the option `field` of `G`.
fn refused_on<G: GameCodec>(result: Result<G::Config, ApiError>, field: &str) {
    match result {
        Err(ApiError::InvalidField { field: named, .. }) => {
            assert_eq!(named, format!("config.{}.{field}", G::ID))
        }
        other => panic!("{}: {field} was not refused: {other:?}", G::ID),
    }
}

/// Every length cap of a new game, just inside its range, is accepted, and just outside,
/// refused naming its field: the hard cap 1 to 10 × its default, the no-progress limit 0 to 10
/// × its default, and 0 (off) only with the hard cap at most its default.
fn check_length_caps<G: Samples>() {
    let caps = G::Config::default().length_caps();
    let limit = caps.limit;
    assert!(limit.max() > limit.default, "{}", G::ID);
    for inside in [1, limit.default, limit.max()] {
        decode_changed::<G>(&[(limit.field, inside)]).unwrap();
    }
    for outside in [0, limit.max() + 1, u32::MAX] {
        refused_on::<G>(decode_changed::<G>(&[(limit.field, outside)]), limit.field);
    }
    let Some(no_progress) = caps.no_progress else {
        return;
    };
    decode_changed::<G>(&[(no_progress.field, no_progress.max())]).unwrap();
    decode_changed::<G>(&[(no_progress.field, 0), (limit.field, limit.default)]).unwrap();
    decode_changed::<G>(&[(no_progress.field, 0), (limit.field, 1)]).unwrap();
    refused_on::<G>(
        decode_changed::<G>(&[(no_progress.field, no_progress.max() + 1)]),
        no_progress.field,
    );
    refused_on::<G>(
        decode_changed::<G>(&[(no_progress.field, 0), (limit.field, limit.default + 1)]),
        no_progress.field,
    );
}

fn conform<G: Samples>() {
    check_configs::<G>();
    check_length_caps::<G>();
    check_refusals::<G>();
    playouts::<G>();
}

#[test]
fn every_codec_round_trips_random_play_and_refuses_what_is_not_its_own() {
    for kind in GameKind::ALL {
        with_game!(kind, G => conform::<G>());
    }
}

#[test]
fn shared_tables_are_exact() {
    check_table::<pb::EndReason>();
    check_table::<pb::MetaActionKind>();
    assert_eq!(
        <pb::MetaActionKind as ProtoEnum>::read(9).unwrap_err(),
        "unknown meta action 9"
    );
}
