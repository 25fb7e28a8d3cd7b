//! The training loop: targets, the order of each epoch, the learning-rate schedule, one epoch
//! of batches (gradients on the shards, one Adam step per batch), and the losses.

use super::adam::Adam;
use super::data::{FileFlip, Mirror, Positions};
use super::model::{sigmoid, Gradient, Model, Scratch, Shape};
use super::shards::{self, SHARDS};
use xiangqi::Position;
use xiangqi_engine::nnue::{Network, SCALE};
use xiangqi_engine::random::Rng;

/// The learning rate falls along a cosine from `--lr` at the first batch to this fraction of
/// it at the last.
pub const FINAL_LR_RATIO: f64 = 0.05;

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Units in the first layer.
    pub hidden: usize,
    /// Output buckets (1: one output layer for every position).
    pub buckets: usize,
    /// A set of inputs for each palace square of the side's own general.
    pub king_buckets: bool,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's learning rate at the start.
    pub lr: f64,
    /// Share of the target taken from the search's score (the rest from the game's result).
    pub lambda: f64,
    /// The scaling constant: `sigmoid(K × centi-soldiers)` is an expected result.
    pub k: f64,
    /// Seeds the initial weights and the order of every epoch.
    pub seed: u64,
    /// Whether half the positions of each epoch are trained with their files mirrored (see
    /// [`flipped`]).
    pub flip_files: bool,
    /// Threads (they never change the result).
    pub threads: usize,
}

/// Where a training stands: the network, the optimiser and the epochs done.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The float network.
    pub model: Model,
    /// Adam's moments.
    pub adam: Adam,
    /// Epochs completed.
    pub epochs_done: usize,
    /// The epoch with the lowest validation loss so far, if any is done.
    pub best: Option<Best>,
}

/// The best epoch so far: the one whose float network had the lowest validation loss.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// The epoch's number, from 1.
    pub epoch: usize,
    /// Its validation loss.
    pub loss: f64,
    /// Its exported network file.
    pub network: Vec<u8>,
}

impl Settings {
    /// The network's architecture.
    pub fn shape(&self) -> Shape {
        Shape {
            hidden: self.hidden,
            buckets: self.buckets,
            king_buckets: self.king_buckets,
        }
    }
}

impl State {
    /// Records epoch `epoch` (from 1) with its validation loss and network file, if its loss
    /// is the lowest so far (a tie keeps the earlier epoch).
    pub fn offer_best(&mut self, epoch: usize, loss: f64, network: impl FnOnce() -> Vec<u8>) {
        if self.best.as_ref().is_none_or(|best| loss < best.loss) {
            self.best = Some(Best {
                epoch,
                loss,
                network: network(),
            });
        }
    }
}

impl State {
    /// The state before the first epoch: weights drawn from the seed.
    pub fn new(settings: &Settings) -> State {
        let model = Model::new(settings.shape(), settings.seed);
        let adam = Adam::new(model.params().len());
        State {
            model,
            adam,
            epochs_done: 0,
            best: None,
        }
    }
}

/// Each position's target: `λ · sigmoid(K · score) + (1 − λ) · result`.
pub fn targets(data: &Positions, k: f64, lambda: f64) -> Vec<f32> {
    (0..data.len())
        .map(|i| {
            let expected = sigmoid((k * f64::from(data.score(i))) as f32);
            (lambda as f32) * expected + (1.0 - lambda as f32) * data.result(i)
        })
        .collect()
}

/// The order of the training positions in epoch `epoch` (from 0): a shuffle drawn from the
/// seed and the epoch alone, so a resumed training needs no generator state.
pub fn epoch_order(seed: u64, epoch: usize, len: usize) -> Vec<u32> {
    let mixed = seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = Rng::new(Rng::new(mixed).next_u64());
    let mut order: Vec<u32> = (0..len as u32).collect();
    for i in (1..len).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// Whether position `i` is trained with its files mirrored in epoch `epoch`: a coin drawn
/// from the seed and the position for the even epochs, the other side of it for the odd ones,
/// so each position is seen both ways equally often and a resumed training needs no generator
/// state.
#[inline]
pub fn flipped(seed: u64, epoch: usize, i: usize) -> bool {
    let mut x = seed ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    // SplitMix64's finaliser: every bit of the input stirs the low bit.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (x & 1 == 1) != (epoch % 2 == 1)
}

/// The learning rate of step `step` (from 0) of `total`: a cosine from `lr` down to
/// `lr × FINAL_LR_RATIO`.
pub fn learning_rate(lr: f64, step: u64, total: u64) -> f64 {
    let progress = step as f64 / total.saturating_sub(1).max(1) as f64;
    let low = lr * FINAL_LR_RATIO;
    low + (lr - low) * 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos())
}

/// Batches in an epoch of `len` positions (the last one may be smaller).
pub fn batches(len: usize, batch: usize) -> usize {
    len.div_ceil(batch.max(1))
}

/// One shard's working memory.
struct Shard {
    grad: Gradient,
    scratch: Scratch,
    loss: f64,
}

/// Runs epoch `state.epochs_done` over `data` and returns its mean training loss (each
/// position's loss taken before the step its batch makes). `progress` gets the positions done
/// so far in the epoch after every batch.
pub fn train_epoch(
    state: &mut State,
    data: &Positions,
    targets: &[f32],
    settings: &Settings,
    progress: &mut dyn FnMut(usize),
) -> f64 {
    let mirror = Mirror::new();
    let flip = FileFlip::new();
    let epoch = state.epochs_done;
    let shape = state.model.shape();
    let mut shards: Vec<Shard> = (0..SHARDS)
        .map(|_| Shard {
            grad: Gradient::new(shape),
            scratch: Scratch::new(shape.hidden),
            loss: 0.0,
        })
        .collect();
    let order = epoch_order(settings.seed, state.epochs_done, data.len());
    let per_epoch = batches(data.len(), settings.batch) as u64;
    let total_steps = per_epoch * settings.epochs as u64;
    let k_scale = (settings.k * f64::from(SCALE)) as f32;
    let mut loss = 0.0;
    for (b, batch) in order.chunks(settings.batch.max(1)).enumerate() {
        let step = state.epochs_done as u64 * per_epoch + b as u64;
        let model = &state.model;
        shards::run(&mut shards, settings.threads, |s, shard| {
            shard.grad.clear();
            shard.loss = 0.0;
            let (mut us, mut them) = ([0u16; 64], [0u16; 64]);
            for &i in &batch[shards::range(batch.len(), SHARDS, s)] {
                let i = i as usize;
                let mirrored = settings.flip_files && flipped(settings.seed, epoch, i);
                let files = mirrored.then_some(&flip);
                let n = columns(data, i, &mirror, files, shape, &mut us, &mut them);
                let l = model.backward(
                    &us[..n],
                    &them[..n],
                    targets[i],
                    k_scale,
                    &mut shard.scratch,
                    &mut shard.grad,
                );
                shard.loss += f64::from(l);
            }
        });
        for shard in &shards {
            loss += shard.loss;
        }
        let grads: Vec<&Gradient> = shards.iter().map(|s| &s.grad).collect();
        let lr = learning_rate(settings.lr, step, total_steps) as f32;
        let scale = 1.0 / batch.len() as f32;
        state
            .adam
            .step(&mut state.model, &grads, scale, lr, settings.threads);
        progress((b * settings.batch + batch.len()).min(data.len()));
    }
    state.epochs_done += 1;
    loss / data.len().max(1) as f64
}

/// The training columns of position `i` of `data` for a network of `shape`, the side to move's
/// in `us` and the other side's in `them`, the files mirrored when `flip` is given; returns
/// how many each side has.
pub fn columns(
    data: &Positions,
    i: usize,
    mirror: &Mirror,
    flip: Option<&FileFlip>,
    shape: Shape,
    us: &mut [u16; 64],
    them: &mut [u16; 64],
) -> usize {
    let (mut red_view, mut black_view) = ([0u16; 32], [0u16; 32]);
    let n = data.inputs(i, mirror, &mut red_view, &mut black_view);
    if let Some(flip) = flip {
        flip.apply(&mut red_view[..n]);
        flip.apply(&mut black_view[..n]);
    }
    us[..n].copy_from_slice(&red_view[..n]);
    them[..n].copy_from_slice(&black_view[..n]);
    shape.expand(them, n);
    shape.expand(us, n)
}

/// The float network's mean loss on `data` against `targets`.
pub fn validation_loss(
    model: &Model,
    data: &Positions,
    targets: &[f32],
    k: f64,
    threads: usize,
) -> f64 {
    let mirror = Mirror::new();
    let k_scale = (k * f64::from(SCALE)) as f32;
    let mut sums: Vec<(Scratch, f64)> = (0..SHARDS)
        .map(|_| (Scratch::new(model.hidden()), 0.0))
        .collect();
    shards::run(&mut sums, threads, |s, (scratch, sum)| {
        let (mut us, mut them) = ([0u16; 64], [0u16; 64]);
        for i in shards::range(data.len(), SHARDS, s) {
            let n = columns(data, i, &mirror, None, model.shape(), &mut us, &mut them);
            *sum += f64::from(model.loss(&us[..n], &them[..n], targets[i], k_scale, scratch));
        }
    });
    sums.iter().map(|(_, s)| s).sum::<f64>() / data.len().max(1) as f64
}

/// The loss of the data's own search scores as predictions, `sigmoid(K · score)`: a reference
/// for the network's (with `λ` = 1 it is 0, as the target is then the prediction).
pub fn score_loss(data: &Positions, targets: &[f32], k: f64) -> f64 {
    let sum: f64 = (0..data.len())
        .map(|i| {
            let p = sigmoid((k * f64::from(data.score(i))) as f32);
            f64::from((p - targets[i]) * (p - targets[i]))
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The integer network's mean loss on `positions` (each with its target): the engine's own
/// evaluation, in centi-soldiers, through `sigmoid(K · eval)`.
pub fn quantized_loss(
    network: &Network,
    positions: &[(Position, f32)],
    k: f64,
    threads: usize,
) -> f64 {
    let mut sums = vec![0.0f64; SHARDS];
    shards::run(&mut sums, threads, |s, sum| {
        for (pos, target) in &positions[shards::range(positions.len(), SHARDS, s)] {
            let p = sigmoid((k * f64::from(network.evaluate(pos))) as f32);
            *sum += f64::from((p - target) * (p - target));
        }
    });
    sums.iter().sum::<f64>() / positions.len().max(1) as f64
}
