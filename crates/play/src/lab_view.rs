//! The JSON the laboratory page reads: a report as a table row, a recorded tree with every
//! move in each notation, and both evaluations term by term.

use crate::move_names::MoveNames;
use crate::report::line;
use serde::Serialize;
use xiangqi::{Color, Position};
use xiangqi_engine::lab::{simple, NodeId, Report, Tree};
use xiangqi_engine::tuning::DEFAULT_EVALUATOR;

/// One algorithm's row of the table.
#[derive(Clone, Serialize)]
pub struct RowView {
    algorithm: &'static str,
    finished: bool,
    nodes: u64,
    /// `None` for the engine, which counts nodes only.
    leaves: Option<u64>,
    cutoffs: Option<u64>,
    first_move_cutoffs: Option<u64>,
    table_hits: Option<u64>,
    researches: Option<u64>,
    /// Microseconds.
    time_us: u64,
    /// For the side to move, centi-soldiers (a mate: 31000 less its plies); `None` if unfinished.
    value: Option<i32>,
    best: Option<MoveNames>,
    pv: Vec<String>,
    pv_names: Vec<MoveNames>,
    /// Why an unfinished search stopped: `node_limit`, `time_limit` or `stopped`.
    stopped_by: Option<&'static str>,
}

/// `report` (a search of `root`) as a row.
pub fn row(root: &Position, report: &Report) -> RowView {
    let counted = report.algorithm.counts_tree();
    let only = |n: u64| counted.then_some(n);
    let stats = report.stats;
    let (pv, pv_names) = report
        .outcome
        .as_ref()
        .map_or_else(Default::default, |o| line(root, &o.pv));
    RowView {
        algorithm: report.algorithm.name(),
        finished: report.finished(),
        nodes: stats.nodes,
        leaves: only(stats.leaves),
        cutoffs: only(stats.cutoffs),
        first_move_cutoffs: only(stats.first_move_cutoffs),
        table_hits: only(stats.table_hits),
        researches: only(stats.researches + stats.aspiration_researches),
        time_us: report.time.as_micros() as u64,
        value: report.value(),
        best: report.best_move().map(|m| MoveNames::of(root, m)),
        pv,
        pv_names,
        stopped_by: None,
    }
}

impl RowView {
    /// The row with why its search did not finish (`node_limit`, `time_limit`, `stopped`).
    pub fn stopped_by(self, reason: Option<&'static str>) -> RowView {
        RowView {
            stopped_by: reason,
            ..self
        }
    }
}

/// One node of a tree, its children nested.
#[derive(Serialize)]
pub struct NodeView {
    /// The move that led here, ICCS (`""` at the root).
    m: String,
    /// The same in Chinese notation.
    c: String,
    /// The same in WXF notation.
    f: String,
    /// The window `[α, β]` it was searched with, for its side to move.
    w: [i32; 2],
    /// Its value for its side to move.
    v: i32,
    /// Whether a cutoff ended its move loop (its last child refuted the move that led here).
    x: bool,
    /// Its children, in the order searched.
    k: Vec<NodeView>,
    /// The moves the cutoff left unsearched: `[iccs, chinese, wxf]`.
    p: Vec<[String; 3]>,
    /// A NegaScout re-search of the move before it (its scout beat α).
    r: bool,
    /// Answered by the transposition table.
    h: bool,
}

/// A recorded tree with its search's row.
#[derive(Serialize)]
pub struct TreeView {
    row: RowView,
    truncated: bool,
    recorded: usize,
    root: NodeView,
}

/// The tree `tree` that `report`'s search of `root` recorded.
pub fn tree(root: &Position, report: &Report, tree: &Tree) -> TreeView {
    let mut pos = root.clone();
    TreeView {
        row: row(root, report),
        truncated: tree.truncated,
        recorded: tree.nodes.len(),
        root: node(tree, 0, &mut pos, None),
    }
}

/// Node `id`, whose position `pos` is, reached by `m` from the position before.
fn node(tree: &Tree, id: NodeId, pos: &mut Position, name: Option<MoveNames>) -> NodeView {
    let n = tree.node(id);
    let (m, c, f) = name.map_or_else(Default::default, |n| (n.iccs, n.chinese, n.wxf));
    let pruned = n
        .pruned
        .iter()
        .map(|&p| {
            let names = MoveNames::of(pos, p);
            [names.iccs, names.chinese, names.wxf]
        })
        .collect();
    let children = n
        .children
        .iter()
        .map(|&child| {
            let mv = tree.node(child).mv.expect("only the root has no move");
            let name = MoveNames::of(pos, mv);
            let undo = pos.make_move(mv);
            let view = node(tree, child, pos, Some(name));
            pos.unmake_move(mv, undo);
            view
        })
        .collect();
    NodeView {
        m,
        c,
        f,
        w: [n.window.0, n.window.1],
        v: n.value,
        x: n.cutoff,
        k: children,
        p: pruned,
        r: n.research,
        h: n.table,
    }
}

/// One term for both sides.
#[derive(Serialize)]
pub struct TermView {
    name: &'static str,
    red: f64,
    black: f64,
    /// Red's less Black's.
    diff: f64,
}

/// One evaluation taken apart.
#[derive(Serialize)]
pub struct Evaluated {
    terms: Vec<TermView>,
    /// The terms' sums.
    red: f64,
    black: f64,
    diff: f64,
    /// What the search sees: the value for the side to move (for the engine, after its
    /// scaling of drawish endings and the tempo).
    total: i32,
    /// How the engine's terms combine: phase (of `full_phase`), scale in 64ths, tempo.
    #[serde(skip_serializing_if = "Option::is_none")]
    phase: Option<[i32; 4]>,
}

/// The network's evaluation: a single number, as a network has no terms.
#[derive(Serialize)]
pub struct NetworkView {
    /// The value for the side to move, in centi-soldiers.
    total: i32,
    /// Units of its first layer, per side.
    units: usize,
}

/// The evaluations of a position: the engine's hand-made one and the simple one taken apart,
/// and the network's total beside them.
#[derive(Serialize)]
pub struct EvalView {
    fen: String,
    turn: &'static str,
    engine: Evaluated,
    simple: Evaluated,
    network: NetworkView,
}

fn for_side_to_move(pos: &Position, red: i32) -> i32 {
    match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    }
}

fn summed(terms: Vec<TermView>, total: i32, phase: Option<[i32; 4]>) -> Evaluated {
    let red = terms.iter().map(|t| t.red).sum();
    let black = terms.iter().map(|t| t.black).sum();
    Evaluated {
        terms,
        red,
        black,
        diff: red - black,
        total,
        phase,
    }
}

/// Every term of the engine's evaluation (blended by the phase, unrounded, as `xiangqi eval`
/// prints them) and of the simple one, for Red and for Black, and the built-in network's
/// total.
pub fn eval(pos: &Position) -> EvalView {
    let network = xiangqi_engine::nnue::embedded();
    let breakdown = DEFAULT_EVALUATOR.breakdown(pos);
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let terms = breakdown
        .terms
        .iter()
        .map(|term| {
            let red = breakdown.blend(term.red);
            let black = breakdown.blend(term.black);
            TermView {
                name: term.name,
                red: round(red),
                black: round(black),
                diff: round(red - black),
            }
        })
        .collect();
    let c = breakdown.combined;
    let engine = summed(
        terms,
        for_side_to_move(pos, c.red_score()),
        Some([
            c.phase,
            xiangqi_engine::tuning::Terms::FULL_PHASE,
            c.scale,
            c.tempo,
        ]),
    );
    let simple_terms = simple::terms(pos);
    let rows = simple_terms
        .red
        .named()
        .into_iter()
        .zip(simple_terms.black.named());
    let terms = rows
        .map(|((name, red), (_, black))| TermView {
            name,
            red: f64::from(red),
            black: f64::from(black),
            diff: f64::from(red - black),
        })
        .collect();
    let simple = summed(terms, simple::evaluate(pos), None);
    EvalView {
        fen: pos.to_fen(),
        turn: pos.side_to_move().name(),
        engine,
        simple,
        network: NetworkView {
            total: network.evaluate(pos),
            units: network.hidden(),
        },
    }
}
