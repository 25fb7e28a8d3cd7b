//! Perft counts from `tests/data/perft.txt`, for each position and its colour mirror, by the
//! plain and the cancellable perft.
//!
//! Counts above about five million nodes are slow in a debug build: those run only in release
//! (`cargo test --release -- --include-ignored`, as CI does).

use std::sync::atomic::AtomicBool;
use xiangqi::{perft, perft_cancellable, Position, Validation};

const BIG: u64 = 5_000_000;

struct Case {
    fen: String,
    depth: u32,
    count: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        for part in parts {
            let mut nums = part.split_whitespace();
            let depth = nums.next().unwrap().parse().unwrap();
            let count = nums.next().unwrap().parse().unwrap();
            out.push(Case {
                fen: fen.clone(),
                depth,
                count,
            });
        }
    }
    out
}

fn check(big: bool) {
    let mut ran = 0;
    for case in cases().into_iter().filter(|c| (c.count > BIG) == big) {
        let pos = Position::from_fen_with(&case.fen, Validation::Lenient).unwrap();
        for (label, mut p) in [("as given", pos.clone()), ("mirrored", pos.mirror_colors())] {
            assert_eq!(
                perft(&mut p, case.depth),
                case.count,
                "{} depth {} ({label})",
                case.fen,
                case.depth
            );
            assert_eq!(
                perft_cancellable(&mut p, case.depth, &AtomicBool::new(false)),
                Some(case.count),
                "{} depth {} ({label}), cancellable",
                case.fen,
                case.depth
            );
        }
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn perft_small_counts() {
    check(false);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in debug builds; CI runs it in release"
)]
fn perft_large_counts() {
    check(true);
}

#[test]
fn perft_file_mirror_matches() {
    // Mirroring left to right keeps the counts too.
    let mut pos =
        Position::from_fen("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1")
            .unwrap()
            .mirror_files();
    assert_eq!(perft(&mut pos, 3), 8620);
}
