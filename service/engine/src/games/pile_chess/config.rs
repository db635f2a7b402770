//! Options (docs/rules/pile_chess.md §1 piece values, §5 teams and eliminated players'
//! captures, §7.6 the en passant cap, §3 step 4 the shortfall limit, §8 the round cap), and the
//! check of a team list (§5, §7.12).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::piece::Role;
use crate::game::SetupError;
use crate::length::{Cap, CappedLength, LengthCaps};

/// The highest value a piece may be given.
pub const MAX_VALUE: u32 = 1_000;
/// The highest round cap a game is dealt with, so that games created under it still replay;
/// new games take at most 10 × the default ([`crate::length`]).
pub const MAX_ROUNDS: u32 = 10_000;
/// The highest number of reshuffles a player may be allowed.
pub const MAX_RESHUFFLES: u32 = 100;
/// The highest number of en passant moves a player may be allowed per round.
pub const MAX_EN_PASSANT: u32 = 16;
/// The config fields holding the piece values, in the order of [`Role::ALL`].
const VALUE_FIELDS: [&str; 6] = [
    "pawn_value",
    "knight_value",
    "bishop_value",
    "rook_value",
    "queen_value",
    "king_value",
];
/// The fewest seats of a game (§5).
pub const MIN_SEATS: usize = 2;
/// The most seats of a game (§5): so seats 0 to 3 are the only ones a team list can name.
pub const MAX_SEATS: usize = 4;

/// Pile Chess options. `Default` gives the rule file's defaults: free for all, values P1 N3 B3
/// R5 Q9 K4, one en passant per player and round, a third shortfall ends the game, 100 rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// §1, §7.1: the value of each piece in a pile, indexed by [`Role::index`] (default P=1,
    /// N=3, B=3, R=5, Q=9, K=4).
    pub values: [u32; 6],
    /// §5, §7.12: the teams, each a list of seats; empty (the default) plays free for all. Any
    /// partition of the seats into at least two non-empty teams is a team game: 2 against 2
    /// (see [`Config::two_vs_two`]), 1 against 2, 1 against 3, 1 against 1 against 2, and so
    /// on. A list of teams of one seat each plays exactly as free for all. A team's position in
    /// the list numbers its side and captured pile.
    pub teams: Vec<Vec<u8>>,
    /// §8: the game ends with stalemate scoring after this many rounds (default 100). New games take the range of [`crate::length`].
    pub max_rounds: u32,
    /// §3 step 4: reshuffles a player may make; the next shortfall ends the game as a stalemate
    /// (default 2, so the third shortfall ends it).
    pub max_reshuffles: u32,
    /// §7.6: en passant moves a player may make per round (default 1; 0 turns en passant off).
    pub en_passant_per_round: u32,
    /// §5: whether a free-for-all player who lost their King keeps their captured pile, which
    /// then still counts for stalemate scoring (default false: it leaves the game with them).
    pub eliminated_captures_count: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            values: [1, 3, 3, 5, 9, 4],
            teams: Vec::new(),
            max_rounds: 100,
            max_reshuffles: 2,
            en_passant_per_round: 1,
            eliminated_captures_count: false,
        }
    }
}

/// What is wrong with a team list (§7.12), and which team is at fault, if one is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamsError {
    /// The position in the list of the team at fault; `None` when the list as a whole is (too
    /// few teams, a seat in no team).
    pub team: Option<usize>,
    /// What is wrong, in public terms.
    pub problem: String,
}

impl TeamsError {
    /// The config field at fault: `teams[i]` for team `i`, `teams` for the whole list.
    pub fn field(&self) -> String {
        match self.team {
            Some(team) => format!("teams[{team}]"),
            None => "teams".to_string(),
        }
    }
}

impl fmt::Display for TeamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field(), self.problem)
    }
}

impl From<TeamsError> for SetupError {
    fn from(error: TeamsError) -> SetupError {
        SetupError::invalid_config(error.field(), error.problem)
    }
}

impl Config {
    /// The default options with seats 0 and 2 playing against seats 1 and 3.
    pub fn two_vs_two() -> Config {
        Config::with_teams(&[&[0, 2], &[1, 3]])
    }

    /// The default options with `teams`, such as `&[&[0], &[1, 2]]` (1 against 2).
    pub fn with_teams(teams: &[&[u8]]) -> Config {
        Config {
            teams: teams.iter().map(|team| team.to_vec()).collect(),
            ..Config::default()
        }
    }

    /// The value of `piece` in a pile.
    pub fn value(&self, piece: Role) -> u32 {
        self.values[piece.index()]
    }

    /// Whether the team rules apply (§5): some team has more than one seat. Teams of one seat
    /// each play exactly as free for all (§7.12), where nobody has a teammate to give cards to
    /// or to share a captured pile with.
    pub fn is_team_game(&self) -> bool {
        self.teams.iter().any(|team| team.len() > 1)
    }

    /// Checks the options against the seat count (§10; the team list with
    /// [`Config::check_teams`]). A problem names its field: a piece value `pawn_value` to
    /// `king_value`, a team list problem `teams[i]` or `teams`.
    pub fn validate(&self, seats: usize) -> Result<(), SetupError> {
        for (field, value) in VALUE_FIELDS.into_iter().zip(self.values) {
            if value > MAX_VALUE {
                return Err(SetupError::invalid_config(
                    field,
                    format!("at most {MAX_VALUE}, not {value}"),
                ));
            }
        }
        if !(1..=MAX_ROUNDS).contains(&self.max_rounds) {
            return Err(SetupError::invalid_config(
                "max_rounds",
                format!("must be 1 to {MAX_ROUNDS}, not {}", self.max_rounds),
            ));
        }
        let caps = [
            ("max_reshuffles", self.max_reshuffles, MAX_RESHUFFLES),
            (
                "en_passant_per_round",
                self.en_passant_per_round,
                MAX_EN_PASSANT,
            ),
        ];
        for (field, value, max) in caps {
            if value > max {
                return Err(SetupError::invalid_config(
                    field,
                    format!("at most {max}, not {value}"),
                ));
            }
        }
        if self.teams.is_empty() {
            return Ok(());
        }
        Ok(Config::check_teams(&self.teams, seats)?)
    }

    /// §5, §7.12: `teams` must split the seats `0..seats` into at least two non-empty teams,
    /// every seat in exactly one. The first problem found is reported: too few teams, then team
    /// by team an empty team, a seat the game does not have or a seat listed before, and last a
    /// seat in no team.
    pub fn check_teams(teams: &[Vec<u8>], seats: usize) -> Result<(), TeamsError> {
        if teams.len() < 2 {
            return Err(TeamsError {
                team: None,
                problem: format!(
                    "list at least two teams, or none to play free for all, not {}",
                    teams.len()
                ),
            });
        }
        let mut seen = vec![false; seats];
        for (index, team) in teams.iter().enumerate() {
            let at_fault = |problem: String| TeamsError {
                team: Some(index),
                problem,
            };
            if team.is_empty() {
                return Err(at_fault("a team needs at least one seat".into()));
            }
            for seat in team {
                match seen.get_mut(usize::from(*seat)) {
                    None => {
                        return Err(at_fault(format!(
                            "seat {seat} is not a seat of this game, whose seats are 0 to {}",
                            seats.saturating_sub(1)
                        )));
                    }
                    Some(true) => {
                        return Err(at_fault(format!(
                            "seat {seat} is listed twice: every seat plays in exactly one team"
                        )));
                    }
                    Some(listed) => *listed = true,
                }
            }
        }
        if let Some(missing) = seen.iter().position(|listed| !listed) {
            return Err(TeamsError {
                team: None,
                problem: format!(
                    "seat {missing} is in no team: every seat 0 to {} plays in exactly one team",
                    seats - 1
                ),
            });
        }
        Ok(())
    }

    /// The side of every seat: its team's index in a team list, else its own index (§5: in
    /// free for all every player is a side of one).
    pub(crate) fn sides(&self, seats: usize) -> Vec<u8> {
        (0..seats)
            .map(|seat| {
                self.teams
                    .iter()
                    .position(|team| team.contains(&(seat as u8)))
                    .unwrap_or(seat) as u8
            })
            .collect()
    }
}

impl CappedLength for Config {
    fn length_caps(&self) -> LengthCaps {
        let default = Config::default();
        LengthCaps {
            limit: Cap {
                field: "max_rounds",
                value: self.max_rounds,
                default: default.max_rounds,
            },
            no_progress: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_for_every_seat_count() {
        for seats in MIN_SEATS..=MAX_SEATS {
            assert_eq!(Config::default().validate(seats), Ok(()));
            assert_eq!(
                Config::default().sides(seats),
                (0..seats as u8).collect::<Vec<_>>()
            );
        }
        let teams = Config::two_vs_two();
        assert_eq!(teams.validate(4), Ok(()));
        assert_eq!(teams.sides(4), vec![0, 1, 0, 1]);
        assert!(teams.is_team_game());
    }

    #[test]
    fn out_of_range_caps_are_rejected() {
        let zero_rounds = Config {
            max_rounds: 0,
            ..Config::default()
        };
        assert!(zero_rounds.validate(2).is_err());
        let pricey = Config {
            values: [1, 3, 3, 5, 9, MAX_VALUE + 1],
            ..Config::default()
        };
        assert!(pricey.validate(2).is_err());
    }
}
