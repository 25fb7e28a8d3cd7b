//! Move-ordering memory: killer moves per ply, history scores for quiet moves, and counter
//! moves (the reply that refuted a given move).

use xiangqi::{Move, Piece};

/// History scores stay within ±HISTORY_MAX ("gravity": big bonuses shrink as they near it).
pub const HISTORY_MAX: i32 = 16_384;

/// Quiet-move statistics learned during a search.
pub struct History {
    /// Indexed by moving piece (colour * 7 + kind) and target square.
    butterfly: Box<[[i32; 90]; 14]>,
    /// Indexed by the previous move's piece and target: the move that refuted it.
    counter: Box<[[Move; 90]; 14]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[0; 90]; 14]),
            counter: Box::new([[Move::NONE; 90]; 14]),
        }
    }
}

impl History {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The history score of quiet move `m` by `piece`.
    #[inline]
    pub fn score(&self, piece: Piece, m: Move) -> i32 {
        self.butterfly[piece.index()][m.to().index()]
    }

    /// Rewards (positive `bonus`) or punishes a quiet move.
    #[inline]
    pub fn update(&mut self, piece: Piece, m: Move, bonus: i32) {
        let entry = &mut self.butterfly[piece.index()][m.to().index()];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The counter move recorded against `previous` (played by `piece`), if any.
    #[inline]
    pub fn counter(&self, piece: Piece, previous: Move) -> Move {
        self.counter[piece.index()][previous.to().index()]
    }

    /// Records `reply` as the refutation of `previous`.
    #[inline]
    pub fn set_counter(&mut self, piece: Piece, previous: Move, reply: Move) {
        self.counter[piece.index()][previous.to().index()] = reply;
    }
}
