//! The classic composed endgames (排局) of the old books: their names, diagrams, verdicts and
//! main lines, read from `data/classics.tsv`, each turned into a [`Puzzle`] the solver plays.
//!
//! A line of the file has nine tab-separated fields:
//!
//! ```text
//! id  name  english  verdict  fen  line  book  source  note
//! ```
//!
//! The verdict is written as the books write it: `红先和` (Red moves first, and the game is a
//! draw with best play), `红先胜` (Red moves first and wins), `红先黑胜` (Red moves first and
//! Black wins). The line is the book's main line from the diagram, both sides, in ICCS.
//!
//! The puzzle's solver is the side the verdict favours (the side to move when it is a draw):
//! when that is not the side to move, the puzzle starts after the book's first move. Its
//! solution is the book's line up to the solver's last move.

use crate::puzzle::{read_id, read_moves, LineError, Puzzle};
use crate::tag;
use std::sync::OnceLock;
use xiangqi::{excerpt, Color, Move, Position};

/// The classics' file, as shipped.
pub const CLASSICS: &str = include_str!("../../data/classics.tsv");

/// How a composition ends with best play, from the side that moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A draw.
    Draw,
    /// This side wins.
    Win(Color),
}

/// One classic composition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classic {
    /// The puzzle the solver plays (id, start, the book's line as its solution, themes, rating,
    /// and as its source the book and the copy it was read from).
    pub puzzle: Puzzle,
    /// The traditional name (七星聚会).
    pub name: String,
    /// What the name says, in English (our gloss).
    pub english: String,
    /// The diagram, before any move.
    pub diagram: Position,
    /// The verdict the book gives.
    pub verdict: Verdict,
    /// The verdict as the book writes it (`红先和`).
    pub verdict_text: String,
    /// The book's whole main line from the diagram.
    pub line: Vec<Move>,
    /// The book the composition is from.
    pub book: String,
    /// The digital copy the diagram and line were read from.
    pub copy: String,
    /// Where other copies differ; empty when nothing is known.
    pub note: String,
}

/// Why a line of the classics' file does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassicError {
    /// Not nine tab-separated fields.
    #[error("{0} fields; a classic has 9 separated by tabs: id, name, english, verdict, fen, line, book, source, note")]
    Fields(usize),
    /// A verdict not written `红先和`, `红先胜`, `红先黑胜` (or the same with 黑先).
    #[error("verdict {0:?}: write it as the books do, e.g. 红先和, 红先胜 or 红先黑胜")]
    Verdict(String),
    /// The line leaves the solver nothing to play.
    #[error("the line has no move for the solver")]
    NoSolverMove,
    /// A field a puzzle line also has (id, fen, a move) does not read.
    #[error(transparent)]
    Puzzle(#[from] LineError),
}

/// Reads `红先和`-style verdicts: who moves first and how it ends.
fn read_verdict(text: &str) -> Result<(Color, Verdict), ClassicError> {
    let bad = || ClassicError::Verdict(excerpt(text));
    let colour = |c: char| match c {
        '红' => Some(Color::Red),
        '黑' => Some(Color::Black),
        _ => None,
    };
    let chars: Vec<char> = text.chars().collect();
    let first = chars.first().and_then(|&c| colour(c)).ok_or_else(bad)?;
    if chars.get(1) != Some(&'先') {
        return Err(bad());
    }
    let verdict = match &chars[2..] {
        ['和'] => Verdict::Draw,
        ['胜'] => Verdict::Win(first),
        [side, '胜'] => Verdict::Win(colour(*side).ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    Ok((first, verdict))
}

/// The rating a classic's puzzle carries: by the length of the book's line, since nobody has
/// rated the old compositions on the puzzle scale (a line of 4 moves is 1420, of 40 moves 2500).
pub fn rating_for(solver_moves: usize) -> u16 {
    (1300 + 30 * solver_moves).min(2800) as u16
}

impl Classic {
    /// Reads one line of the classics' file.
    pub fn from_line(line: &str) -> Result<Classic, ClassicError> {
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('\t').collect();
        let [id, name, english, verdict_text, fen, line_text, book, copy, note] = fields[..] else {
            return Err(ClassicError::Fields(fields.len()));
        };
        read_id(id)?;
        let diagram = Position::from_fen(fen).map_err(LineError::Fen)?;
        let (first, verdict) = read_verdict(verdict_text)?;
        if first != diagram.side_to_move() {
            return Err(ClassicError::Verdict(excerpt(verdict_text)));
        }
        let line = read_moves(&diagram, line_text)?;
        let solver = match verdict {
            Verdict::Draw => first,
            Verdict::Win(side) => side,
        };
        // The defender's first move is the book's when the solver does not move first.
        let skip = usize::from(solver != first);
        let mut start = diagram.clone();
        line[..skip.min(line.len())].iter().for_each(|&m| {
            start.make_move(m);
        });
        let mut solution = line.get(skip..).unwrap_or_default().to_vec();
        if solution.len() % 2 == 0 {
            // The solution ends with the solver's move; the book's last reply is left off.
            solution.pop();
        }
        if solution.is_empty() {
            return Err(ClassicError::NoSolverMove);
        }
        let themes = tag::classic_themes(&start, &solution, verdict == Verdict::Draw);
        let rating = rating_for(solution.len().div_ceil(2));
        let puzzle = Puzzle {
            id: id.to_string(),
            position: start,
            solution,
            themes,
            rating,
            source: format!("{name}, {book}"),
        };
        Ok(Classic {
            puzzle,
            name: name.to_string(),
            english: english.to_string(),
            diagram,
            verdict,
            verdict_text: verdict_text.to_string(),
            line,
            book: book.to_string(),
            copy: copy.to_string(),
            note: note.to_string(),
        })
    }
}

/// A line of the classics' file that does not read, with its number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct ClassicFileError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub error: ClassicError,
}

/// Reads a classics' file: one a line; empty lines and lines starting with `#` are skipped.
pub fn read_classics(text: &str) -> Result<Vec<Classic>, ClassicFileError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            Classic::from_line(line).map_err(|error| ClassicFileError {
                line: index + 1,
                error,
            })
        })
        .collect()
}

/// Every shipped classic, in file order (read once).
pub fn classics() -> &'static [Classic] {
    static CLASSICS_READ: OnceLock<Vec<Classic>> = OnceLock::new();
    // The file is checked by a test; a broken one is a build that must not ship.
    CLASSICS_READ.get_or_init(|| read_classics(CLASSICS).expect("the shipped classics read"))
}

/// The shipped classic whose puzzle is named `id`.
pub fn find(id: &str) -> Option<&'static Classic> {
    classics().iter().find(|c| c.puzzle.id == id)
}

#[cfg(test)]
mod tests;
