//! A move written in each notation the page offers (ICCS, Chinese, WXF), for every answer that
//! names moves (the game's moves and hint, the analysis's lines, the book's and the tables'
//! moves, the laboratory's lines, the puzzles' lines); the page picks the one its reader chose.

use serde::Serialize;
use xiangqi::{format_move, Move, Notation, Position};

/// One move in each notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveNames {
    /// Coordinates, as the API's moves are written (`h2e2`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`).
    pub chinese: String,
    /// WXF notation (`C2.5`).
    pub wxf: String,
}

impl MoveNames {
    /// `m`, a legal move of `pos`, in each notation.
    pub fn of(pos: &Position, m: Move) -> MoveNames {
        MoveNames {
            iccs: m.to_string(),
            chinese: format_move(pos, m, Notation::Chinese),
            wxf: format_move(pos, m, Notation::Wxf),
        }
    }
}

/// The moves of a line played from `start`, each in each notation; the line is cut at a move
/// that is not legal where it comes (the relative notations need the position).
pub fn line_names(start: &Position, moves: &[Move]) -> Vec<MoveNames> {
    let mut pos = start.clone();
    let mut names = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        names.push(MoveNames::of(&pos, m));
        pos.make_move(m);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_named_move_by_move_from_its_start_and_cut_at_an_illegal_move() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["h2e2", "h9g7", "h2e2"]
            .iter()
            .map(|t| crate::game_file::iccs_move(t).unwrap())
            .collect();
        let names = line_names(&start, &moves);
        assert_eq!(names.len(), 2, "the second h2e2 has no cannon to move");
        assert_eq!(names[0].iccs, "h2e2");
        assert_eq!(names[0].chinese, "炮二平五");
        assert_eq!(names[0].wxf, "C2.5");
        assert_eq!(names[1].iccs, "h9g7");
        assert_eq!(names[1].chinese, "马８进７");
    }
}
