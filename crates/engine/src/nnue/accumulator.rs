//! The first layer's sums for the positions of a search path, kept up to date move by move.

use super::features::{bucketed_index, index};
use super::file::Network;
use super::kernels::simd;
use xiangqi::{Color, Move, Piece, PieceKind, Position};

/// The first layer's sums of both sides for each position on a search path, the last for the
/// current one. Allocated once for a search; making a move adds or removes a few weight
/// columns ([`Accumulators::push_move`]), unmaking it drops the top.
pub struct Accumulators {
    hidden: usize,
    /// Position by position: Red's `hidden` sums, then Black's.
    sums: Vec<i16>,
    /// Positions on the path.
    len: usize,
}

impl Accumulators {
    /// Sums for `pos`, with room for `depth` more positions on the path.
    pub fn new(network: &Network, pos: &Position, depth: usize) -> Accumulators {
        let hidden = network.hidden();
        let mut accumulators = Accumulators {
            hidden,
            sums: vec![0; (depth + 1) * 2 * hidden],
            len: 1,
        };
        let (red, black) = accumulators.sums.split_at_mut(hidden);
        fill(network, pos, Color::Red, red);
        fill(network, pos, Color::Black, &mut black[..hidden]);
        accumulators
    }

    /// The sums after `m` is played in `pos` (the position before the move, the current one).
    #[inline]
    pub fn push_move(&mut self, network: &Network, pos: &Position, m: Move) {
        let Some(mover) = pos.piece_at(m.from()) else {
            debug_assert!(false, "no piece on the move's square");
            return self.push_same();
        };
        let captured = pos.piece_at(m.to());
        if network.has_king_buckets() {
            return self.push_bucketed_move(network, pos, m, mover, captured);
        }
        let (parent, child) = self.split_top();
        for (side, offset) in [(Color::Red, 0), (Color::Black, parent.len() / 2)] {
            let end = offset + parent.len() / 2;
            let (src, dst) = (&parent[offset..end], &mut child[offset..end]);
            let add = network.column(index(side, mover, m.to()));
            let sub = network.column(index(side, mover, m.from()));
            match captured {
                None => simd::add_sub(dst, src, add, sub),
                Some(victim) => {
                    let sub2 = network.column(index(side, victim, m.to()));
                    simd::add_sub_sub(dst, src, add, sub, sub2);
                }
            }
        }
    }

    /// [`Accumulators::push_move`] in a network with king buckets.
    fn push_bucketed_move(
        &mut self,
        network: &Network,
        pos: &Position,
        m: Move,
        mover: Piece,
        captured: Option<Piece>,
    ) {
        let (parent, child) = self.split_top();
        for (side, offset) in [(Color::Red, 0), (Color::Black, parent.len() / 2)] {
            let end = offset + parent.len() / 2;
            let (src, dst) = (&parent[offset..end], &mut child[offset..end]);
            if mover.kind == PieceKind::General && mover.color == side {
                // The side's own general moved to another palace square: every input of the
                // side is now in another bucket.
                fill_after(network, pos, m, side, dst);
                continue;
            }
            // This move leaves the side's general where it was (a general is never captured).
            let general = pos.general(side);
            let add = network.column(bucketed_index(side, mover, m.to(), general));
            let sub = network.column(bucketed_index(side, mover, m.from(), general));
            match captured {
                None => simd::add_sub(dst, src, add, sub),
                Some(victim) => {
                    let sub2 = network.column(bucketed_index(side, victim, m.to(), general));
                    simd::add_sub_sub(dst, src, add, sub, sub2);
                }
            }
        }
    }

    /// The same sums again, for a null move.
    #[inline]
    pub fn push_same(&mut self) {
        let (parent, child) = self.split_top();
        child.copy_from_slice(parent);
    }

    /// Back to the position before the last push.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "pop without push");
        self.len -= 1;
    }

    /// The evaluation of `pos`, the current position, in centi-soldiers for its side to move.
    #[inline]
    pub fn evaluate(&self, network: &Network, pos: &Position) -> i32 {
        let (red, black) = self.top().split_at(self.hidden);
        // The pieces pick the output bucket: counted only when there is a choice.
        let pieces = if network.output_buckets() > 1 {
            pos.occupied().count()
        } else {
            0
        };
        match pos.side_to_move() {
            Color::Red => network.output(red, black, pieces),
            Color::Black => network.output(black, red, pieces),
        }
    }

    /// The current position's sums, Red's then Black's.
    #[inline]
    pub(super) fn top(&self) -> &[i16] {
        let size = 2 * self.hidden;
        &self.sums[(self.len - 1) * size..self.len * size]
    }

    /// Makes room for one more position; returns the current one's sums and the new one's.
    #[inline]
    fn split_top(&mut self) -> (&[i16], &mut [i16]) {
        let size = 2 * self.hidden;
        if (self.len + 1) * size > self.sums.len() {
            // Deeper than planned: grow (never in a search, whose depth is bounded).
            self.sums.resize((self.len + 1) * size, 0);
        }
        self.len += 1;
        let (before, after) = self.sums.split_at_mut((self.len - 1) * size);
        (&before[before.len() - size..], &mut after[..size])
    }
}

/// `side`'s first-layer sums for `pos`, computed from scratch.
fn fill(network: &Network, pos: &Position, side: Color, sums: &mut [i16]) {
    sums.copy_from_slice(network.bias());
    let general = pos.general(side);
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            simd::add_assign(
                sums,
                network.column(network.input(side, piece, sq, general)),
            );
        }
    }
}

/// `side`'s first-layer sums for the position after `side`'s general makes the move `m` in
/// `pos`, computed from scratch: the pieces of `pos`, the general on its new square, a piece it
/// took gone.
fn fill_after(network: &Network, pos: &Position, m: Move, side: Color, sums: &mut [i16]) {
    sums.copy_from_slice(network.bias());
    let general = m.to();
    for sq in pos.occupied() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let now = if sq == m.from() {
            m.to()
        } else if sq == m.to() {
            continue;
        } else {
            sq
        };
        simd::add_assign(
            sums,
            network.column(network.input(side, piece, now, general)),
        );
    }
}

impl Network {
    /// The evaluation of `pos` in centi-soldiers for the side to move, computed from scratch
    /// (the search keeps [`Accumulators`] instead).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        Accumulators::new(self, pos, 0).evaluate(self, pos)
    }
}
