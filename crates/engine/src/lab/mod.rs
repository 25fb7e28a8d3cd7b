//! # The search laboratory: game-tree search from minimax to NegaScout
//!
//! This module is a textbook chapter that runs. It holds the classic game-tree searches that
//! the reports this project grew from describe (minimax, negamax, alpha-beta, move ordering,
//! the transposition table, the history heuristic, NegaScout, iterative deepening and
//! aspiration windows), each written as a small function over the rules library, searching
//! any position to a fixed depth and counting what it does. The engine's own search (in the
//! private `search` module) is a tuned descendant of the last of them; it is not used here,
//! except as the ninth entry, [`Algorithm::Engine`], for comparison.
//!
//! [`run`] searches a position with one [`Algorithm`] under [`Settings`] (the depth, the
//! [`Evaluation`], a deadline and a stop flag) and returns a [`Report`]: nodes visited, leaves
//! evaluated, cutoffs (on the first move tried or later), table hits, time, and, if the search
//! finished, the root's value, best move and principal variation. (It refuses a depth outside
//! `1..=`[`MAX_DEPTH`] with a [`SettingsError`].)
//!
//! ```
//! use xiangqi::Position;
//! use xiangqi_engine::lab::{run, Algorithm, Evaluation, Settings};
//!
//! let settings = Settings::new(3, Evaluation::Simple);
//! let minimax = run(Algorithm::Minimax, &Position::startpos(), &settings)?;
//! let alphabeta = run(Algorithm::AlphaBeta, &Position::startpos(), &settings)?;
//! // Pruning changes the work, never the answer.
//! assert_eq!(minimax.value(), alphabeta.value());
//! assert_eq!(minimax.stats.leaves, 79_666); // every leaf: perft 3
//! assert!(alphabeta.stats.leaves < 79_666 / 5);
//! # Ok::<(), xiangqi_engine::lab::SettingsError>(())
//! ```
//!
//! ## 1. The game tree and minimax
//!
//! From a position, each legal move leads to a child position, and each child has children
//! of its own: the game tree. Searching it `d` plies deep and scoring the positions at the
//! bottom (the *leaves*, or the *horizon*) with a static evaluation gives each inner position
//! a *backed-up* value: the side to move at the root (MAX) picks the child with the largest
//! value, its opponent (MIN) the one with the smallest, level by level (von Neumann's
//! minimax). Reports 000 and 002 write it with the two levels spelled out, and so does
//! [`Algorithm::Minimax`]:
//!
//! ```text
//! max_value(p, d):                       min_value(p, d):
//!     if d = 0: return eval(p)               if d = 0: return eval(p)
//!     v := -∞                                v := +∞
//!     for each move m of p:                  for each move m of p:
//!         v := max(v, min_value(p·m, d-1))       v := min(v, max_value(p·m, d-1))
//!     return v                               return v
//! ```
//!
//! where `eval` scores a position for MAX. Minimax looks at every leaf, so its leaf count is
//! exactly `perft(d)`, the number of move sequences of length `d` (a test checks this).
//!
//! ## 2. Negamax
//!
//! Knuth and Moore (1975) noticed that `min(a, b) = -max(-a, -b)`: if every position is scored
//! for *its own side to move*, one function serves both levels ([`Algorithm::Negamax`]):
//!
//! ```text
//! negamax(p, d):
//!     if d = 0: return eval_for_side_to_move(p)
//!     v := -∞
//!     for each move m of p: v := max(v, -negamax(p·m, d-1))
//!     return v
//! ```
//!
//! Same tree, same value, half the code. Every later algorithm is written this way.
//!
//! ## 3. Alpha-beta
//!
//! Much of the tree cannot change the root's value. Once MAX has a move worth 18, a MIN reply
//! to another move worth 16 shows that move is worth at most 16 to MAX: its other replies need
//! not be looked at. Alpha-beta carries the window `(α, β)` of values that can still matter:
//! `α` is what the side to move is already sure of, `β` what the opponent already holds
//! elsewhere. A move scoring `β` or more refutes the opponent's previous move: a *cutoff*,
//! and the remaining moves are skipped ([`Algorithm::AlphaBeta`]):
//!
//! ```text
//! alphabeta(p, d, α, β):
//!     if d = 0: return eval(p)
//!     best := -∞
//!     for each move m of p:
//!         v := -alphabeta(p·m, d-1, -β, -α)
//!         best := max(best, v);  α := max(α, v)
//!         if α ≥ β: break                          (cutoff)
//!     return best
//! ```
//!
//! With the full window `(-∞, +∞)` at the root it returns exactly the minimax value: values
//! inside the window are exact, and a value outside it only ever decides that a move is not
//! chosen (this version, which returns `best` rather than `α`, is called *fail-soft*).
//!
//! ## 4. Move ordering, and the minimal tree
//!
//! How much alpha-beta saves depends on the order of the moves. With the best move always
//! first, Knuth and Moore showed that a uniform tree of branching factor `b` and depth `d`
//! is decided by the *minimal tree* of `b^⌈d/2⌉ + b^⌊d/2⌋ − 1` leaves ([`minimal_tree_leaves`])
//! instead of `b^d`: with `b = 40` and `d = 4`, 3,199 leaves instead of 2,560,000. With the
//! worst move first nothing is cut at all. Cheap guesses at the best move:
//!
//! - [`Algorithm::AlphaBetaMvvLva`]: captures first, the most valuable victim first and,
//!   among those, the least valuable attacker first (a chariot taken by a soldier before a
//!   soldier taken by a chariot);
//! - [`Algorithm::AlphaBetaHistory`]: Schaeffer's history heuristic. A move that caused a
//!   cutoff (or was best) somewhere is likely good elsewhere too, since most of the board is
//!   the same: a table indexed by the move's from and to points gains `2^depth` each time (a
//!   cutoff near the root saves more), and moves are tried in order of their score.
//!
//! ## 5. The transposition table
//!
//! Different move orders reach the same position (`h2e2 h9g7 h0g2` and `h0g2 h9g7 h2e2`), and
//! searching it again gives the same answer. A hash table keyed by the position's Zobrist key
//! ([`xiangqi::Position::key`]: a XOR of one random number per piece on a point, and one for
//! the side to move, kept up to date move by move) remembers for each position searched: the
//! depth it was searched to, its value and what kind of value it is (exact, a lower bound after
//! a cutoff, an upper bound when no move reached `α`), and the best move
//! ([`Algorithm::AlphaBetaTt`]):
//!
//! ```text
//! alphabeta_tt(p, d, α, β):
//!     if d = 0: return eval(p)
//!     e := table[key(p)]
//!     if e searched to depth d:
//!         if e exact, or e lower bound ≥ β, or e upper bound ≤ α: return e.value
//!     search as alpha-beta, the table's best move first
//!     table[key(p)] := (d, best, exact / lower / upper, best move)
//!     return best
//! ```
//!
//! Engines (and the thesis) also take an entry searched *deeper* than needed. That is better
//! play but a different answer, so the laboratory uses an entry only at exactly the depth it
//! needs: its values stay exactly minimax's, as the tests require.
//!
//! ## 6. NegaScout (principal variation search)
//!
//! When the first move is usually the best, the others only need to be shown *worse*, not
//! valued. A search with the empty window `(α, α+1)` can only answer "at most α" or "more than
//! α", and proves it with far fewer nodes. NegaScout (Reinefeld 1983; PVS) searches the first
//! move with the full window and every other with the null window, searching again with the
//! full window only when a move turns out better than `α` ([`Algorithm::PvsTtHistory`], the
//! thesis's `NegaScout_TT_HH`, with the table and the history heuristic):
//!
//! ```text
//! pvs(p, d, α, β):
//!     if d = 0: return eval(p)
//!     (table probe as above; moves ordered: table move, then history)
//!     for each move m of p, i = 0, 1, …:
//!         if i = 0: v := -pvs(p·m, d-1, -β, -α)
//!         else:
//!             v := -pvs(p·m, d-1, -α-1, -α)       (null window: is m better than α?)
//!             if α < v < β: v := -pvs(p·m, d-1, -β, -α)   (it is: how much better?)
//!         best := max(best, v);  α := max(α, v);  if α ≥ β: break
//!     (store in the table; reward the best move's history)
//!     return best
//! ```
//!
//! ## 7. Iterative deepening and aspiration windows
//!
//! Searching depth 1, then 2, then 3… up to `d` costs little more than depth `d` alone (each
//! ply multiplies the tree by the branching factor), and fills the table and the history
//! with the best moves of the shallower searches: the deep search then tries them first. The
//! value of the previous depth is also a good guess of the next one: *aspiration windows*
//! search with a narrow window around it, where more is cut, and search again with a wider one
//! if the value falls outside ([`Algorithm::PvsIdAspiration`]):
//!
//! ```text
//! for depth := 1 to d:
//!     (α, β) := (v - δ, v + δ)            (the full window at depth 1 and after a mate)
//!     loop:
//!         v := pvs(root, depth, α, β)
//!         if v ≤ α: α := v - δ, δ := 2δ       (failed low: search again, lower)
//!         else if v ≥ β: β := v + δ, δ := 2δ  (failed high: search again, higher)
//!         else: break                          (inside the window: exact)
//! ```
//!
//! The final value is exact, and equals minimax's at depth `d`: the loop ends only with a value
//! strictly inside the window, and the transposition table holds only correct bounds.
//!
//! ## The end of the game, and what is counted
//!
//! In Xiangqi the side with no legal move has lost, whether checkmated or stalemated. Such a
//! position is scored `−MATE + ply` for the side to move ([`crate::score::mated_in`]), so a
//! mate found sooner is worth more to the winner, and a loss put off is worth more to the
//! loser. A leaf at the horizon is checked for this too, or a search of depth 1 would miss a
//! mate in one. Repetition and the 120-ply rule are left out: they depend on the path, not the
//! position, and would make the tree's values disagree with perft.
//!
//! [`Stats`] counts *nodes* (positions the search function was called on, the root included),
//! *leaves* (horizon positions evaluated), *terminals* (positions without a legal move),
//! *cutoffs* (and how many came from the first move tried), table probes, hits and answers, and
//! re-searches. Every search checks a deadline and a stop flag every 1,024 nodes; one that
//! must stop unwinds at once and is reported as not finished.

mod algorithm;
mod alphabeta;
mod engine_row;
mod ideas;
mod minimal_tree;
mod minimax;
mod ordering;
mod pvs;
mod report;
mod search;
mod settings;
pub mod simple;
mod table;
#[cfg(test)]
mod tests;
mod tree;
#[cfg(test)]
mod tree_tests;

pub use algorithm::{Algorithm, UnknownName};
pub use minimal_tree::minimal_tree_leaves;
pub use report::{Outcome, Report, Stats};
pub use settings::{Evaluation, Progress, Settings, SettingsError, MAX_DEPTH, MAX_TABLE_BITS};
pub use tree::{Node, NodeId, Tree};

use crate::instant::Instant;
use ideas::Idea;
use ordering::Order;
use pvs::Helpers;
use tree::{NoTree, Recorder};
use xiangqi::Position;

/// Searches `pos` with `algorithm` to `settings.depth` and reports what it found and did.
///
/// The time reported is the search's own: the transposition table (or, for the engine, the
/// engine and its table) is set up before the clock starts, as it would be once for a game.
pub fn run(
    algorithm: Algorithm,
    pos: &Position,
    settings: &Settings,
) -> Result<Report, SettingsError> {
    settings.check()?;
    if algorithm == Algorithm::Engine {
        return Ok(engine_row::run(pos, settings));
    }
    let mut search = search::Search::new(pos, settings, algorithm.uses_table());
    let started = Instant::now();
    let depth = settings.depth;
    let value = match algorithm {
        Algorithm::AlphaBetaTt => alphabeta::root_tt(&mut search, depth),
        Algorithm::PvsIdAspiration => pvs::iterative_deepening(&mut search, depth),
        Algorithm::AlphaBetaKiller => ideas::root(&mut search, depth, Idea::Killers),
        Algorithm::AlphaBetaQuiescence => {
            ideas::root(&mut search, depth, Idea::Quiescence(Order::Generated))
        }
        Algorithm::AlphaBetaQuiescenceMvvLva => {
            ideas::root(&mut search, depth, Idea::Quiescence(Order::MvvLva))
        }
        Algorithm::AlphaBetaNullMove => ideas::root(&mut search, depth, Idea::NullMove),
        Algorithm::AlphaBetaLmr => ideas::root(&mut search, depth, Idea::Reductions),
        Algorithm::Engine => unreachable!("the engine is run above"),
        _ => recording(algorithm, &mut search, &mut NoTree, depth),
    };
    Ok(search.finish(algorithm, settings, value, started.elapsed()))
}

/// [`run`], recording the tree the search walks, up to `cap` nodes (see [`Tree`]): for the
/// algorithms that [record one](Algorithm::records_tree), minimax, negamax, the three plain
/// alpha-beta orders and NegaScout (not by iterative deepening). The report is the same as [`run`]'s; recording only takes longer.
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_engine::lab::{run_tree, Algorithm, Evaluation, Settings};
///
/// let settings = Settings::new(2, Evaluation::Simple);
/// let (report, tree) = run_tree(Algorithm::AlphaBeta, &Position::startpos(), &settings, 20_000)?;
/// assert_eq!(tree.nodes.len() as u64, report.stats.nodes);
/// assert_eq!(Some(tree.root().value), report.value());
/// assert!(tree.nodes.iter().any(|node| node.cutoff && !node.pruned.is_empty()));
/// # Ok::<(), xiangqi_engine::lab::SettingsError>(())
/// ```
pub fn run_tree(
    algorithm: Algorithm,
    pos: &Position,
    settings: &Settings,
    cap: usize,
) -> Result<(Report, Tree), SettingsError> {
    settings.check()?;
    if !algorithm.records_tree() {
        return Err(SettingsError::NoTree(algorithm));
    }
    let mut search = search::Search::new(pos, settings, algorithm.uses_table());
    let mut tree = Tree::new(cap);
    let started = Instant::now();
    let value = recording(algorithm, &mut search, &mut tree, settings.depth);
    tree.finish(value);
    Ok((
        search.finish(algorithm, settings, value, started.elapsed()),
        tree,
    ))
}

/// The searches that can record their tree, recording it with `rec`.
fn recording<R: Recorder>(
    algorithm: Algorithm,
    search: &mut search::Search,
    rec: &mut R,
    depth: u32,
) -> i32 {
    match algorithm {
        Algorithm::Minimax => minimax::max_value(search, rec, depth, 0),
        Algorithm::Negamax => minimax::negamax(search, rec, depth, 0),
        Algorithm::AlphaBeta => alphabeta::root(search, rec, depth, Order::Generated),
        Algorithm::AlphaBetaMvvLva => alphabeta::root(search, rec, depth, Order::MvvLva),
        Algorithm::AlphaBetaHistory => alphabeta::root(search, rec, depth, Order::History),
        Algorithm::PvsTtHistory => pvs::root(search, rec, depth, Helpers::BOTH),
        Algorithm::Pvs => pvs::root(search, rec, depth, Helpers::NONE),
        Algorithm::PvsTt => pvs::root(search, rec, depth, Helpers::TABLE),
        Algorithm::PvsHistory => pvs::root(search, rec, depth, Helpers::HISTORY),
        _ => unreachable!("{algorithm} does not record a tree"),
    }
}
