//! The evaluation laid open, for the tuner (`xiangqi tune`) and for anyone who wants to see
//! what the engine thinks of a position term by term.
//!
//! [`Evaluator::terms`] counts each feature of a position for both sides; the score is the
//! dot product of those counts with the [`Weights`] (tapered between middlegame and endgame by
//! the phase), which is what makes Texel tuning a linear fit. [`Evaluator::breakdown`] shows
//! the same sums term by term for Red and Black apart (`xiangqi eval`).
//!
//! ```
//! use xiangqi::Position;
//! use xiangqi_engine::tuning::{Evaluator, DEFAULT_EVALUATOR};
//!
//! let start = Position::startpos();
//! // The start position is symmetric: only the side to move's tempo tells the sides apart.
//! let terms = DEFAULT_EVALUATOR.terms(&start);
//! assert_eq!(terms.red_score(), DEFAULT_EVALUATOR.evaluate(&start));
//! ```

pub use crate::eval::params::{pair, Pair, PstDelta, Weights, DEFAULT as DEFAULT_WEIGHTS};
pub use crate::eval::{Breakdown, Evaluator, Material, SideTerm, Terms, DEFAULT_EVALUATOR};
