//! Move ordering: captures by most valuable victim and least valuable attacker, the history
//! heuristic, and the transposition table's move first.

use super::simple::VALUES;
use std::cmp::Reverse;
use xiangqi::{Move, MoveList, PieceKind, Position};

/// The order in which alpha-beta tries the moves of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// As the move generator lists them (by piece kind, then by point): no knowledge at all.
    Generated,
    /// Captures first, most valuable victim first, then least valuable attacker; the quiet
    /// moves after them in generation order.
    MvvLva,
    /// By history score, highest first; ties in generation order.
    History,
}

/// Puts `moves` in `order`. The sorts are stable, so moves that the order cannot tell apart
/// stay in generation order, and every run searches the same tree.
pub(super) fn sort(pos: &Position, moves: &mut MoveList, order: Order, history: &History) {
    match order {
        Order::Generated => {}
        Order::MvvLva => mvv_lva(pos, moves.as_mut_slice()),
        Order::History => history.sort(moves.as_mut_slice()),
    }
}

/// Sorts captures first: the larger the victim the earlier and, for the same victim, the
/// smaller the attacker the earlier (it is the cheaper one to lose if the victim was
/// defended). Quiet moves keep their order after them.
pub(super) fn mvv_lva(pos: &Position, moves: &mut [Move]) {
    let value = |kind: PieceKind| match kind {
        // The general is worth nothing as material (both are always on the board) but is the
        // last piece to capture with: it cannot be exchanged.
        PieceKind::General => i32::MAX,
        kind => VALUES[kind.index()],
    };
    moves.sort_by_key(|m| match (pos.piece_at(m.to()), pos.piece_at(m.from())) {
        (Some(victim), Some(attacker)) => (Reverse(value(victim.kind)), value(attacker.kind)),
        // A quiet move: after every capture.
        _ => (Reverse(0), 0),
    });
}

/// Moves `first` to the front of `moves` if it is there, keeping the others in order.
/// Returns whether it was found.
pub(super) fn put_first(moves: &mut [Move], first: Move) -> bool {
    match moves.iter().position(|&m| m == first) {
        Some(i) => {
            moves[..=i].rotate_right(1);
            true
        }
        None => false,
    }
}

/// The history heuristic's table: a score per (from, to) pair of points, whatever the piece,
/// raised each time the move is the best at a node. Cleared for each search, as the thesis
/// does.
pub(super) struct History {
    scores: Vec<u64>,
}

impl History {
    /// An empty table.
    pub fn new() -> History {
        History {
            scores: vec![0; 90 * 90],
        }
    }

    fn index(m: Move) -> usize {
        m.from().index() * 90 + m.to().index()
    }

    /// `m` was the best move (or refuted the opponent) with `depth` plies to go: it gains
    /// `2^depth`, Schaeffer's increment, so a success near the root, which saved a large
    /// subtree, counts for more than one near the leaves.
    pub fn reward(&mut self, m: Move, depth: u32) {
        let score = &mut self.scores[History::index(m)];
        *score = score.saturating_add(1u64 << depth.min(62));
    }

    /// Sorts `moves` by score, highest first.
    pub fn sort(&self, moves: &mut [Move]) {
        moves.sort_by_key(|&m| Reverse(self.scores[History::index(m)]));
    }
}
