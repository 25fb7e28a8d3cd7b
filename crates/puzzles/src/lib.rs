//! Puzzles: a position where the side to move has one way to win, the line that proves it, its
//! themes and its difficulty.
//!
//! - [`puzzle`]: the record and the line of text it is written as (`xiangqi puzzles export`);
//! - [`theme`] and [`tag`]: what a puzzle is about, decided from its position and solution;
//! - [`mine`]: the generator that finds puzzles in games and proves each with the engine;
//! - [`glicko`]: the player's puzzle rating (Glicko-2);
//! - [`audit`]: where the engine disagrees with a puzzle's or a book's line;
//! - [`classic`]: the classic composed endgames of the old books, as puzzles;
//! - [`shipped`]: the puzzles built into the program.

pub mod audit;
pub mod classic;
pub mod glicko;
pub mod judge;
pub mod mine;
pub mod puzzle;
pub mod shipped;
pub mod tag;
pub mod theme;

pub use puzzle::{read_puzzles, FileError, LineError, Puzzle};
pub use theme::Theme;
