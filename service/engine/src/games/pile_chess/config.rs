//! Options (rules/pile_chess.md §1 piece values, §5 teams and eliminated players' captures, §7.6
//! the en passant cap, §3 step 4 the shortfall limit, §8 the round cap).

use serde::{Deserialize, Serialize};

use super::piece::Piece;
use crate::game::SetupError;

/// The highest value a piece may be given.
pub const MAX_VALUE: u32 = 1_000;
/// The highest round cap.
pub const MAX_ROUNDS: u32 = 10_000;
/// The highest number of reshuffles a player may be allowed.
pub const MAX_RESHUFFLES: u32 = 100;
/// The highest number of en passant moves a player may be allowed per round.
pub const MAX_EN_PASSANT: u32 = 16;
/// Seats of a team game: teams play only 2 against 2 (§5).
pub const TEAM_SEATS: usize = 4;

/// Pile Chess options. `Default` gives the rule file's defaults: free for all, values P1 N3 B3
/// R5 Q9 K4, one en passant per player and round, a third shortfall ends the game, 100 rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// §1, §7.1: the value of each piece in a pile, indexed by [`Piece::index`] (default P=1,
    /// N=3, B=3, R=5, Q=9, K=4).
    pub values: [u32; 6],
    /// §5: the teams, each a list of seats; empty (the default) plays free for all. Teams play
    /// only with 4 seats, as two teams of two that together hold every seat once, such as
    /// `[[0, 2], [1, 3]]` (see [`Config::two_vs_two`]).
    pub teams: Vec<Vec<u8>>,
    /// §8: the game ends with stalemate scoring after this many rounds (default 100).
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

impl Config {
    /// The default options with seats 0 and 2 playing against seats 1 and 3.
    pub fn two_vs_two() -> Config {
        Config {
            teams: vec![vec![0, 2], vec![1, 3]],
            ..Config::default()
        }
    }

    /// The value of `piece` in a pile.
    pub fn value(&self, piece: Piece) -> u32 {
        self.values[piece.index()]
    }

    /// Whether the game is played in teams.
    pub fn is_team_game(&self) -> bool {
        !self.teams.is_empty()
    }

    /// Checks the options against the seat count. Teams need exactly 4 seats split into two
    /// teams of two.
    pub fn validate(&self, seats: usize) -> Result<(), SetupError> {
        for piece in Piece::ALL {
            if self.value(piece) > MAX_VALUE {
                return Err(invalid(format!(
                    "values: the {piece} is worth at most {MAX_VALUE}, not {}",
                    self.value(piece)
                )));
            }
        }
        if !(1..=MAX_ROUNDS).contains(&self.max_rounds) {
            return Err(invalid(format!(
                "max_rounds must be 1 to {MAX_ROUNDS}, not {}",
                self.max_rounds
            )));
        }
        if self.max_reshuffles > MAX_RESHUFFLES {
            return Err(invalid(format!(
                "max_reshuffles must be at most {MAX_RESHUFFLES}, not {}",
                self.max_reshuffles
            )));
        }
        if self.en_passant_per_round > MAX_EN_PASSANT {
            return Err(invalid(format!(
                "en_passant_per_round must be at most {MAX_EN_PASSANT}, not {}",
                self.en_passant_per_round
            )));
        }
        self.validate_teams(seats)
    }

    fn validate_teams(&self, seats: usize) -> Result<(), SetupError> {
        if self.teams.is_empty() {
            return Ok(());
        }
        if seats != TEAM_SEATS {
            return Err(invalid(format!(
                "teams: team games are for {TEAM_SEATS} seats (2 against 2), not {seats}"
            )));
        }
        if self.teams.len() != 2 || self.teams.iter().any(|team| team.len() != 2) {
            return Err(invalid(
                "teams: list two teams of two seats each, such as [[0, 2], [1, 3]]".into(),
            ));
        }
        let mut seen = [false; TEAM_SEATS];
        for seat in self.teams.iter().flatten() {
            let index = usize::from(*seat);
            if index >= seats || seen[index] {
                return Err(invalid(format!(
                    "teams: every seat 0 to {} must be in exactly one team",
                    seats - 1
                )));
            }
            seen[index] = true;
        }
        Ok(())
    }

    /// The side of every seat: its team's index in a team game, else its own index (§5: in free
    /// for all every player is a side of one).
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

fn invalid(message: String) -> SetupError {
    SetupError::InvalidConfig(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_for_every_seat_count_and_teams_only_for_four() {
        for seats in 2..=4 {
            assert_eq!(Config::default().validate(seats), Ok(()));
            assert_eq!(
                Config::default().sides(seats),
                (0..seats as u8).collect::<Vec<_>>()
            );
        }
        let teams = Config::two_vs_two();
        assert_eq!(teams.validate(4), Ok(()));
        assert_eq!(teams.sides(4), vec![0, 1, 0, 1]);
        for seats in [2, 3] {
            assert!(matches!(
                teams.validate(seats),
                Err(SetupError::InvalidConfig(message)) if message.contains("teams")
            ));
        }
    }

    #[test]
    fn malformed_teams_and_out_of_range_caps_are_rejected() {
        let bad_teams = [
            vec![vec![0, 1, 2], vec![3]],
            vec![vec![0, 1], vec![1, 3]],
            vec![vec![0, 1], vec![2, 4]],
            vec![vec![0, 1]],
            vec![vec![0], vec![1], vec![2], vec![3]],
        ];
        for teams in bad_teams {
            let config = Config {
                teams,
                ..Config::default()
            };
            assert!(config.validate(4).is_err(), "{:?}", config.teams);
        }
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
        let paired = Config {
            teams: vec![vec![1, 0], vec![3, 2]],
            ..Config::default()
        };
        assert_eq!(paired.validate(4), Ok(()));
        assert_eq!(paired.sides(4), vec![0, 0, 1, 1]);
    }
}
