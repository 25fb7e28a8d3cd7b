//! What must hold of the laboratory's searches: minimax sees every leaf (perft); pruning,
//! ordering, the table, null windows and aspiration windows change the work, never the value;
//! losses without a move are scored as the rules say; a search can be stopped.

use super::*;
use crate::score::{mate_in, mated_in, MATE_BOUND};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::{perft, Position};

/// Positions of every kind, both sides to move.
pub(super) const POSITIONS: &[&str] = &[
    xiangqi::START_FEN,
    // Middlegames (from the bench).
    "r1bakab1r/9/1cn1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 b - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    // Endgames.
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "2bakab2/9/9/9/9/9/9/9/1C2C4/2BAKAB2 w - - 0 1",
    // Red mates in one (b0b9); the search must prefer it to longer mates.
    MATE_IN_ONE,
];

/// Black's general is shut in by two chariots and the facing rule: b0b9 mates.
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w";

/// Positions whose trees are small enough to search to depth 4 with minimax in a test.
const SMALL: &[&str] = &[
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "3k5/9/9/9/9/9/4p4/9/4A4/4KC3 b",
    MATE_IN_ONE,
];

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn settings(depth: u32, evaluation: Evaluation) -> Settings {
    Settings {
        table_bits: 16,
        ..Settings::new(depth, evaluation)
    }
}

/// The laboratory's own algorithms, whose values must all be minimax's.
fn exact_algorithms() -> impl Iterator<Item = Algorithm> {
    Algorithm::every().filter(|a| a.is_exact())
}

/// The report of a search under settings the test knows to be good.
fn search(algorithm: Algorithm, pos: &Position, settings: &Settings) -> Report {
    run(algorithm, pos, settings).unwrap_or_else(|e| panic!("{algorithm}: {e}"))
}

fn finished(algorithm: Algorithm, pos: &Position, settings: &Settings) -> Report {
    let report = search(algorithm, pos, settings);
    assert!(report.finished(), "{algorithm} did not finish");
    report
}

#[test]
fn lab_minimax_sees_every_leaf_as_perft_counts_them() {
    for fen in POSITIONS {
        let pos = position(fen);
        for depth in 1..=3 {
            let report = finished(
                Algorithm::Minimax,
                &pos,
                &settings(depth, Evaluation::Simple),
            );
            let mut p = pos.clone();
            assert_eq!(
                report.stats.leaves,
                perft(&mut p, depth),
                "{fen} depth {depth}"
            );
            // Every node of the tree, the root included: one perft per level.
            let nodes: u64 = (0..=depth).map(|d| perft(&mut p, d)).sum();
            assert_eq!(report.stats.nodes, nodes, "{fen} depth {depth}");
            assert_eq!(report.stats.cutoffs, 0);
            // Negamax walks the same tree to the same value.
            let negamax = finished(
                Algorithm::Negamax,
                &pos,
                &settings(depth, Evaluation::Simple),
            );
            assert_eq!(negamax.stats, report.stats, "{fen} depth {depth}");
            assert_eq!(negamax.value(), report.value(), "{fen} depth {depth}");
        }
    }
}

/// Checks that every exact algorithm gives minimax's value on `fen` at `depth`, and that its
/// best move and line are sound. Returns the reports, minimax's first.
fn compare_with_minimax(fen: &str, depth: u32, evaluation: Evaluation) -> Vec<Report> {
    let pos = position(fen);
    let settings = settings(depth, evaluation);
    let minimax = finished(Algorithm::Minimax, &pos, &settings);
    let value = minimax.value().expect("finished");
    let mut reports = vec![minimax];
    for algorithm in exact_algorithms().skip(1) {
        let report = finished(algorithm, &pos, &settings);
        assert_eq!(
            report.value(),
            Some(value),
            "{algorithm} on {fen} at depth {depth} with the {evaluation} evaluation"
        );
        check_line(&pos, &report);
        reports.push(report);
    }
    reports
}

/// The best move is legal and worth the root's value; the principal variation is a legal
/// line starting with it, as long as the depth unless a table answered a node on it or the
/// game ended.
fn check_line(pos: &Position, report: &Report) {
    let outcome = report.outcome.as_ref().expect("finished");
    let name = report.algorithm;
    let best = outcome.best_move.expect("the test positions have moves");
    assert_eq!(outcome.pv.first(), Some(&best), "{name}");
    assert!(outcome.pv.len() <= report.depth as usize, "{name}");
    let mut p = pos.clone();
    for &m in &outcome.pv {
        assert!(p.is_legal(m), "{name}: {m} in {:?}", outcome.pv);
        p.make_move(m);
    }
    let uses_table = name.uses_table();
    let game_over = outcome.value.abs() >= MATE_BOUND;
    if !uses_table && !game_over {
        assert_eq!(outcome.pv.len(), report.depth as usize, "{name}");
    }
    if report.depth >= 2 {
        // The best move's own value, searched one ply shallower from the child, is the root's.
        let mut child = pos.clone();
        child.make_move(best);
        let below = search(
            Algorithm::Negamax,
            &child,
            &Settings::new(report.depth - 1, report.evaluation),
        );
        let below = below.value().expect("finished");
        // Mates are counted from the root: one ply further from it than from the child.
        let below = match below {
            v if v >= MATE_BOUND => v - 1,
            v if v <= -MATE_BOUND => v + 1,
            v => v,
        };
        assert_eq!(-below, outcome.value, "{name}: the value of {best}");
    }
}

#[test]
fn lab_pruning_never_changes_the_value() {
    // What the table and the null windows did on the way, so that the test is known to have
    // gone through the code that answers from the table and searches again.
    let mut answers = 0;
    let mut researches = 0;
    for evaluation in [Evaluation::Simple, Evaluation::Engine] {
        let mut reports = Vec::new();
        for fen in POSITIONS {
            for depth in 1..=3 {
                reports.extend(compare_with_minimax(fen, depth, evaluation));
            }
        }
        for fen in SMALL {
            reports.extend(compare_with_minimax(fen, 4, evaluation));
        }
        for report in reports {
            answers += report.stats.table_answers;
            researches += report.stats.researches;
        }
    }
    assert!(answers > 0 && researches > 0, "{answers} {researches}");
}

#[test]
fn lab_aspiration_windows_end_on_the_exact_value() {
    // The iterative deepening's last value is minimax's (checked above, as for every
    // algorithm); here, that the re-search path ran on the way, so that it was tested.
    let mut researches = 0;
    for evaluation in [Evaluation::Simple, Evaluation::Engine] {
        for fen in POSITIONS {
            let reports = compare_with_minimax(fen, 3, evaluation);
            let id = reports
                .iter()
                .find(|r| r.algorithm == Algorithm::PvsIdAspiration)
                .expect("run");
            researches += id.stats.aspiration_researches;
        }
    }
    assert!(researches > 0, "no aspiration window failed");
}

#[test]
fn lab_alphabeta_evaluates_fewer_leaves_than_minimax() {
    for fen in POSITIONS {
        let pos = position(fen);
        for depth in 1..=3 {
            let settings = settings(depth, Evaluation::Simple);
            let minimax = finished(Algorithm::Minimax, &pos, &settings);
            let alphabeta = finished(Algorithm::AlphaBeta, &pos, &settings);
            if depth == 1 || fen == &MATE_IN_ONE {
                // One ply has nothing to cut: every move must be looked at. (Nor has a mate in
                // one in generation order, b0b9 coming after the other chariot's moves, much.)
                assert!(alphabeta.stats.leaves <= minimax.stats.leaves, "{fen}");
            } else {
                assert!(
                    alphabeta.stats.leaves < minimax.stats.leaves,
                    "{fen} depth {depth}: {} against {}",
                    alphabeta.stats.leaves,
                    minimax.stats.leaves
                );
            }
            // At one ply the minimal tree is every move (deeper, the real tree is not uniform,
            // so its size is only a guide: see the test on uniform trees below).
            if depth == 1 {
                let branching = pos.legal_moves().len() as u64;
                let minimal = minimal_tree_leaves(branching, depth);
                assert_eq!(u128::from(alphabeta.stats.leaves), minimal);
            }
        }
    }
}

#[test]
fn lab_minimal_tree_on_small_numbers() {
    assert_eq!(minimal_tree_leaves(2, 0), 1);
    assert_eq!(minimal_tree_leaves(7, 1), 7);
    assert_eq!(minimal_tree_leaves(2, 2), 3);
    assert_eq!(minimal_tree_leaves(3, 2), 5);
    assert_eq!(minimal_tree_leaves(3, 3), 11);
    assert_eq!(minimal_tree_leaves(10, 4), 199);
    assert_eq!(minimal_tree_leaves(40, 5), 65_599);
    assert_eq!(minimal_tree_leaves(1, 9), 1);
    assert_eq!(minimal_tree_leaves(u64::MAX, 9), u128::MAX);
}

/// Alpha-beta's leaves on a uniform tree of `branching` and `depth` whose leaves are all
/// worth the same: the first move is then always a best one, the ordering Knuth and Moore's
/// minimal tree assumes.
fn alphabeta_on_a_level_tree(branching: u64, depth: u32, alpha: i32, beta: i32) -> (i32, u64) {
    if depth == 0 {
        return (0, 1);
    }
    let (mut alpha, mut best, mut leaves) = (alpha, i32::MIN + 1, 0);
    for _ in 0..branching {
        let (v, n) = alphabeta_on_a_level_tree(branching, depth - 1, -beta, -alpha);
        leaves += n;
        best = best.max(-v);
        alpha = alpha.max(-v);
        if alpha >= beta {
            break;
        }
    }
    (best, leaves)
}

#[test]
fn lab_minimal_tree_is_what_alphabeta_sees_with_perfect_ordering() {
    for branching in 1..=6 {
        for depth in 0..=6 {
            let (_, leaves) =
                alphabeta_on_a_level_tree(branching, depth, -i32::MAX + 1, i32::MAX - 1);
            assert_eq!(
                u128::from(leaves),
                minimal_tree_leaves(branching, depth),
                "b {branching} d {depth}"
            );
        }
    }
}

#[test]
fn lab_mates_sooner_are_worth_more_and_stalemate_loses() {
    let pos = position(MATE_IN_ONE);
    for algorithm in exact_algorithms() {
        for depth in 1..=3 {
            let report = finished(algorithm, &pos, &settings(depth, Evaluation::Simple));
            // The mate in one, not a longer one, at every depth.
            assert_eq!(
                report.value(),
                Some(mate_in(1)),
                "{algorithm} depth {depth}"
            );
            assert_eq!(
                report.best_move().map(|m| m.to_string()),
                Some("b0b9".into())
            );
        }
    }
    // Black, to move here, is not in check but has no legal move: stalemate, a loss.
    let stalemate = position("4k4/R8/9/9/9/9/9/9/9/3K1R3 b");
    assert!(!stalemate.in_check());
    for algorithm in Algorithm::ALL {
        let report = finished(algorithm, &stalemate, &settings(2, Evaluation::Simple));
        assert_eq!(report.value(), Some(mated_in(0)), "{algorithm}");
        assert_eq!(report.best_move(), None, "{algorithm}");
    }
}

#[test]
fn lab_searches_stop_on_the_flag_and_at_the_deadline() {
    let pos = position(POSITIONS[1]);
    let stop = Arc::new(AtomicBool::new(true));
    for algorithm in Algorithm::every() {
        // Depth 12 would take days for most; they must give up at the first check.
        let flagged = Settings {
            stop: Some(Arc::clone(&stop)),
            ..settings(12, Evaluation::Simple)
        };
        let report = search(algorithm, &pos, &flagged);
        assert!(!report.finished(), "{algorithm} ignored the flag");
        let late = Settings {
            deadline: Some(Instant::now()),
            ..settings(12, Evaluation::Simple)
        };
        let report = search(algorithm, &pos, &late);
        assert!(!report.finished(), "{algorithm} ignored the deadline");
        assert_eq!(report.value(), None);
    }
}

#[test]
fn lab_engine_row_searches_to_the_depth() {
    let pos = Position::startpos();
    let report = finished(Algorithm::Engine, &pos, &settings(4, Evaluation::Simple));
    assert_eq!(report.evaluation, Evaluation::Engine);
    assert!(report.stats.nodes > 0);
    assert_eq!(report.stats.leaves, 0, "the engine counts only nodes");
    let best = report.best_move().expect("the start has moves");
    assert!(pos.is_legal(best));
    // It sees the mate in one too.
    let mate = finished(
        Algorithm::Engine,
        &position(MATE_IN_ONE),
        &settings(2, Evaluation::Simple),
    );
    assert_eq!(mate.value(), Some(mate_in(1)));
}

#[test]
fn lab_names_read_back() {
    for algorithm in Algorithm::every() {
        assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
    }
    assert_eq!(
        Algorithm::ALL.map(|a| a.name()).join(" "),
        "minimax negamax alphabeta alphabeta-mvvlva alphabeta-history alphabeta-tt \
         pvs-tt-history pvs-id-aspiration engine"
    );
    assert!("alpha-beta".parse::<Algorithm>().is_err());
    assert_eq!("engine".parse::<Evaluation>(), Ok(Evaluation::Engine));
    assert_eq!(
        "simpler".parse::<Evaluation>().map_err(|e| e.to_string()),
        Err(r#"unknown evaluation "simpler" (one of: simple, engine)"#.to_string())
    );
}

#[test]
fn lab_simple_evaluation_is_symmetric_and_adds_up() {
    for fen in POSITIONS.iter().chain(SMALL) {
        let pos = position(fen);
        let terms = simple::terms(&pos);
        let red = match pos.side_to_move() {
            xiangqi::Color::Red => simple::evaluate(&pos),
            xiangqi::Color::Black => -simple::evaluate(&pos),
        };
        assert_eq!(terms.red_score(), red, "{fen}");
        // The same position with the colours exchanged is worth the same to the side to move.
        let mirrored = pos.mirror_colors();
        assert_eq!(simple::evaluate(&mirrored), simple::evaluate(&pos), "{fen}");
        assert_eq!(simple::terms(&mirrored).black, terms.red, "{fen}");
    }
    let start = simple::terms(&Position::startpos());
    assert_eq!(
        start.red.material,
        2 * (200 + 200 + 400 + 900 + 450) + 5 * 100
    );
    // Red's cannon on h2 attacks the horse on h9 over Black's cannon: a tenth of 400 for the
    // side to move. The position bonuses of the two sides are alike.
    assert_eq!(start.red.position, start.black.position);
    assert!(start.red.attack > start.black.attack);
    // A chariot up outweighs every positional term.
    let up = simple::evaluate(&position(
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    ));
    assert!(up > 800, "{up}");
}

#[test]
fn lab_refuses_depths_and_tables_out_of_range() {
    let pos = Position::startpos();
    for depth in [0, MAX_DEPTH + 1, u32::MAX] {
        let settings = Settings::new(depth, Evaluation::Simple);
        for algorithm in [Algorithm::Minimax, Algorithm::Engine] {
            assert_eq!(
                run(algorithm, &pos, &settings),
                Err(SettingsError::Depth(depth))
            );
        }
    }
    let huge = Settings {
        table_bits: MAX_TABLE_BITS + 1,
        ..Settings::new(2, Evaluation::Simple)
    };
    assert_eq!(
        run(Algorithm::AlphaBetaTt, &pos, &huge),
        Err(SettingsError::TableBits(MAX_TABLE_BITS + 1))
    );
    // A limit too long to add to the clock is no limit, not a panic.
    let forever = Settings::new(1, Evaluation::Simple).with_time_limit(Duration::MAX);
    assert!(finished(Algorithm::AlphaBeta, &pos, &forever).finished());
}

/// The lesson of the horizon: from the start, with the simple evaluation, alpha-beta's value
/// swings by three and a half pawns from depth 3 to depth 4 (a capture just inside the horizon
/// whose recapture lies beyond it); a quiescence search, which plays captures out, keeps the
/// two depths within half a pawn. Its values differ from minimax's on purpose.
#[test]
fn lab_quiescence_tames_the_horizon_effect() {
    let pos = Position::startpos();
    let value = |algorithm, depth| {
        finished(algorithm, &pos, &settings(depth, Evaluation::Simple))
            .value()
            .expect("finished")
    };
    let plain = (
        value(Algorithm::AlphaBetaMvvLva, 3),
        value(Algorithm::AlphaBetaMvvLva, 4),
    );
    assert_eq!(plain, (304, -47));
    for algorithm in [
        Algorithm::AlphaBetaQuiescence,
        Algorithm::AlphaBetaQuiescenceMvvLva,
    ] {
        let (three, four) = (value(algorithm, 3), value(algorithm, 4));
        assert!(
            (three - four).abs() <= 50,
            "{algorithm}: {three} then {four}"
        );
        assert_ne!(
            three, plain.0,
            "{algorithm} at depth 3 is alpha-beta's value"
        );
    }
}

/// The ideas that change what is searched still see a mate in one and play legal lines; the
/// pruning ones search smaller trees than alpha-beta with the same order.
#[test]
fn lab_ideas_find_mates_and_prune() {
    let mate = position(MATE_IN_ONE);
    for algorithm in Algorithm::IDEAS {
        for depth in 1..=3 {
            let report = finished(algorithm, &mate, &settings(depth, Evaluation::Simple));
            assert_eq!(
                report.value(),
                Some(mate_in(1)),
                "{algorithm} at depth {depth}"
            );
        }
    }
    let pos = position(POSITIONS[1]);
    let nodes = |algorithm| {
        let report = finished(algorithm, &pos, &settings(5, Evaluation::Simple));
        let outcome = report.outcome.as_ref().expect("finished");
        let mut p = pos.clone();
        for &m in &outcome.pv {
            assert!(p.is_legal(m), "{algorithm}: {m} in {:?}", outcome.pv);
            p.make_move(m);
        }
        report.stats.nodes
    };
    let plain = nodes(Algorithm::AlphaBetaMvvLva);
    assert!(nodes(Algorithm::AlphaBetaKiller) < plain);
    assert!(nodes(Algorithm::AlphaBetaNullMove) < plain);
    assert!(nodes(Algorithm::AlphaBetaLmr) < plain / 2);
}
