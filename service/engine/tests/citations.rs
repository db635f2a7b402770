//! Every section citation in the Rust sources resolves to a section that exists.
//!
//! A citation is a `§` followed by a section number: `§3`, `§7.2`, `§5(e)`, `§3.4(b)`. It names
//! its document in one of two ways:
//!
//! * written out on the same line, before it: `docs/rules/pile_chess.md §3`,
//!   `docs/ARCHITECTURE.md §4`; later bare citations on that line refer to the same document
//!   (`docs/rules/chuno.md §6, §9.11`);
//! * bare (`§3`), only inside one game's own files: `service/engine/src/games/<id>/`,
//!   `service/server/src/codec/<id>.rs` and `tests/<id>_*.rs` of any crate, where it refers to
//!   `docs/rules/<id>.md`.
//!
//! A document defines `§N` with a heading `## N. Title`, `§N.M` with a heading `### N.M Title`
//! or a numbered item `M. …` at the start of a line within section N, and `§N(x)` (or
//! `§N.M(x)`) with a lettered item `(x)` at the start of a line (after an optional `*`/`-`
//! bullet and `**`) within that section. The test fails on a citation of a missing document or
//! section, a bare citation outside a game's files, and any citation of the old `DESIGN` or
//! `rules/<id>.md` names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use deckmate_engine::GameKind;

/// This file, relative to the repository root.
const THIS_FILE: &str = "service/engine/tests/citations.rs";

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file of the repository outside build output and dependencies.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|error| panic!("{dir:?}: {error}"));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(name, "target" | ".git" | "node_modules") {
                rust_files(&path, found);
            }
        } else if name.ends_with(".rs") {
            found.push(path);
        }
    }
}

/// The game whose own files include `path` (relative to the repository root), if any.
fn game_of(path: &str) -> Option<&'static str> {
    GameKind::ALL.iter().map(|kind| kind.id()).find(|id| {
        let file_name = path.rsplit('/').next().unwrap_or(path);
        path.starts_with(&format!("service/engine/src/games/{id}/"))
            || path == format!("service/server/src/codec/{id}.rs")
            || (path.contains("/tests/") && file_name.starts_with(&format!("{id}_")))
    })
}

/// The sections a markdown document defines (see the module documentation).
fn sections_of(text: &str) -> BTreeSet<String> {
    let mut sections = BTreeSet::new();
    let mut current: Option<String> = None;
    let mut subsection: Option<String> = None;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            current = leading_number(heading).map(|number| number.trim_end_matches('.').into());
            subsection = None;
            if let Some(number) = &current {
                sections.insert(number.clone());
            }
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            if let Some(number) = leading_number(heading) {
                let number = number.trim_end_matches('.').to_string();
                sections.insert(number.clone());
                subsection = Some(number);
            }
            continue;
        }
        let Some(section) = &current else { continue };
        if let Some(number) = leading_number(line).map(|n| n.trim_end_matches('.'))
            && !number.contains('.')
            && line[number.len()..].starts_with(". ")
        {
            let item = format!("{section}.{number}");
            sections.insert(item.clone());
            subsection = Some(item);
            continue;
        }
        let stripped = line
            .trim_start_matches(['*', '-', ' '])
            .trim_start_matches("**");
        if let Some(rest) = stripped.strip_prefix('(')
            && let Some((letter, _)) = rest.split_once(')')
            && letter.len() == 1
            && letter.chars().all(|c| c.is_ascii_lowercase())
        {
            sections.insert(format!("{section}({letter})"));
            if let Some(sub) = &subsection {
                sections.insert(format!("{sub}({letter})"));
            }
        }
    }
    sections
}

/// The digits-and-dots at the start of `text` (`3`, `7.2`, `3.`), if it starts with a digit.
fn leading_number(text: &str) -> Option<&str> {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let number = &text[..end];
    number
        .starts_with(|c: char| c.is_ascii_digit())
        .then_some(number)
}

/// One citation: its section and the document it names, if written out.
struct Citation {
    section: String,
    document: Option<String>,
}

/// The citations of one line, in order.
fn citations_of(line: &str) -> Vec<Citation> {
    let mut found = Vec::new();
    let mut document: Option<String> = None;
    let mut rest = line;
    while let Some(at) = rest.find('§') {
        let before = &rest[..at];
        if let Some(named) = last_document(before) {
            document = Some(named);
        }
        let after = rest[at + '§'.len_utf8()..].trim_start();
        let mut section = leading_number(after)
            .unwrap_or("")
            .trim_end_matches('.')
            .to_string();
        let tail = &after[section.len()..];
        if let Some(letter) = tail
            .strip_prefix('(')
            .and_then(|inner| inner.split_once(')'))
            .map(|(letter, _)| letter)
            .filter(|letter| letter.len() == 1 && letter.chars().all(|c| c.is_ascii_lowercase()))
        {
            section.push_str(&format!("({letter})"));
        }
        found.push(Citation {
            section,
            document: document.clone(),
        });
        rest = &rest[at + '§'.len_utf8()..];
    }
    found
}

/// The last document named in `text`: `docs/…​.md`, or an old name kept for the error message.
fn last_document(text: &str) -> Option<String> {
    let mut last = None;
    for word in text.split(|c: char| c.is_whitespace() || "()`,;[]\"'".contains(c)) {
        if word.ends_with(".md") || word == "DESIGN" {
            last = Some(word.to_string());
        }
    }
    last
}

#[test]
fn every_section_citation_resolves() {
    let root = repository_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut documents: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let relative = path
            .strip_prefix(&root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if relative == THIS_FILE {
            // Its documentation and tests show the syntax with examples, not citations.
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{relative}: {e}"));
        for (number, line) in text.lines().enumerate() {
            for citation in citations_of(line) {
                let place = format!("{relative}:{}: {}", number + 1, line.trim());
                let document = match (&citation.document, game_of(&relative)) {
                    (Some(document), _) => document.clone(),
                    (None, Some(game)) => format!("docs/rules/{game}.md"),
                    (None, None) => {
                        failures.push(format!(
                            "{place}\n    a bare § outside a game's own files: name the document"
                        ));
                        continue;
                    }
                };
                if !document.starts_with("docs/") {
                    failures.push(format!(
                        "{place}\n    {document:?} is not a document of this repository (docs/…)"
                    ));
                    continue;
                }
                if citation.section.is_empty() {
                    failures.push(format!("{place}\n    § without a section number"));
                    continue;
                }
                let sections = documents.entry(document.clone()).or_insert_with(|| {
                    std::fs::read_to_string(root.join(&document))
                        .ok()
                        .map(|text| sections_of(&text))
                });
                match sections {
                    None => failures.push(format!("{place}\n    {document} does not exist")),
                    Some(sections) if !sections.contains(&citation.section) => failures.push(
                        format!("{place}\n    {document} has no §{}", citation.section),
                    ),
                    Some(_) => checked += 1,
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} citations do not resolve:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked > 100,
        "only {checked} citations found: is the walk broken?"
    );
}

#[test]
fn sections_are_read_from_headings_and_items() {
    let text = "# T\n## 3. Turn\n1. one\n   2. nested is not an item\n### 3.4 Four\n\
                * **(b)** two\n## 5. End\n* **(e)** engine\n(f) cap\n## 7. Decisions\n12. Last\n";
    let sections = sections_of(text);
    let expected: BTreeSet<String> = [
        "3", "3.1", "3.4", "3.4(b)", "3(b)", "5", "5(e)", "5(f)", "7", "7.12",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(sections, expected);
}

#[test]
fn citations_take_the_document_named_before_them() {
    let cites = citations_of("see docs/rules/chuno.md §6, §9.11 and §5(e); bare §2");
    let parsed: Vec<(String, Option<String>)> =
        cites.into_iter().map(|c| (c.section, c.document)).collect();
    let chuno = Some("docs/rules/chuno.md".to_string());
    assert_eq!(
        parsed,
        vec![
            ("6".into(), chuno.clone()),
            ("9.11".into(), chuno.clone()),
            ("5(e)".into(), chuno.clone()),
            ("2".into(), chuno),
        ]
    );
    assert_eq!(
        citations_of("(DESIGN §3)")[0].document.as_deref(),
        Some("DESIGN")
    );
    assert_eq!(
        game_of("service/engine/src/games/chuno/turn.rs"),
        Some("chuno")
    );
    assert_eq!(game_of("service/server/src/codec/chuno.rs"), Some("chuno"));
    assert_eq!(game_of("service/server/tests/chuno_api.rs"), Some("chuno"));
    assert_eq!(game_of("service/server/src/session.rs"), None);
}
