//! [`ArenaScore`]: the results of bot A against bot B, the score from A's side (a win 1, a draw
//! ½) and its Wilson 95% interval.

use std::fmt;

/// The normal quantile of a two-sided 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// How one game ended for bot A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A's seat is among the winners.
    Win,
    /// The game was drawn.
    Draw,
    /// Another seat won.
    Loss,
}

/// The tally of an arena run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaScore {
    /// A's level, as given on the command line.
    pub a: String,
    /// B's level.
    pub b: String,
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl ArenaScore {
    /// An empty tally of `a` against `b`.
    pub fn new(a: impl Into<String>, b: impl Into<String>) -> ArenaScore {
        ArenaScore {
            a: a.into(),
            b: b.into(),
            ..ArenaScore::default()
        }
    }

    /// Counts one finished game.
    pub fn record(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Finished games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A's mean score per game, in [0, 1] (0 before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            games => (self.wins as f64 + self.draws as f64 / 2.0) / games as f64,
        }
    }

    /// The Wilson score interval at 95% around [`ArenaScore::score`]. Draws count as half a
    /// success, the usual reading for chess-like results; `(0, 1)` before any game.
    pub fn wilson_95(&self) -> (f64, f64) {
        let games = self.games();
        if games == 0 {
            return (0.0, 1.0);
        }
        let n = games as f64;
        let p = self.score();
        let z2 = Z_95 * Z_95;
        let denominator = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denominator;
        let half = Z_95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }
}

impl fmt::Display for ArenaScore {
    /// The arena's last line: `a=search b=greedy games=200 win=.. draw=.. loss=.. score=0.62
    /// ci95=[0.55,0.69]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (low, high) = self.wilson_95();
        write!(
            f,
            "a={} b={} games={} win={} draw={} loss={} score={:.2} ci95=[{:.2},{:.2}]",
            self.a,
            self.b,
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            self.score(),
            low,
            high
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(wins: u64, draws: u64, losses: u64) -> ArenaScore {
        ArenaScore {
            wins,
            draws,
            losses,
            ..ArenaScore::new("search", "greedy")
        }
    }

    #[test]
    fn draws_count_half() {
        assert_eq!(score(10, 4, 6).score(), 0.6);
        assert_eq!(score(0, 0, 0).score(), 0.0);
    }

    #[test]
    fn the_wilson_interval_matches_known_values() {
        // 124 of 200: p = 0.62, Wilson 95% = [0.551, 0.684].
        let (low, high) = score(124, 0, 76).wilson_95();
        assert!((low - 0.5511).abs() < 5e-4, "{low}");
        assert!((high - 0.6844).abs() < 5e-4, "{high}");
        // All wins of 10 stays inside [0, 1] and excludes 1/2.
        let (low, high) = score(10, 0, 0).wilson_95();
        assert!(low > 0.69 && low < 0.73, "{low}");
        assert!(high > 1.0 - 1e-9 && high <= 1.0, "{high}");
    }

    #[test]
    fn the_last_line_has_the_documented_shape() {
        assert_eq!(
            score(124, 0, 76).to_string(),
            "a=search b=greedy games=200 win=124 draw=0 loss=76 score=0.62 ci95=[0.55,0.68]"
        );
    }
}
