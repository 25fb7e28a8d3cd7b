//! The laboratory's transposition table: one entry per slot, the slot chosen by the low bits
//! of the position's Zobrist key, always overwritten (the thesis's "always replace"), the whole
//! key kept to tell positions sharing a slot apart.

use crate::score::{from_tt, to_tt};
// The main table's bound: a fail-soft search's value is exact strictly inside the window
// (α, β) and a bound on the true value otherwise.
use crate::tt::Bound;
use xiangqi::Move;

/// What the table remembers of one position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// Plies searched below the position (at most [`super::MAX_DEPTH`], so a byte holds it).
    depth: u8,
    /// Mates counted from this position, not from the root (see [`crate::score::to_tt`]), so
    /// that the entry is right wherever in the tree the position comes again.
    value: i32,
    bound: Bound,
    /// The best move found, or [`Move::NONE`] after a fail-low, where none stood out.
    best: Move,
}

// An entry and its emptiness fit in 16 bytes (the bound's spare values mark an empty slot).
const _: () = assert!(std::mem::size_of::<Option<Entry>>() == 16);

/// What the table holds for a position it knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hit {
    /// The entry's value, when it settles the node (see [`Table::probe`]).
    pub answer: Option<i32>,
    /// The entry's best move, to try first ([`Move::NONE`] after a fail-low).
    pub best: Move,
}

/// A fixed-size table of `2^bits` entries of 16 bytes.
pub(super) struct Table {
    slots: Vec<Option<Entry>>,
    mask: u64,
}

impl Table {
    /// An empty table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            slots: vec![None; size],
            mask: size as u64 - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key & self.mask) as usize
    }

    /// Looks up the position whose key is `key`: `None` when the table does not hold it, else
    /// its entry's best move (to try first), with the entry's value when it settles this node
    /// with `depth` plies to go and the window `(alpha, beta)`.
    ///
    /// Only an entry searched to exactly `depth` may answer: one searched deeper knows more,
    /// and using it (as engines do) would give a better value but not the minimax value at
    /// this depth, which the laboratory is there to show. Nor may an entry answer for the root
    /// (`ply` 0), which is always searched so that it has a best move and a line to report.
    pub fn probe(&self, key: u64, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<Hit> {
        let entry = self.slots[self.slot(key)].filter(|e| e.key == key)?;
        if u32::from(entry.depth) != depth {
            return Some(Hit {
                answer: None,
                best: entry.best,
            });
        }
        let value = from_tt(entry.value, ply);
        let settles = ply > 0
            && match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
        Some(Hit {
            answer: settles.then_some(value),
            best: entry.best,
        })
    }

    /// Remembers the position whose key is `key`: searched to `depth` with the window
    /// (`alpha_before`, `beta`), it returned `best` with the move `best_move`.
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        ply: usize,
        (alpha_before, beta): (i32, i32),
        best: i32,
        best_move: Move,
    ) {
        let bound = Bound::of_window(best, alpha_before, beta);
        let slot = self.slot(key);
        self.slots[slot] = Some(Entry {
            key,
            depth: depth as u8,
            value: to_tt(best, ply),
            bound,
            best: if bound == Bound::Upper {
                Move::NONE
            } else {
                best_move
            },
        });
    }
}
