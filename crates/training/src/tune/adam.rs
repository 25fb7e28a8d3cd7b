//! Fits the weights to the results on a [`Linear`] model with Adam (Kingma & Ba, 2014):
//! full-batch gradient descent with a step per weight scaled by that weight's own gradient
//! history, which suits weights of very different sizes (a chariot's value and a mobility
//! bonus) without hand-set step sizes.

use super::linear::Linear;
use super::parallel::fold_range;
use super::sigmoid::sigmoid;

/// How to run the optimiser.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Gradient steps.
    pub steps: usize,
    /// Largest change of a weight per step at the start (centi-soldiers); it falls linearly to
    /// a tenth of that by the last step.
    pub rate: f64,
    /// Weight of the penalty `Σ (w − anchor)²` (centi-soldiers squared) added to the error,
    /// which keeps weights the data say little about near their current values.
    pub l2: f64,
    /// Threads for the gradient.
    pub threads: usize,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-12;

/// The model's mean squared error and its gradient with respect to the weights at
/// `origin + delta`, for the scaling constant `k`.
pub fn error_and_gradient(
    model: &Linear,
    k: f64,
    delta: &[f64],
    threads: usize,
) -> (f64, Vec<f64>) {
    let n = model.len();
    let (sum, mut gradient) = fold_range(
        n,
        threads,
        || (0.0, vec![0.0; delta.len()]),
        |(sum, gradient), j| {
            let predicted = sigmoid(k * model.eval(j, delta));
            let miss = predicted - model.result(j);
            *sum += miss * miss;
            // d/dw (r − σ(k·e))² = 2 (σ − r) σ (1 − σ) k de/dw
            let factor = 2.0 * miss * predicted * (1.0 - predicted) * k;
            model.add_gradient(j, factor, gradient);
        },
        |(s1, mut g1), (s2, g2)| {
            for (a, b) in g1.iter_mut().zip(g2) {
                *a += b;
            }
            (s1 + s2, g1)
        },
    );
    let scale = 1.0 / n.max(1) as f64;
    for g in &mut gradient {
        *g *= scale;
    }
    (sum * scale, gradient)
}

/// Runs Adam from the model's origin and returns the fitted weights (unrounded), penalising
/// distance from `anchor` (see [`Settings::l2`]). `report` gets the step number and the model's
/// error (penalty included) before that step, every `steps / 10` steps.
pub fn fit(
    model: &Linear,
    k: f64,
    anchor: &[f64],
    settings: Settings,
    mut report: impl FnMut(usize, f64),
) -> Vec<f64> {
    let dims = model.origin().len();
    let mut delta = vec![0.0; dims];
    let mut m = vec![0.0; dims];
    let mut v = vec![0.0; dims];
    let every = (settings.steps / 10).max(1);
    for step in 0..settings.steps {
        let (mut error, mut gradient) = error_and_gradient(model, k, &delta, settings.threads);
        for i in 0..dims {
            let away = model.origin()[i] + delta[i] - anchor[i];
            error += settings.l2 * away * away;
            gradient[i] += 2.0 * settings.l2 * away;
        }
        if step % every == 0 {
            report(step, error);
        }
        let t = (step + 1) as i32;
        let progress = step as f64 / settings.steps.max(1) as f64;
        let rate = settings.rate * (1.0 - 0.9 * progress);
        for i in 0..dims {
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * gradient[i];
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * gradient[i] * gradient[i];
            let m_hat = m[i] / (1.0 - BETA1.powi(t));
            let v_hat = v[i] / (1.0 - BETA2.powi(t));
            delta[i] -= rate * m_hat / (v_hat.sqrt() + EPSILON);
        }
    }
    model
        .origin()
        .iter()
        .zip(&delta)
        .map(|(o, d)| o + d)
        .collect()
}
