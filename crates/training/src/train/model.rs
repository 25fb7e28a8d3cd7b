//! The network in floating point: its parameters, the forward pass, the backward pass (the
//! gradient of one position's loss) and the export to the engine's integers.
//!
//! For each side `s`, `a_s = bias + Σ W[input]` over `s`'s inputs (one per piece), the
//! activation is SCReLU `h = clamp(a, 0, 1)²`, and the output for the side to move is
//! `y = h_us · out_b[..H] + h_them · out_b[H..] + out_bias_b`, worth `y × SCALE` centi-soldiers,
//! where `b` is the output bucket of the position's number of pieces (`nnue::output_bucket`;
//! always 0 with one bucket). The loss of a position is `(sigmoid(K · SCALE · y) − target)²`.
//!
//! With king buckets the first layer is trained factorised: each piece feeds two columns, its
//! column in the set of its side's king bucket and its column in a set shared by all buckets,
//! so that what a piece is worth wherever the general stands is learnt from every position, and
//! only the difference a bucket makes from that bucket's positions. The export adds the two
//! (each is kept within half the bound, so that their sum is within it).

use xiangqi_engine::nnue::features::{INPUTS, KING_BUCKETS};
use xiangqi_engine::nnue::{output_bucket, Network, QA, QB, SCALE};
use xiangqi_engine::random::Rng;

/// Every weight and bias (of both layers) is kept within `±CLIP` after each step, so that the
/// export is exact: `32 × round(1.98 × QA) + round(1.98 × QA)` = 16,665 fits an `i16` sum, and
/// `round(1.98 × QB)` = 127 is the largest output weight the engine's kernel takes.
pub const CLIP: f32 = 1.98;
/// The output bias's bound: far beyond any useful value, but it keeps `round(b × QA × QB)`
/// within an `i32`.
pub const OUTPUT_BIAS_CLIP: f32 = 100.0;

/// The network's architecture: units in the first layer, king buckets or not, and output
/// buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Units in the first layer, for each side.
    pub hidden: usize,
    /// Output layers, one of which evaluates a position by its number of pieces.
    pub buckets: usize,
    /// A set of inputs for each palace square of the side's own general.
    pub king_buckets: bool,
}

impl Shape {
    /// One output bucket and no king buckets: the architecture of the networks before buckets.
    pub fn plain(hidden: usize) -> Shape {
        Shape {
            hidden,
            buckets: 1,
            king_buckets: false,
        }
    }

    /// First-layer columns in training: [`INPUTS`], or with king buckets a set for each bucket
    /// and the shared set after them.
    pub fn columns(self) -> usize {
        if self.king_buckets {
            (KING_BUCKETS + 1) * INPUTS
        } else {
            INPUTS
        }
    }

    /// The bound of a first-layer weight: with king buckets each of a piece's two columns is
    /// kept within half of [`CLIP`].
    pub fn first_layer_bound(self) -> f32 {
        if self.king_buckets {
            CLIP / 2.0
        } else {
            CLIP
        }
    }

    /// Where the output weights start in the parameters.
    fn output_start(self) -> usize {
        (self.columns() + 1) * self.hidden
    }

    /// Turns one side's inputs (`n` of them, one per piece, as the engine's plain network
    /// numbers them) into the training columns of this shape, in place: unchanged without
    /// king buckets; with them, each input's column in its side's king bucket, then its column
    /// in the shared set. Returns how many there are.
    pub fn expand(self, inputs: &mut [u16; 64], n: usize) -> usize {
        if !self.king_buckets {
            return n;
        }
        // The side's own general is input `square` (own pieces' generals come first), with the
        // square as the side sees the board: rank × 9 + file.
        let general = inputs[..n]
            .iter()
            .map(|&i| usize::from(i))
            .find(|&i| i < 90)
            .unwrap_or(4);
        let (rank, file) = (general / 9, general % 9);
        let bucket = rank.min(2) * 3 + file.clamp(3, 5) - 3;
        for j in 0..n {
            let input = usize::from(inputs[j]);
            inputs[n + j] = (KING_BUCKETS * INPUTS + input) as u16;
            inputs[j] = (bucket * INPUTS + input) as u16;
        }
        2 * n
    }

    /// Pieces on the board, from the count of one side's training columns.
    fn pieces(self, columns: usize) -> u32 {
        (if self.king_buckets {
            columns / 2
        } else {
            columns
        }) as u32
    }
}

/// The float network: all parameters in one vector (so the optimiser sees a flat list), in the
/// order first-layer weights (`INPUTS × H`, input by input), first-layer biases (`H`), output
/// weights (`2 × H` per bucket, bucket by bucket, the side to move's units first), output
/// biases (one per bucket): the order of the network file.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    shape: Shape,
    params: Vec<f32>,
}

/// A gradient in the layout of [`Model`]'s parameters, with a flag per input telling which
/// first-layer columns hold anything (the rest are zero): a batch touches few of them per
/// position, so summing and clearing skip the others.
#[derive(Clone, Debug)]
pub struct Gradient {
    shape: Shape,
    /// In the layout of [`Model::params`].
    pub values: Vec<f32>,
    /// `touched[i]`: column `i` of the first layer may be non-zero.
    pub touched: Vec<bool>,
}

/// Working memory for one position's passes (so the hot loop allocates nothing).
#[derive(Clone, Debug)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
}

impl Scratch {
    /// Room for a network of `hidden` units.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
        }
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// A network of `shape` with random weights from `seed`: first-layer weights uniform in
    /// ±0.1 (about 16 pieces put a unit's sum at a spread of 0.4 around its bias, across
    /// SCReLU's bend), biases 0, output weights uniform in ±1/√(2H) (an output near 0 to start
    /// with). With one bucket the weights are those of the networks made before buckets.
    pub fn new(shape: Shape, seed: u64) -> Model {
        let hidden = shape.hidden;
        let mut rng = Rng::new(seed);
        let mut uniform = |half: f32| ((rng.unit() * 2.0 - 1.0) as f32) * half;
        let mut params = vec![0.0; Model::size(shape)];
        // With king buckets the shared set starts as a plain network's first layer and the
        // buckets' own sets at 0: every bucket starts from the same values.
        let shared = (shape.columns() - INPUTS) * hidden;
        for w in &mut params[shared..shape.columns() * hidden] {
            *w = uniform(0.1);
        }
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        let start = shape.output_start();
        for w in &mut params[start..start + shape.buckets * 2 * hidden] {
            *w = uniform(out);
        }
        Model { shape, params }
    }

    /// A model with the given parameters (in the layout of [`Model::params`]), or `None` when
    /// their number does not fit `shape`.
    pub fn from_params(shape: Shape, params: Vec<f32>) -> Option<Model> {
        (params.len() == Model::size(shape)).then_some(Model { shape, params })
    }

    /// Parameters of a network of `shape`.
    pub fn size(shape: Shape) -> usize {
        (shape.columns() + 1) * shape.hidden + shape.buckets * (2 * shape.hidden + 1)
    }

    /// Units in the first layer.
    pub fn hidden(&self) -> usize {
        self.shape.hidden
    }

    /// The architecture.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// All parameters (see [`Model`] for the layout).
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// All parameters, to be changed by the optimiser (which must then [`Model::clip`]).
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// Where the output biases start in the parameters (the last `buckets` of them).
    fn output_bias_start(&self) -> usize {
        self.params.len() - self.shape.buckets
    }

    /// The bound of parameter `i` (see [`CLIP`]).
    #[inline]
    pub fn bound(&self, i: usize) -> f32 {
        if i >= self.output_bias_start() {
            OUTPUT_BIAS_CLIP
        } else if i < self.shape.columns() * self.shape.hidden {
            self.shape.first_layer_bound()
        } else {
            CLIP
        }
    }

    /// Brings every parameter within its bound.
    pub fn clip(&mut self) {
        let biases = self.output_bias_start();
        let first = self.shape.columns() * self.shape.hidden;
        let bound = self.shape.first_layer_bound();
        let (weights, output_biases) = self.params.split_at_mut(biases);
        let (columns, rest) = weights.split_at_mut(first);
        for w in columns {
            *w = w.clamp(-bound, bound);
        }
        for w in rest {
            *w = w.clamp(-CLIP, CLIP);
        }
        for b in output_biases {
            *b = b.clamp(-OUTPUT_BIAS_CLIP, OUTPUT_BIAS_CLIP);
        }
    }

    fn column(&self, input: usize) -> &[f32] {
        let h = self.shape.hidden;
        &self.params[input * h..(input + 1) * h]
    }

    fn bias(&self) -> &[f32] {
        let (h, c) = (self.shape.hidden, self.shape.columns());
        &self.params[c * h..(c + 1) * h]
    }

    /// The output bucket of a position whose side has these training columns.
    fn bucket(&self, us: &[u16]) -> usize {
        output_bucket(self.shape.pieces(us.len()), self.shape.buckets)
    }

    /// Where bucket `b`'s output weights start in the parameters.
    fn output_weights_start(&self, b: usize) -> usize {
        self.shape.output_start() + b * 2 * self.shape.hidden
    }

    fn output_weights(&self, b: usize) -> &[f32] {
        let start = self.output_weights_start(b);
        &self.params[start..start + 2 * self.shape.hidden]
    }

    fn output_bias(&self, b: usize) -> f32 {
        self.params[self.output_bias_start() + b]
    }

    /// The first-layer sums of one side: the bias plus the columns of its inputs.
    fn accumulate(&self, inputs: &[u16], sums: &mut [f32]) {
        sums.copy_from_slice(self.bias());
        for &input in inputs {
            for (s, w) in sums.iter_mut().zip(self.column(usize::from(input))) {
                *s += w;
            }
        }
    }

    /// The output `y` for the side to move, whose inputs are `us` (the other side's `them`);
    /// leaves the first-layer sums in `scratch`.
    pub fn forward(&self, us: &[u16], them: &[u16], scratch: &mut Scratch) -> f32 {
        self.accumulate(us, &mut scratch.us);
        self.accumulate(them, &mut scratch.them);
        let b = self.bucket(us);
        let (own, other) = self.output_weights(b).split_at(self.shape.hidden);
        let mut y = self.output_bias(b);
        for (a, w) in scratch.us.iter().zip(own) {
            y += screlu(*a) * w;
        }
        for (a, w) in scratch.them.iter().zip(other) {
            y += screlu(*a) * w;
        }
        y
    }

    /// The evaluation in centi-soldiers for the side to move.
    pub fn evaluate(&self, us: &[u16], them: &[u16], scratch: &mut Scratch) -> f32 {
        self.forward(us, them, scratch) * SCALE as f32
    }

    /// One position's loss `(sigmoid(k_scale · y) − target)²`, where `k_scale` is `K × SCALE`.
    pub fn loss(
        &self,
        us: &[u16],
        them: &[u16],
        target: f32,
        k_scale: f32,
        scratch: &mut Scratch,
    ) -> f32 {
        let p = sigmoid(k_scale * self.forward(us, them, scratch));
        (p - target) * (p - target)
    }

    /// Adds the gradient of one position's loss (as [`Model::loss`]) to `grad` and returns the
    /// loss. Only the columns of the position's inputs receive anything.
    pub fn backward(
        &self,
        us: &[u16],
        them: &[u16],
        target: f32,
        k_scale: f32,
        scratch: &mut Scratch,
        grad: &mut Gradient,
    ) -> f32 {
        let y = self.forward(us, them, scratch);
        let p = sigmoid(k_scale * y);
        let miss = p - target;
        // d/dy (σ(k y) − t)² = 2 (σ − t) σ (1 − σ) k
        let g = 2.0 * miss * p * (1.0 - p) * k_scale;
        let h = self.shape.hidden;
        let b = self.bucket(us);
        let (own, other) = self.output_weights(b).split_at(h);
        let out_start = self.output_weights_start(b);
        grad.values[self.output_bias_start() + b] += g;
        {
            let out_grad = &mut grad.values[out_start..out_start + 2 * h];
            let (own_grad, other_grad) = out_grad.split_at_mut(h);
            for (og, a) in own_grad.iter_mut().zip(&scratch.us) {
                *og += g * screlu(*a);
            }
            for (og, a) in other_grad.iter_mut().zip(&scratch.them) {
                *og += g * screlu(*a);
            }
        }
        // From here on the scratch sums become the gradients with respect to them:
        // dL/da = g · w_out · 2a inside (0, 1), 0 outside (where the clamp is flat).
        for (a, w) in scratch.us.iter_mut().zip(own) {
            *a = g * w * screlu_slope(*a);
        }
        for (a, w) in scratch.them.iter_mut().zip(other) {
            *a = g * w * screlu_slope(*a);
        }
        let c = self.shape.columns();
        let bias_grad = &mut grad.values[c * h..(c + 1) * h];
        for ((b, du), dt) in bias_grad.iter_mut().zip(&scratch.us).zip(&scratch.them) {
            *b += du + dt;
        }
        for (inputs, delta) in [(us, &scratch.us), (them, &scratch.them)] {
            for &input in inputs {
                let input = usize::from(input);
                grad.touched[input] = true;
                let column = &mut grad.values[input * h..(input + 1) * h];
                for (c, d) in column.iter_mut().zip(delta) {
                    *c += d;
                }
            }
        }
        miss * miss
    }

    /// The model with every parameter rounded as the export rounds it, back in floats: its
    /// evaluation differs from the integer network's only by the engine's integer divisions.
    pub fn rounded(&self) -> Model {
        if self.shape.king_buckets {
            return self.merged().rounded_plainly();
        }
        self.rounded_plainly()
    }

    /// With king buckets, the same network with the shared set added into every bucket's set
    /// and then zero: what the export writes, in the training layout.
    fn merged(&self) -> Model {
        let h = self.shape.hidden;
        let shared = KING_BUCKETS * INPUTS * h;
        let mut merged = self.clone();
        let (buckets, rest) = merged.params.split_at_mut(shared);
        let shared_set = &mut rest[..INPUTS * h];
        for set in buckets.chunks_exact_mut(INPUTS * h) {
            for (w, s) in set.iter_mut().zip(shared_set.iter()) {
                *w += s;
            }
        }
        shared_set.fill(0.0);
        merged
    }

    fn rounded_plainly(&self) -> Model {
        let output_start = self.shape.output_start();
        let biases = self.output_bias_start();
        let grid = |i: usize| {
            if i < output_start {
                QA as f32
            } else if i < biases {
                QB as f32
            } else {
                (QA * QB) as f32
            }
        };
        let params = (0..self.params.len())
            .map(|i| (self.params[i] * grid(i)).round() / grid(i))
            .collect();
        Model {
            shape: self.shape,
            params,
        }
    }

    /// The engine's integer network: every weight rounded as the file format says (the
    /// parameters are within [`CLIP`], so the engine's range checks pass).
    pub fn to_network(&self) -> anyhow::Result<Network> {
        if self.shape.king_buckets {
            return self.merged().network_of(KING_BUCKETS * INPUTS);
        }
        self.network_of(INPUTS)
    }

    /// The integer network of the first `inputs` columns and the rest of the layers.
    fn network_of(&self, inputs: usize) -> anyhow::Result<Network> {
        let h = self.shape.hidden;
        let round = |w: f32, q: i32| (w * q as f32).round() as i16;
        let feature_weights = self.params[..inputs * h]
            .iter()
            .map(|&w| round(w, QA))
            .collect();
        let feature_bias = self.bias().iter().map(|&w| round(w, QA)).collect();
        let output_weights = self.params[self.shape.output_start()..self.output_bias_start()]
            .iter()
            .map(|&w| round(w, QB))
            .collect();
        let output_bias = self.params[self.output_bias_start()..]
            .iter()
            .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
            .collect();
        Network::from_layers(feature_weights, feature_bias, output_weights, output_bias)
            .map_err(|e| anyhow::anyhow!("the trained network cannot be exported: {e}"))
    }
}

impl Gradient {
    /// A zero gradient for a network of `shape`.
    pub fn new(shape: Shape) -> Gradient {
        Gradient {
            shape,
            values: vec![0.0; Model::size(shape)],
            touched: vec![false; shape.columns()],
        }
    }

    /// Back to zero, clearing only the columns that were touched.
    pub fn clear(&mut self) {
        let h = self.shape.hidden;
        for (input, touched) in self.touched.iter_mut().enumerate() {
            if *touched {
                self.values[input * h..(input + 1) * h].fill(0.0);
                *touched = false;
            }
        }
        self.values[self.shape.columns() * h..].fill(0.0);
    }
}

/// SCReLU: `clamp(a, 0, 1)²`.
#[inline]
fn screlu(a: f32) -> f32 {
    let c = a.clamp(0.0, 1.0);
    c * c
}

/// The derivative of [`screlu`]: `2a` inside (0, 1), else 0.
#[inline]
fn screlu_slope(a: f32) -> f32 {
    if a > 0.0 && a < 1.0 {
        2.0 * a
    } else {
        0.0
    }
}
