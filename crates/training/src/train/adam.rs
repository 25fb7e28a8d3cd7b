//! Adam (Kingma & Ba, 2014) over all the network's parameters, one step per batch, with the
//! shards' gradients summed in shard order and every parameter clipped after its step (so the
//! export is exact, see [`super::model::CLIP`]).
//!
//! Dense: every parameter moves every step, including first-layer columns the batch did not
//! touch (their moments decay and keep moving them a little). At `H` = 128 the step costs a
//! few per cent of a batch's time (measured, docs/NNUE.md), so a lazy variant is not needed.

use super::model::{Gradient, Model};

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The optimiser's state: the moments of every parameter and the steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments (running mean of the gradient), in the model's layout.
    pub m: Vec<f32>,
    /// Second moments (running mean of the squared gradient).
    pub v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

/// What one step needs besides the moments.
#[derive(Clone, Copy)]
struct StepSize {
    /// Multiplies the summed gradient (1 / batch size: the loss is a mean).
    scale: f32,
    lr: f32,
    /// Adam's bias corrections, `1 − β^t`.
    correction1: f32,
    correction2: f32,
    /// The bound of a first-layer weight (`Shape::first_layer_bound`).
    column_bound: f32,
}

impl Adam {
    /// Zero moments for `size` parameters.
    pub fn new(size: usize) -> Adam {
        Adam {
            m: vec![0.0; size],
            v: vec![0.0; size],
            steps: 0,
        }
    }

    /// One step with learning rate `lr` on the gradient `scale × Σ shards` (added in shard
    /// order), on `threads` threads (each parameter's update depends on that parameter alone,
    /// so the result does not depend on the number of threads).
    pub fn step(
        &mut self,
        model: &mut Model,
        shards: &[&Gradient],
        scale: f32,
        lr: f32,
        threads: usize,
    ) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let size = StepSize {
            scale,
            lr,
            correction1: 1.0 - BETA1.powi(t),
            correction2: 1.0 - BETA2.powi(t),
            column_bound: model.shape().first_layer_bound(),
        };
        let h = model.hidden();
        let inputs = model.shape().columns();
        let bound_tail: Vec<f32> = (inputs * h..model.params().len())
            .map(|i| model.bound(i))
            .collect();
        let params = model.params_mut();
        let (columns, tail) = params.split_at_mut(inputs * h);
        let (m_columns, m_tail) = self.m.split_at_mut(inputs * h);
        let (v_columns, v_tail) = self.v.split_at_mut(inputs * h);
        let threads = threads.max(1);
        let per_thread = inputs.div_ceil(threads) * h;
        std::thread::scope(|scope| {
            let parts = columns
                .chunks_mut(per_thread)
                .zip(m_columns.chunks_mut(per_thread))
                .zip(v_columns.chunks_mut(per_thread))
                .enumerate();
            for (t, ((p, m), v)) in parts {
                let first = t * per_thread / h;
                let mut work = move || update_columns(first, p, m, v, shards, h, size);
                if t + 1 == threads {
                    work();
                } else {
                    scope.spawn(work);
                }
            }
        });
        // Biases and output weights: every shard's entries count.
        let offset = inputs * h;
        for (j, ((p, m), v)) in tail.iter_mut().zip(m_tail).zip(v_tail).enumerate() {
            let mut g = 0.0;
            for shard in shards {
                g += shard.values[offset + j];
            }
            update(p, m, v, g, size);
            *p = p.clamp(-bound_tail[j], bound_tail[j]);
        }
    }
}

/// Updates the first-layer columns from `first` on (`p`, `m`, `v` hold whole columns).
fn update_columns(
    first: usize,
    p: &mut [f32],
    m: &mut [f32],
    v: &mut [f32],
    shards: &[&Gradient],
    h: usize,
    size: StepSize,
) {
    let mut g = vec![0.0f32; h];
    let columns = p
        .chunks_exact_mut(h)
        .zip(m.chunks_exact_mut(h))
        .zip(v.chunks_exact_mut(h));
    for (c, ((p, m), v)) in columns.enumerate() {
        let input = first + c;
        g.fill(0.0);
        for shard in shards {
            if shard.touched[input] {
                let column = &shard.values[input * h..(input + 1) * h];
                for (a, b) in g.iter_mut().zip(column) {
                    *a += b;
                }
            }
        }
        for (((p, m), v), &g) in p.iter_mut().zip(m).zip(v).zip(&g) {
            update(p, m, v, g, size);
            *p = p.clamp(-size.column_bound, size.column_bound);
        }
    }
}

/// Adam's update of one parameter with its summed gradient `g`.
#[inline]
fn update(p: &mut f32, m: &mut f32, v: &mut f32, g: f32, size: StepSize) {
    let g = g * size.scale;
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    let m_hat = *m / size.correction1;
    let v_hat = *v / size.correction2;
    *p -= size.lr * m_hat / (v_hat.sqrt() + EPSILON);
}
