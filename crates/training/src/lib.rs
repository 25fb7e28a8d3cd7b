//! How the engine's evaluation is made: [`datagen`] plays the engine against itself and
//! records quiet positions with the search's score and the game's result, in the sample format
//! of [`samples`] (or as text); [`train`] fits the evaluation network to those samples and
//! [`tune`] fits the hand-made evaluation's weights (Texel tuning).
//!
//! It serves the engine developer (`xiangqi datagen`, `train`, `tune`). It stands on the rules,
//! the engine and the file rules, and on nothing of the web GUI, the protocol front end or the
//! match manager.

pub mod datagen;
pub mod samples;
pub mod train;
pub mod tune;
