//! Check 4: serialization round-trips through serde_json and postcard, for the table (and so the
//! game state), the config, actions, events and the table's own action and event types.

use std::fmt::Debug;

use deckmate_engine::{Game, Table};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::context::Ctx;

/// `value` survives serde_json and postcard unchanged.
pub(crate) fn round_trip<T>(ctx: &Ctx, what: &str, value: &T)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let json = serde_json::to_string(value)
        .unwrap_or_else(|error| panic!("{ctx}: {what} does not serialize to JSON: {error}"));
    let back: T = serde_json::from_str(&json).unwrap_or_else(|error| {
        panic!("{ctx}: {what} does not deserialize from its JSON {json}: {error}")
    });
    assert_eq!(&back, value, "{ctx}: {what} changed through JSON {json}");
    let bytes = postcard::to_allocvec(value)
        .unwrap_or_else(|error| panic!("{ctx}: {what} does not serialize to postcard: {error}"));
    let back: T = postcard::from_bytes(&bytes).unwrap_or_else(|error| {
        panic!("{ctx}: {what} {value:?} does not deserialize from postcard: {error}")
    });
    assert_eq!(&back, value, "{ctx}: {what} changed through postcard");
}

/// The table, and with it the full game state, survives serde_json and postcard unchanged.
/// Returns the postcard bytes, which the rejection checks compare against.
pub(crate) fn round_trip_table<G: Game>(ctx: &Ctx, table: &Table<G>) -> Vec<u8> {
    round_trip(ctx, "game state", table.state());
    let json = serde_json::to_string(table)
        .unwrap_or_else(|error| panic!("{ctx}: table does not serialize to JSON: {error}"));
    let back: Table<G> = serde_json::from_str(&json).unwrap_or_else(|error| {
        panic!("{ctx}: table does not deserialize from its JSON {json}: {error}")
    });
    assert!(back == *table, "{ctx}: table changed through JSON {json}");
    let bytes = table_bytes(ctx, table);
    let back: Table<G> = postcard::from_bytes(&bytes)
        .unwrap_or_else(|error| panic!("{ctx}: table does not deserialize from postcard: {error}"));
    assert!(
        back == *table,
        "{ctx}: table changed through postcard; state {:?}",
        table.state()
    );
    bytes
}

/// The table's postcard bytes.
pub(crate) fn table_bytes<G: Game>(ctx: &Ctx, table: &Table<G>) -> Vec<u8> {
    postcard::to_allocvec(table)
        .unwrap_or_else(|error| panic!("{ctx}: table does not serialize to postcard: {error}"))
}
