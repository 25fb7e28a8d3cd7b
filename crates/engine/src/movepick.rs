//! Move ordering for the main search, generated in stages so that a node refuted by its first
//! moves never generates the rest:
//!
//! 1. the hash move;
//! 2. captures that do not lose material, most valuable victim first, cheapest attacker next;
//! 3. the two killer moves and the counter move (quiet moves that refuted siblings);
//! 4. the other quiet moves, by history;
//! 5. captures that lose material.
//!
//! Quiescence uses [`MovePicker::for_quiescence`]: one list ordered by MVV-LVA.

use crate::history::History;
use crate::see::{see, SEE_VALUE};
use xiangqi::{Move, MoveList, Position, MAX_MOVES};

/// What the picker knows besides the position.
pub struct OrderingHints {
    /// Best move from the transposition table (already checked to be legal).
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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// A list of moves with scores, handed out best first.
struct ScoredList {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

/// After this many moves have been picked one by one, the rest are sorted at once: most nodes
/// cut off within the first few, but those that do not search them all.
const PICKS_BEFORE_SORT: usize = 3;

impl ScoredList {
    fn new() -> ScoredList {
        ScoredList {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// Empties the list for reuse (cheaper than a new one: nothing is zeroed).
    fn clear(&mut self) {
        self.moves.clear();
        self.next = 0;
    }

    fn push(&mut self, m: Move, score: i32) {
        self.scores[self.moves.len()] = score;
        self.moves.push(m);
    }

    /// The best remaining move: selection for the first few, then one insertion sort.
    fn pop_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if self.next == PICKS_BEFORE_SORT {
            self.sort_rest();
        }
        if self.next < PICKS_BEFORE_SORT {
            let mut best = self.next;
            for i in self.next + 1..n {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            self.scores.swap(self.next, best);
            self.moves.as_mut_slice().swap(self.next, best);
        }
        let m = self.moves[self.next];
        self.next += 1;
        Some(m)
    }

    /// Sorts the moves not yet handed out, best first (stable, so the order depends on the
    /// scores and the generation order only: the search stays deterministic).
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

/// Hands out the legal moves of a node in stages (see the module documentation).
pub struct MovePicker {
    stage: Stage,
    hints: OrderingHints,
    list: ScoredList,
    /// Captures that lose material, made only when there is one (most nodes have none).
    bad_captures: Option<ScoredList>,
    refutation_index: usize,
    quiescence: bool,
}

impl MovePicker {
    /// A staged picker for the main search.
    pub fn new(hints: OrderingHints) -> MovePicker {
        MovePicker {
            stage: Stage::HashMove,
            hints,
            list: ScoredList::new(),
            bad_captures: None,
            refutation_index: 0,
            quiescence: false,
        }
    }

    /// Orders `moves` (captures, or all evasions when in check) for quiescence: MVV-LVA only.
    pub fn for_quiescence(pos: &Position, moves: MoveList, hash_move: Option<Move>) -> MovePicker {
        let mut list = ScoredList::new();
        for &m in moves.iter() {
            let score = if Some(m) == hash_move {
                i32::MAX
            } else if pos.piece_at(m.to()).is_some() {
                1_000_000 + mvv_lva(pos, m)
            } else {
                0
            };
            list.push(m, score);
        }
        MovePicker {
            stage: Stage::Quiets,
            hints: OrderingHints {
                hash_move,
                killers: [Move::NONE; 2],
                counter: Move::NONE,
            },
            list,
            bad_captures: None,
            refutation_index: 0,
            quiescence: true,
        }
    }

    /// Whether `m` was already handed out by an earlier stage.
    fn already_tried(&self, m: Move) -> bool {
        Some(m) == self.hints.hash_move
            || m == self.hints.killers[0]
            || m == self.hints.killers[1]
            || m == self.hints.counter
    }

    /// The next move to search in `pos` (the position of the node, restored after each move).
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.hints.hash_move {
                        return Some(m);
                    }
                }
                Stage::GenerateCaptures => {
                    for &m in pos.legal_captures().iter() {
                        if Some(m) == self.hints.hash_move {
                            continue;
                        }
                        let order = mvv_lva(pos, m);
                        if !can_lose_material(pos, m) || see(pos, m) >= 0 {
                            self.list.push(m, order);
                        } else {
                            self.bad_captures
                                .get_or_insert_with(ScoredList::new)
                                .push(m, order);
                        }
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.list.pop_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Refutations,
                },
                Stage::Refutations => {
                    let candidates = [
                        self.hints.killers[0],
                        self.hints.killers[1],
                        self.hints.counter,
                    ];
                    while self.refutation_index < candidates.len() {
                        let m = candidates[self.refutation_index];
                        self.refutation_index += 1;
                        let duplicate = candidates[..self.refutation_index - 1].contains(&m);
                        if !m.is_none()
                            && !duplicate
                            && Some(m) != self.hints.hash_move
                            && pos.piece_at(m.to()).is_none()
                            && pos.is_legal(m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    self.list.clear();
                    for &m in pos.legal_quiets().iter() {
                        if self.already_tried(m) {
                            continue;
                        }
                        let score = pos.piece_at(m.from()).map_or(0, |p| history.score(p, m));
                        self.list.push(m, score);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.list.pop_best() {
                    Some(m) => return Some(m),
                    None if self.quiescence => self.stage = Stage::Done,
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => match self.bad_captures.as_mut().and_then(|l| l.pop_best()) {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The staged picker yields exactly the legal moves, each once ("move-picker perft").
    #[test]
    fn picker_yields_every_legal_move_once() {
        let fens = [
            xiangqi::START_FEN,
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ];
        let history = History::default();
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal: Vec<Move> = pos.legal_moves().to_vec();
            let quiet = *legal
                .iter()
                .find(|m| pos.piece_at(m.to()).is_none())
                .unwrap();
            let other_quiet = *legal
                .iter()
                .rev()
                .find(|m| pos.piece_at(m.to()).is_none())
                .unwrap();
            let illegal = Move::new(
                xiangqi::Square::new(0, 5).unwrap(),
                xiangqi::Square::new(8, 5).unwrap(),
            );
            for hash_move in [None, Some(legal[0]), Some(quiet)] {
                let hints = OrderingHints {
                    hash_move,
                    killers: [other_quiet, illegal],
                    counter: quiet,
                };
                let mut picker = MovePicker::new(hints);
                let mut seen = Vec::new();
                while let Some(m) = picker.next(&pos, &history) {
                    seen.push(m);
                }
                let unique: BTreeSet<Move> = seen.iter().copied().collect();
                assert_eq!(unique.len(), seen.len(), "duplicates in {fen}");
                assert_eq!(
                    unique,
                    legal.iter().copied().collect::<BTreeSet<_>>(),
                    "{fen}"
                );
                if let Some(h) = hash_move {
                    assert_eq!(seen[0], h);
                }
            }
        }
    }
}
