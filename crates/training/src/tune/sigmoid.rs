//! The Texel error: how far results are from `sigmoid(K · eval)`, and the scaling constant `K`
//! that makes the current evaluation fit the results best.

use super::parallel::fold_chunks;

/// The logistic function: the expected score for an advantage `x` (in units of `1/K` cp).
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One position's evaluation (Red's view, centi-soldiers) and its game's result for Red.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Evaluation from Red's point of view.
    pub eval: f64,
    /// Red's result, 0 to 1.
    pub result: f64,
}

/// Mean squared difference between results and `sigmoid(k · eval)`.
pub fn mean_error(points: &[Point], k: f64, threads: usize) -> f64 {
    if points.is_empty() {
        return 0.0;
    }
    let sum = fold_chunks(
        points,
        threads,
        || 0.0,
        |acc, _, p| {
            let d = p.result - sigmoid(k * p.eval);
            *acc += d * d;
        },
        |a, b| a + b,
    );
    sum / points.len() as f64
}

/// Smallest and largest `K` considered; the first is a practically flat curve, the last one
/// that turns a single soldier into a near-certain win.
const K_RANGE: (f64, f64) = (1e-5, 0.1);

/// The `K` minimising [`mean_error`]: a scan over a geometric grid finds the valley (the error
/// has a single minimum in `K` on real data), then golden-section search narrows it down.
pub fn fit_k(points: &[Point], threads: usize) -> f64 {
    let error = |k: f64| mean_error(points, k, threads);
    let ratio: f64 = 1.25;
    let mut grid = vec![K_RANGE.0];
    while let Some(&last) = grid.last() {
        if last >= K_RANGE.1 {
            break;
        }
        grid.push(last * ratio);
    }
    let errors: Vec<f64> = grid.iter().map(|&k| error(k)).collect();
    let best = (0..grid.len())
        .min_by(|&a, &b| errors[a].total_cmp(&errors[b]))
        .unwrap_or(0);
    let mut lo = grid[best.saturating_sub(1)];
    let mut hi = grid[(best + 1).min(grid.len() - 1)];
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - golden * (hi - lo);
    let mut b = lo + golden * (hi - lo);
    let (mut ea, mut eb) = (error(a), error(b));
    for _ in 0..60 {
        if ea < eb {
            hi = b;
            b = a;
            eb = ea;
            a = hi - golden * (hi - lo);
            ea = error(a);
        } else {
            lo = a;
            a = b;
            ea = eb;
            b = lo + golden * (hi - lo);
            eb = error(b);
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_engine::random::Rng;

    fn evals() -> impl Iterator<Item = f64> + Clone {
        (-300..=300).map(|i| i as f64 * 2.5)
    }

    #[test]
    fn recovers_k_from_exact_expectations() {
        let points: Vec<Point> = evals()
            .map(|eval| Point {
                eval,
                result: sigmoid(0.007 * eval),
            })
            .collect();
        let k = fit_k(&points, 2);
        assert!((k - 0.007).abs() < 1e-6, "{k}");
        assert!(mean_error(&points, k, 1) < 1e-12);
    }

    #[test]
    fn recovers_k_from_win_loss_draw_results() {
        // Results drawn at random with the true probabilities, as real games give them.
        let mut rng = Rng::new(5);
        let points: Vec<Point> = evals()
            .cycle()
            .take(60_000)
            .map(|eval| {
                let p = sigmoid(0.004 * eval);
                let result = if rng.unit() < p { 1.0 } else { 0.0 };
                Point { eval, result }
            })
            .collect();
        let k = fit_k(&points, 3);
        assert!((k - 0.004).abs() < 0.0004, "{k}");
    }

    #[test]
    fn error_of_a_perfect_and_a_hopeless_fit() {
        let right = [Point {
            eval: 10_000.0,
            result: 1.0,
        }];
        let wrong = [Point {
            eval: 10_000.0,
            result: 0.0,
        }];
        assert!(mean_error(&right, 0.01, 1) < 1e-9);
        assert!((mean_error(&wrong, 0.01, 1) - 1.0).abs() < 1e-9);
        assert_eq!(mean_error(&[], 0.01, 1), 0.0);
    }
}
