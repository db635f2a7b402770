//! Golden playthroughs: whole seeded games of every game, recorded as every seat and a
//! spectator saw them, replayed on every test run.
//!
//! `tests/golden/<game>/playthroughs.json` holds the playthroughs of one game. Each names what
//! it covers (the end condition it reaches), its config (the engine's own config as JSON,
//! omitted fields at their defaults), seat count and seed, and a *recipe*: the seed of a random
//! policy over the listed actions and optional meta actions at given plies. From the recipe come
//! the recorded steps: every action in the game's notation (`Display`), and after setup and
//! after each action, each seat's and a spectator's observation. Last comes the outcome.
//!
//! A normal run replays the recorded actions (each must name exactly one listed action) and
//! fails on any difference in an observation or the outcome. With `DECKMATE_UPDATE_GOLDEN=1`
//! every playthrough is played again from its recipe and rewritten; regeneration fails if a
//! recipe no longer ends by the condition it covers, so a rule change cannot silently stop
//! covering one. To add a playthrough, add an entry with `name`, `covers`, `config`, `seats`,
//! `seed` and `recipe` and regenerate:
//!
//! ```sh
//! DECKMATE_UPDATE_GOLDEN=1 cargo test -p deckmate-engine --test golden
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use deckmate_engine::{
    EndReason, Game, GameKind, MetaAction, Outcome, Seat, Seed, Table, TableAction, Viewer,
    with_game,
};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The environment variable that regenerates every golden file from its recipes.
const UPDATE_VARIABLE: &str = "DECKMATE_UPDATE_GOLDEN";

/// A recipe plays no longer than this; a longer game is a recipe bug.
const MAX_PLIES: usize = 5_000;

#[test]
fn golden_playthroughs_replay_exactly() {
    let update = std::env::var(UPDATE_VARIABLE).is_ok_and(|value| value == "1");
    for kind in GameKind::ALL {
        with_game!(*kind, G => check_game::<G>(update));
    }
}

/// One game's file.
#[derive(Serialize, Deserialize)]
struct GoldenFile {
    game: String,
    playthroughs: Vec<Playthrough>,
}

/// One recorded game.
#[derive(Serialize, Deserialize)]
struct Playthrough {
    /// What the game shows, for people reading the file.
    name: String,
    /// The end reason it reaches (an [`EndReason`] name).
    covers: String,
    /// The engine config as JSON; missing fields take their defaults.
    config: Value,
    seats: usize,
    seed: u64,
    recipe: Recipe,
    /// Setup, then one step per action; filled in by regeneration.
    #[serde(default)]
    steps: Vec<Step>,
    /// Filled in by regeneration.
    #[serde(default)]
    outcome: Option<RecordedOutcome>,
}

/// How the actions are chosen when the playthrough is regenerated.
#[derive(Clone, Serialize, Deserialize)]
struct Recipe {
    /// Seeds the random policy: a random seat among those to act plays a random listed action.
    picker: u64,
    /// Meta actions taken when the game has this many actions behind it, before the policy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    meta: Vec<PlannedMeta>,
}

/// A meta action of the recipe.
#[derive(Clone, Serialize, Deserialize)]
struct PlannedMeta {
    ply: usize,
    seat: u8,
    action: String,
}

/// One action and what every viewer saw after it (setup for the first step).
#[derive(Clone, Serialize, Deserialize, PartialEq)]
struct Step {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    action: Option<String>,
    /// By viewer: `seat 0`, `seat 1`, …, `spectator`.
    observations: serde_json::Map<String, Value>,
}

/// The result as recorded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct RecordedOutcome {
    winners: Vec<u8>,
    reason: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scores: Vec<i32>,
}

impl RecordedOutcome {
    fn of(outcome: &Outcome) -> RecordedOutcome {
        RecordedOutcome {
            winners: outcome.winners.iter().map(|seat| seat.0).collect(),
            reason: reason_name(outcome.reason).to_string(),
            scores: outcome.scores.clone(),
        }
    }
}

fn reason_name(reason: EndReason) -> String {
    format!("{reason:?}")
}

fn golden_path(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(game)
        .join("playthroughs.json")
}

fn check_game<G: Game>(update: bool) {
    let path = golden_path(G::ID);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let mut file: GoldenFile =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    assert_eq!(file.game, G::ID, "{}: game id", path.display());
    assert!(
        file.playthroughs.len() >= 3,
        "{}: at least three playthroughs per game",
        G::ID
    );
    if update {
        for playthrough in &mut file.playthroughs {
            regenerate::<G>(playthrough);
        }
        std::fs::write(&path, render(&file))
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    } else {
        for playthrough in &file.playthroughs {
            replay::<G>(playthrough);
        }
    }
}

fn config_of<G: Game>(playthrough: &Playthrough) -> G::Config {
    serde_json::from_value(playthrough.config.clone())
        .unwrap_or_else(|error| panic!("{} {:?}: config: {error}", G::ID, playthrough.name))
}

fn viewers(seats: usize) -> Vec<(String, Viewer)> {
    let mut viewers: Vec<(String, Viewer)> = (0..seats)
        .map(|seat| (format!("seat {seat}"), Viewer::Seat(Seat(seat as u8))))
        .collect();
    viewers.push(("spectator".to_string(), Viewer::Spectator));
    viewers
}

fn observations<G: Game>(table: &Table<G>) -> serde_json::Map<String, Value> {
    viewers(table.seat_count())
        .into_iter()
        .map(|(name, viewer)| {
            let mut observation =
                serde_json::to_value(table.observe(viewer)).expect("observations serialize");
            // The config never changes during a game and is recorded once per playthrough.
            if let Some(fields) = observation.as_object_mut() {
                fields.remove("config");
            }
            (name, observation)
        })
        .collect()
}

/// How a playthrough writes a timeout the server entered (docs/rules/conventions.md §8).
const TIME_OUT: &str = "time out";
/// How a playthrough starts a move the server made on a seat's timeout
/// (docs/rules/conventions.md §8, item 7).
const MOVED_ON_TIME_OUT: &str = "time out, then ";

fn meta_name(meta: MetaAction) -> &'static str {
    match meta {
        MetaAction::Resign => "resign",
        MetaAction::OfferDraw => "offer draw",
        MetaAction::AcceptDraw => "accept draw",
        MetaAction::DeclineDraw => "decline draw",
    }
}

fn meta_of(name: &str) -> Option<MetaAction> {
    [
        MetaAction::Resign,
        MetaAction::OfferDraw,
        MetaAction::AcceptDraw,
        MetaAction::DeclineDraw,
    ]
    .into_iter()
    .find(|meta| meta_name(*meta) == name)
}

/// The action `text` names for `seat`: a meta action by name, or the one listed game action
/// whose notation is `text`.
fn parse_action<G: Game>(
    table: &Table<G>,
    seat: Seat,
    text: &str,
    at: &str,
) -> TableAction<G::Action> {
    if let Some(meta) = meta_of(text) {
        return TableAction::Meta(meta);
    }
    if text == TIME_OUT {
        return TableAction::TimeOut;
    }
    // A move the server made on the seat's timeout: "time out, then <the move>".
    if let Some(moved) = text.strip_prefix(MOVED_ON_TIME_OUT) {
        return match parse_action(table, seat, moved, at) {
            TableAction::Game(action) => TableAction::MovedOnTimeout(action),
            other => panic!("{at}: a move on timeout must be a game action, not {other:?}"),
        };
    }
    let matching: Vec<G::Action> = table
        .legal_actions(seat)
        .into_iter()
        .filter(|action| action.to_string() == text)
        .collect();
    match matching.as_slice() {
        [action] => TableAction::Game(action.clone()),
        [] => panic!("{at}: {seat} has no listed action written {text:?}"),
        _ => panic!(
            "{at}: the notation {text:?} names {} listed actions",
            matching.len()
        ),
    }
}

fn action_text<G: Game>(action: &TableAction<G::Action>) -> String {
    match action {
        TableAction::Meta(meta) => meta_name(*meta).to_string(),
        TableAction::Game(action) => action.to_string(),
        TableAction::TimeOut => TIME_OUT.to_string(),
        TableAction::MovedOnTimeout(action) => format!("{MOVED_ON_TIME_OUT}{action}"),
    }
}

fn replay<G: Game>(playthrough: &Playthrough) {
    let name = format!("{} {:?}", G::ID, playthrough.name);
    assert!(
        !playthrough.steps.is_empty() && playthrough.outcome.is_some(),
        "{name}: not generated yet; run with {UPDATE_VARIABLE}=1"
    );
    let config = config_of::<G>(playthrough);
    let (mut table, _) =
        Table::<G>::new(&config, playthrough.seats, Seed::from_u64(playthrough.seed))
            .unwrap_or_else(|error| panic!("{name}: setup: {error}"));
    for (index, step) in playthrough.steps.iter().enumerate() {
        let at = format!("{name} step {index}");
        if let (Some(seat), Some(text)) = (step.seat, &step.action) {
            assert!(!table.is_over(), "{at}: the game is already over");
            let action = parse_action(&table, Seat(seat), text, &at);
            table
                .apply(Seat(seat), &action)
                .unwrap_or_else(|error| panic!("{at}: {text:?} of seat {seat}: {error}"));
        } else {
            assert_eq!(index, 0, "{at}: only the setup step has no action");
        }
        let actual = observations(&table);
        for (viewer, expected) in &step.observations {
            let seen = actual
                .get(viewer)
                .unwrap_or_else(|| panic!("{at}: no viewer {viewer}"));
            assert!(
                seen == expected,
                "{at}: {viewer} sees\n{seen}\nbut the golden file says\n{expected}"
            );
        }
        assert_eq!(
            actual.len(),
            step.observations.len(),
            "{at}: viewers differ"
        );
    }
    let outcome = table.outcome().map(|outcome| RecordedOutcome::of(&outcome));
    assert_eq!(outcome, playthrough.outcome, "{name}: outcome");
}

fn regenerate<G: Game>(playthrough: &mut Playthrough) {
    let name = format!("{} {:?}", G::ID, playthrough.name);
    let config = config_of::<G>(playthrough);
    let (mut table, _) =
        Table::<G>::new(&config, playthrough.seats, Seed::from_u64(playthrough.seed))
            .unwrap_or_else(|error| panic!("{name}: setup: {error}"));
    let mut rng = ChaCha8Rng::seed_from_u64(playthrough.recipe.picker);
    let mut steps = vec![Step {
        seat: None,
        action: None,
        observations: observations(&table),
    }];
    let mut ply = 0;
    while !table.is_over() {
        assert!(
            ply < MAX_PLIES,
            "{name}: the recipe plays on past {MAX_PLIES} plies"
        );
        let planned: Vec<&PlannedMeta> = playthrough
            .recipe
            .meta
            .iter()
            .filter(|meta| meta.ply == ply)
            .collect();
        let (seat, action) = match planned.as_slice() {
            [] => {
                let to_act: Vec<Seat> = table.to_act().iter().collect();
                let seat = *to_act.choose(&mut rng).expect("a seat to act");
                let legal = table.legal_actions(seat);
                let action = legal.choose(&mut rng).expect("a listed action").clone();
                (seat, TableAction::Game(action))
            }
            [meta] if meta.action == TIME_OUT => (Seat(meta.seat), TableAction::TimeOut),
            [meta] => {
                let action = meta_of(&meta.action)
                    .unwrap_or_else(|| panic!("{name}: unknown meta action {:?}", meta.action));
                (Seat(meta.seat), TableAction::Meta(action))
            }
            _ => panic!("{name}: two meta actions planned at ply {ply}"),
        };
        let text = action_text::<G>(&action);
        if let TableAction::Game(_) = &action {
            let at = format!("{name} ply {ply}");
            assert!(
                parse_action(&table, seat, &text, &at) == action,
                "{at}: the notation {text:?} does not name the action it was written from"
            );
        }
        table
            .apply(seat, &action)
            .unwrap_or_else(|error| panic!("{name} ply {ply}: {text:?} of {seat}: {error}"));
        steps.push(Step {
            seat: Some(seat.0),
            action: Some(text),
            observations: observations(&table),
        });
        ply += 1;
    }
    let outcome = RecordedOutcome::of(&table.outcome().expect("a finished game"));
    assert_eq!(
        outcome.reason, playthrough.covers,
        "{name}: the recipe now ends by {} instead of {}; choose another recipe",
        outcome.reason, playthrough.covers
    );
    playthrough.steps = steps;
    playthrough.outcome = Some(outcome);
}

/// The file as text: the playthrough's fields pretty, one line per step, so that a change in
/// one observation shows as a change of one line.
fn render(file: &GoldenFile) -> String {
    let mut out = String::new();
    writeln!(out, "{{").unwrap();
    writeln!(out, "  \"game\": {},", compact(&file.game)).unwrap();
    writeln!(out, "  \"playthroughs\": [").unwrap();
    for (index, playthrough) in file.playthroughs.iter().enumerate() {
        writeln!(out, "    {{").unwrap();
        writeln!(out, "      \"name\": {},", compact(&playthrough.name)).unwrap();
        writeln!(out, "      \"covers\": {},", compact(&playthrough.covers)).unwrap();
        writeln!(out, "      \"config\": {},", compact(&playthrough.config)).unwrap();
        writeln!(out, "      \"seats\": {},", playthrough.seats).unwrap();
        writeln!(out, "      \"seed\": {},", playthrough.seed).unwrap();
        writeln!(out, "      \"recipe\": {},", compact(&playthrough.recipe)).unwrap();
        writeln!(out, "      \"steps\": [").unwrap();
        for (number, step) in playthrough.steps.iter().enumerate() {
            let comma = if number + 1 < playthrough.steps.len() {
                ","
            } else {
                ""
            };
            writeln!(out, "        {}{comma}", compact(step)).unwrap();
        }
        writeln!(out, "      ],").unwrap();
        writeln!(out, "      \"outcome\": {}", compact(&playthrough.outcome)).unwrap();
        let comma = if index + 1 < file.playthroughs.len() {
            ","
        } else {
            ""
        };
        writeln!(out, "    }}{comma}").unwrap();
    }
    writeln!(out, "  ]").unwrap();
    writeln!(out, "}}").unwrap();
    out
}

/// One line of JSON.
fn compact<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("golden values serialize")
}
