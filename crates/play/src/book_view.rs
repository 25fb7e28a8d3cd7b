//! The opening book's moves for a position, as the page's small explorer shows them: the book
//! the engine plays its opening moves from (`xiangqi_engine::Book::builtin`), each move with
//! its weight and its share of the position's weights.

use crate::move_names::MoveNames;
use serde::Serialize;
use xiangqi::Position;
use xiangqi_engine::Book;

/// One book move.
#[derive(Serialize)]
pub struct BookMoveView {
    #[serde(flatten)]
    names: MoveNames,
    /// Its weight among the position's book moves.
    weight: u16,
    /// Its share of the position's weights, in percent (how often the engine plays it).
    percent: f64,
    /// The score of the book's verification search, for the side to move, and its depth.
    score: Option<i16>,
    depth: Option<u8>,
}

/// The book moves of `pos`, heaviest first; empty when the book has none (or is missing).
pub fn book_moves(book: Option<&Book>, pos: &Position) -> Vec<BookMoveView> {
    let moves = book.map(|b| b.probe(pos)).unwrap_or_default();
    let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
    moves
        .into_iter()
        .map(|m| BookMoveView {
            names: MoveNames::of(pos, m.mv),
            weight: m.weight,
            percent: f64::from(m.weight) * 100.0 / f64::from(total.max(1)),
            score: m.score.map(|(score, _)| score),
            depth: m.score.map(|(_, depth)| depth),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_book_moves_that_share_the_whole() {
        let book = Book::builtin();
        let moves = book_moves(book.as_deref(), &Position::startpos());
        assert!(moves.len() >= 3, "{}", moves.len());
        let total: f64 = moves.iter().map(|m| m.percent).sum();
        assert!((total - 100.0).abs() < 1e-9, "{total}");
        assert!(moves.windows(2).all(|w| w[0].weight >= w[1].weight));
        assert!(moves.iter().any(|m| m.names.chinese == "炮二平五"));
        // A position the book does not know, and no book at all: nothing.
        let late = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert!(book_moves(book.as_deref(), &late).is_empty());
        assert!(book_moves(None, &Position::startpos()).is_empty());
    }
}
