//! What must hold of a recorded tree: minimax's is perft's tree, alpha-beta's has minimax's
//! root value, every node's value follows from its children's, a cutoff's pruned moves are the
//! ones left, recording changes nothing the search counts, and the cap truncates.

use super::tests::POSITIONS;
use super::*;
use tree::Node;
use xiangqi::{perft, Position};

/// Large enough for minimax to depth 3 from any of the test positions.
const BIG: usize = 200_000;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn record(algorithm: Algorithm, pos: &Position, depth: u32, cap: usize) -> (Report, Tree) {
    let settings = Settings::new(depth, Evaluation::Simple);
    run_tree(algorithm, pos, &settings, cap).unwrap_or_else(|e| panic!("{algorithm}: {e}"))
}

/// The ids of the nodes `ply` moves below the root.
fn level(tree: &Tree, ply: u32) -> Vec<NodeId> {
    let mut ids = vec![0];
    for _ in 0..ply {
        ids = ids
            .iter()
            .flat_map(|&id| tree.node(id).children.iter().copied())
            .collect();
    }
    ids
}

#[test]
fn lab_tree_of_minimax_has_perfts_leaves() {
    for fen in POSITIONS {
        let mut pos = position(fen);
        for depth in 1..=3 {
            let (report, tree) = record(Algorithm::Minimax, &pos, depth, BIG);
            assert!(!tree.truncated, "{fen} depth {depth}");
            assert_eq!(tree.nodes.len() as u64, report.stats.nodes, "{fen}");
            let leaves = level(&tree, depth).len() as u64;
            assert_eq!(leaves, perft(&mut pos, depth), "{fen} depth {depth}");
            assert!(tree.nodes.iter().all(|n| !n.cutoff && n.pruned.is_empty()));
        }
    }
}

#[test]
fn lab_tree_of_alphabeta_has_minimaxs_value_and_consistent_nodes() {
    for fen in POSITIONS {
        let pos = position(fen);
        for depth in 1..=3 {
            let (minimax, tree) = record(Algorithm::Minimax, &pos, depth, BIG);
            assert_eq!(Some(tree.root().value), minimax.value(), "{fen}");
            for algorithm in [
                Algorithm::Negamax,
                Algorithm::AlphaBeta,
                Algorithm::AlphaBetaMvvLva,
                Algorithm::AlphaBetaHistory,
            ] {
                let (report, tree) = record(algorithm, &pos, depth, BIG);
                assert_eq!(
                    tree.root().value,
                    minimax.value().unwrap(),
                    "{algorithm} {fen}"
                );
                assert_eq!(Some(tree.root().value), report.value());
                assert_eq!(tree.nodes.len() as u64, report.stats.nodes);
                let cutoffs = tree.nodes.iter().filter(|n| n.cutoff).count() as u64;
                assert_eq!(cutoffs, report.stats.cutoffs, "{algorithm} {fen}");
                check_node(&tree, 0, &mut pos.clone(), depth);
            }
        }
    }
}

/// Node `id` (position `pos`, `depth` above the horizon): its value is the best of its
/// children's (fail-soft), a cutoff's last child reached β, and its children and pruned moves
/// are its legal moves.
fn check_node(tree: &Tree, id: NodeId, pos: &mut Position, depth: u32) {
    let node = tree.node(id);
    if depth == 0 || node.children.is_empty() {
        return;
    }
    let (alpha, beta) = node.window;
    assert!(alpha < beta);
    let values: Vec<i32> = node.children.iter().map(|&c| -tree.node(c).value).collect();
    assert_eq!(node.value, *values.iter().max().unwrap());
    if node.cutoff {
        assert!(*values.last().unwrap() >= beta);
    } else {
        assert!(values.iter().all(|&v| v < beta));
    }
    let mut moves: Vec<_> = node
        .children
        .iter()
        .map(|&c| tree.node(c).mv.unwrap())
        .collect();
    moves.extend(&node.pruned);
    let mut legal = pos.legal_moves().as_slice().to_vec();
    moves.sort_by_key(|m| m.to_string());
    legal.sort_by_key(|m| m.to_string());
    assert_eq!(moves, legal);
    for &child in &node.children {
        let m = tree.node(child).mv.unwrap();
        let undo = pos.make_move(m);
        check_node(tree, child, pos, depth - 1);
        pos.unmake_move(m, undo);
    }
}

#[test]
fn lab_recording_changes_nothing_the_search_counts() {
    let pos = position(POSITIONS[1]);
    for algorithm in Algorithm::every().filter(|a| a.records_tree()) {
        let settings = Settings::new(3, Evaluation::Engine);
        let plain = run(algorithm, &pos, &settings).unwrap();
        let (recorded, _) = run_tree(algorithm, &pos, &settings, 100).unwrap();
        assert_eq!(plain.stats, recorded.stats, "{algorithm}");
        assert_eq!(plain.outcome, recorded.outcome, "{algorithm}");
    }
}

#[test]
fn lab_tree_stops_recording_at_the_cap() {
    let pos = Position::startpos();
    let (report, tree) = record(Algorithm::Minimax, &pos, 2, 100);
    assert!(tree.truncated);
    assert_eq!(tree.nodes.len(), 100);
    assert_eq!(report.stats.nodes, 1 + 44 + 1_920);
    // The root's moves recorded are searched in full, but the root has all its value.
    assert_eq!(Some(tree.root().value), report.value());
    let (_, whole) = record(Algorithm::Minimax, &pos, 2, 10_000);
    assert!(!whole.truncated);
}

#[test]
fn lab_tree_is_refused_for_the_other_searches() {
    let settings = Settings::new(2, Evaluation::Simple);
    for algorithm in Algorithm::every() {
        let result = run_tree(algorithm, &Position::startpos(), &settings, 100);
        if algorithm.records_tree() {
            assert!(result.is_ok());
        } else {
            assert_eq!(result.err(), Some(SettingsError::NoTree(algorithm)));
        }
    }
    let stopped = Settings {
        node_limit: Some(10),
        ..Settings::new(4, Evaluation::Simple)
    };
    let (report, _) = run_tree(Algorithm::Minimax, &Position::startpos(), &stopped, 100).unwrap();
    assert!(!report.finished(), "the node limit stops the search");
}

/// NegaScout's recorded trees: minimax's value at the root, every node the search counted,
/// each re-search right after the null-window search of the same move that beat α, the
/// table's answers without children, and every other node's value its children's best
/// (the scouts that were searched again not counted) over its legal moves.
#[test]
fn lab_tree_of_negascout_shows_its_researches_and_table_answers() {
    let mut researches = 0;
    let mut answers = 0;
    for fen in POSITIONS {
        let pos = position(fen);
        for depth in 1..=3 {
            let (minimax, _) = record(Algorithm::Minimax, &pos, depth, BIG);
            for algorithm in [
                Algorithm::Pvs,
                Algorithm::PvsTt,
                Algorithm::PvsHistory,
                Algorithm::PvsTtHistory,
            ] {
                let (report, tree) = record(algorithm, &pos, depth, BIG);
                assert_eq!(
                    Some(tree.root().value),
                    minimax.value(),
                    "{algorithm} {fen}"
                );
                assert_eq!(tree.nodes.len() as u64, report.stats.nodes, "{algorithm}");
                let again = tree.nodes.iter().filter(|n| n.research).count() as u64;
                assert_eq!(again, report.stats.researches, "{algorithm} {fen}");
                researches += again;
                answers += tree.nodes.iter().filter(|n| n.table).count();
                check_scout_node(&tree, 0, &mut pos.clone(), depth);
            }
        }
    }
    assert!(
        researches > 0 && answers > 0,
        "{researches} re-searches, {answers} answers"
    );
}

fn check_scout_node(tree: &Tree, id: NodeId, pos: &mut Position, depth: u32) {
    let node = tree.node(id);
    if node.table {
        assert!(node.children.is_empty());
        return;
    }
    if depth == 0 || node.children.is_empty() {
        return;
    }
    let children: Vec<&Node> = node.children.iter().map(|&c| tree.node(c)).collect();
    let mut counted = Vec::new();
    for (i, child) in children.iter().enumerate() {
        let searched_again = children.get(i + 1).is_some_and(|next| next.research);
        if child.research {
            let scout = children[i - 1];
            assert_eq!(scout.mv, child.mv);
            // The scout's window was null and it beat the α it was searched with.
            assert_eq!(scout.window.1 - scout.window.0, 1);
            assert!(-scout.value > -scout.window.1);
        }
        if !searched_again {
            counted.push(-child.value);
        }
    }
    assert_eq!(node.value, *counted.iter().max().unwrap());
    let mut moves: Vec<_> = children
        .iter()
        .filter(|c| !c.research)
        .map(|c| c.mv.unwrap())
        .collect();
    moves.extend(&node.pruned);
    let mut legal = pos.legal_moves().as_slice().to_vec();
    moves.sort_by_key(|m| m.to_string());
    legal.sort_by_key(|m| m.to_string());
    assert_eq!(moves, legal);
    for &child in &node.children {
        let m = tree.node(child).mv.unwrap();
        let undo = pos.make_move(m);
        check_scout_node(tree, child, pos, depth - 1);
        pos.unmake_move(m, undo);
    }
}
