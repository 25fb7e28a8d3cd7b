//! The opening book: known good moves for the first plies, chosen at random by weight so the
//! engine does not play the same game every time.
//!
//! The book is built from text lines of opening theory (`crates/engine/book/lines.txt`) by
//! `xiangqi book build` into a small binary file (layout in [`format`](mod@format) and `docs/BOOK.md`).
//! The built file is part of the program ([`Book::builtin`]); another file can be loaded with
//! [`Book::load`]. Building can first check the lines with the engine
//! ([`crate::book_verify`]), which sits above the engine, as the engine sits above the book.

pub mod build;
pub mod format;
pub mod lines;
pub mod verdict;

use crate::random::Rng;
use format::{BookError, Entry};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, LazyLock};
use xiangqi::{Move, Position};

pub use build::Tree;
pub use lines::{parse_lines, Line, LineError};
pub use verdict::{Dropped, Verdict};

/// The book that ships with the engine, built from `book/lines.txt`.
pub static BUILTIN_BYTES: &[u8] = include_bytes!("../book/book.bin");
/// The source lines it was built from.
pub static BUILTIN_LINES: &str = include_str!("../book/lines.txt");

/// The engine consults the book only while the game is younger than this many plies: beyond
/// the opening a position found in a book is a coincidence, not theory.
pub const MAX_BOOK_PLY: u32 = 40;

/// A move the book offers in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the probed position).
    pub mv: Move,
    /// Its weight among the position's book moves.
    pub weight: u16,
    /// Score and depth of the verification search, when the book was verified.
    pub score: Option<(i16, u8)>,
}

/// A loaded opening book: entries sorted by position key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    flags: u16,
    entries: Vec<Entry>,
}

static BUILTIN: LazyLock<Option<Arc<Book>>> =
    LazyLock::new(|| Book::from_bytes(BUILTIN_BYTES).ok().map(Arc::new));

impl Book {
    /// The built-in book; `None` only if the embedded file were damaged, which a test rules
    /// out.
    pub fn builtin() -> Option<Arc<Book>> {
        BUILTIN.clone()
    }

    /// Reads a book from a file's bytes, rejecting anything malformed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let (flags, entries) = format::decode(bytes)?;
        Ok(Book { flags, entries })
    }

    /// Reads a book file, refusing one larger than [`format::MAX_FILE_LEN`] (64 MiB).
    pub fn load(path: &Path) -> Result<Book, BookError> {
        Book::from_bytes(&format::read_file(path)?)
    }

    /// A book of these entries (sorted by [`Entry::order`], no repeats) and header flags.
    pub fn from_entries(entries: Vec<Entry>, flags: u16) -> Book {
        Book { flags, entries }
    }

    /// Builds a book from source lines: every line and its mirror image, each position's
    /// moves with their summed weights. With a verification verdict, lines stop before its
    /// dropped moves and the searched scores are stored.
    pub fn build(lines: &[Line], verdict: Option<&Verdict>) -> Book {
        let empty = Verdict::default();
        let verdict_or_empty = verdict.unwrap_or(&empty);
        let cut: BTreeSet<build::Pair> = verdict_or_empty
            .dropped
            .iter()
            .map(|d| (d.position.key(), d.mv))
            .collect();
        let tree = Tree::collect(lines, true, &cut, &verdict_or_empty.scores);
        let mut flags = format::FLAG_MIRRORED;
        if verdict.is_some() {
            flags |= format::FLAG_VERIFIED;
        }
        Book::from_entries(tree.entries(), flags)
    }

    /// The bytes of the book file.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(&self.entries, self.flags)
    }

    /// The header flags ([`format::FLAG_MIRRORED`], [`format::FLAG_VERIFIED`]).
    pub fn flags(&self) -> u16 {
        self.flags
    }

    /// All entries, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The book moves of `pos` that are legal there, heaviest first (ties in move order).
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        let first = self.entries.partition_point(|e| e.key < key);
        let mut moves: Vec<BookMove> = self.entries[first..]
            .iter()
            .take_while(|e| e.key == key)
            // A custom book could hold a stray move, or another position with the same key.
            .filter(|e| pos.is_legal(e.mv))
            .map(|e| BookMove {
                mv: e.mv,
                weight: e.weight,
                score: (e.depth > 0).then_some((e.score, e.depth)),
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// A book move for `pos` among those `allowed`, chosen with probability proportional to
    /// its weight; `None` when the book has no allowed move there.
    pub fn choose(
        &self,
        pos: &Position,
        rng: &mut Rng,
        allowed: impl Fn(Move) -> bool,
    ) -> Option<BookMove> {
        let moves: Vec<BookMove> = self
            .probe(pos)
            .into_iter()
            .filter(|m| allowed(m.mv))
            .collect();
        let weights: Vec<f64> = moves.iter().map(|m| f64::from(m.weight)).collect();
        rng.weighted_index(&weights).map(|i| moves[i])
    }
}

/// The ply of the game at `pos`, from its move counter: 0 at the start, 1 after Red's move.
pub fn game_ply(pos: &Position) -> u32 {
    let before = u32::from(pos.fullmove_number().max(1) - 1) * 2;
    before + u32::from(pos.side_to_move() == xiangqi::Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::parse_move;

    fn play(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for text in moves {
            let m = parse_move(&pos, text).unwrap();
            pos.make_move(m);
        }
        pos
    }

    #[test]
    fn the_builtin_book_loads_and_knows_the_start() {
        let book = Book::builtin().expect("the embedded book is valid");
        assert_ne!(book.flags() & format::FLAG_MIRRORED, 0);
        let moves: Vec<String> = book
            .probe(&Position::startpos())
            .iter()
            .map(|m| m.mv.to_string())
            .collect();
        for expected in [
            "h2e2", "b2e2", "g0e2", "c0e2", "c3c4", "g3g4", "h0g2", "b0c2",
        ] {
            assert!(
                moves.contains(&expected.to_owned()),
                "{expected}: {moves:?}"
            );
        }
    }

    #[test]
    fn mirror_images_are_covered_with_equal_weights() {
        let book = Book::builtin().unwrap();
        for line in parse_lines(BUILTIN_LINES).unwrap() {
            let mut pos = Position::startpos();
            let mut mirrored = Position::startpos();
            for &m in &line.moves {
                let mm = build::mirror_move(m);
                let weight = |p: &Position, m: Move| {
                    book.probe(p).iter().find(|b| b.mv == m).map(|b| b.weight)
                };
                let here = weight(&pos, m);
                assert!(here.is_some(), "line {}: {m} missing", line.number);
                assert_eq!(weight(&mirrored, mm), here, "line {}: {mm}", line.number);
                pos.make_move(m);
                mirrored.make_move(mm);
            }
        }
    }

    #[test]
    fn probe_orders_by_weight_and_skips_illegal_entries() {
        let pos = play(&["炮二平五"]);
        let reply = |text: &str| parse_move(&pos, text).unwrap();
        let illegal = Move::new("a0".parse().unwrap(), "a5".parse().unwrap());
        let mut entries: Vec<Entry> = [
            (reply("马８进７"), 5),
            (reply("炮８平５"), 9),
            (illegal, 50),
        ]
        .iter()
        .map(|&(mv, weight)| Entry {
            key: pos.key(),
            mv,
            weight,
            score: 0,
            depth: 0,
            ply: 1,
        })
        .collect();
        entries.sort_by_key(Entry::order);
        let book = Book::from_entries(entries, 0);
        let moves: Vec<(String, u16)> = book
            .probe(&pos)
            .iter()
            .map(|m| (m.mv.to_string(), m.weight))
            .collect();
        assert_eq!(moves, [("h7e7".into(), 9), ("h9g7".into(), 5)]);
        assert!(book.probe(&Position::startpos()).is_empty());
        let back = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(back, book);
    }

    #[test]
    fn choice_follows_the_weights() {
        let book = Book::builtin().unwrap();
        let pos = Position::startpos();
        let moves = book.probe(&pos);
        let total: f64 = moves.iter().map(|m| f64::from(m.weight)).sum();
        let mut rng = Rng::new(11);
        let mut counts = std::collections::HashMap::new();
        let draws = 20_000;
        for _ in 0..draws {
            let m = book.choose(&pos, &mut rng, |_| true).unwrap();
            *counts.entry(m.mv).or_insert(0u32) += 1;
        }
        for m in &moves {
            let expected = f64::from(m.weight) / total * f64::from(draws);
            let got = f64::from(counts.get(&m.mv).copied().unwrap_or(0));
            // Five standard deviations of a binomial count, plus a little.
            let spread = 5.0 * expected.sqrt() + 3.0;
            assert!(
                (got - expected).abs() < spread,
                "{}: {got} vs {expected}",
                m.mv
            );
        }
        // The same seed chooses the same moves.
        let pick = |seed| book.choose(&pos, &mut Rng::new(seed), |_| true);
        assert_eq!(pick(5), pick(5));
        // Restricted choices stay restricted; nothing allowed means no book move.
        let only = moves[1].mv;
        let m = book.choose(&pos, &mut rng, |m| m == only).unwrap();
        assert_eq!(m.mv, only);
        assert_eq!(book.choose(&pos, &mut rng, |_| false), None);
    }

    #[test]
    fn damaged_book_files_give_errors() {
        let dir = std::env::temp_dir().join(format!("xq-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("short.bin");
        std::fs::write(&path, &BUILTIN_BYTES[..BUILTIN_BYTES.len() - 5]).unwrap();
        let err = Book::load(&path).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        let err = Book::load(&dir.join("missing.bin"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot read book file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
        // The option that once read until the memory ran out, and one that never ends.
        #[cfg(unix)]
        {
            let err = Book::load(Path::new("/dev/zero")).unwrap_err();
            assert!(matches!(err, BookError::NotAFile { .. }), "{err}");
        }
    }

    #[test]
    fn game_ply_counts_half_moves() {
        assert_eq!(game_ply(&Position::startpos()), 0);
        assert_eq!(game_ply(&play(&["炮二平五"])), 1);
        assert_eq!(game_ply(&play(&["炮二平五", "马８进７"])), 2);
    }
}
