//! Move-ordering memory: history scores for quiet moves, continuation histories (how good a
//! quiet move was right after a given earlier move), and counter moves (the reply that refuted
//! a given move). Killer moves live in the search stack.

use xiangqi::{Move, Piece};

/// History scores stay within ±HISTORY_MAX ("gravity": big bonuses shrink as they near it).
pub const HISTORY_MAX: i32 = 16_384;

/// Pieces (colour · 7 + kind) times target squares: how the history tables index a move.
const PIECE_TO: usize = 14 * 90;

/// A move as the continuation histories see it: the piece that moved and where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// No move (the root, or a null move): no continuation history applies.
    pub const NONE: PieceTo = PieceTo(u16::MAX);

    /// `piece` moving with `m`.
    #[inline]
    pub fn new(piece: Piece, m: Move) -> PieceTo {
        PieceTo((piece.index() * 90 + m.to().index()) as u16)
    }

    #[inline]
    fn index(self) -> Option<usize> {
        (self != PieceTo::NONE).then_some(self.0 as usize)
    }
}

/// The continuation row of no earlier move: all zero, so a missing move adds nothing
/// without a test.
static NO_CONTINUATION: [i16; PIECE_TO] = [0; PIECE_TO];

/// Scores quiet moves after one context (see [`History::quiet_scorer`]).
pub struct QuietScorer<'h> {
    butterfly: &'h [[i32; 90]; 14],
    rows: [&'h [i16]; 2],
}

impl QuietScorer<'_> {
    /// The history score of quiet move `m` by `piece`, plus both continuation scores.
    #[inline]
    pub fn score(&self, piece: Piece, m: Move) -> i32 {
        let this = PieceTo::new(piece, m).0 as usize;
        self.butterfly[piece.index()][m.to().index()]
            + self.rows[0][this] as i32
            + self.rows[1][this] as i32
    }
}

/// The earlier moves a quiet move is judged after: the opponent's last move and our own
/// move before it.
pub type Context = [PieceTo; 2];

/// Quiet-move statistics learned during a search.
pub struct History {
    /// Indexed by moving piece (colour * 7 + kind) and target square.
    butterfly: Box<[[i32; 90]; 14]>,
    /// Indexed by an earlier move's [`PieceTo`], then this move's: `PIECE_TO²` entries.
    continuation: Box<[i16]>,
    /// Indexed by the previous move's piece and target: the move that refuted it.
    counter: Box<[[Move; 90]; 14]>,
}

impl Default for History {
    fn default() -> Self {
        // Written out in full now (`vec![0; n]` would leave the pages to be zeroed one by one
        // by the system while a search runs).
        #[allow(clippy::slow_vector_initialization)]
        let mut continuation = Vec::with_capacity(PIECE_TO * PIECE_TO);
        continuation.resize(PIECE_TO * PIECE_TO, 0);
        History {
            butterfly: Box::new([[0; 90]; 14]),
            continuation: continuation.into_boxed_slice(),
            counter: Box::new([[Move::NONE; 90]; 14]),
        }
    }
}

/// Moves `entry` towards ±HISTORY_MAX by `bonus`, less the closer it already is.
#[inline]
fn apply_gravity(entry: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

impl History {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        // In place: the tables keep their memory.
        *self.butterfly = [[0; 90]; 14];
        self.continuation.fill(0);
        *self.counter = [[Move::NONE; 90]; 14];
    }

    /// Whether nothing has been learned (every score zero, no counter move).
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.butterfly.iter().flatten().all(|&s| s == 0)
            && self.continuation.iter().all(|&s| s == 0)
            && self.counter.iter().flatten().all(|m| m.is_none())
    }

    /// The history score of quiet move `m` by `piece` (the search uses [`History::quiet_score`]).
    #[cfg(test)]
    pub fn score(&self, piece: Piece, m: Move) -> i32 {
        self.butterfly[piece.index()][m.to().index()]
    }

    /// The history score of quiet move `m` by `piece` plus its continuation scores after the
    /// moves of `context`.
    #[inline]
    pub fn quiet_score(&self, piece: Piece, m: Move, context: &Context) -> i32 {
        self.quiet_scorer(context).score(piece, m)
    }

    /// [`History::quiet_score`] for many moves after the same `context`: the continuation rows
    /// are looked up once.
    #[inline]
    pub fn quiet_scorer(&self, context: &Context) -> QuietScorer<'_> {
        let row = |c: PieceTo| match c.index() {
            Some(earlier) => &self.continuation[earlier * PIECE_TO..(earlier + 1) * PIECE_TO],
            None => &NO_CONTINUATION[..],
        };
        QuietScorer {
            butterfly: &self.butterfly,
            rows: [row(context[0]), row(context[1])],
        }
    }

    /// Rewards (positive `bonus`) or punishes a quiet move.
    #[inline]
    pub fn update(&mut self, piece: Piece, m: Move, bonus: i32) {
        let entry = &mut self.butterfly[piece.index()][m.to().index()];
        *entry = apply_gravity(*entry, bonus);
    }

    /// Rewards or punishes a quiet move in the history and in its continuation histories.
    #[inline]
    pub fn update_quiet(&mut self, piece: Piece, m: Move, context: &Context, bonus: i32) {
        self.update(piece, m, bonus);
        let this = PieceTo::new(piece, m).0 as usize;
        for earlier in context.iter().filter_map(|c| c.index()) {
            let entry = &mut self.continuation[earlier * PIECE_TO + this];
            *entry = apply_gravity(*entry as i32, bonus) as i16;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::{Color, PieceKind, Square};

    #[test]
    fn continuation_scores_depend_on_the_earlier_move() {
        let mut history = History::default();
        let horse = Piece::new(Color::Red, PieceKind::Horse);
        let chariot = Piece::new(Color::Black, PieceKind::Chariot);
        let sq = |f, r| Square::new(f, r).unwrap();
        let reply = Move::new(sq(1, 0), sq(2, 2));
        let after = [
            PieceTo::new(chariot, Move::new(sq(0, 9), sq(0, 5))),
            PieceTo::NONE,
        ];
        let other = [
            PieceTo::new(chariot, Move::new(sq(0, 9), sq(0, 7))),
            PieceTo::NONE,
        ];
        history.update_quiet(horse, reply, &after, 1000);
        assert_eq!(history.score(horse, reply), 1000);
        assert_eq!(history.quiet_score(horse, reply, &after), 2000);
        assert_eq!(history.quiet_score(horse, reply, &other), 1000);
        assert_eq!(history.quiet_score(horse, reply, &[PieceTo::NONE; 2]), 1000);
        // Gravity keeps every entry within bounds however often it is rewarded.
        for _ in 0..1000 {
            history.update_quiet(horse, reply, &after, HISTORY_MAX);
        }
        assert!(history.quiet_score(horse, reply, &after) <= 2 * HISTORY_MAX);
    }
}
