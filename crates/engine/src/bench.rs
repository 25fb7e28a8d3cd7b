//! The fixed benchmark: a set of varied positions searched to a fixed depth with one thread and
//! a fresh table. Its node count is a checksum of the search's behaviour: a change meant to
//! leave the search alone must leave it identical.

use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::instant::Instant;
use crate::time::Limits;
use std::time::Duration;
use xiangqi::{parse_move_as, Move, Notation, Position};

/// Default depth of `xiangqi bench`.
pub const DEFAULT_DEPTH: u32 = 9;

/// Bench positions: a FEN and ICCS moves played from it (openings are given as their lines).
pub const POSITIONS: &[(&str, &str)] = &[
    (xiangqi::START_FEN, ""),
    // Central cannon against screen horses, several branches.
    (xiangqi::START_FEN, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"),
    (
        xiangqi::START_FEN,
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 b7a7",
    ),
    (xiangqi::START_FEN, "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9"),
    (
        xiangqi::START_FEN,
        "h2e2 b9c7 h0g2 a9b9 i0h0 h9g7 b0c2 c6c5",
    ),
    // Elephant opening, pawn opening, horse opening, crossing-palace cannon.
    (xiangqi::START_FEN, "c0e2 h7e7 b0c2 h9g7 a0b0 i9h9"),
    (xiangqi::START_FEN, "g3g4 c6c5 b0c2 b9c7 h0g2 h9g7"),
    (xiangqi::START_FEN, "b0c2 h7e7 g3g4 h9g7 h0g2 i9h9"),
    (xiangqi::START_FEN, "h2f2 h9g7 h0g2 g6g5 i0h0 i9h9"),
    (
        xiangqi::START_FEN,
        "h2e2 h9g7 h0g2 i9h9 i0h0 h7i7 b0c2 b9c7 c3c4 h9h5",
    ),
    // Middlegames.
    (
        "r1bakab1r/9/1cn1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
        "",
    ),
    (
        "2b1kab2/4a4/2n1c4/p3p1p1p/2p6/9/P1P1P3P/4C1N2/4A4/2BAK1B2 w - - 0 1",
        "",
    ),
    (
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "",
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "",
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "",
    ),
    ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", ""),
    ("2bakab2/9/9/9/9/9/9/9/1C2C4/2BAKAB2 w - - 0 1", ""),
    (
        "r2akab2/9/2n1b1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1B1N2/4A4/1R1AK1B2 w - - 0 1",
        "",
    ),
    (
        "2bak1b2/4a4/2n6/p3p1N1p/2p3p2/6P2/P1P1P3P/4C4/9/2BAKAB2 b - - 0 1",
        "",
    ),
    (
        "3akab2/9/4b1n2/p1p1p3p/6c2/2P6/P3P1r1P/2N1C4/4A4/2BAK1B1R w - - 0 1",
        "",
    ),
    // Endgames.
    ("3k5/9/9/9/9/9/9/9/4A4/3AKR3 w - - 0 1", ""),
    ("3ak4/4a4/9/9/9/9/4P4/9/4N4/4K4 w - - 0 1", ""),
    ("4ka3/4a4/4bn3/9/9/9/9/9/9/3RK4 w - - 0 1", ""),
    ("2bak4/4a4/4b4/p7p/9/2P3P2/9/4C4/9/3AKA3 w - - 0 1", ""),
    ("3k1ab2/4a4/4b4/9/2p6/9/9/4B4/4A4/2BAK1N2 w - - 0 1", ""),
    ("5k3/9/9/9/9/9/9/3r5/4A4/3AK1R2 w - - 0 1", ""),
    ("2ba1k3/4a4/4b4/2n6/9/9/4N4/4B4/9/3AKAB2 w - - 0 1", ""),
    ("4kab2/4a4/9/4R4/9/9/9/9/2r6/3K5 b - - 0 1", ""),
    ("3k5/9/9/9/9/9/4p4/9/9/4K4 w - - 0 1", ""),
    ("4k4/4a4/3a5/9/2P3P2/9/9/9/4K4/9 w - - 0 1", ""),
];

/// Result of a benchmark run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions (deterministic for a given build and depth).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// The bench positions as (start, moves).
pub fn positions() -> Vec<(Position, Vec<Move>)> {
    POSITIONS
        .iter()
        .map(|(fen, moves)| {
            let start = Position::from_fen(fen).expect("bench FEN is valid");
            let mut pos = start.clone();
            let mut line = Vec::new();
            for text in moves.split_whitespace() {
                let m = parse_move_as(&pos, text, Notation::Iccs).expect("bench move is legal");
                pos.make_move(m);
                line.push(m);
            }
            (start, line)
        })
        .collect()
}

/// Searches every bench position to `depth` with `threads` threads and a fresh 16 MiB table
/// each, calling `each` with the position index and its node count; with `network`, the network
/// evaluates instead of the hand-made evaluation. With one thread the node count is the same on
/// every machine and target (the checksum `Bench: N` of a commit); with more it varies from run
/// to run, and the time to depth measures what the helper threads bring. The time counts the searches
/// only, not the allocation of the tables.
pub fn run(
    depth: u32,
    network: Option<std::sync::Arc<crate::nnue::Network>>,
    threads: usize,
    mut each: impl FnMut(usize, u64),
) -> BenchResult {
    let mut time = Duration::ZERO;
    let mut total = 0;
    for (i, (start, moves)) in positions().into_iter().enumerate() {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            threads: threads.max(1),
            // The bench measures the search; book moves would skip it.
            own_book: false,
            network: network.clone(),
            ..EngineOptions::default()
        });
        let started = Instant::now();
        let mut request = SearchRequest::new(
            start,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        request.moves = moves;
        let result = engine.search(request, |_| {});
        time += started.elapsed();
        each(i, result.nodes);
        total += result.nodes;
    }
    BenchResult { nodes: total, time }
}

/// The timed part of [`run_eval`], kept out of line so that a profiler can count it alone
/// (`valgrind --tool=callgrind --toggle-collect='*evaluate_all*' xiangqi bench --eval`).
#[inline(never)]
fn evaluate_all(sample: &[(Position, crate::eval::Material)], rounds: u32) -> i64 {
    let evaluator = &*crate::eval::DEFAULT_EVALUATOR;
    let mut checksum = 0i64;
    for _ in 0..rounds {
        for (pos, material) in sample {
            let pos = std::hint::black_box(pos);
            checksum += i64::from(evaluator.evaluate_with(pos, *material));
        }
    }
    checksum
}

/// Result of [`run_eval`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalBenchResult {
    /// Evaluations made.
    pub evaluations: u64,
    /// Sum of their scores: the same for the same build and weights, so a change that should
    /// not alter the evaluation can be checked with it.
    pub checksum: i64,
    /// Wall time of the evaluations alone.
    pub time: Duration,
}

impl EvalBenchResult {
    /// Evaluations per second.
    pub fn per_second(&self) -> u64 {
        (self.evaluations as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Evaluates, `rounds` times over, every position one legal move away from a bench position
/// (772 positions), with the default weights and material sums known beforehand, as
/// the search evaluates: a measure of the evaluation alone.
pub fn run_eval(rounds: u32) -> EvalBenchResult {
    let evaluator = &*crate::eval::DEFAULT_EVALUATOR;
    let mut sample = Vec::new();
    for (start, moves) in positions() {
        let mut pos = start;
        for m in moves {
            pos.make_move(m);
        }
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.make_move(m);
            let material = evaluator.material(&child);
            sample.push((child, material));
        }
    }
    let started = Instant::now();
    let checksum = evaluate_all(&sample, rounds);
    EvalBenchResult {
        evaluations: sample.len() as u64 * u64::from(rounds),
        checksum,
        time: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_bench_repeats_the_same_sample() {
        let once = run_eval(1);
        let twice = run_eval(2);
        assert!(once.evaluations > 500, "{}", once.evaluations);
        assert_eq!(twice.evaluations, 2 * once.evaluations);
        assert_eq!(twice.checksum, 2 * once.checksum);
    }
}
