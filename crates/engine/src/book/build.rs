//! From source lines to book entries: every position of every line (and of its mirror image)
//! with the moves played there, weights summed where lines meet (shared beginnings and
//! transpositions alike, as both reach the same key).

use super::format::Entry;
use super::lines::Line;
use std::collections::{BTreeMap, BTreeSet};
use xiangqi::{Move, Position};

/// A move of a book position with what the lines say about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// Summed weight of the lines playing it.
    pub weight: u32,
    /// Source line numbers playing it, in file order.
    pub lines: Vec<usize>,
    /// Score and depth of a verification search, if one was run.
    pub score: Option<(i16, u8)>,
}

/// A position of the book.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position itself (kept for verification and reports).
    pub position: Position,
    /// Fewest plies from the start position at which a line reaches it.
    pub ply: u8,
    /// Its book moves, in move order.
    pub moves: BTreeMap<Move, MoveStats>,
}

/// Every book position by key, in key order (which makes everything built from it
/// deterministic).
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The positions.
    pub nodes: BTreeMap<u64, Node>,
}

/// A (position key, move) pair, as verification reports and cuts them.
pub type Pair = (u64, Move);

/// The same move seen in the left–right mirror image of the board.
pub fn mirror_move(m: Move) -> Move {
    Move::new(m.from().flip_file(), m.to().flip_file())
}

impl Tree {
    /// Collects the lines. A line stops before the first of its (position, move) pairs that
    /// is in `cut`; scores are taken from `scores`. With `mirror`, each line's mirror image is
    /// added with the same weight, cut where the line is cut and scored as it is.
    pub fn collect(
        lines: &[Line],
        mirror: bool,
        cut: &BTreeSet<Pair>,
        scores: &BTreeMap<Pair, (i16, u8)>,
    ) -> Tree {
        let mut tree = Tree::default();
        for line in lines {
            let mut pos = Position::startpos();
            let mut mirrored = Position::startpos();
            for (ply, &m) in line.moves.iter().enumerate() {
                let pair = (pos.key(), m);
                if cut.contains(&pair) {
                    break;
                }
                let score = scores.get(&pair).copied();
                // Plies are at most lines::MAX_PLIES (200), so they fit a byte.
                let ply = ply.min(u8::MAX as usize) as u8;
                tree.add(&pos, ply, m, line, score);
                if mirror {
                    let mm = mirror_move(m);
                    tree.add(&mirrored, ply, mm, line, score);
                    mirrored.make_move(mm);
                }
                pos.make_move(m);
            }
        }
        tree
    }

    fn add(&mut self, pos: &Position, ply: u8, m: Move, line: &Line, score: Option<(i16, u8)>) {
        let node = self.nodes.entry(pos.key()).or_insert_with(|| Node {
            position: pos.clone(),
            ply,
            moves: BTreeMap::new(),
        });
        node.ply = node.ply.min(ply);
        let stats = node.moves.entry(m).or_default();
        stats.weight = stats.weight.saturating_add(u32::from(line.weight));
        // A line can pass a position twice only by repeating it; count it once.
        if stats.lines.last() != Some(&line.number) {
            stats.lines.push(line.number);
        }
        // The first score seen wins, so the result does not depend on anything but the order
        // of the lines; the deeper search wins over a shallower one.
        if let Some((s, d)) = score {
            if stats.score.is_none_or(|(_, old)| d > old) {
                stats.score = Some((s, d));
            }
        }
    }

    /// Number of (position, move) pairs.
    pub fn pair_count(&self) -> usize {
        self.nodes.values().map(|n| n.moves.len()).sum()
    }

    /// The file entries, sorted by key and move. A position whose summed weights overflow 16
    /// bits has all its weights divided by the same factor (keeping each at least 1).
    pub fn entries(&self) -> Vec<Entry> {
        let mut entries = Vec::with_capacity(self.pair_count());
        for (&key, node) in &self.nodes {
            let heaviest = node.moves.values().map(|s| s.weight).max().unwrap_or(1);
            let divisor = heaviest.div_ceil(u32::from(u16::MAX)).max(1);
            for (&mv, stats) in &node.moves {
                let (score, depth) = stats.score.unwrap_or((0, 0));
                let weight = (stats.weight / divisor).clamp(1, u32::from(u16::MAX)) as u16;
                entries.push(Entry {
                    key,
                    mv,
                    weight,
                    score,
                    depth,
                    ply: node.ply,
                });
            }
        }
        // BTreeMap order is already (key, move) order.
        entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::lines::parse_lines;

    fn moves(pos: &Position, tree: &Tree) -> Vec<(String, u32)> {
        tree.nodes[&pos.key()]
            .moves
            .iter()
            .map(|(m, s)| (m.to_string(), s.weight))
            .collect()
    }

    #[test]
    fn shared_beginnings_and_transpositions_add_up() {
        // The second and third lines reach the same position in different orders.
        let lines = parse_lines(
            "5 炮二平五 马８进７ 兵七进一\n2 炮二平五 马８进７ 兵七进一 卒７进１ 马二进三\n\
             3 兵七进一 卒７进１ 炮二平五 马８进７ 马二进三\n",
        )
        .unwrap();
        let tree = Tree::collect(&lines, false, &BTreeSet::new(), &BTreeMap::new());
        let start = Position::startpos();
        assert_eq!(
            moves(&start, &tree),
            [("h2e2".into(), 7), ("c3c4".into(), 3)]
        );
        let mut pos = start.clone();
        for m in &lines[1].moves[..4] {
            pos.make_move(*m);
        }
        let node = &tree.nodes[&pos.key()];
        assert_eq!(node.ply, 4);
        assert_eq!(moves(&pos, &tree), [("h0g2".into(), 5)]);
        assert_eq!(node.moves.values().next().unwrap().lines, [2, 3]);
    }

    #[test]
    fn mirror_images_are_added_and_cut_alike() {
        let lines = parse_lines("炮二平五 马８进７ 马二进三").unwrap();
        let cut: BTreeSet<Pair> = [(
            {
                let mut p = Position::startpos();
                p.make_move(lines[0].moves[0]);
                p.key()
            },
            lines[0].moves[1],
        )]
        .into();
        let tree = Tree::collect(&lines, true, &cut, &BTreeMap::new());
        let start = Position::startpos();
        assert_eq!(
            moves(&start, &tree),
            [("b2e2".into(), 10), ("h2e2".into(), 10)]
        );
        // Only the start position remains: both lines stop at the cut reply.
        assert_eq!(tree.nodes.len(), 1);
    }

    #[test]
    fn heavy_positions_are_scaled_into_sixteen_bits() {
        let text = "1000 炮二平五\n".repeat(70) + "1000 相三进五\n";
        let lines = parse_lines(&text).unwrap();
        let tree = Tree::collect(&lines, false, &BTreeSet::new(), &BTreeMap::new());
        let entries = tree.entries();
        let weights: Vec<u16> = entries.iter().map(|e| e.weight).collect();
        // 70000 and 1000, divided by 2.
        assert_eq!(weights.len(), 2);
        assert!(
            weights.contains(&35000) && weights.contains(&500),
            "{weights:?}"
        );
    }
}
