//! The player's puzzle rating: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system",
//! 2013), where every attempt is a game against the puzzle, whose rating is its opponent's.
//!
//! A rating is a value, its deviation (how unsure it still is) and its volatility (how much the
//! player's strength is expected to move). Each attempt is rated at once, as its own rating
//! period, as the chess sites do for puzzles.

/// Converts between the Glicko scale (1500 ± 350) and Glicko-2's internal one.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much the volatility may change (the paper's example uses 0.5).
pub const TAU: f64 = 0.5;
/// How close the volatility's iteration must come (the paper's ε).
const EPSILON: f64 = 0.000_001;
/// The deviation of a new player, and the largest one.
pub const MAX_DEVIATION: f64 = 350.0;
/// The rating a new player starts from.
pub const START_RATING: f64 = 1500.0;
/// The volatility a new player starts from.
pub const START_VOLATILITY: f64 = 0.06;

/// A rating with its uncertainty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating on the Glicko scale.
    pub rating: f64,
    /// The rating deviation: about a 95 % chance that the true strength is within twice it.
    pub deviation: f64,
    /// The volatility σ.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: MAX_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

/// One game of a rating period: the opponent's rating and deviation, and the score (1 a win, 0
/// a loss, ½ a draw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating.
    pub rating: f64,
    /// The opponent's deviation.
    pub deviation: f64,
    /// 1 for a win, 0 for a loss, 0.5 for a draw.
    pub score: f64,
}

impl Rating {
    /// The rating after a period with `games` (none: only the deviation grows).
    pub fn after(self, games: &[Game]) -> Rating {
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let grown = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: (grown * SCALE).min(MAX_DEVIATION),
                ..self
            };
        }
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.rating - START_RATING) / SCALE;
            let g = g(game.deviation / SCALE);
            let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
            inverse_v += g * g * expected * (1.0 - expected);
            sum += g * (game.score - expected);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        let sigma = new_volatility(phi, sigma, v, delta);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: mu * SCALE + START_RATING,
            deviation: (phi * SCALE).min(MAX_DEVIATION),
            volatility: sigma,
        }
    }
}

/// How much an opponent's uncertainty damps a game's weight.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The new volatility: the root of the paper's f by the Illinois variant of regula falsi.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * denominator * denominator)
            - (x - a) / (TAU * TAU)
    };
    let mut lower = a;
    let mut upper = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_lower = f(lower);
    let mut f_upper = f(upper);
    // The iteration converges in a handful of steps; the bound only guards against NaN input.
    for _ in 0..200 {
        if (upper - lower).abs() <= EPSILON {
            break;
        }
        let c = lower + (lower - upper) * f_lower / (f_upper - f_lower);
        let f_c = f(c);
        if f_c * f_upper <= 0.0 {
            lower = upper;
            f_lower = f_upper;
        } else {
            f_lower /= 2.0;
        }
        upper = c;
        f_upper = f_c;
    }
    (lower / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Glickman's paper: 1500 ± 200 (σ 0.06) beats 1400 ± 30 and loses
    /// to 1550 ± 100 and 1700 ± 300; the paper gives 1464.06 ± 151.52, σ 0.05999.
    #[test]
    fn the_paper_s_example_comes_out() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let games = [
            Game {
                rating: 1400.0,
                deviation: 30.0,
                score: 1.0,
            },
            Game {
                rating: 1550.0,
                deviation: 100.0,
                score: 0.0,
            },
            Game {
                rating: 1700.0,
                deviation: 300.0,
                score: 0.0,
            },
        ];
        let after = player.after(&games);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_solved_puzzle_raises_and_a_failed_one_lowers_and_both_make_it_surer() {
        let new = Rating::default();
        let puzzle = |score| Game {
            rating: 1500.0,
            deviation: 80.0,
            score,
        };
        let won = new.after(&[puzzle(1.0)]);
        let lost = new.after(&[puzzle(0.0)]);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!(won.deviation < MAX_DEVIATION && lost.deviation < MAX_DEVIATION);
        assert!((won.rating - 1500.0 - (1500.0 - lost.rating)).abs() < 1e-6);
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation_up_to_its_cap() {
        let sure = Rating {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        let later = sure.after(&[]);
        assert_eq!(later.rating, 1800.0);
        assert!(later.deviation > 50.0);
        assert_eq!(Rating::default().after(&[]).deviation, MAX_DEVIATION);
    }
}
