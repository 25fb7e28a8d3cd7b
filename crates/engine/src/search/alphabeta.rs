//! Principal variation search with quiescence, and the pruning and reductions around it.

use super::Worker;
use crate::history::{Context, PieceTo};
use crate::movepick::{can_lose_material, MovePicker, OrderingHints};
use crate::score::{from_tt, mate_in, mated_in, to_tt, DRAW, INFINITE, MATE_BOUND, MAX_PLY};
use crate::see::{see_at_least, SEE_VALUE};
use crate::tt::{Bound, HashEntry};
use std::sync::LazyLock;
use xiangqi::{Bitboard, Move, PieceKind};

/// Late-move reductions by depth and move number: about ln(depth)·ln(moves)/2.
static REDUCTIONS: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.0) as i32;
        }
    }
    t
});

/// A root window whose floor is this far from even, either way, is a decided position: there a
/// reduced late root move that comes close to the best is searched again at full depth. Won,
/// its reduced search can stand pat over a short mate (docs/NNUE.md, "The lead measured");
/// lost by material, a quiet move that mates anyway can hide behind the reduction
/// (docs/STRENGTH.md, "A lost root's late moves"). A root whose last score is this far either
/// way is decided, and its null moves reduce by depth only.
pub(super) const ROOT_DECIDED: i32 = 800;
/// How far below the floor of a decided root window a reduced late move's score may be and
/// still be searched again at full depth.
const ROOT_DECIDED_CLOSE: i32 = 300;

/// Node kinds compiled separately: principal-variation nodes search with an open window.
pub(super) trait NodeKind {
    const PV: bool;
}
pub(super) struct Pv;
pub(super) struct NonPv;
impl NodeKind for Pv {
    const PV: bool = true;
}
impl NodeKind for NonPv {
    const PV: bool = false;
}

/// The stored score of a table entry, if its bound settles the node for the window
/// (`alpha`, `beta`); the caller has checked that the entry is deep enough.
#[inline]
fn tt_cutoff(hit: &HashEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = from_tt(hit.score, ply);
    let usable = match hit.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    usable.then_some(score)
}

impl Worker<'_> {
    /// Searches the root moves from `pv_index` on; updates their scores and lines.
    pub(super) fn search_root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_index: usize,
    ) -> i32 {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        for i in pv_index..self.root_moves.len() {
            self.root_moves[i].score = -INFINITE;
        }
        for i in pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.stack[0].current = m;
            self.stack[0].moved = self
                .pos
                .piece_at(m.from())
                .map_or(PieceTo::NONE, |p| PieceTo::new(p, m));
            let gives_check = self.make(m);
            let new_depth = depth - 1 + gives_check as i32;
            let mut score;
            if i == pv_index {
                score = -self.negamax::<Pv>(-beta, -alpha, new_depth, 1, false);
            } else {
                let capture = self.line.last().is_some_and(|r| r.undo.captured.is_some());
                // Once the root is decided, a move that threatens mate is not reduced: the
                // reduced search's first node stands pat over the threat, and so does its
                // answer to a spite check (docs/STRENGTH.md, "A root move that threatens mate").
                let threat = self.root_decided && self.root_moves[i].threatens_mate;
                let quiet = !capture && !gives_check && !threat;
                let r = if depth >= 3 && quiet && i > pv_index + 3 {
                    (REDUCTIONS[depth.min(63) as usize][i.min(63)] - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth - r, 1, true);
                let decided = alpha.abs() >= ROOT_DECIDED;
                let close = score > alpha || (decided && score > alpha - ROOT_DECIDED_CLOSE);
                if r > 0 && close {
                    score = -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if score > alpha {
                    score = -self.negamax::<Pv>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.bound = Bound::of_window(score, alpha, beta);
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend_from_slice(&self.pv_table[1][1..self.pv_len[1].max(1)]);
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Alpha-beta search of the current node to `depth` plies; `ply` plies below the root.
    pub(super) fn negamax<N: NodeKind>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch::<N>(alpha, beta, ply);
        }
        self.count_node();
        if self.stopped {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.rule_verdict(ply) {
            return score;
        }
        // Mate distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        // An endgame table knows the position exactly (the rules above come first: a repeated
        // position is judged by the game's rules, not by the table's).
        if let Some(score) = self.tablebase_score(ply) {
            return score;
        }
        let in_check = self.line.last().is_some_and(|r| r.check);
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.evaluate() };
        }

        // The evaluation comes before the table probe, even though a table cutoff then wastes
        // it: the bucket, prefetched when the move was made, is usually still on its way from
        // main memory, and the evaluation does not wait for it (+10-20 % nodes/s with a 64 MiB
        // table; the table no longer keeps evaluations).
        let static_eval = if in_check { -INFINITE } else { self.evaluate() };
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        if let Some(h) = hit.filter(|h| !N::PV && h.depth >= depth) {
            if let Some(score) = tt_cutoff(&h, ply, alpha, beta) {
                return score;
            }
        }

        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 1].killers = [Move::NONE; 2];

        if !N::PV && !in_check {
            // Reverse futility: far enough above beta that a shallow search won't fall back.
            // Not when beta is a mate against us: a position far down says nothing about how
            // soon it is mated (a faster mate for the other side would go unseen).
            let margin = 90 * depth - 40 * improving as i32;
            if depth <= 6
                && static_eval - margin >= beta
                && static_eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return static_eval;
            }
            // Null move: if passing still leaves us above beta, a real move will too.
            if depth >= 3
                && static_eval >= beta
                && !self.stack[ply - 1].current.is_none()
                && self.has_heavy_pieces()
            {
                // The further above beta, the shallower, but not once the root is decided:
                // there a short mate matters more than depth, and a position far above beta
                // after a quiet move is where a mate hides (docs/STRENGTH.md, "The null move
                // once the root is decided").
                let far_above = if self.root_decided {
                    0
                } else {
                    ((static_eval - beta) / 200).min(3)
                };
                let r = 3 + depth / 4 + far_above;
                self.stack[ply].current = Move::NONE;
                self.stack[ply].moved = PieceTo::NONE;
                self.make_null();
                let score =
                    -self.negamax::<NonPv>(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                self.unmake();
                if self.stopped {
                    return DRAW;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Tested only now: most nodes that probe the table return before they need the move.
        let hash_move = hit.and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));
        // Without a hash move this node was never searched well: search it a little shallower.
        if hash_move.is_none() && depth >= 6 && (N::PV || cut_node) {
            depth -= 1;
        }

        let previous = self.stack[ply - 1].current;
        let counter = if previous.is_none() {
            Move::NONE
        } else {
            self.pos
                .piece_at(previous.to())
                .map_or(Move::NONE, |p| self.history.counter(p, previous))
        };
        let context = self.context(ply);
        let mut picker = MovePicker::new(OrderingHints {
            hash_move,
            killers: self.stack[ply].killers,
            counter,
            context,
        });

        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0;
        let mut quiets_tried = [Move::NONE; 64];
        let mut quiet_count = 0;
        // Late move pruning: at shallow depths, once a real score is in hand, the quiet moves
        // after the first `late_moves` moves are not searched, the killers excepted.
        let late_pruning = !N::PV && !in_check && depth <= 5;
        let late_moves = 4 + depth * depth / (2 - improving as i32);
        loop {
            if late_pruning && best > -MATE_BOUND && move_count as i32 >= late_moves {
                // Told before it picks, the picker does not even generate them.
                picker.skip_quiets();
            }
            let Some(m) = picker.next(&self.pos, &self.history) else {
                break;
            };
            move_count += 1;
            let capture = self.pos.piece_at(m.to()).is_some();
            let mover = self.pos.piece_at(m.from());
            let is_killer = self.stack[ply].killers.contains(&m);

            // Captures that lose too much are not searched at shallow depths either.
            if !N::PV
                && !in_check
                && best > -MATE_BOUND
                && move_count > 1
                && capture
                && depth <= 5
                && can_lose_material(&self.pos, m)
                && !see_at_least(&self.pos, m, -120 * depth)
            {
                continue;
            }

            if !N::PV
                && !in_check
                && !capture
                && best > -MATE_BOUND
                && move_count > 1
                && depth <= 6
                && static_eval + 100 + 110 * depth <= alpha
                && !self.gives_check(m)
            {
                // Futility: a quiet move cannot lift this position to alpha.
                continue;
            }
            self.stack[ply].current = m;
            self.stack[ply].moved = mover.map_or(PieceTo::NONE, |p| PieceTo::new(p, m));
            let gives_check = self.make(m);
            let extension = gives_check as i32;
            let new_depth = depth - 1 + extension;
            let mut score;
            if move_count == 1 {
                score = -self.negamax::<N>(-beta, -alpha, new_depth, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= 3 && move_count > 2 && !capture && !gives_check {
                    r = REDUCTIONS[depth.min(63) as usize][move_count.min(63)];
                    r += !improving as i32 + cut_node as i32 - N::PV as i32 - is_killer as i32;
                    if let Some(p) = mover {
                        r -= self.history.quiet_score(p, m, &context) / 10000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if N::PV && score > alpha && score < beta {
                    score = -self.negamax::<Pv>(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return DRAW;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !capture {
                            let tried = &quiets_tried[..quiet_count];
                            self.reward_quiet(ply, m, depth, &context, tried);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }

        if move_count == 0 {
            // No legal move: checkmate and stalemate both lose.
            return mated_in(ply);
        }
        // `best` rises above `original_alpha` only with a move's score, which also sets
        // `best_move`, so an exact bound always stores its move.
        let bound = Bound::of_window(best, original_alpha, beta);
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// Searches captures only (all evasions when in check) until the position is quiet.
    pub(super) fn qsearch<N: NodeKind>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.count_node();
        if self.stopped {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        // A capture into an endgame table ends here with the table's exact score.
        if let Some(score) = self.tablebase_score(ply) {
            return score;
        }
        let in_check = self.line.last().is_some_and(|r| r.check);
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        // Evaluated before the probe, while the bucket is still on its way (see negamax).
        let stand_pat = if in_check { -INFINITE } else { self.evaluate() };
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        if let Some(h) = hit.filter(|_| !N::PV) {
            if let Some(score) = tt_cutoff(&h, ply, alpha, beta) {
                return score;
            }
        }

        // In check every legal move is searched; otherwise the captures, generated later.
        let mut evasions = None;
        if in_check {
            let moves = self.pos.legal_moves();
            if moves.is_empty() {
                return mated_in(ply);
            }
            evasions = Some(moves);
        } else {
            // No legal move loses, stalemate too, and the captures alone would not show it (a
            // reduced quiet move can end here). A side with a chariot, horse or cannon nearly
            // always can move; one without has few moves, cheap to generate.
            if !self.has_heavy_pieces() && self.pos.legal_moves().is_empty() {
                return mated_in(ply);
            }
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let mut best = stand_pat;
        let original_alpha = alpha;
        let mut best_move = None;
        // Tested only now, after the stand-pat cutoff that ends most of these nodes.
        let hash_move = hit
            .and_then(|h| h.mv)
            .filter(|&m| in_check || self.pos.piece_at(m.to()).is_some())
            .filter(|&m| self.pos.is_legal(m));
        let mut picker = MovePicker::for_quiescence(hash_move);
        match &evasions {
            Some(evasions) => picker.add_evasions(&self.pos, evasions),
            None => picker.add_captures(&self.pos, self.victims_worth(alpha - stand_pat - 150)),
        }
        while let Some(m) = picker.next(&self.pos, &self.history) {
            if !in_check {
                let victim = self
                    .pos
                    .piece_at(m.to())
                    .map_or(0, |p| SEE_VALUE[p.kind.index()]);
                // Delta pruning: even winning this piece outright stays below alpha. The
                // captures after the hash move come most valuable victim first, so once one is
                // pruned, all the rest would be.
                if stand_pat + victim + 150 <= alpha {
                    if Some(m) == hash_move {
                        continue;
                    }
                    break;
                }
                if can_lose_material(&self.pos, m) && !see_at_least(&self.pos, m, 0) {
                    continue;
                }
            }
            self.make(m);
            let score = -self.qsearch::<N>(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = Bound::of_window(best, original_alpha, beta);
        self.tt.store(key, best_move, to_tt(best, ply), 0, bound);
        best
    }

    /// Whether the legal move `m` checks, found by playing it on the board alone (none of the
    /// search's own bookkeeping in [`Worker::make`], nor its prefetches, for a move that will
    /// not be searched).
    fn gives_check(&mut self, m: Move) -> bool {
        let undo = self.pos.make_move(m);
        let check = self.pos.in_check_after(m);
        self.pos.unmake_move(m, undo);
        check
    }

    /// Static evaluation of the current position for the side to move, remembered by key.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        let key = self.pos.key();
        if let Some(score) = self.eval_cache.get(key) {
            return score;
        }
        let score = self.eval.evaluate(&self.pos);
        self.eval_cache.put(key, score);
        score
    }

    /// The pieces worth more than `gain` ([`SEE_VALUE`]), either colour (the capture
    /// generator keeps the enemy's): quiescence prunes every capture of the others (delta
    /// pruning), so it need not generate them.
    #[inline]
    fn victims_worth(&self, gain: i32) -> Bitboard {
        if gain < SEE_VALUE[PieceKind::Soldier.index()] {
            return Bitboard::FULL;
        }
        PieceKind::ALL
            .iter()
            .filter(|k| SEE_VALUE[k.index()] > gain)
            .fold(Bitboard::EMPTY, |set, &k| set | self.pos.kind_bb(k))
    }

    /// Whether the side to move has a chariot, horse or cannon: with only soldiers and
    /// defenders, passing can be a real advantage (zugzwang), so null moves are unsafe.
    fn has_heavy_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon]
            .iter()
            .any(|&k| self.pos.count(us, k) > 0)
    }

    /// The moves that led to `ply`, for the continuation histories: the opponent's last move
    /// and our move before it.
    #[inline]
    fn context(&self, ply: usize) -> Context {
        let before = |back: usize| {
            ply.checked_sub(back)
                .map_or(PieceTo::NONE, |p| self.stack[p].moved)
        };
        [before(1), before(2)]
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv_table.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[ply] = m;
        line[ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// A quiet move caused a cutoff: remember it as a killer and counter move, and raise its
    /// history while lowering that of the quiet moves tried before it.
    fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, context: &Context, tried: &[Move]) {
        let frame = &mut self.stack[ply];
        if frame.killers[0] != m {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = m;
        }
        let bonus = (depth * depth * 16).min(2400);
        if let Some(piece) = self.pos.piece_at(m.from()) {
            self.history.update_quiet(piece, m, context, bonus);
        }
        for &q in tried {
            if let Some(piece) = self.pos.piece_at(q.from()) {
                self.history.update_quiet(piece, q, context, -bonus);
            }
        }
        let previous = self.stack[ply - 1].current;
        if !previous.is_none() {
            if let Some(p) = self.pos.piece_at(previous.to()) {
                self.history.set_counter(p, previous, m);
            }
        }
    }
}
