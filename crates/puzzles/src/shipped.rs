//! The puzzles built into the program: `data/generated.tsv`, made by `xiangqi puzzles
//! generate` (its header says with which command), then the classics of `data/classics.tsv`
//! ([`crate::classic`]).

use crate::classic;
use crate::puzzle::{read_puzzles, Puzzle};
use std::sync::OnceLock;

/// The generated puzzles' file, as shipped.
pub const GENERATED: &str = include_str!("../data/generated.tsv");

/// Every shipped puzzle: the generated ones in file order, then the classics (read once).
pub fn puzzles() -> &'static [Puzzle] {
    static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        // The file is checked by a test; a broken one is a build that must not ship.
        let mut all = read_puzzles(GENERATED).expect("the shipped puzzle file reads");
        all.extend(classic::classics().iter().map(|c| c.puzzle.clone()));
        all
    })
}

/// The shipped puzzle named `id`.
pub fn find(id: &str) -> Option<&'static Puzzle> {
    puzzles().iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tag;
    use std::collections::HashSet;

    #[test]
    fn the_shipped_puzzles_read_and_carry_the_tagger_s_themes() {
        let puzzles = puzzles();
        let generated = puzzles.len() - classic::classics().len();
        assert!(generated >= 1000, "{generated} generated puzzles");
        let mut positions = HashSet::new();
        for p in puzzles {
            assert_eq!(
                p.themes,
                tag::retag(p),
                "{}: run `xiangqi puzzles tag` on the file",
                p.id
            );
            assert!(
                positions.insert(p.position.key()),
                "{} repeats a position",
                p.id
            );
            assert!(!p.source.is_empty(), "{} says where it comes from", p.id);
        }
    }
}
