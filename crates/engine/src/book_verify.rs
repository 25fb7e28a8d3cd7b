//! Checking the book with the engine: every book move is searched to a fixed depth, and a move
//! scoring more than a margin below the best book move of its position is reported for
//! dropping. Each position is also searched freely: a book move far below the engine's own
//! choice is reported as doubtful but kept (the only move of a position cannot be compared
//! with another book move, and a shallow search is no judge of theory). Deterministic: one
//! thread and an emptied hash table for every search.

use crate::book::{Dropped, Tree, Verdict};
use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::time::Limits;
use xiangqi::{Move, Position};

/// How to verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Search depth per move.
    pub depth: u32,
    /// A move may score at most this much below the best book move (centi-soldiers).
    pub margin: i32,
}

/// Default of [`VerifyOptions::margin`]: a soldier, well beyond the noise of a shallow search.
pub const DEFAULT_MARGIN: i32 = 100;

/// Searches every position of `tree` freely and with each of its book moves, calling
/// `progress(done, total)` after each search.
pub fn verify(
    tree: &Tree,
    options: VerifyOptions,
    mut progress: impl FnMut(usize, usize),
) -> Verdict {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        own_book: false,
        ..EngineOptions::default()
    });
    let total = tree.pair_count() + tree.nodes.len();
    let mut done = 0;
    let mut verdict = Verdict::default();
    let depth = options.depth.min(u32::from(u8::MAX)) as u8;
    let mut search = |position: &Position, only: Option<Move>| {
        engine.new_game();
        let mut request = SearchRequest::new(
            position.clone(),
            Limits {
                depth: Some(options.depth),
                ..Limits::default()
            },
        );
        request.search_moves = only.into_iter().collect();
        let result = engine.search(request, |_| {});
        done += 1;
        progress(done, total);
        (result.best_move, result.score)
    };
    for (&key, node) in &tree.nodes {
        let own = search(&node.position, None);
        let mut scored: Vec<(Move, i32)> = Vec::with_capacity(node.moves.len());
        for &mv in node.moves.keys() {
            let score = search(&node.position, Some(mv)).1;
            let stored = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            verdict.scores.insert((key, mv), (stored, depth));
            scored.push((mv, score));
        }
        // Ties go to the first move in move order, to stay deterministic.
        let Some(&best) = scored.iter().reduce(|a, b| if b.1 > a.1 { b } else { a }) else {
            continue;
        };
        for &(mv, score) in &scored {
            let report = |best: (Move, i32)| Dropped {
                position: node.position.clone(),
                mv,
                score,
                best,
                lines: node.moves[&mv].lines.clone(),
            };
            if score < best.1 - options.margin {
                verdict.dropped.push(report(best));
            } else if let (Some(own_move), own_score) = own {
                if score < own_score - options.margin {
                    verdict.doubtful.push(report((own_move, own_score)));
                }
            }
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::lines::parse_lines;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn a_blunder_is_dropped_and_sound_moves_are_kept() {
        // After 炮二平五 马８进７, 炮五进四 gives the central cannon away for a pawn
        // (the horse on 7 takes it back); 马二进三 is the normal move. The last line's
        // 车９平８ leaves the chariot behind its cannon on the file of Red's cannon, which
        // takes it (炮二进七): the only book move there, so doubtful rather than dropped.
        let lines = parse_lines(
            "炮二平五 马８进７ 马二进三\n炮二平五 马８进７ 炮五进四 马７进５\n\
             相三进五 马８进７ 马二进三 车９平８\n",
        )
        .unwrap();
        let tree = Tree::collect(&lines, false, &BTreeSet::new(), &BTreeMap::new());
        // A margin of three soldiers: the blunders here lose a piece, while a shallow search's
        // taste among sound opening moves shifts with every change of evaluation or ordering
        // (at depth 6 it has rated 炮二平五 150 below 炮八进二).
        let margin = 300;
        let options = VerifyOptions { depth: 6, margin };
        let mut calls = 0;
        let verdict = verify(&tree, options, |done, total| {
            calls += 1;
            // 9 book moves in 7 positions.
            assert_eq!(total, 16);
            assert_eq!(done, calls);
        });
        assert_eq!(calls, 16);
        assert_eq!(verdict.scores.len(), 9);
        assert_eq!(verdict.dropped.len(), 1, "{:?}", verdict.dropped);
        let dropped = &verdict.dropped[0];
        assert_eq!(dropped.mv.to_string(), "e2e6");
        assert_eq!(dropped.best.0.to_string(), "h0g2");
        assert_eq!(dropped.lines, [2]);
        assert!(verdict.scores.values().all(|&(_, d)| d == 6));
        assert_eq!(verdict.doubtful.len(), 1, "{:?}", verdict.doubtful);
        let doubtful = &verdict.doubtful[0];
        assert_eq!(doubtful.mv.to_string(), "i9h9");
        assert_ne!(doubtful.best.0, doubtful.mv);
        assert!(doubtful.best.1 - doubtful.score > margin);
        assert_eq!(doubtful.lines, [3]);
    }
}
