//! The hand-made evaluation, its weights tuned on self-play games: material and piece-square
//! values blended by game phase, mobility, general safety, threats, soldier structure, and
//! scaling for endings that cannot be won.
//!
//! Every weight is in [`params::Weights`]; [`Evaluator::new`] takes a set, so a tuner can try
//! others.

mod breakdown;
mod evaluator;
pub mod literal;
pub mod params;
mod pst;
pub mod visit;

pub use breakdown::{Breakdown, SideTerm};
pub use evaluator::{Evaluator, Material, Terms, DEFAULT_EVALUATOR};
