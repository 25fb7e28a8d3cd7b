//! The openings file: one opening per line.
//!
//! A line is a FEN (`rnbakabnr/9/… w - - 0 1`), a move list from the start position in any
//! notation [`xiangqi::parse_move`] reads (`h2e2 h9g7`, `C2.5 H8+7`, `炮二平五 马８进７`; move numbers
//! such as `1.` are skipped), or both as `FEN | moves`. `#` starts a comment; blank lines are
//! skipped. A FEN is told from moves by its `/`, which no move contains.

use anyhow::{bail, Context, Result};
use std::path::Path;
use xiangqi::{parse_move, Game, Move, Position, Validation};
use xiangqi_engine::random::Rng;

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position before the first move.
    pub start: Position,
    /// The book moves, legal from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position, no moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }
}

/// Puts the openings in a random order that depends only on `seed` (Fisher–Yates).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..openings.len()).rev() {
        // `below(i + 1)` is at most `i`, so the index is in range.
        let j = rng.below(i as u64 + 1) as usize;
        openings.swap(i, j);
    }
}

/// The largest openings file read: 64 MiB, about a million openings.
const MAX_FILE_LEN: u64 = 64 << 20;

/// Reads an openings file (UTF-8).
pub fn load_openings(path: &Path) -> Result<Vec<Opening>> {
    let bytes = xiangqi_files::reading::read(path, MAX_FILE_LEN)?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
    let openings = parse_openings(&text).with_context(|| format!("{}", path.display()))?;
    if openings.is_empty() {
        bail!("{} holds no opening", path.display());
    }
    Ok(openings)
}

/// Reads the openings of a whole file's text; errors name the line.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        // A byte-order mark is not part of the first line's text.
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.is_empty() {
            continue;
        }
        let opening = parse_line(line).with_context(|| format!("line {}: {line}", i + 1))?;
        openings.push(opening);
    }
    Ok(openings)
}

/// Reads one opening line (without comment).
pub fn parse_line(line: &str) -> Result<Opening> {
    let (fen, moves) = match line.split_once('|') {
        Some((fen, moves)) => (Some(fen.trim()), moves.trim()),
        None if line.contains('/') => (Some(line), ""),
        None => (None, line),
    };
    let start = match fen {
        None => Position::startpos(),
        Some(fen) => Position::from_fen_with(fen, Validation::Lenient)
            .with_context(|| format!("invalid FEN {fen:?}"))?,
    };
    let mut game = Game::new(start.clone());
    let mut played = Vec::new();
    for token in moves.split(|c: char| c.is_whitespace() || c == ',') {
        if token.is_empty() || is_move_number(token) {
            continue;
        }
        let m = parse_move(game.position(), token)
            .with_context(|| format!("move {} ({token})", played.len() + 1))?;
        game.play(m).with_context(|| format!("move {token}"))?;
        played.push(m);
    }
    if let Some(outcome) = game.outcome() {
        bail!("the opening leaves a finished game ({outcome})");
    }
    Ok(Opening {
        start,
        moves: played,
    })
}

/// `1.`, `12...`: move numbers of a pasted game score.
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iccs(o: &Opening) -> Vec<String> {
        o.moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn every_form() {
        let text = "\
# a comment line
h2e2 h9g7          # ICCS
1. C2.5 H8+7 2. H2+3
炮二平五 马８进７

rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1
4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1 | a0a1, e9f9
";
        let openings = parse_openings(text).unwrap();
        assert_eq!(openings.len(), 5);
        assert_eq!(iccs(&openings[0]), ["h2e2", "h9g7"]);
        assert_eq!(iccs(&openings[1]), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(iccs(&openings[2]), ["h2e2", "h9g7"]);
        assert_eq!(openings[3].start.side_to_move(), xiangqi::Color::Black);
        assert!(openings[3].moves.is_empty());
        assert_eq!(iccs(&openings[4]), ["a0a1", "e9f9"]);
        assert_eq!(openings[0].start, Position::startpos());
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_openings("h2e2\nh2e2 h2h8\n").unwrap_err();
        assert!(format!("{err:#}").contains("line 2"), "{err:#}");
        assert!(parse_line("not/a/fen").is_err());
        assert!(parse_line("zz").is_err());
        // A mated position is no opening.
        let err = parse_line("4k4/R8/9/9/9/9/9/9/9/1R1K5 w | b0b9").unwrap_err();
        assert!(format!("{err:#}").contains("finished"), "{err:#}");
    }

    #[test]
    fn shuffle_is_a_permutation_fixed_by_the_seed() {
        let text = "h2e2\nb2e2\nc3c4\ng3g4\nh0g2\nb0c2\ni3i4\na3a4\n";
        let openings = parse_openings(text).unwrap();
        let order = |seed| {
            let mut shuffled = openings.clone();
            shuffle(&mut shuffled, seed);
            shuffled
                .iter()
                .map(|o| iccs(o).join(" "))
                .collect::<Vec<_>>()
        };
        assert_eq!(order(7), order(7));
        assert_ne!(order(7), order(8));
        let mut sorted = order(7);
        sorted.sort();
        let mut original: Vec<String> = openings.iter().map(|o| iccs(o).join(" ")).collect();
        original.sort();
        assert_eq!(sorted, original);
        // Nothing to do for none or one.
        shuffle(&mut [], 1);
        let mut one = vec![Opening::startpos()];
        shuffle(&mut one, 1);
        assert_eq!(one, vec![Opening::startpos()]);
    }

    #[test]
    fn move_numbers() {
        assert!(is_move_number("1."));
        assert!(is_move_number("12..."));
        assert!(!is_move_number("12"));
        assert!(!is_move_number("."));
        assert!(!is_move_number("C2.5"));
    }
}
