//! What checking the book with the engine found: the score of every searched move, the moves
//! to drop, and the doubtful ones kept; building a book from it cuts the dropped moves.

use super::build::Pair;
use std::collections::BTreeMap;
use xiangqi::{Move, Position};

/// A book move that scored too low, and what it was compared with.
#[derive(Clone, Debug)]
pub struct Dropped {
    /// The position it is played in.
    pub position: Position,
    /// The move.
    pub mv: Move,
    /// Its score for the side to move.
    pub score: i32,
    /// The better move (the best book move, or the engine's own choice) and its score.
    pub best: (Move, i32),
    /// Source lines that play it.
    pub lines: Vec<usize>,
}

/// What verification found.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Score and depth of every searched move.
    pub scores: BTreeMap<Pair, (i16, u8)>,
    /// Moves to drop (below the best book move by more than the margin), in key order.
    pub dropped: Vec<Dropped>,
    /// Moves kept but below the engine's own choice by more than the margin, in key order.
    pub doubtful: Vec<Dropped>,
}
