//! Games stored by the first release keep loading, and their past never changes
//! (docs/ARCHITECTURE.md §7).
//!
//! `tests/fixtures/format-1/` holds, for every game, a running and a finished game as the first
//! release wrote them: the session bytes of `LiveGame::encode` (`*.session`), the game's Redis
//! hash (`*.redis.json`), and what that release showed every seat and a spectator
//! (`*.expected.json`: the current view and the history in full, and a SHA-256 of the view at
//! every version). These files are never regenerated: they are what players saw.
//!
//! The Redis cases need a Redis server at `DECKMATE_TEST_REDIS_URL` (default
//! `redis://127.0.0.1:6379`).

use std::path::{Path, PathBuf};

use deckmate_engine::{GameKind, Seat, Viewer};
use deckmate_proto::v1 as pb;
use deckmate_server::auth::TokenHash;
use deckmate_server::catalog;
use deckmate_server::live::LiveGame;
use deckmate_server::store::SessionStore;
use deckmate_server::store::redis::{RedisSettings, RedisStore};
use prost::Message;
use sha2::{Digest, Sha256};

/// Every fixture: `<game>-<running|finished>[-<what>]`.
const FIXTURES: &[&str] = &[
    "pile_chess-running",
    "pile_chess-finished",
    "card_chess-running",
    "card_chess-finished",
    "chuno-running",
    "chuno-finished",
    "pigeon_chess-running",
    "pigeon_chess-finished",
    "raindrop_chess-running",
    "raindrop_chess-finished",
    "raindrop_chess-finished-no-progress",
];

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format-1")
}

fn read_json(name: &str, suffix: &str) -> serde_json::Value {
    let path = fixture_dir().join(format!("{name}.{suffix}"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("parsing {name}.{suffix}: {error}"))
}

fn text<'a>(value: &'a serde_json::Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string"))
}

fn decode<M: Message + Default>(hex_text: &str) -> M {
    M::decode(hex::decode(hex_text).expect("hex").as_slice()).expect("a protobuf message")
}

/// What the first release showed, read from `<name>.expected.json`.
struct Expected {
    kind: GameKind,
    version: u64,
    over: bool,
    viewers: Vec<ExpectedViewer>,
}

struct ExpectedViewer {
    viewer: Viewer,
    view: pb::ObserveResponse,
    history: pb::GetHistoryResponse,
    view_digests: Vec<String>,
}

impl Expected {
    fn load(name: &str) -> Expected {
        let json = read_json(name, "expected.json");
        let kind = GameKind::from_id(text(&json, "game")).expect("a hosted game");
        let viewers = json["viewers"]
            .as_array()
            .expect("viewers")
            .iter()
            .map(|entry| {
                let label = text(entry, "viewer");
                let viewer = match label.strip_prefix("seat ") {
                    Some(seat) => Viewer::Seat(Seat(seat.parse().expect("a seat number"))),
                    None => Viewer::Spectator,
                };
                ExpectedViewer {
                    viewer,
                    view: decode(text(entry, "view")),
                    history: decode(text(entry, "history")),
                    view_digests: entry["view_sha256"]
                        .as_array()
                        .expect("view_sha256")
                        .iter()
                        .map(|digest| digest.as_str().expect("a digest").to_string())
                        .collect(),
                }
            })
            .collect();
        Expected {
            kind,
            version: json["version"].as_u64().expect("version"),
            over: json["over"].as_bool().expect("over"),
            viewers,
        }
    }

    /// Fails unless `game` shows every viewer exactly what the first release showed, at every
    /// version, and gives the same history.
    fn check(&self, name: &str, game: &dyn LiveGame) {
        assert_eq!(game.kind(), self.kind, "{name}: kind");
        assert_eq!(game.version(), self.version, "{name}: version");
        assert_eq!(game.is_over(), self.over, "{name}: finished");
        for expected in &self.viewers {
            let viewer = expected.viewer;
            assert_eq!(
                game.view(viewer),
                expected.view,
                "{name}: the current view of {viewer:?} changed"
            );
            let (events, actions) = game.history(viewer, 0..=game.version()).expect("history");
            assert_eq!(
                events, expected.history.events,
                "{name}: the history of {viewer:?} changed"
            );
            assert_eq!(
                actions, expected.history.actions,
                "{name}: the actions shown to {viewer:?} changed"
            );
            let mut views = vec![game.view_at(viewer, 0).expect("version 0")];
            views.extend(
                game.views_between(viewer, 0, game.version())
                    .expect("every later version"),
            );
            assert_eq!(views.len(), expected.view_digests.len(), "{name}: versions");
            for (version, (view, digest)) in views.iter().zip(&expected.view_digests).enumerate() {
                let actual = hex::encode(Sha256::digest(view.encode_to_vec()));
                assert_eq!(
                    &actual, digest,
                    "{name}: the view of {viewer:?} at version {version} changed: {view:?}"
                );
            }
        }
    }
}

fn restore_session(name: &str, kind: GameKind) -> Box<dyn LiveGame> {
    let path = fixture_dir().join(format!("{name}.session"));
    let bytes = std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    catalog::restore(kind, &bytes).unwrap_or_else(|error| panic!("{name}: {error:?}"))
}

#[test]
fn format_one_sessions_load_with_their_past_unchanged() {
    for name in FIXTURES {
        let expected = Expected::load(name);
        expected.check(name, restore_session(name, expected.kind).as_ref());
    }
}

#[test]
fn format_one_games_play_on_and_keep_their_past() {
    for name in FIXTURES.iter().filter(|name| name.contains("-running")) {
        let expected = Expected::load(name);
        let mut game = restore_session(name, expected.kind);
        // Every listed action of a seat to act applies, and the past stays as it was.
        let view = game.view(Viewer::Spectator);
        let seat = Seat(*view.to_act.first().expect("a seat to act") as u8);
        let action = game.view(Viewer::Seat(seat)).legal_actions[0].clone();
        game.act(seat, &action)
            .unwrap_or_else(|error| panic!("{name}: {error:?}"));
        assert_eq!(game.version(), expected.version + 1, "{name}");
        for viewer in &expected.viewers {
            for (version, digest) in viewer.view_digests.iter().enumerate() {
                let view = game
                    .view_at(viewer.viewer, version as u64)
                    .expect("a past view");
                assert_eq!(
                    &hex::encode(Sha256::digest(view.encode_to_vec())),
                    digest,
                    "{name}: playing on changed the view at version {version}"
                );
            }
        }
        // Written again (in the current format), it loads as the same game.
        let rewritten = catalog::restore(expected.kind, &game.encode().expect("encode"))
            .expect("the rewritten game loads");
        assert_eq!(rewritten.version(), game.version());
        for viewer in &expected.viewers {
            assert_eq!(rewritten.view(viewer.viewer), game.view(viewer.viewer));
            assert_eq!(
                rewritten
                    .history(viewer.viewer, 0..=rewritten.version())
                    .expect("history"),
                game.history(viewer.viewer, 0..=game.version())
                    .expect("history")
            );
        }
    }
}

fn redis_url() -> String {
    std::env::var("DECKMATE_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

#[tokio::test]
async fn format_one_redis_hashes_load_with_their_past_unchanged() {
    let client = redis::Client::open(redis_url()).expect("a Redis URL");
    let mut connection = client
        .get_multiplexed_async_connection()
        .await
        .unwrap_or_else(|error| panic!("no Redis answers at {}: {error}", redis_url()));
    let namespace = format!("deckmate-format1-{}", std::process::id());
    let store = RedisStore::open(RedisSettings {
        namespace: namespace.clone(),
        ..RedisSettings::new(redis_url())
    })
    .expect("a Redis store");
    for name in FIXTURES {
        let expected = Expected::load(name);
        let hash = read_json(name, "redis.json");
        let id = text(&hash, "id");
        let fields = &hash["fields"];
        let key = format!("{namespace}:{{{id}}}:game");
        let record = hex::decode(text(fields, "record")).expect("hex record");
        let _: () = redis::cmd("HSET")
            .arg(&key)
            .arg("format")
            .arg(text(fields, "format"))
            .arg("version")
            .arg(text(fields, "version"))
            .arg("index_due")
            .arg(text(fields, "index_due"))
            .arg("record")
            .arg(record)
            .query_async(&mut connection)
            .await
            .expect("HSET");
        let _: () = redis::cmd("PEXPIRE")
            .arg(&key)
            .arg(60_000)
            .query_async(&mut connection)
            .await
            .expect("PEXPIRE");

        let loaded = store
            .load(id)
            .await
            .unwrap_or_else(|error| panic!("{name}: {error:?}"))
            .unwrap_or_else(|| panic!("{name}: not found"));
        assert_eq!(loaded.id, id);
        assert!(loaded.spectators_allowed, "{name}");
        let tokens: Vec<TokenHash> = (0..loaded.game.seats())
            .map(|seat| TokenHash::of(&format!("fixture token of seat {seat}")))
            .collect();
        assert_eq!(loaded.token_hashes, tokens, "{name}: token hashes");
        assert_eq!(
            loaded.seed_commitment,
            <[u8; 32]>::from(Sha256::digest(loaded.game.seed().0)),
            "{name}: seed commitment"
        );
        assert_eq!(
            (loaded.created_at, loaded.updated_at),
            (1_764_000_000_000, 1_764_000_600_000),
            "{name}: timestamps"
        );
        expected.check(name, loaded.game.as_ref());
        let _: () = redis::cmd("DEL")
            .arg(&key)
            .query_async(&mut connection)
            .await
            .expect("DEL");
    }
}
