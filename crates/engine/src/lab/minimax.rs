//! Minimax, with its two levels written out as the reports draw them, and the same search in
//! the negamax form. Neither prunes: both visit every node of the tree to the depth.

use super::search::Search;
use super::tree::Recorder;
use crate::score::INFINITE;

/// A MAX level: the root's side is to move and picks the largest value. Values are for the
/// root's side (MAX) throughout.
pub(super) fn max_value<R: Recorder>(s: &mut Search, rec: &mut R, depth: u32, ply: usize) -> i32 {
    s.enter(ply);
    if s.stopped() {
        return 0;
    }
    if depth == 0 {
        // MAX is to move at this leaf, so its value for the side to move is MAX's value.
        return s.leaf(ply);
    }
    let moves = s.pos.legal_moves();
    if moves.is_empty() {
        // MAX cannot move: MAX has lost.
        return s.no_move(ply);
    }
    let mut best = -INFINITE;
    for &m in moves.iter() {
        let undo = s.pos.make_move(m);
        // Minimax has no window; the child (a MIN level) is recorded for its side to move.
        rec.open(m, -INFINITE, INFINITE);
        let value = min_value(s, rec, depth - 1, ply + 1);
        rec.close(-value);
        s.pos.unmake_move(m, undo);
        if s.stopped() {
            return 0;
        }
        if value > best {
            best = value;
            s.new_best(ply, m);
        }
    }
    best
}

/// A MIN level: the root's opponent is to move and picks the smallest value for MAX.
fn min_value<R: Recorder>(s: &mut Search, rec: &mut R, depth: u32, ply: usize) -> i32 {
    s.enter(ply);
    if s.stopped() {
        return 0;
    }
    if depth == 0 {
        // The leaf is valued for MIN, the side to move: MAX's value is its negation.
        return -s.leaf(ply);
    }
    let moves = s.pos.legal_moves();
    if moves.is_empty() {
        // MIN cannot move: MAX has won.
        return -s.no_move(ply);
    }
    let mut best = INFINITE;
    for &m in moves.iter() {
        let undo = s.pos.make_move(m);
        rec.open(m, -INFINITE, INFINITE);
        let value = max_value(s, rec, depth - 1, ply + 1);
        rec.close(value);
        s.pos.unmake_move(m, undo);
        if s.stopped() {
            return 0;
        }
        if value < best {
            best = value;
            s.new_best(ply, m);
        }
    }
    best
}

/// Negamax: every value is for the side to move at its node, so a child's value changes sign
/// on the way up and one function serves both levels.
pub(super) fn negamax<R: Recorder>(s: &mut Search, rec: &mut R, depth: u32, ply: usize) -> i32 {
    s.enter(ply);
    if s.stopped() {
        return 0;
    }
    if depth == 0 {
        return s.leaf(ply);
    }
    let moves = s.pos.legal_moves();
    if moves.is_empty() {
        return s.no_move(ply);
    }
    let mut best = -INFINITE;
    for &m in moves.iter() {
        let undo = s.pos.make_move(m);
        rec.open(m, -INFINITE, INFINITE);
        let value = -negamax(s, rec, depth - 1, ply + 1);
        rec.close(-value);
        s.pos.unmake_move(m, undo);
        if s.stopped() {
            return 0;
        }
        if value > best {
            best = value;
            s.new_best(ply, m);
        }
    }
    best
}
