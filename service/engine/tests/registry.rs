//! Every registered game has everything a game needs outside its code (docs/ARCHITECTURE.md §8):
//! its rule file, its row in the README, its golden playthroughs, its proto file, and its member
//! in each of the four oneofs of `game_service.proto`. A missing piece fails here by name; the
//! code side (codec, proto messages) fails to compile instead.

use std::path::{Path, PathBuf};

use deckmate_engine::{Game, GameKind, with_game};

fn repository_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repository_file(path)).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// What a registered game lacks, one line per missing piece.
fn missing_pieces(id: &str, type_name: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for path in [
        format!("docs/rules/{id}.md"),
        format!("service/engine/tests/golden/{id}/playthroughs.json"),
        format!("proto/deckmate/v1/games/{id}.proto"),
    ] {
        if !repository_file(&path).is_file() {
            missing.push(format!("{path} does not exist"));
        }
    }
    let readme = read("README.md");
    if !readme.contains(&format!("| `{id}` |")) {
        missing.push(format!("README.md has no row for `{id}` in its game table"));
    }
    let service = read("proto/deckmate/v1/game_service.proto");
    if !service.contains(&format!("import \"deckmate/v1/games/{id}.proto\";")) {
        missing.push(format!(
            "game_service.proto does not import games/{id}.proto"
        ));
    }
    for (message, suffix) in [
        ("GameConfig", "Config"),
        ("Action", "Action"),
        ("Observation", "Observation"),
        ("Event", "Event"),
    ] {
        let member = format!("{type_name}{suffix} {id} = ");
        if !message_body(&service, message).contains(&member) {
            missing.push(format!(
                "game_service.proto: message {message} has no oneof member `{member}N;`"
            ));
        }
    }
    missing
}

/// The text of `message` in a proto file, up to its closing brace at the start of a line.
fn message_body<'a>(proto: &'a str, message: &str) -> &'a str {
    let start = proto
        .find(&format!("message {message} {{"))
        .unwrap_or_else(|| panic!("game_service.proto defines no message {message}"));
    let end = proto[start..]
        .find("\n}")
        .map_or(proto.len(), |end| start + end);
    &proto[start..end]
}

/// The proto type prefix of a game: its id in CamelCase (`pile_chess` → `PileChess`).
fn proto_prefix(id: &str) -> String {
    id.split('_')
        .map(|part| {
            let mut letters = part.chars();
            letters.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + letters.as_str()
            })
        })
        .collect()
}

#[test]
fn every_game_has_its_files_and_registry_lines() {
    let mut missing = Vec::new();
    for kind in GameKind::ALL {
        let id = with_game!(*kind, G => G::ID);
        missing.extend(
            missing_pieces(id, &proto_prefix(id))
                .into_iter()
                .map(|piece| format!("{id}: {piece}")),
        );
    }
    assert!(missing.is_empty(), "missing:\n{}", missing.join("\n"));
}

#[test]
fn a_missing_piece_is_named() {
    let missing = missing_pieces("no_such_game", "NoSuchGame");
    assert!(
        missing
            .iter()
            .any(|m| m == "docs/rules/no_such_game.md does not exist")
    );
    assert!(
        missing
            .iter()
            .any(|m| m.contains("message Event has no oneof member"))
    );
    assert_eq!(proto_prefix("raindrop_chess"), "RaindropChess");
}
