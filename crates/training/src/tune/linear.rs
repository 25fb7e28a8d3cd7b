//! The evaluation of every training position as a linear function of the weights around one
//! weight set (the "trace" of Texel tuning), so that an optimiser can try thousands of weight
//! sets without evaluating a single position.
//!
//! The evaluation is a sum of weight × feature count per phase, blended by the position's
//! phase and scaled down in drawish endings. How much each weight moves a position's score is
//! found generically, by evaluating with that weight raised by `STEP`: nothing here knows
//! what the weights mean, so a new weight in `Weights` is tuned without changes. Raising by a
//! multiple of 64 keeps the integer divisions inside the evaluation (eighths of the threat
//! weight, 64ths of the table scales) exact. The blend and the drawish scale are held at their
//! values for the linearisation point; the tuner re-linearises after each pass.

use super::data::Sample;
use super::parallel::fold_chunks;
use xiangqi_engine::tuning::Weights;
use xiangqi_engine::tuning::{Evaluator, Terms};

/// How far each weight is raised to measure its effect.
const STEP: i32 = 64;

/// One weight's effect on one position: d(eval) / d(weight).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    weight: u32,
    coefficient: f32,
}

/// Evaluations of a set of positions as linear functions of the weights.
pub struct Linear {
    /// The weights the functions are exact at.
    origin: Vec<f64>,
    /// Each position's evaluation at `origin`, from Red's point of view, unrounded.
    base: Vec<f64>,
    /// Each position's result for Red.
    results: Vec<f64>,
    /// Position `j`'s entries are `entries[starts[j]..starts[j + 1]]`.
    starts: Vec<usize>,
    /// The non-zero coefficients of all positions.
    entries: Vec<Entry>,
}

/// The unrounded evaluation, Red's view, with the blend and scale of `at`.
fn red_eval(t: &Terms, at: &Terms) -> f64 {
    let full = Terms::FULL_PHASE as f64;
    let phase = at.phase as f64;
    let blended = (t.mg as f64 * phase + t.eg as f64 * (full - phase)) / full;
    blended * at.scale as f64 / 64.0 + t.tempo as f64
}

/// What one chunk of positions contributes.
#[derive(Default)]
struct Part {
    base: Vec<f64>,
    results: Vec<f64>,
    counts: Vec<usize>,
    entries: Vec<Entry>,
}

impl Linear {
    /// Linearises the evaluation of every sample around `weights`, on `threads` threads.
    pub fn build(samples: &[Sample], weights: &Weights, threads: usize) -> Linear {
        let origin = weights.values();
        let center = Evaluator::new(weights.clone());
        let raised: Vec<Evaluator> = (0..origin.len())
            .map(|i| {
                let mut values = origin.clone();
                values[i] += STEP;
                // `values` has exactly one entry per weight, so this cannot fail.
                Evaluator::new(
                    weights
                        .with_values(&values)
                        .unwrap_or_else(|| weights.clone()),
                )
            })
            .collect();
        let part = fold_chunks(
            samples,
            threads,
            Part::default,
            |part, _, sample| {
                let at = center.terms(&sample.pos);
                part.base.push(red_eval(&at, &at));
                part.results.push(sample.result);
                let before = part.entries.len();
                for (i, evaluator) in raised.iter().enumerate() {
                    let t = evaluator.terms(&sample.pos);
                    let delta = red_eval(&t, &at) - part.base[part.base.len() - 1];
                    if delta != 0.0 {
                        part.entries.push(Entry {
                            weight: i as u32,
                            coefficient: (delta / STEP as f64) as f32,
                        });
                    }
                }
                part.counts.push(part.entries.len() - before);
            },
            |mut a, b| {
                a.base.extend(b.base);
                a.results.extend(b.results);
                a.counts.extend(b.counts);
                a.entries.extend(b.entries);
                a
            },
        );
        let mut starts = Vec::with_capacity(part.counts.len() + 1);
        starts.push(0);
        for count in &part.counts {
            starts.push(starts[starts.len() - 1] + count);
        }
        Linear {
            origin: origin.iter().map(|&v| v as f64).collect(),
            base: part.base,
            results: part.results,
            starts,
            entries: part.entries,
        }
    }

    /// The weights the functions are exact at.
    pub fn origin(&self) -> &[f64] {
        &self.origin
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// Average number of weights that move a position's evaluation.
    pub fn density(&self) -> f64 {
        self.entries.len() as f64 / self.len().max(1) as f64
    }

    /// Position `j`'s result for Red.
    pub fn result(&self, j: usize) -> f64 {
        self.results[j]
    }

    /// Position `j`'s evaluation (Red's view) with the weights `origin + delta`.
    #[inline]
    pub fn eval(&self, j: usize, delta: &[f64]) -> f64 {
        let mut e = self.base[j];
        for entry in &self.entries[self.starts[j]..self.starts[j + 1]] {
            e += entry.coefficient as f64 * delta[entry.weight as usize];
        }
        e
    }

    /// Adds `factor × d(eval_j)/d(weight)` to `gradient` for every weight position `j` depends on.
    #[inline]
    pub fn add_gradient(&self, j: usize, factor: f64, gradient: &mut [f64]) {
        for entry in &self.entries[self.starts[j]..self.starts[j + 1]] {
            gradient[entry.weight as usize] += factor * entry.coefficient as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::{Color, Position};
    use xiangqi_engine::tuning::DEFAULT_WEIGHTS;

    fn sample(fen: &str, result: f64) -> Sample {
        Sample {
            pos: Position::from_fen(fen).unwrap(),
            result,
            score: None,
        }
    }

    fn samples() -> Vec<Sample> {
        [
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 0 1",
            "2bak4/4a4/4b4/p7p/9/2P3P2/9/4C4/9/3AKA3 w - - 0 1",
            xiangqi::START_FEN,
        ]
        .iter()
        .map(|fen| sample(fen, 0.5))
        .collect()
    }

    fn true_red_eval(weights: &Weights, pos: &Position) -> f64 {
        let e = Evaluator::new(weights.clone()).evaluate(pos) as f64;
        match pos.side_to_move() {
            Color::Red => e,
            Color::Black => -e,
        }
    }

    #[test]
    fn agrees_with_the_evaluator_at_its_origin() {
        let linear = Linear::build(&samples(), &DEFAULT_WEIGHTS, 2);
        let zero = vec![0.0; linear.origin().len()];
        for (j, s) in samples().iter().enumerate() {
            let diff = linear.eval(j, &zero) - true_red_eval(&DEFAULT_WEIGHTS, &s.pos);
            // Only the evaluator's rounding separates them.
            assert!(diff.abs() < 2.0, "position {j}: {diff}");
        }
        assert!(linear.density() > 10.0);
    }

    #[test]
    fn predicts_the_evaluation_after_a_change() {
        let linear = Linear::build(&samples(), &DEFAULT_WEIGHTS, 1);
        let mut changed = DEFAULT_WEIGHTS.clone();
        changed.material[3].mg += 40;
        changed.chariot_mobility.eg -= 3;
        changed.hanging.mg += 16;
        changed.tempo += 5;
        let delta: Vec<f64> = changed
            .values()
            .iter()
            .zip(DEFAULT_WEIGHTS.values())
            .map(|(&a, b)| (a - b) as f64)
            .collect();
        for (j, s) in samples().iter().enumerate() {
            let diff = linear.eval(j, &delta) - true_red_eval(&changed, &s.pos);
            assert!(diff.abs() < 2.0, "position {j}: {diff}");
        }
    }
}
