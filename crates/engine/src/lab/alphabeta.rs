//! Alpha-beta, fail-soft, in three move orders; and alpha-beta with a transposition table.

use super::ordering::{self, Order};
use super::search::Search;
use super::tree::Recorder;
use crate::score::INFINITE;
use xiangqi::Move;

/// Alpha-beta from the root with the full window, so that the root's value is exact.
pub(super) fn root<R: Recorder>(s: &mut Search, rec: &mut R, depth: u32, order: Order) -> i32 {
    alphabeta(s, rec, depth, 0, -INFINITE, INFINITE, order)
}

/// Alpha-beta with a transposition table from the root, with the full window.
pub(super) fn root_tt(s: &mut Search, depth: u32) -> i32 {
    debug_assert!(s.table.is_some(), "alphabeta-tt searches with a table");
    alphabeta_tt(s, depth, 0, -INFINITE, INFINITE)
}

/// The value of the position for its side to move, exact if it lies strictly between `alpha`
/// and `beta`; otherwise a bound: at most `alpha` if no move reached it, at least `beta` if a
/// move did (and the other moves were skipped).
fn alphabeta<R: Recorder>(
    s: &mut Search,
    rec: &mut R,
    depth: u32,
    ply: usize,
    mut alpha: i32,
    beta: i32,
    order: Order,
) -> i32 {
    s.enter(ply);
    if s.stopped() {
        return 0;
    }
    if depth == 0 {
        return s.leaf(ply);
    }
    let mut moves = s.pos.legal_moves();
    if moves.is_empty() {
        return s.no_move(ply);
    }
    ordering::sort(&s.pos, &mut moves, order, &s.history);
    let mut best = -INFINITE;
    let mut best_move = Move::NONE;
    for (i, &m) in moves.iter().enumerate() {
        let undo = s.pos.make_move(m);
        // The child's window is ours seen from the other side: (−β, −α).
        rec.open(m, -beta, -alpha);
        let value = -alphabeta(s, rec, depth - 1, ply + 1, -beta, -alpha, order);
        rec.close(-value);
        s.pos.unmake_move(m, undo);
        if s.stopped() {
            return 0;
        }
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                best_move = m;
                s.new_best(ply, m);
            }
        }
        if alpha >= beta {
            // The opponent already has a better choice than to let us reach this node.
            s.cutoff(i);
            rec.cut(&moves.as_slice()[i + 1..]);
            break;
        }
    }
    if order == Order::History && !best_move.is_none() {
        s.history.reward(best_move, depth);
    }
    best
}

/// [`alphabeta`] that first asks the transposition table, tries its move first, and stores
/// what it found.
fn alphabeta_tt(s: &mut Search, depth: u32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
    s.enter(ply);
    if s.stopped() {
        return 0;
    }
    if depth == 0 {
        // Leaves are not stored: evaluating one costs about what a look-up does.
        return s.leaf(ply);
    }
    let (answer, table_move) = s.probe(depth, ply, alpha, beta);
    if let Some(value) = answer {
        return value;
    }
    let mut moves = s.pos.legal_moves();
    if moves.is_empty() {
        return s.no_move(ply);
    }
    ordering::put_first(moves.as_mut_slice(), table_move);
    let window = (alpha, beta);
    let mut best = -INFINITE;
    let mut best_move = Move::NONE;
    for (i, &m) in moves.iter().enumerate() {
        let undo = s.pos.make_move(m);
        let value = -alphabeta_tt(s, depth - 1, ply + 1, -beta, -alpha);
        s.pos.unmake_move(m, undo);
        if s.stopped() {
            return 0;
        }
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                best_move = m;
                s.new_best(ply, m);
            }
        }
        if alpha >= beta {
            s.cutoff(i);
            break;
        }
    }
    s.store(depth, ply, window, best, best_move);
    best
}
