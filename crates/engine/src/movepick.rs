//! Move ordering: scores every legal move once, then hands them out best first.
//!
//! Order: the hash move, captures that do not lose material (most valuable victim first, then
//! cheapest attacker), the two killer moves, the counter move, the other quiet moves by history,
//! and last the captures that lose material.

use crate::history::History;
use crate::see::{see, SEE_VALUE};
use xiangqi::{Move, MoveList, Position, MAX_MOVES};

const HASH_MOVE: i32 = 2_000_000_000;
const GOOD_CAPTURE: i32 = 1_000_000_000;
const KILLER_1: i32 = 900_000_000;
const KILLER_2: i32 = 899_000_000;
const COUNTER: i32 = 800_000_000;
const BAD_CAPTURE: i32 = -1_000_000_000;

/// Hands out the moves of a list in order of a score computed up front.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

/// After this many moves have been handed out one by one, the rest are sorted at once: most
/// nodes cut off within the first few moves, but those that do not search them all.
const PICKS_BEFORE_SORT: usize = 3;

/// What the picker knows besides the position.
pub struct OrderingHints {
    /// Best move from the transposition table.
    pub hash_move: Option<Move>,
    /// The two killer moves of this ply.
    pub killers: [Move; 2],
    /// The counter move to the previous move.
    pub counter: Move,
}

/// Whether a capture could lose material: only when the attacker is worth more than the
/// victim (otherwise even an immediate recapture leaves us level or ahead), so SEE is needed.
#[inline]
pub fn can_lose_material(pos: &Position, m: Move) -> bool {
    let value = |sq| {
        pos.piece_at(sq)
            .map_or(0, |p: xiangqi::Piece| SEE_VALUE[p.kind.index()])
    };
    value(m.from()) > value(m.to())
}

/// Most valuable victim, least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos
        .piece_at(m.to())
        .map_or(0, |p| SEE_VALUE[p.kind.index()]);
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| SEE_VALUE[p.kind.index()]);
    victim * 16 - attacker / 16
}

impl MovePicker {
    /// Orders all `moves` (legal in `pos`) for the main search.
    pub fn new(
        pos: &Position,
        moves: MoveList,
        hints: &OrderingHints,
        history: &History,
    ) -> MovePicker {
        let mut scores = [0i32; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == hints.hash_move {
                HASH_MOVE
            } else if pos.piece_at(m.to()).is_some() {
                let order = mvv_lva(pos, m);
                if !can_lose_material(pos, m) || see(pos, m) >= 0 {
                    GOOD_CAPTURE + order
                } else {
                    BAD_CAPTURE + order
                }
            } else if m == hints.killers[0] {
                KILLER_1
            } else if m == hints.killers[1] {
                KILLER_2
            } else if m == hints.counter {
                COUNTER
            } else {
                pos.piece_at(m.from()).map_or(0, |p| history.score(p, m))
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Orders captures (and, in check, evasions) for quiescence: MVV-LVA only, no SEE.
    pub fn for_quiescence(pos: &Position, moves: MoveList, hash_move: Option<Move>) -> MovePicker {
        let mut scores = [0i32; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == hash_move {
                HASH_MOVE
            } else if pos.piece_at(m.to()).is_some() {
                GOOD_CAPTURE + mvv_lva(pos, m)
            } else {
                0
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Number of moves in total.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves at all.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl MovePicker {
    /// Sorts the moves not yet handed out, best first (insertion sort: lists are short and
    /// the order must not depend on anything but the scores, for a deterministic search).
    fn sort_rest(&mut self) {
        let n = self.moves.len();
        let moves = self.moves.as_mut_slice();
        for i in self.next + 1..n {
            let (m, s) = (moves[i], self.scores[i]);
            let mut j = i;
            while j > self.next && self.scores[j - 1] < s {
                moves[j] = moves[j - 1];
                self.scores[j] = self.scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            self.scores[j] = s;
        }
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    /// The best remaining move (selection sort: cheap, and most nodes cut off early).
    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if self.next == PICKS_BEFORE_SORT {
            self.sort_rest();
        }
        if self.next >= PICKS_BEFORE_SORT {
            let m = self.moves[self.next];
            self.next += 1;
            return Some(m);
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.scores.swap(self.next, best);
        self.moves.as_mut_slice().swap(self.next, best);
        let m = self.moves[self.next];
        self.next += 1;
        Some(m)
    }
}
