//! Recording the tree a search walks, for people to look at (the web page's tree explorer).
//!
//! The searches that can record ([`Algorithm::records_tree`](super::Algorithm::records_tree):
//! minimax, negamax, the three plain alpha-beta orders and NegaScout with or without its
//! helpers) take a [`Recorder`] as a generic
//! parameter. The plain laboratory runs pass [`NoTree`], whose methods are empty and vanish when
//! compiled, so those searches allocate nothing and count exactly as before; [`Tree`] keeps
//! every node up to a cap.
//!
//! The parent does the recording, around each child it searches:
//!
//! ```text
//! rec.open(m, -β, -α)           the child's window, for its side to move
//! v := -search(child, …)
//! rec.close(-v)                  the child's value, for its side to move
//! if cutoff: rec.cut(moves after m)
//! ```

use crate::score::INFINITE;
use xiangqi::Move;

/// What a search tells whoever records its tree. Every [`open`](Recorder::open) is matched by
/// one [`close`](Recorder::close); [`cut`](Recorder::cut) concerns the node most recently
/// opened and not yet closed (the root when none is).
pub(super) trait Recorder {
    /// The search enters the child reached by `m`, with the window `(alpha, beta)` for the
    /// child's side to move.
    fn open(&mut self, m: Move, alpha: i32, beta: i32);
    /// The child entered last returns `value`, for its own side to move.
    fn close(&mut self, value: i32);
    /// The current node's loop ends with a cutoff; `pruned` are the moves it did not search.
    fn cut(&mut self, pruned: &[Move]);
    /// The child entered last searches again, with the full window, the move whose null-window
    /// (scout) search just beat α (NegaScout).
    fn research(&mut self) {}
    /// The transposition table answered the current node: it searched no move.
    fn table_answer(&mut self) {}
}

/// Records nothing: the plain searches.
pub(super) struct NoTree;

impl Recorder for NoTree {
    #[inline(always)]
    fn open(&mut self, _: Move, _: i32, _: i32) {}
    #[inline(always)]
    fn close(&mut self, _: i32) {}
    #[inline(always)]
    fn cut(&mut self, _: &[Move]) {}
}

/// The index of a node in [`Tree::nodes`].
pub type NodeId = u32;

/// One position of a recorded tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    /// The window `(α, β)` the node was searched with, for its side to move: `(-INFINITE,
    /// INFINITE)` for minimax, which has none.
    pub window: (i32, i32),
    /// Its value for its side to move (fail-soft: a bound when outside the window).
    pub value: i32,
    /// Whether a cutoff ended its move loop: its last child refuted the move that led here.
    pub cutoff: bool,
    /// The children searched, in the order searched.
    pub children: Vec<NodeId>,
    /// The moves not searched because of the cutoff, in the order they would have come.
    pub pruned: Vec<Move>,
    /// Whether it is a NegaScout re-search: the move before it among its parent's children is
    /// the same move, whose null-window search beat α.
    pub research: bool,
    /// Whether the transposition table answered it (so it has no children).
    pub table: bool,
}

/// A recorded search tree: the root is node 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Every node recorded, the root first, then depth first in the order searched.
    pub nodes: Vec<Node>,
    /// Whether the search went on past the cap: nodes beyond it were searched, not recorded
    /// (their parents' values and cutoffs are still right).
    pub truncated: bool,
    cap: usize,
    /// The path from the root to the node being searched.
    stack: Vec<NodeId>,
    /// How many nodes deep the search is below the last recorded one, past the cap.
    unrecorded: u32,
}

impl Tree {
    /// An empty tree (the root alone) that records at most `cap` nodes (at least the root).
    pub(super) fn new(cap: usize) -> Tree {
        Tree {
            nodes: vec![Node {
                mv: None,
                window: (-INFINITE, INFINITE),
                value: 0,
                cutoff: false,
                children: Vec::new(),
                pruned: Vec::new(),
                research: false,
                table: false,
            }],
            truncated: false,
            cap: cap.max(1),
            stack: vec![0],
            unrecorded: 0,
        }
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Sets the root's value once the search has returned it.
    pub(super) fn finish(&mut self, value: i32) {
        debug_assert_eq!(self.stack.len(), 1, "every node opened was closed");
        self.nodes[0].value = value;
    }

    fn current(&mut self) -> &mut Node {
        let id = *self.stack.last().expect("the root is never closed");
        &mut self.nodes[id as usize]
    }
}

impl Recorder for Tree {
    fn open(&mut self, m: Move, alpha: i32, beta: i32) {
        if self.unrecorded > 0 || self.nodes.len() >= self.cap {
            self.unrecorded += 1;
            self.truncated = true;
            return;
        }
        let id = self.nodes.len() as NodeId;
        self.current().children.push(id);
        self.nodes.push(Node {
            mv: Some(m),
            window: (alpha, beta),
            value: 0,
            cutoff: false,
            children: Vec::new(),
            pruned: Vec::new(),
            research: false,
            table: false,
        });
        self.stack.push(id);
    }

    fn close(&mut self, value: i32) {
        if self.unrecorded > 0 {
            self.unrecorded -= 1;
            return;
        }
        self.current().value = value;
        self.stack.pop();
    }

    fn cut(&mut self, pruned: &[Move]) {
        if self.unrecorded > 0 {
            return;
        }
        let node = self.current();
        node.cutoff = true;
        node.pruned = pruned.to_vec();
    }

    fn research(&mut self) {
        if self.unrecorded == 0 {
            self.current().research = true;
        }
    }

    fn table_answer(&mut self) {
        if self.unrecorded == 0 {
            self.current().table = true;
        }
    }
}
