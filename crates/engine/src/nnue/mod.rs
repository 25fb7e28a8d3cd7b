//! The evaluation network (NNUE: an efficiently updatable neural network): a small network
//! over the pieces on their squares, whose first layer the search keeps up to date move by
//! move: the engine's default evaluation (the hand-made one is the alternative, and the one
//! the weakened levels play with).
//!
//! # The network
//!
//! ```text
//!   inputs, seen from each side         first layer (per side)        output
//!   1,260 = 2 owners × 7 kinds × 90  →  H units, shared weights   →   1 value
//!   (one input per piece on a square)   (the "accumulator")           (for the side to move)
//! ```
//!
//! - **Inputs** ([`features`]): one for each piece on its square, from one side's point of
//!   view: whether the piece is that side's own or the opponent's, its kind, and its square,
//!   with the ranks mirrored for Black, so both sides see their own pieces from their own back
//!   rank. A position has two input sets, Red's and Black's.
//! - **First layer**: the same weights turn each input set into `H` sums (`H` is
//!   [`Network::hidden`], a multiple of 16 up to [`MAX_HIDDEN`]): the bias plus one weight column
//!   per piece. A move changes a few pieces, so the search updates the sums ([`Accumulators`])
//!   instead of recomputing them.
//! - **Activation**: SCReLU, `clamp(x, 0, 1)²`.
//! - **Output**: one weight per unit of the side to move's layer and one per unit of the other
//!   side's (`2 × H`), plus a bias: the evaluation for the side to move. A network may have up
//!   to [`MAX_OUTPUT_BUCKETS`] such output layers ("output buckets"); the number of pieces on
//!   the board picks the one that evaluates a position ([`output_bucket`]).
//!
//! # Integers
//!
//! The trainer works in floating point and exports integers ([`QA`], [`QB`], [`SCALE`]): the
//! first layer's weights and biases are multiplied by `QA` and rounded to `i16`, the output
//! weights by `QB`, the output bias by `QA × QB` (an `i32`). For a unit's sum `a` the activation
//! is `clamp(a, 0, QA)²`, so the output is
//!
//! ```text
//!   value = (Σ clamp(a, 0, QA)² · w  /  QA  +  bias) · SCALE / (QA · QB)      (centi-soldiers)
//! ```
//!
//! with `/` rounding toward zero. Loading a network checks that no sum can leave the `i16`
//! range (32 pieces) and that every output weight fits the SIMD kernel (`|w| ≤ 127`, so
//! `clamp(a, 0, QA) · w` fits an `i16`), so every result is exact: the SIMD and the scalar
//! kernels ([`kernels`]) give the same value, bit for bit.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod kernels;
mod numbers;

pub use accumulator::Accumulators;
pub use file::{output_bucket, Network, NetworkError};
pub use numbers::{MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MAX_VALUE, QA, QB, SCALE};

/// The name the `EvalFile` option gives the network built into the program.
pub const EMBEDDED_NAME: &str = "<embedded>";

/// The network built into the program (`crates/engine/nets/default.nnue`).
static EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");

/// The network built into the program, read once.
pub fn embedded() -> std::sync::Arc<Network> {
    static NETWORK: std::sync::LazyLock<std::sync::Arc<Network>> =
        std::sync::LazyLock::new(|| match Network::from_bytes(EMBEDDED) {
            Ok(network) => std::sync::Arc::new(network),
            Err(e) => unreachable!("the embedded network is checked by a test: {e}"),
        });
    std::sync::Arc::clone(&NETWORK)
}

#[cfg(test)]
mod tests;
