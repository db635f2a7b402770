//! What a run does: the [`Scenario`] and the [`LoadOptions`] every phase of it shares.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::api_key::ApiKey;
use crate::errors::ExpectedErrors;

/// The server address used when none is given.
pub const DEFAULT_TARGET: &str = "http://127.0.0.1:50051";

/// Settings every phase of a run shares. The baseline phase and the scenario phase use the
/// same connections, in-flight limit and warm-up, so that their ratio compares the RPCs alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// The servers (replicas), such as `http://127.0.0.1:50051` (`http://` is added when
    /// missing); at least one. Game `g` is created on target `g mod n`, its seat `i` plays
    /// through target `(g + i) mod n` and its watchers follow it through target
    /// `(g + seats) mod n`.
    pub targets: Vec<String>,
    /// HTTP/2 connections opened to each target; workers share them round-robin.
    pub connections: usize,
    /// Concurrent workers, each with at most one request in flight at a time.
    pub in_flight: usize,
    /// The measured time of the scenario phase; `None` ends it by its game count instead.
    pub duration: Option<Duration>,
    /// Time each phase runs before measuring starts; its results are dropped (errors excepted).
    pub warmup: Duration,
    /// The measured time of the baseline phase run before the scenario; zero skips it.
    pub baseline_duration: Duration,
    /// Seeds the client's random choices (actions, seats), so that a run can be repeated.
    pub seed: u64,
    /// Gives every game a seed drawn from `seed` and the game's number, so that a run deals
    /// the same games each time: with one worker, two server builds then serve exactly the
    /// same calls. Needs a server started with `--allow-client-seed`.
    pub game_seeds: bool,
    /// Sent as `x-api-key` on every call of every phase, for a server started with
    /// `--api-keys-file` (see [`ApiKey`] for why the baseline's checks carry it too). Never
    /// shown: the report says only whether a key was sent.
    pub api_key: Option<ApiKey>,
    /// Error reasons that do not fail the run (but a run whose scenario phase completes no
    /// call fails whatever they are).
    pub expected: ExpectedErrors,
    /// Unexpected errors after which the run stops early.
    pub max_errors: u64,
    /// How often the progress line is printed (to stderr); `None` prints none.
    pub progress: Option<Duration>,
    /// Server processes on this machine whose CPU time is measured over each window (Linux).
    pub server_pids: Vec<u32>,
    /// Redis nodes whose command time and traffic are measured over each window.
    pub redis_urls: Vec<String>,
    /// Open loop: the scenario's calls start at this many a second, spread evenly over its
    /// workers, whatever their latency (latency counts from each call's scheduled start);
    /// `None` calls back to back (closed loop). The baseline phase is never paced.
    pub rate: Option<u32>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            targets: vec![DEFAULT_TARGET.to_string()],
            connections: 4,
            in_flight: 32,
            duration: Some(Duration::from_secs(10)),
            warmup: Duration::from_secs(2),
            baseline_duration: Duration::from_secs(5),
            seed: 1,
            game_seeds: false,
            api_key: None,
            expected: ExpectedErrors::none(),
            max_errors: 100,
            progress: Some(Duration::from_secs(1)),
            server_pids: Vec::new(),
            redis_urls: Vec::new(),
            rate: None,
        }
    }
}

/// A load scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Workers create games and play them to the end with random legal actions.
    Play(PlayScenario),
    /// The hot path alone: workers hold pre-created games and alternate `Act` and `Observe`.
    Act(ActScenario),
    /// Games are played as in `play` while spectators watch each one, measuring delivery delay.
    Watch(WatchScenario),
    /// The bare health `Check` RPC: the reference every other scenario is compared with.
    Baseline,
}

impl Scenario {
    /// The scenario's name, as on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Scenario::Play(_) => "play",
            Scenario::Act(_) => "act",
            Scenario::Watch(_) => "watch",
            Scenario::Baseline => "baseline",
        }
    }

    /// The variants the scenario plays; `None` for the baseline.
    pub fn variants(&self) -> Option<&VariantSelection> {
        match self {
            Scenario::Play(play) => Some(&play.variants),
            Scenario::Act(act) => Some(&act.variants),
            Scenario::Watch(watch) => Some(&watch.variants),
            Scenario::Baseline => None,
        }
    }

    /// The seat count games are created with (0: each variant's smallest).
    pub fn seats(&self) -> u32 {
        match self {
            Scenario::Play(play) => play.seats,
            Scenario::Act(act) => act.seats,
            Scenario::Watch(watch) => watch.seats,
            Scenario::Baseline => 0,
        }
    }

    /// The number of games after which the scenario ends, if it has one.
    pub fn games(&self) -> Option<u64> {
        match self {
            Scenario::Play(play) => play.games,
            Scenario::Watch(watch) => watch.games,
            Scenario::Act(_) | Scenario::Baseline => None,
        }
    }
}

/// Options of the `play` scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayScenario {
    /// The variants to play, in turn.
    pub variants: VariantSelection,
    /// Seats per game; 0 means each variant's smallest count.
    pub seats: u32,
    /// Games to start after the warm-up; the run ends once they have finished. `None`: play
    /// for the duration.
    pub games: Option<u64>,
}

/// Options of the `act` scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActScenario {
    /// The variants to play, in turn.
    pub variants: VariantSelection,
    /// Seats per game; 0 means each variant's smallest count.
    pub seats: u32,
    /// Games each worker creates before the clock starts and plays in turn; a finished game is
    /// replaced by a new one.
    pub games_per_worker: usize,
}

impl Default for ActScenario {
    fn default() -> Self {
        ActScenario {
            variants: VariantSelection::All,
            seats: 0,
            games_per_worker: 4,
        }
    }
}

/// Options of the `watch` scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchScenario {
    /// The variants to play, in turn.
    pub variants: VariantSelection,
    /// Seats per game; 0 means each variant's smallest count.
    pub seats: u32,
    /// Games to start after the warm-up; `None`: play for the duration.
    pub games: Option<u64>,
    /// Spectators watching each game.
    pub watchers: usize,
}

impl Default for WatchScenario {
    fn default() -> Self {
        WatchScenario {
            variants: VariantSelection::All,
            seats: 0,
            games: None,
            watchers: 4,
        }
    }
}

/// Which hosted variants a scenario plays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum VariantSelection {
    /// Every variant the server lists (`ListVariants`), so that new games are covered without
    /// changing the load generator.
    #[default]
    All,
    /// These variant ids, in this order.
    Only(Vec<String>),
}

impl FromStr for VariantSelection {
    type Err = String;

    /// Reads `all` or a comma-separated list of variant ids.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("all") {
            return Ok(VariantSelection::All);
        }
        let ids: Vec<String> = value
            .split(',')
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_string)
            .collect();
        if ids.is_empty() {
            return Err("expected `all` or a comma-separated list of variant ids".to_string());
        }
        Ok(VariantSelection::Only(ids))
    }
}

impl fmt::Display for VariantSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantSelection::All => f.write_str("all"),
            VariantSelection::Only(ids) => f.write_str(&ids.join(",")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_selections_parse_and_print() {
        assert_eq!("all".parse(), Ok(VariantSelection::All));
        assert_eq!(" ALL ".parse(), Ok(VariantSelection::All));
        let some: VariantSelection = "pigeon_chess, card_chess".parse().unwrap();
        assert_eq!(
            some,
            VariantSelection::Only(vec!["pigeon_chess".into(), "card_chess".into()])
        );
        assert_eq!(some.to_string(), "pigeon_chess,card_chess");
        assert!(" , ".parse::<VariantSelection>().is_err());
    }

    #[test]
    fn scenarios_expose_their_common_settings() {
        let play = Scenario::Play(PlayScenario {
            games: Some(7),
            seats: 2,
            ..PlayScenario::default()
        });
        assert_eq!(
            (play.name(), play.games(), play.seats()),
            ("play", Some(7), 2)
        );
        assert_eq!(play.variants(), Some(&VariantSelection::All));
        assert_eq!(Scenario::Act(ActScenario::default()).games(), None);
        assert_eq!(Scenario::Baseline.variants(), None);
    }
}
