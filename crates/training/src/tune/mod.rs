//! `xiangqi tune`: Texel tuning of the evaluation weights on positions labelled with game
//! results (from `xiangqi datagen`).
//!
//! ```text
//! xiangqi tune --data data.txt --iterations 3 --out tuned-weights.rs.txt
//! ```
//!
//! First the scaling constant `K` is fitted so that `sigmoid(K · eval)` of the current
//! weights predicts the results best; then, with `K` fixed, the weights are fitted to minimise
//! the mean squared error. Each pass linearises the evaluation around the current weights
//! ([`linear`]), runs Adam on that model ([`adam`]), rounds the weights and measures the real
//! error with the real evaluator; a pass that does not lower it ends the tuning. The last
//! part of the data (whole games, as datagen writes games one after another) is held out to
//! show that the fit is not mere memorisation.
//!
//! Files: [`data`] reads the data, [`sigmoid`] the error and `K`, [`parallel`] splits work over
//! threads, [`linear`] and [`adam`] fit, [`report`] writes the result.

pub mod adam;
pub mod data;
pub mod linear;
pub mod parallel;
pub mod report;
pub mod sigmoid;

use anyhow::{bail, Result};
use clap::Args;
use data::Sample;
use linear::Linear;
use parallel::fold_chunks;
use sigmoid::{fit_k, mean_error, Point};
use std::path::PathBuf;
use std::time::Instant;
use xiangqi::Color;
use xiangqi_engine::tuning::Evaluator;
use xiangqi_engine::tuning::{Weights, DEFAULT_WEIGHTS};
use xiangqi_files::{out, outln};

/// Arguments of `tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// A data file of `FEN;result;score` lines (repeat for more files).
    #[arg(long = "data", value_name = "FILE", required = true)]
    data: Vec<PathBuf>,
    /// Use at most this many positions (the first ones).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Passes: linearise, fit, round, measure.
    #[arg(long, default_value_t = 3, value_name = "I")]
    iterations: usize,
    /// Adam steps per pass.
    #[arg(long, default_value_t = 500, value_name = "N")]
    steps: usize,
    /// Largest change of a weight per Adam step at the start of a pass (centi-soldiers).
    #[arg(long, default_value_t = 1.0, value_name = "CP")]
    rate: f64,
    /// How much the target leans on the search score instead of the game result: the target
    /// is (1 − w) · result + w · sigmoid(K · score). 0 is classic Texel tuning.
    #[arg(long, default_value_t = 0.0, value_name = "W")]
    score_weight: f64,
    /// Penalty per squared centi-soldier of distance from the weights in use (L2), against
    /// over-fitting weights that few positions inform.
    #[arg(long, default_value_t = 1e-8, value_name = "LAMBDA")]
    regularization: f64,
    /// Share of the positions (the last ones) held out to check the fit.
    #[arg(long, default_value_t = 0.1, value_name = "FRACTION")]
    validation: f64,
    /// Threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Where to write the tuned weights as a Rust literal (with the changes as comments).
    #[arg(long, default_value = "tuned-weights.rs.txt", value_name = "FILE")]
    out: PathBuf,
}

/// How to tune.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Passes.
    pub iterations: usize,
    /// Adam settings of each pass.
    pub adam: adam::Settings,
    /// Share of the target taken from the search score (0: results only).
    pub score_weight: f64,
    /// Threads for everything parallel.
    pub threads: usize,
}

/// What tuning found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The fitted scaling constant.
    pub k: f64,
    /// Training error of the starting weights (against the blended targets).
    pub start_error: f64,
    /// Training error of the tuned weights (against the blended targets).
    pub error: f64,
    /// Held-out error of the starting weights and of the tuned ones (when any is held out).
    pub validation: Option<(f64, f64)>,
    /// The tuned weights.
    pub weights: Weights,
}

/// The evaluations of `samples` from Red's point of view, with their results.
pub fn points(samples: &[Sample], weights: &Weights, threads: usize) -> Vec<Point> {
    let evaluator = Evaluator::new(weights.clone());
    fold_chunks(
        samples,
        threads,
        Vec::new,
        |out, _, s| {
            let e = evaluator.evaluate(&s.pos) as f64;
            let eval = match s.pos.side_to_move() {
                Color::Red => e,
                Color::Black => -e,
            };
            out.push(Point {
                eval,
                result: s.result,
            });
        },
        |mut a, b| {
            a.extend(b);
            a
        },
    )
}

/// The real mean squared error of `weights` on `samples`.
pub fn error_of(samples: &[Sample], weights: &Weights, k: f64, threads: usize) -> f64 {
    mean_error(&points(samples, weights, threads), k, threads)
}

/// The training targets: each sample's result, blended with the expectation of its search
/// score when `score_weight` is above 0 (samples without a score keep their result).
fn blended(samples: &[Sample], k: f64, score_weight: f64) -> Vec<Sample> {
    samples
        .iter()
        .map(|s| {
            let result = match s.score {
                Some(score) if score_weight > 0.0 => {
                    (1.0 - score_weight) * s.result
                        + score_weight * sigmoid::sigmoid(k * score as f64)
                }
                _ => s.result,
            };
            Sample {
                result,
                ..s.clone()
            }
        })
        .collect()
}

/// Tunes from `start` on `train`; `log` gets progress lines. A pass is kept only if it lowers
/// the real training error and, when positions are held out, their error (against the game
/// results alone): the first pass that fails ends the tuning.
pub fn tune(
    train: &[Sample],
    validation: &[Sample],
    start: &Weights,
    settings: &Settings,
    log: &mut dyn FnMut(String),
) -> Tuned {
    let threads = settings.threads;
    let k = fit_k(&points(train, start, threads), threads);
    log(format!(
        "K = {k:.6}: error against results {:.6}",
        error_of(train, start, k, threads)
    ));
    let targets = blended(train, k, settings.score_weight);
    let start_error = error_of(&targets, start, k, threads);
    let val_start = (!validation.is_empty()).then(|| error_of(validation, start, k, threads));
    if let Some(v) = val_start {
        log(format!("start: error {start_error:.6}, held out {v:.6}"));
    }
    let anchor: Vec<f64> = start.values().iter().map(|&v| v as f64).collect();
    let mut best = start.clone();
    let mut best_error = start_error;
    let mut best_val = val_start;
    for pass in 1..=settings.iterations {
        let started = Instant::now();
        let model = Linear::build(&targets, &best, threads);
        log(format!(
            "pass {pass}: linearised {} positions ({:.1} weights each) in {:.1} s",
            model.len(),
            model.density(),
            started.elapsed().as_secs_f64()
        ));
        let fitted = adam::fit(&model, k, &anchor, settings.adam, |step, error| {
            log(format!(
                "pass {pass}: step {step:>5}: model error {error:.6}"
            ));
        });
        let rounded: Vec<i32> = fitted
            .iter()
            .map(|w| w.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32)
            .collect();
        let Some(candidate) = best.with_values(&rounded) else {
            break;
        };
        let error = error_of(&targets, &candidate, k, threads);
        let val = best_val.map(|_| error_of(validation, &candidate, k, threads));
        let val_text = match (best_val, val) {
            (Some(a), Some(b)) => format!(", held out {a:.6} -> {b:.6}"),
            _ => String::new(),
        };
        log(format!(
            "pass {pass}: error {best_error:.6} -> {error:.6}{val_text} ({:.1} s)",
            started.elapsed().as_secs_f64()
        ));
        let val_worse = matches!((best_val, val), (Some(a), Some(b)) if b >= a);
        if error >= best_error || val_worse {
            log(format!(
                "pass {pass}: no improvement, keeping the weights before it"
            ));
            break;
        }
        best = candidate;
        best_error = error;
        best_val = val;
    }
    Tuned {
        k,
        start_error,
        error: best_error,
        validation: val_start.zip(best_val),
        weights: best,
    }
}

/// Runs `tune`: progress on stderr, the changes on stdout, the literal to `--out`.
pub fn run(args: &TuneArgs) -> Result<()> {
    if !(0.0..1.0).contains(&args.validation) {
        bail!("--validation must be at least 0 and below 1");
    }
    if !(0.0..=1.0).contains(&args.score_weight) {
        bail!("--score-weight must be from 0 to 1");
    }
    // Before the work, not after it: --out must be a regular file or nothing.
    xiangqi_files::disk::check_target(&args.out)?;
    let threads = args
        .threads
        .unwrap_or_else(parallel::default_threads)
        .max(1);
    let started = Instant::now();
    let samples = data::read_files(&args.data, args.limit.unwrap_or(usize::MAX))?;
    if samples.len() < 2 {
        bail!(
            "the data hold {} position(s); tuning needs more",
            samples.len()
        );
    }
    let held_out = (samples.len() as f64 * args.validation) as usize;
    let (train, validation) = samples.split_at(samples.len() - held_out);
    eprintln!(
        "read {} positions ({} for training, {} held out) in {:.1} s",
        samples.len(),
        train.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    let settings = Settings {
        iterations: args.iterations,
        adam: adam::Settings {
            steps: args.steps,
            rate: args.rate,
            l2: args.regularization.max(0.0),
            threads,
        },
        score_weight: args.score_weight,
        threads,
    };
    let tuned = tune(
        train,
        validation,
        &DEFAULT_WEIGHTS,
        &settings,
        &mut |line| eprintln!("{line}"),
    );
    let mut summary = vec![
        format!(
            "Tuned by `xiangqi tune` on {} positions ({}).",
            train.len(),
            args.data
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "K {:.6}; score weight {}; L2 {}; training error {:.6} -> {:.6}",
            tuned.k, args.score_weight, args.regularization, tuned.start_error, tuned.error
        ),
    ];
    if let Some((before, after)) = tuned.validation {
        summary.push(format!(
            "held-out error ({} positions) {before:.6} -> {after:.6}",
            validation.len()
        ));
    }
    for line in &summary {
        outln!("{line}");
    }
    out!("{}", report::changes(&DEFAULT_WEIGHTS, &tuned.weights));
    let file = report::tuned_file(&DEFAULT_WEIGHTS, &tuned.weights, &summary);
    xiangqi_files::disk::replace(&args.out, file.as_bytes())?;
    eprintln!(
        "wrote {} in {:.1} s",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sigmoid::sigmoid;
    use xiangqi::Position;
    use xiangqi_engine::random::Rng;

    /// Positions from random games, labelled with the expectation of a "true" evaluation that
    /// values chariots and tempo differently from the hand-made one.
    fn synthetic() -> (Vec<Sample>, Weights) {
        let mut truth = DEFAULT_WEIGHTS.clone();
        truth.material[4].mg += 200;
        truth.material[4].eg += 200;
        truth.horse_mobility.mg += 10;
        let evaluator = Evaluator::new(truth.clone());
        let mut rng = Rng::new(3);
        let mut samples = Vec::new();
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
                let e = evaluator.evaluate(&pos) as f64;
                let red = match pos.side_to_move() {
                    Color::Red => e,
                    Color::Black => -e,
                };
                samples.push(Sample {
                    pos: pos.clone(),
                    result: sigmoid(0.004 * red),
                    score: Some(red as i32),
                });
            }
        }
        (samples, truth)
    }

    #[test]
    fn tuning_lowers_the_error_and_moves_towards_the_truth() {
        let (samples, truth) = synthetic();
        let (train, validation) = samples.split_at(samples.len() * 9 / 10);
        let settings = Settings {
            iterations: 2,
            adam: adam::Settings {
                steps: 300,
                rate: 4.0,
                l2: 0.0,
                threads: 2,
            },
            score_weight: 0.0,
            threads: 2,
        };
        let mut lines = Vec::new();
        let tuned = tune(train, validation, &DEFAULT_WEIGHTS, &settings, &mut |l| {
            lines.push(l)
        });
        assert!(tuned.error < tuned.start_error * 0.8, "{lines:#?}");
        let (before, after) = tuned.validation.unwrap();
        assert!(after < before, "{lines:#?}");
        let chariot = tuned.weights.material[4].mg;
        assert!(
            chariot > DEFAULT_WEIGHTS.material[4].mg + 50,
            "chariot {chariot}, truth {}",
            truth.material[4].mg
        );
        assert!(lines[0].starts_with("K = "));
    }

    #[test]
    fn score_weight_blends_the_targets() {
        let (samples, _) = synthetic();
        let mut s = samples[0].clone();
        s.result = 1.0;
        s.score = Some(0);
        let plain = blended(std::slice::from_ref(&s), 0.01, 0.0);
        assert_eq!(plain[0].result, 1.0);
        let half = blended(std::slice::from_ref(&s), 0.01, 0.5);
        assert!((half[0].result - 0.75).abs() < 1e-12);
        s.score = None;
        assert_eq!(blended(&[s], 0.01, 0.5)[0].result, 1.0);
    }

    #[test]
    fn error_of_agrees_with_points() {
        let (samples, _) = synthetic();
        let points = points(&samples[..50], &DEFAULT_WEIGHTS, 2);
        assert_eq!(points.len(), 50);
        let direct = mean_error(&points, 0.01, 1);
        assert!((error_of(&samples[..50], &DEFAULT_WEIGHTS, 0.01, 3) - direct).abs() < 1e-12);
    }
}
