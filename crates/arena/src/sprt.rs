//! The sequential probability ratio test that stops a match once it has decided between
//! H0 (the first engine is `elo0` stronger) and H1 (it is `elo1` stronger).
//!
//! The test is the generalised SPRT (GSPRT) of M. Van den Bergh's notes on engine testing, in
//! the logistic Elo model, computed exactly rather than through its normal approximation. The
//! samples are colour-swapped pairs when there are any, else single games (see
//! [`super::stats`]): outcomes with scores `a_i` (0, ½, 1 for games; 0, ¼, ½, ¾, 1 for pairs)
//! seen `n_i` times, `N` in all. For each hypothesis, with `s` its expected score
//! `1 / (1 + 10^(−elo/400))`, the outcome distribution `p` of largest likelihood whose mean is
//! `s` is
//!
//! ```text
//! p_i = (n_i / N) / (1 + λ (a_i − s)),   λ such that Σ p_i (a_i − s) = 0
//! ```
//!
//! (a Lagrange multiplier; the left side falls as λ grows, so bisection finds it). Then
//!
//! ```text
//! LLR = Σ n_i · ln(p1_i / p0_i)
//! ```
//!
//! and H1 is accepted when `LLR ≥ ln((1 − β) / α)`, H0 when `LLR ≤ ln(β / (1 − α))`.
//!
//! Why exact: the normal approximation `N (s1 − s0)(2x̄ − s0 − s1) / 2σ²` explodes when the
//! variance is near zero, and would accept H1 after a single won game. An outcome that never
//! happened is given a weight of 0.001 (as fishtest does), so the constrained distribution may
//! put mass there.

use super::stats::elo_to_score;
use std::fmt;
use std::str::FromStr;

/// Weight given to an outcome that never happened.
const EMPTY_WEIGHT: f64 = 1e-3;

/// The log-likelihood ratio of the samples `dist` (`(score, weight)` pairs, every weight
/// positive) between the best distributions with means `s1` and `s0`. Each mean must lie
/// strictly between the smallest and largest score.
pub fn gsprt_llr(dist: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let (p0, p1) = (best_distribution(dist, s0), best_distribution(dist, s1));
    dist.iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, n), (&q0, &q1))| n * (q1 / q0).ln())
        .sum()
}

/// The distribution over the outcomes of `dist` with mean `s` that makes the observed counts
/// most likely (see the module's notes).
pub fn best_distribution(dist: &[(f64, f64)], s: f64) -> Vec<f64> {
    let total: f64 = dist.iter().map(|&(_, n)| n).sum();
    let observed: Vec<(f64, f64)> = dist.iter().map(|&(a, n)| (n / total, a - s)).collect();
    // Every 1 + λ·d must stay positive: λ lies strictly inside (−1/d_max, −1/d_min).
    let d_max = observed.iter().map(|&(_, d)| d).fold(f64::MIN, f64::max);
    let d_min = observed.iter().map(|&(_, d)| d).fold(f64::MAX, f64::min);
    let (mut low, mut high) = (-1.0 / d_max, -1.0 / d_min);
    let slope = |lambda: f64| -> f64 {
        observed
            .iter()
            .map(|&(p, d)| p * d / (1.0 + lambda * d))
            .sum()
    };
    // Bisection: the sum falls from +∞ at `low` to −∞ at `high`. 200 halvings reach the
    // precision of f64 whatever the start.
    for _ in 0..200 {
        let mid = low + (high - low) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if slope(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let lambda = low + (high - low) / 2.0;
    observed
        .iter()
        .map(|&(p, d)| p / (1.0 + lambda * d))
        .collect()
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: the first engine is not `elo1` stronger.
    H0,
    /// H1 accepted: it is.
    H1,
    /// Not decided yet.
    Continue,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
            Decision::Continue => "inconclusive",
        })
    }
}

impl Sprt {
    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the samples `dist` (`(score 0–1, count)` pairs).
    pub fn llr(&self, dist: &[(f64, f64)]) -> f64 {
        if dist.iter().all(|&(_, w)| w <= 0.0) {
            return 0.0;
        }
        let weighted: Vec<(f64, f64)> = dist
            .iter()
            .map(|&(x, w)| (x, w.max(EMPTY_WEIGHT)))
            .collect();
        gsprt_llr(&weighted, elo_to_score(self.elo0), elo_to_score(self.elo1))
    }

    /// The decision for a ratio.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

/// Why an `--sprt` text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --sprt {0:?}: expected elo0=E elo1=E alpha=A beta=B with elo0 < elo1 and 0 < alpha, beta < 0.5")]
pub struct SprtError(pub String);

impl FromStr for Sprt {
    type Err = SprtError;

    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, space or comma separated; alpha
    /// and beta default to 0.05).
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let err = || SprtError(text.to_string());
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for token in text.split([' ', ',', '\t']).filter(|t| !t.is_empty()) {
            let (key, value) = token.split_once('=').ok_or_else(err)?;
            let value: f64 = value.parse().map_err(|_| err())?;
            if !value.is_finite() {
                return Err(err());
            }
            match key {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                _ => return Err(err()),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(err());
        };
        let rate = |p: f64| p > 0.0 && p < 0.5;
        if elo0 >= elo1 || !rate(alpha) || !rate(beta) {
            return Err(err());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    fn sprt() -> Sprt {
        "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().unwrap()
    }

    #[test]
    fn bounds_by_hand() {
        // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439.
        let (lower, upper) = sprt().bounds();
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        let asymmetric = Sprt {
            alpha: 0.1,
            ..sprt()
        };
        // ln(0.05/0.9) = −2.890372, ln(0.95/0.1) = 2.251292.
        let (lower, upper) = asymmetric.bounds();
        assert!(close(lower, -2.890_372, 1e-6));
        assert!(close(upper, 2.251_292, 1e-6));
    }

    /// Two outcomes leave no choice: the distribution with mean `s` is (s, 1 − s). Three wins
    /// and a loss: LLR = 3 ln(s1/s0) + ln((1 − s1)/(1 − s0)) with s0 = 0.5,
    /// s1 = 1/(1 + 10^(−5/400)) = 0.5071951: 3 · 0.0142876 − 0.0144945 = 0.0283681.
    #[test]
    fn two_outcomes_by_hand() {
        let dist = [(1.0, 3.0), (0.0, 1.0)];
        let s1 = elo_to_score(5.0);
        assert!(close(s1, 0.507_195_1, 1e-7));
        let p = best_distribution(&dist, s1);
        assert!(
            close(p[0], s1, 1e-12) && close(p[1], 1.0 - s1, 1e-12),
            "{p:?}"
        );
        let llr = gsprt_llr(&dist, 0.5, s1);
        assert!(close(llr, 0.028_368_1, 1e-7), "{llr}");
    }

    /// The constrained distribution has the asked mean, sums to one, and beats its neighbours
    /// with the same mean in likelihood.
    #[test]
    fn best_distribution_is_the_constrained_maximum() {
        let dist = [(1.0, 40.0), (0.5, 30.0), (0.0, 30.0)];
        let p = best_distribution(&dist, 0.5);
        assert!(close(p.iter().sum::<f64>(), 1.0, 1e-12));
        assert!(close(p[0] + 0.5 * p[1], 0.5, 1e-12));
        let likelihood =
            |q: &[f64]| -> f64 { dist.iter().zip(q).map(|(&(_, n), &x)| n * x.ln()).sum() };
        // Moving mass t from draws to wins and losses equally keeps the mean.
        for t in [-0.01, 0.01] {
            let q = [p[0] + t / 2.0, p[1] - t, p[2] + t / 2.0];
            assert!(likelihood(&q) < likelihood(&p));
        }
    }

    /// W 40 D 30 L 30 and the pairs [1, 3, 8, 6, 2]; the expected values come from an
    /// independent Newton iteration for λ (the normal approximation gives 0.1935 and 0.1373,
    /// close, as it should be with this much variance).
    #[test]
    fn llr_of_realistic_results() {
        let games = [(1.0, 40.0), (0.5, 30.0), (0.0, 30.0)];
        let llr = sprt().llr(&games);
        assert!(close(llr, 0.190_875, 1e-5), "{llr}");
        assert_eq!(sprt().decide(llr), Decision::Continue);
        let pairs = [(0.0, 1.0), (0.25, 3.0), (0.5, 8.0), (0.75, 6.0), (1.0, 2.0)];
        let llr = sprt().llr(&pairs);
        assert!(close(llr, 0.126_019, 1e-5), "{llr}");
        // Ten times the games, ten times the evidence.
        let more = games.map(|(a, n)| (a, 10.0 * n));
        assert!(close(sprt().llr(&more), 1.908_75, 1e-4));
    }

    #[test]
    fn decisions_and_empty_outcomes() {
        let s = sprt();
        assert_eq!(s.decide(3.0), Decision::H1);
        assert_eq!(s.decide(-3.0), Decision::H0);
        assert_eq!(s.llr(&[(1.0, 0.0), (0.5, 0.0), (0.0, 0.0)]), 0.0);
        // One won game is no evidence worth speaking of: about ln(s1/s0) = 0.0143.
        let one = s.llr(&[(1.0, 1.0), (0.5, 0.0), (0.0, 0.0)]);
        assert!(close(one, 0.014_287, 1e-5), "{one}");
        // Ten draws lean to H0.
        let draws = s.llr(&[(1.0, 0.0), (0.5, 10.0), (0.0, 0.0)]);
        assert!(close(draws, -0.139_682, 1e-5), "{draws}");
        // A sweep adds about ln(s1/s0) per game: 200 wins are not yet enough for [0, 5] …
        let sweep = s.llr(&[(1.0, 200.0), (0.5, 0.0), (0.0, 0.0)]);
        assert!(close(sweep, 2.857_52, 1e-4), "{sweep}");
        assert_eq!(s.decide(sweep), Decision::Continue);
        // … while 15 won pairs decide [0, 100].
        let wide = Sprt { elo1: 100.0, ..s };
        let pairs = wide.llr(&[
            (0.0, 0.0),
            (0.25, 0.0),
            (0.5, 0.0),
            (0.75, 0.0),
            (1.0, 15.0),
        ]);
        assert!(close(pairs, 3.705, 1e-3), "{pairs}");
        assert_eq!(wide.decide(pairs), Decision::H1);
    }

    #[test]
    fn parsing() {
        assert_eq!(
            "elo1=5,elo0=-1".parse::<Sprt>().unwrap(),
            Sprt {
                elo0: -1.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05
            }
        );
        for bad in [
            "",
            "elo0=0",
            "elo0=5 elo1=0",
            "elo0=0 elo1=5 alpha=0.7",
            "elo0=0 elo1=5 gamma=1",
            "elo0=x elo1=5",
            "elo0=0 elo1=inf",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
