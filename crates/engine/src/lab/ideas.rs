//! Four of the engine's ideas, each added alone to alpha-beta with captures first (MVV-LVA), in
//! the small textbook form a course shows: killer moves, a quiescence search, null-move
//! pruning and late-move reductions.
//!
//! Killer moves only change the order, so the value stays minimax's. The other three change
//! what is searched, so their values may differ from minimax's at the same depth: quiescence on
//! purpose (it looks past the horizon, at captures), null-move pruning and reductions by
//! accepting a small risk of missing something for a much smaller tree.

use super::ordering::{self, Order};
use super::search::Search;
use crate::score::INFINITE;
use xiangqi::{Move, PieceKind, Position};

/// Null-move pruning searches the position after passing this many plies less deep.
const NULL_MOVE_REDUCTION: u32 = 2;
/// Late-move reductions spare the first this many moves of a node.
const FULL_DEPTH_MOVES: usize = 3;

/// The idea added to alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Idea {
    /// Two killer moves a ply, tried after the captures.
    Killers,
    /// At the horizon, captures are searched until the position is quiet, in this order.
    Quiescence(Order),
    /// Before searching its moves, a node lets the opponent move twice.
    NullMove,
    /// Quiet moves late in the order are searched a ply less deep first.
    Reductions,
}

/// The two latest quiet moves that caused a cutoff at each ply.
struct Killers {
    moves: Vec<[Move; 2]>,
}

impl Killers {
    fn new(plies: usize) -> Killers {
        Killers {
            moves: vec![[Move::NONE; 2]; plies],
        }
    }

    fn remember(&mut self, ply: usize, m: Move) {
        let slot = &mut self.moves[ply];
        if slot[0] != m {
            slot[1] = slot[0];
            slot[0] = m;
        }
    }
}

/// Alpha-beta with captures first and `idea`, from the root with the full window.
pub(super) fn root(s: &mut Search, depth: u32, idea: Idea) -> i32 {
    let mut killers = Killers::new(depth as usize + 2);
    let mut walk = Walk {
        s,
        idea,
        killers: &mut killers,
    };
    // The root must choose a move: it never passes.
    walk.alphabeta(depth, 0, -INFINITE, INFINITE, false)
}

struct Walk<'a> {
    s: &'a mut Search,
    idea: Idea,
    killers: &'a mut Killers,
}

/// Whether `pos`'s side to move has a chariot, horse or cannon: without one, passing may be its
/// best "move" (zugzwang is common in Xiangqi endings), so the null move is not tried.
fn has_attacking_piece(pos: &Position) -> bool {
    let side = pos.side_to_move();
    [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon]
        .into_iter()
        .any(|kind| pos.count(side, kind) > 0)
}

impl Walk<'_> {
    fn alphabeta(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        may_pass: bool,
    ) -> i32 {
        if depth == 0 {
            return match self.idea {
                Idea::Quiescence(order) => self.quiescence(ply, alpha, beta, order),
                _ => {
                    self.s.enter(ply);
                    self.s.leaf(ply)
                }
            };
        }
        self.s.enter(ply);
        if self.s.stopped() {
            return 0;
        }
        let mut moves = self.s.pos.legal_moves();
        if moves.is_empty() {
            return self.s.no_move(ply);
        }
        let in_check = self.s.pos.in_check();
        if self.idea == Idea::NullMove
            && may_pass
            && depth > NULL_MOVE_REDUCTION
            && !in_check
            && has_attacking_piece(&self.s.pos)
        {
            // If passing still holds the opponent to beta or more, a real move would too
            // (unless the position is a zugzwang, which the condition above makes rare).
            let undo = self.s.pos.make_null();
            let value = -self.alphabeta(
                depth - 1 - NULL_MOVE_REDUCTION,
                ply + 1,
                -beta,
                -beta + 1,
                false,
            );
            self.s.pos.unmake_null(undo);
            if self.s.stopped() {
                return 0;
            }
            if value >= beta {
                return value;
            }
        }
        ordering::mvv_lva(&self.s.pos, moves.as_mut_slice());
        if self.idea == Idea::Killers {
            // After the captures, the killers of this ply, in the order they were found.
            let captures = moves
                .iter()
                .take_while(|m| self.s.pos.piece_at(m.to()).is_some())
                .count();
            let slot = self.killers.moves[ply];
            for &killer in slot.iter().rev() {
                if !killer.is_none() {
                    ordering::put_first(&mut moves.as_mut_slice()[captures..], killer);
                }
            }
        }
        let mut best = -INFINITE;
        for (i, &m) in moves.iter().enumerate() {
            let quiet = self.s.pos.piece_at(m.to()).is_none();
            let reduce = self.idea == Idea::Reductions
                && depth >= 3
                && i >= FULL_DEPTH_MOVES
                && quiet
                && !in_check
                && !self.s.pos.gives_check(m);
            let undo = self.s.pos.make_move(m);
            let mut value = if reduce {
                -self.alphabeta(depth - 2, ply + 1, -beta, -alpha, true)
            } else {
                // The first value compared below is always a full-depth one.
                alpha
            };
            if !reduce || value > alpha {
                // Not reduced, or the reduced search found it better: searched at full depth.
                value = -self.alphabeta(depth - 1, ply + 1, -beta, -alpha, true);
            }
            self.s.pos.unmake_move(m, undo);
            if self.s.stopped() {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.s.new_best(ply, m);
                }
            }
            if alpha >= beta {
                self.s.cutoff(i);
                if quiet {
                    self.killers.remember(ply, m);
                }
                break;
            }
        }
        best
    }

    /// Searches captures only until the position is quiet: the side to move may also "stand
    /// pat" on the evaluation, since it need not capture. In check it may not: every move that
    /// answers the check is searched.
    fn quiescence(&mut self, ply: usize, mut alpha: i32, beta: i32, order: Order) -> i32 {
        self.s.enter(ply);
        if self.s.stopped() {
            return 0;
        }
        if ply >= self.s.max_ply() {
            return self.s.leaf(ply);
        }
        let in_check = self.s.pos.in_check();
        let mut best = -INFINITE;
        if !in_check {
            let stand_pat = self.s.leaf(ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        let mut moves = if in_check {
            self.s.pos.legal_moves()
        } else {
            self.s.pos.legal_captures()
        };
        if in_check && moves.is_empty() {
            return self.s.no_move(ply);
        }
        if order == Order::MvvLva {
            ordering::mvv_lva(&self.s.pos, moves.as_mut_slice());
        }
        for (i, &m) in moves.iter().enumerate() {
            let undo = self.s.pos.make_move(m);
            let value = -self.quiescence(ply + 1, -beta, -alpha, order);
            self.s.pos.unmake_move(m, undo);
            if self.s.stopped() {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.s.new_best(ply, m);
                }
            }
            if alpha >= beta {
                self.s.cutoff(i);
                break;
            }
        }
        best
    }
}
