//! The network's fixed numbers: how its weights are quantized, how its output is scaled, and
//! its bounds. The file format, the kernels and the trainer all hold to them.

/// The first layer's quantization: a float weight `w` is stored as `round(w × QA)`, and an
/// activation is clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's quantization: a float weight `w` is stored as `round(w × QB)`.
pub const QB: i32 = 64;
/// Centi-soldiers per unit of the network's float output: the trainer's loss reads the output
/// as `SCALE` times bigger than it is.
pub const SCALE: i32 = 400;
/// The largest first layer a network file may have.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a network file may have.
pub const MAX_OUTPUT_BUCKETS: usize = 8;
/// The evaluation never leaves `±MAX_VALUE`, well inside the search's non-mate scores.
pub const MAX_VALUE: i32 = 20_000;
