//! NegaScout (principal variation search), with or without the transposition table and the
//! history heuristic; and NegaScout by iterative deepening with aspiration windows.

use super::ordering;
use super::search::Search;
use super::tree::{NoTree, Recorder};
use crate::score::{INFINITE, MATE_BOUND};
use xiangqi::Move;

/// Which of NegaScout's two helpers a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Helpers {
    /// The transposition table: answers for positions met again, and their best moves first.
    pub table: bool,
    /// The history heuristic: moves ordered by their past successes.
    pub history: bool,
}

impl Helpers {
    /// Both: the thesis's `NegaScout_TT_HH`.
    pub const BOTH: Helpers = Helpers {
        table: true,
        history: true,
    };
    /// Neither: moves in generation order.
    pub const NONE: Helpers = Helpers {
        table: false,
        history: false,
    };
    /// The table only.
    pub const TABLE: Helpers = Helpers {
        table: true,
        history: false,
    };
    /// The history heuristic only.
    pub const HISTORY: Helpers = Helpers {
        table: false,
        history: true,
    };
}

/// NegaScout from the root with the full window, its tree recorded by `rec`.
pub(super) fn root<R: Recorder>(s: &mut Search, rec: &mut R, depth: u32, helpers: Helpers) -> i32 {
    debug_assert_eq!(
        helpers.table,
        s.table.is_some(),
        "the table is set up by the caller"
    );
    pvs(s, rec, depth, 0, -INFINITE, INFINITE, helpers)
}

/// Half a soldier: the first aspiration window's half-width. Most iterations change the value
/// by less, so the window usually holds.
const ASPIRATION: i32 = 50;

/// NegaScout with the table and the history heuristic to depth 1, 2, …, `depth`, each after
/// the first in a window around the value before; the table and the history carry over from
/// one depth to the next. Returns the last depth's value.
pub(super) fn iterative_deepening(s: &mut Search, depth: u32) -> i32 {
    debug_assert!(s.table.is_some(), "the table is set up by the caller");
    let mut value: i32 = 0;
    for d in 1..=depth {
        // A mate's value jumps by a ply between depths: no narrow window for it.
        let guess_is_useful = d > 1 && value.abs() < MATE_BOUND;
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if guess_is_useful {
            (value - delta, value + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = pvs(s, &mut NoTree, d, 0, alpha, beta, Helpers::BOTH);
            if s.stopped() {
                return 0;
            }
            // A value strictly inside the window is exact; one on its edge or beyond is only
            // a bound, so the window moves past it, twice as wide each time, and the depth is
            // searched again (the table keeps the work done).
            if v <= alpha && alpha > -INFINITE {
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta && beta < INFINITE {
                beta = (v + delta).min(INFINITE);
            } else {
                value = v;
                break;
            }
            s.stats.aspiration_researches += 1;
            delta = delta.saturating_mul(2);
        }
    }
    value
}

/// NegaScout: the first move with the full window `(alpha, beta)`, every later one first with
/// the null window `(alpha, alpha + 1)`, which only tells whether it beats `alpha`; a move that
/// does is searched again with the full window to learn its value. Returns what
/// [`super::alphabeta`]'s search would: exact inside the window, a bound outside it.
fn pvs<R: Recorder>(
    s: &mut Search,
    rec: &mut R,
    depth: u32,
    ply: usize,
    mut alpha: i32,
    beta: i32,
    helpers: Helpers,
) -> i32 {
    s.enter(ply);
    if s.stopped() {
        return 0;
    }
    if depth == 0 {
        return s.leaf(ply);
    }
    let mut table_move = Move::NONE;
    if helpers.table {
        let (answer, best) = s.probe(depth, ply, alpha, beta);
        if let Some(value) = answer {
            rec.table_answer();
            return value;
        }
        table_move = best;
    }
    let mut moves = s.pos.legal_moves();
    if moves.is_empty() {
        return s.no_move(ply);
    }
    // The table's move first, then the rest by history.
    let rest = if ordering::put_first(moves.as_mut_slice(), table_move) {
        1
    } else {
        0
    };
    if helpers.history {
        s.history.sort(&mut moves.as_mut_slice()[rest..]);
    }
    let window = (alpha, beta);
    let mut best = -INFINITE;
    let mut best_move = Move::NONE;
    for (i, &m) in moves.iter().enumerate() {
        let undo = s.pos.make_move(m);
        let value = if i == 0 {
            rec.open(m, -beta, -alpha);
            let value = -pvs(s, rec, depth - 1, ply + 1, -beta, -alpha, helpers);
            rec.close(-value);
            value
        } else {
            rec.open(m, -alpha - 1, -alpha);
            let scout = -pvs(s, rec, depth - 1, ply + 1, -alpha - 1, -alpha, helpers);
            rec.close(-scout);
            if scout > alpha && scout < beta {
                // Better than the best so far: by how much? (The thesis narrows this window to
                // (scout, β); the full one is as cheap in practice and needs no care with the
                // bound that a fail-soft search may return below `scout`.)
                s.stats.researches += 1;
                rec.open(m, -beta, -alpha);
                rec.research();
                let value = -pvs(s, rec, depth - 1, ply + 1, -beta, -alpha, helpers);
                rec.close(-value);
                value
            } else {
                scout
            }
        };
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
            rec.cut(&moves.as_slice()[i + 1..]);
            break;
        }
    }
    if helpers.table {
        s.store(depth, ply, window, best, best_move);
    }
    if helpers.history && !best_move.is_none() {
        s.history.reward(best_move, depth);
    }
    best
}
