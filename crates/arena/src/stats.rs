//! Results of a pairing and what they say about the Elo difference.
//!
//! The Elo model is the logistic one: an expected score `s` means a difference of
//! `-400 · log10(1/s − 1)`. The 95% interval comes from the normal approximation of the mean
//! score: mean ± 1.96 standard errors, each end turned into Elo, and half their distance is the
//! `±` figure (as cutechess-cli prints it).
//!
//! The variance is taken from pairs of games with colours swapped (the *pentanomial* model:
//! a pair scores 0, ½, 1, 1½ or 2) once there are complete pairs, else from single games
//! (*trinomial*: win, draw, loss). Pairs are the better unit: an opening that favours one colour
//! makes the two games of a pair anti-correlated, which single-game variance overstates.

/// The 97.5% quantile of the standard normal distribution, for two-sided 95% intervals.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Expected score for an Elo difference (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score; ±∞ at 1 and 0.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// A discrete distribution of sample values: `(value, weight)` pairs.
pub type Distribution = Vec<(f64, f64)>;

/// Number of samples, mean and (population) variance of a distribution.
pub fn moments(dist: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = dist.iter().map(|&(_, w)| w).sum();
    if n <= 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = dist.iter().map(|&(x, w)| x * w).sum::<f64>() / n;
    let var = dist
        .iter()
        .map(|&(x, w)| w * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// An Elo estimate with its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game, 0–1.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo; infinite when an end leaves (0, 1) or there
    /// is only one sample.
    pub error: f64,
}

/// The Elo estimate from per-sample scores in 0–1 (games, or pairs averaged over their two
/// games).
pub fn estimate(dist: &[(f64, f64)]) -> Option<EloEstimate> {
    let (n, mean, var) = moments(dist);
    if n <= 0.0 {
        return None;
    }
    let margin = Z_95 * (var / n).sqrt();
    let (low, high) = (mean - margin, mean + margin);
    // One sample has no spread to measure: its "variance" of zero would claim certainty.
    let error = if n >= 2.0 && low > 0.0 && high < 1.0 {
        (score_to_elo(high) - score_to_elo(low)) / 2.0
    } else {
        f64::INFINITY
    };
    Some(EloEstimate {
        score: mean,
        elo: score_to_elo(mean),
        error,
    })
}

/// Results of one pairing, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairingStats {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Complete colour-swapped pairs by the first engine's points in them: index `k` holds the
    /// pairs worth `k / 2` points (0, ½, 1, 1½, 2).
    pub pentanomial: [u32; 5],
}

impl PairingStats {
    /// Counts one game; `points` is the first engine's score in it (0, 0.5 or 1).
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Counts a complete pair; `points` is the first engine's total over its two games (0–2).
    pub fn add_pair(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pentanomial[index] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.pentanomial.iter().sum()
    }

    /// The first engine's points.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Single games as a distribution of scores 1, ½, 0.
    pub fn trinomial(&self) -> Distribution {
        vec![
            (1.0, f64::from(self.wins)),
            (0.5, f64::from(self.draws)),
            (0.0, f64::from(self.losses)),
        ]
    }

    /// Complete pairs as a distribution of the pair's mean score per game (0, ¼, ½, ¾, 1).
    pub fn pentanomial_distribution(&self) -> Distribution {
        self.pentanomial
            .iter()
            .enumerate()
            .map(|(k, &count)| (k as f64 / 4.0, f64::from(count)))
            .collect()
    }

    /// The distribution the estimates use: pairs once there are any, else games.
    pub fn model(&self) -> (Model, Distribution) {
        if self.pairs() > 0 {
            (Model::Pentanomial, self.pentanomial_distribution())
        } else {
            (Model::Trinomial, self.trinomial())
        }
    }

    /// The Elo estimate: the score of every game counted, the error bar from the model's
    /// variance (see the module's notes).
    pub fn elo(&self) -> Option<EloEstimate> {
        let games = f64::from(self.games());
        if games == 0.0 {
            return None;
        }
        let mut e = estimate(&self.model().1)?;
        // The point estimate uses every game, also those whose partner is missing.
        e.score = self.points() / games;
        e.elo = score_to_elo(e.score);
        Some(e)
    }
}

/// Which samples the variance comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Single games: win, draw, loss.
    Trinomial,
    /// Colour-swapped pairs of games.
    Pentanomial,
}

impl Model {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Model::Trinomial => "trinomial",
            Model::Pentanomial => "pentanomial",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(score_to_elo(0.5), 0.0);
        // 10^(100/400) = 1.778279…: s = 1 / 2.778279 = 0.359935 at −100 Elo.
        assert!(close(elo_to_score(-100.0), 0.359_935, 1e-6));
        assert!(close(score_to_elo(0.75), 190.848_501, 1e-5));
        for elo in [-600.0, -35.5, 0.0, 12.0, 400.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    /// W 40 D 30 L 30 by hand: mean 0.55; variance (40·0.45² + 30·0.05² + 30·0.55²)/100 =
    /// 0.1725; standard error √(0.1725/100) = 0.0415331; margin ×1.959964 = 0.0814034; the
    /// interval 0.4685966 … 0.6314034 is −21.8501 … +93.5022 Elo, so ±57.6762 around +34.8601.
    #[test]
    fn trinomial_by_hand() {
        let stats = PairingStats {
            wins: 40,
            draws: 30,
            losses: 30,
            pentanomial: [0; 5],
        };
        let (n, mean, var) = moments(&stats.trinomial());
        assert_eq!(n, 100.0);
        assert!(close(mean, 0.55, 1e-12));
        assert!(close(var, 0.1725, 1e-12));
        let e = stats.elo().unwrap();
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.elo, 34.8601, 1e-4), "{}", e.elo);
        assert!(close(e.error, 57.6762, 1e-3), "{}", e.error);
    }

    /// Pairs [LL 2, LD 4, DD/WL 8, WD 4, WW 2] (20 pairs): pair means 0, ¼, ½, ¾, 1, mean ½;
    /// variance (2·¼ + 4·1/16 + 0 + 4·1/16 + 2·¼)/20 = 1.5/20 = 0.075; standard error
    /// √(0.075/20) = 0.0612372; margin 0.1200228; 0.3799772 … 0.6200228 is ±85.0600 Elo.
    #[test]
    fn pentanomial_by_hand() {
        let mut stats = PairingStats::default();
        for (k, count) in [2, 4, 8, 4, 2].into_iter().enumerate() {
            for _ in 0..count {
                stats.add_pair(k as f64 / 2.0);
            }
        }
        // The games behind those pairs: 40 games, 20 points.
        stats.wins = 14;
        stats.draws = 12;
        stats.losses = 14;
        assert_eq!(stats.pentanomial, [2, 4, 8, 4, 2]);
        assert_eq!(stats.model().0, Model::Pentanomial);
        let (_, mean, var) = moments(&stats.pentanomial_distribution());
        assert!(close(mean, 0.5, 1e-12));
        assert!(close(var, 0.075, 1e-12));
        let e = stats.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.error, 85.0600, 1e-3), "{}", e.error);
    }

    #[test]
    fn edge_cases() {
        assert_eq!(PairingStats::default().elo(), None);
        let mut all_wins = PairingStats::default();
        all_wins.add_game(1.0);
        all_wins.add_game(1.0);
        let e = all_wins.elo().unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.error, f64::INFINITY);
        let mut s = PairingStats::default();
        for p in [1.0, 0.5, 0.0, 0.5] {
            s.add_game(p);
        }
        assert_eq!((s.wins, s.draws, s.losses, s.games()), (1, 2, 1, 4));
        assert_eq!(s.points(), 2.0);
        // A single pair says nothing about the spread.
        let mut one_pair = PairingStats::default();
        one_pair.add_game(1.0);
        one_pair.add_game(0.5);
        one_pair.add_pair(1.5);
        let e = one_pair.elo().unwrap();
        assert!(e.elo > 190.0 && e.error == f64::INFINITY, "{e:?}");
    }
}
