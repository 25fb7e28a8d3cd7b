//! Reading puzzle files for the `puzzles` commands: the text, with a size limit, and the
//! puzzles (or the shipped ones when no file is named).

use anyhow::{Context, Result};
use std::path::Path;
use xiangqi_puzzles::{read_puzzles, shipped, Puzzle};

/// The largest puzzle file read: 64 MiB, some hundred thousand puzzles.
const MAX_PUZZLE_FILE_LEN: u64 = 64 << 20;

/// A puzzle file's text.
pub(super) fn read_text(path: &Path) -> Result<String> {
    let bytes = xiangqi_files::reading::read(path, MAX_PUZZLE_FILE_LEN)?;
    String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8 text", path.display()))
}

/// The puzzles of `file`, or the shipped ones.
pub(super) fn load(file: Option<&Path>) -> Result<Vec<Puzzle>> {
    match file {
        None => Ok(shipped::puzzles().to_vec()),
        Some(path) => {
            read_puzzles(&read_text(path)?).with_context(|| format!("{}", path.display()))
        }
    }
}
