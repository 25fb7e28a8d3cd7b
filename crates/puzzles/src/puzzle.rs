//! A puzzle and the one line of text it is written as.
//!
//! ```text
//! id <TAB> fen <TAB> solution <TAB> themes <TAB> rating [<TAB> source]
//! ```
//!
//! The solution is the moves of both sides in ICCS, separated by spaces, the solver's first and
//! last (an odd number of moves); the themes are names ([`Theme::name`]) separated by spaces;
//! the rating is an integer on the Glicko-2 scale; the source says where the position came
//! from. `xiangqi puzzles export` prints the first five fields, so that others can check the
//! puzzles with their own engines.

use crate::theme::{Theme, UnknownTheme};
use std::fmt::Write as _;
use xiangqi::{excerpt, parse_move_as, Color, FenError, Move, Notation, Position};

/// The lowest and highest rating a puzzle may carry.
pub const RATINGS: std::ops::RangeInclusive<u16> = 400..=3200;
/// The longest id: ids are short names people can quote.
pub const MAX_ID_LEN: usize = 32;

/// A position, the side to move finds the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A short stable name: lowercase letters, digits and `-`.
    pub id: String,
    /// The position the solver starts from; the solver is the side to move.
    pub position: Position,
    /// The solution: the solver's moves and the best defence between them, the solver's first
    /// and last.
    pub solution: Vec<Move>,
    /// What the puzzle is about, sorted, each once.
    pub themes: Vec<Theme>,
    /// How hard it is, on the Glicko-2 scale a player's puzzle rating uses.
    pub rating: u16,
    /// Where the position came from (a game, a book); empty when not known.
    pub source: String,
}

impl Puzzle {
    /// The side that solves.
    pub fn solver(&self) -> Color {
        self.position.side_to_move()
    }

    /// The solver's moves in the solution.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// The positions of the solution: the start, then the one after each move.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.position.clone();
        let mut all = vec![pos.clone()];
        for &m in &self.solution {
            pos.make_move(m);
            all.push(pos.clone());
        }
        all
    }

    /// The solution in ICCS, moves separated by spaces.
    pub fn solution_text(&self) -> String {
        join(self.solution.iter().map(|m| m.to_string()))
    }

    /// The themes' names separated by spaces.
    pub fn themes_text(&self) -> String {
        join(self.themes.iter().map(|t| t.name()))
    }

    /// The five fields `xiangqi puzzles export` prints, joined by tabs.
    pub fn export_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.id,
            self.position.to_fen(),
            self.solution_text(),
            self.themes_text(),
            self.rating
        )
    }

    /// The whole line, the source included when there is one (what a puzzle file holds).
    pub fn line(&self) -> String {
        let mut line = self.export_line();
        if !self.source.is_empty() {
            let _ = write!(line, "\t{}", self.source);
        }
        line
    }

    /// Reads one line (five or six fields). Every move must be legal in turn.
    pub fn from_line(line: &str) -> Result<Puzzle, LineError> {
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('\t').collect();
        if fields.len() < 5 {
            return Err(LineError::Fields(fields.len()));
        }
        if fields.len() > 6 {
            return Err(LineError::Fields(fields.len()));
        }
        let id = read_id(fields[0])?;
        let position = Position::from_fen(fields[1]).map_err(LineError::Fen)?;
        let solution = read_solution(&position, fields[2])?;
        let themes = read_themes(fields[3])?;
        let rating = read_rating(fields[4])?;
        let source = fields.get(5).unwrap_or(&"").to_string();
        Ok(Puzzle {
            id,
            position,
            solution,
            themes,
            rating,
            source,
        })
    }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(" ")
}

/// Reads an id: 1 to [`MAX_ID_LEN`] lowercase letters, digits or `-`.
pub(crate) fn read_id(text: &str) -> Result<String, LineError> {
    let well_formed = !text.is_empty()
        && text.len() <= MAX_ID_LEN
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if well_formed {
        Ok(text.to_string())
    } else {
        Err(LineError::Id(excerpt(text)))
    }
}

fn read_solution(start: &Position, text: &str) -> Result<Vec<Move>, LineError> {
    let moves = read_moves(start, text)?;
    if moves.len() % 2 == 0 {
        return Err(LineError::EvenSolution(moves.len()));
    }
    Ok(moves)
}

/// Reads ICCS moves separated by spaces, each legal in turn from `start`.
pub(crate) fn read_moves(start: &Position, text: &str) -> Result<Vec<Move>, LineError> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (index, word) in text.split(' ').enumerate() {
        let m = parse_move_as(&pos, word, Notation::Iccs).map_err(|error| LineError::Move {
            index: index + 1,
            text: excerpt(word),
            reason: error.to_string(),
        })?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(moves)
}

fn read_themes(text: &str) -> Result<Vec<Theme>, LineError> {
    let mut themes = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let theme: Theme = word.parse().map_err(LineError::Theme)?;
        if themes.contains(&theme) {
            return Err(LineError::RepeatedTheme(theme.name()));
        }
        themes.push(theme);
    }
    themes.sort();
    Ok(themes)
}

fn read_rating(text: &str) -> Result<u16, LineError> {
    text.parse::<u16>()
        .ok()
        .filter(|r| RATINGS.contains(r) && r.to_string() == text)
        .ok_or_else(|| LineError::Rating(excerpt(text)))
}

/// Why a line is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Not five or six tab-separated fields.
    #[error("{0} fields; a puzzle line has 5 or 6 separated by tabs: id, fen, solution, themes, rating [, source]")]
    Fields(usize),
    /// The id is empty, too long or has other characters.
    #[error("id {0:?}: an id is 1 to {MAX_ID_LEN} lowercase letters, digits or '-'")]
    Id(String),
    /// The position is not a legal FEN.
    #[error("fen: {0}")]
    Fen(FenError),
    /// A move of the solution does not read or is illegal where it stands.
    #[error("solution move {index} {text:?}: {reason}")]
    Move {
        /// Its place in the solution, from 1.
        index: usize,
        /// What was read.
        text: String,
        /// Why it is refused.
        reason: String,
    },
    /// The solution does not end with the solver's move.
    #[error("the solution has {0} moves; it must end with the solver's move (an odd number)")]
    EvenSolution(usize),
    /// A theme name that is not in the set.
    #[error("themes: {0}")]
    Theme(UnknownTheme),
    /// A theme named twice.
    #[error("themes: {0} is named twice")]
    RepeatedTheme(String),
    /// The rating is not a whole number in range.
    #[error("rating {0:?}: a rating is a whole number from 400 to 3200")]
    Rating(String),
}

/// A puzzle file's line that does not read, with its number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct FileError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub error: FileProblem,
}

/// What is wrong with one line of a puzzle file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    /// The line is not a puzzle.
    #[error(transparent)]
    Line(#[from] LineError),
    /// An id an earlier line already has.
    #[error("the id {0} is already used by line {1}")]
    DuplicateId(String, usize),
}

/// Reads a puzzle file: one puzzle a line; empty lines and lines starting with `#` are skipped.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, FileError> {
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut lines_of_ids = std::collections::HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = Puzzle::from_line(line).map_err(|error| FileError {
            line: number,
            error: error.into(),
        })?;
        if let Some(&first) = lines_of_ids.get(&puzzle.id) {
            return Err(FileError {
                line: number,
                error: FileProblem::DuplicateId(puzzle.id, first),
            });
        }
        lines_of_ids.insert(puzzle.id.clone(), number);
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "t-1\t4k4/9/9/9/9/9/9/9/9/R2K5 w\ta0a9 e9e8 a9a8\tmateIn2 short\t900\ta test";

    #[test]
    fn a_line_reads_and_writes_back() {
        let p = Puzzle::from_line(LINE).unwrap();
        assert_eq!(p.id, "t-1");
        assert_eq!(p.solution_text(), "a0a9 e9e8 a9a8");
        assert_eq!(p.themes, vec![Theme::MateIn(2), Theme::Short]);
        assert_eq!(p.rating, 900);
        assert_eq!(p.solver(), Color::Red);
        assert_eq!(p.solver_moves(), 2);
        assert_eq!(p.line(), LINE.replace(" w\t", " w - - 0 1\t"));
        assert_eq!(Puzzle::from_line(&p.line()), Ok(p.clone()));
        assert_eq!(p.export_line().split('\t').count(), 5);
    }

    #[test]
    fn each_broken_field_is_named() {
        let with = |i: usize, value: &str| {
            let mut f: Vec<&str> = LINE.split('\t').collect();
            f[i] = value;
            Puzzle::from_line(&f.join("\t")).unwrap_err()
        };
        assert_eq!(Puzzle::from_line("a\tb"), Err(LineError::Fields(2)));
        assert!(matches!(with(0, "Bad Id"), LineError::Id(_)));
        assert!(matches!(with(1, "4k4/9 w"), LineError::Fen(_)));
        assert!(matches!(
            with(2, "a0a9 e9e8 a9b7"),
            LineError::Move { index: 3, .. }
        ));
        assert!(matches!(with(2, ""), LineError::Move { index: 1, .. }));
        assert_eq!(with(2, "a0a9 e9e8"), LineError::EvenSolution(2));
        assert!(matches!(with(3, "mateIn2 knight"), LineError::Theme(_)));
        assert!(matches!(with(3, "fork fork"), LineError::RepeatedTheme(_)));
        for bad in ["", "12", "9000", "+900", "0900", "nine"] {
            assert!(matches!(with(4, bad), LineError::Rating(_)), "{bad}");
        }
    }

    #[test]
    fn a_file_names_the_line_that_fails_and_refuses_a_repeated_id() {
        let text = format!("# comment\n\n{LINE}\n{LINE}\n");
        let error = read_puzzles(&text).unwrap_err();
        assert_eq!(error.line, 4);
        assert_eq!(error.error, FileProblem::DuplicateId("t-1".to_string(), 3));
        let broken = format!("{LINE}\nt-2\tnot a fen\ta0a9\t\t900\n");
        assert_eq!(read_puzzles(&broken).unwrap_err().line, 2);
        assert_eq!(read_puzzles(LINE).unwrap().len(), 1);
    }
}
