//! Why a move is refused, in words a player understands (with a code the page translates).

use xiangqi::{Move, PieceKind, Position, Square};

/// A reason code and its English text for refusing `m` in `pos`, or `None` if it is legal.
pub fn why_illegal(pos: &Position, m: Move) -> Option<(&'static str, String)> {
    if pos.is_legal(m) {
        return None;
    }
    let (from, to) = (m.from(), m.to());
    let us = pos.side_to_move();
    let Some(piece) = pos.piece_at(from) else {
        return Some(("empty", format!("there is no piece on {from}")));
    };
    if piece.color != us {
        return Some(("not_your_piece", format!("it is {us}'s turn")));
    }
    if from == to {
        return Some(("same_square", "the piece must move".to_owned()));
    }
    if pos.piece_at(to).is_some_and(|p| p.color == us) {
        return Some(("own_piece", "you cannot capture your own piece".to_owned()));
    }
    if pos.is_pseudo_legal(m) {
        if pos.in_check() {
            return Some((
                "in_check",
                "your general is in check, and this move does not save it".to_owned(),
            ));
        }
        let mut after = pos.clone();
        after.make_move(m);
        if generals_facing(&after) {
            return Some((
                "generals_facing",
                "the two generals may not face each other on an open file".to_owned(),
            ));
        }
        return Some((
            "exposes_general",
            "this move would leave your general open to capture".to_owned(),
        ));
    }
    let df = i32::from(to.file()) - i32::from(from.file());
    let dr = i32::from(to.rank()) - i32::from(from.rank());
    let between = |sq: Square, f: i32, r: i32| {
        sq.offset(f as i8, r as i8)
            .is_some_and(|s| pos.piece_at(s).is_some())
    };
    let straight = df == 0 || dr == 0;
    Some(match piece.kind {
        PieceKind::General => (
            "general_move",
            "the general moves one point straight and stays in the palace".to_owned(),
        ),
        PieceKind::Advisor => (
            "advisor_move",
            "the advisor moves one point diagonally and stays in the palace".to_owned(),
        ),
        PieceKind::Elephant if df.abs() == 2 && dr.abs() == 2 => {
            let crosses = match us {
                xiangqi::Color::Red => to.rank() > 4,
                xiangqi::Color::Black => to.rank() < 5,
            };
            if crosses {
                (
                    "elephant_river",
                    "the elephant may not cross the river".to_owned(),
                )
            } else if between(from, df / 2, dr / 2) {
                (
                    "elephant_eye",
                    "the elephant's eye is blocked (塞象眼)".to_owned(),
                )
            } else {
                ("elephant_move", "the elephant cannot go there".to_owned())
            }
        }
        PieceKind::Elephant => (
            "elephant_move",
            "the elephant moves exactly two points diagonally".to_owned(),
        ),
        PieceKind::Horse if (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1) => {
            let (lf, lr) = if df.abs() == 2 {
                (df / 2, 0)
            } else {
                (0, dr / 2)
            };
            if between(from, lf, lr) {
                (
                    "horse_leg",
                    "the horse's leg is blocked (蹩马腿)".to_owned(),
                )
            } else {
                ("horse_move", "the horse cannot go there".to_owned())
            }
        }
        PieceKind::Horse => (
            "horse_move",
            "the horse moves one point straight, then one diagonally outwards".to_owned(),
        ),
        PieceKind::Chariot if straight => ("blocked", "the way is blocked".to_owned()),
        PieceKind::Chariot => (
            "chariot_move",
            "the chariot moves along files and ranks".to_owned(),
        ),
        PieceKind::Cannon if straight && pos.piece_at(to).is_some() => (
            "cannon_screen",
            "a cannon captures by jumping over exactly one piece".to_owned(),
        ),
        PieceKind::Cannon if straight => (
            "blocked",
            "the way is blocked (a cannon jumps only to capture)".to_owned(),
        ),
        PieceKind::Cannon => (
            "cannon_move",
            "the cannon moves along files and ranks".to_owned(),
        ),
        PieceKind::Soldier => (
            "soldier_move",
            "a soldier moves one point forward, and sideways once it has crossed the river"
                .to_owned(),
        ),
    })
}

/// Whether the generals stand on one file with nothing between them.
fn generals_facing(pos: &Position) -> bool {
    let red = pos.general(xiangqi::Color::Red);
    let black = pos.general(xiangqi::Color::Black);
    if red.file() != black.file() {
        return false;
    }
    (red.rank() + 1..black.rank())
        .filter_map(|r| Square::new(red.file(), r))
        .all(|sq| pos.piece_at(sq).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(fen: Option<&str>, m: &str) -> Option<&'static str> {
        let pos = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
        let from = m[..2].parse().unwrap();
        let to = m[2..].parse().unwrap();
        why_illegal(&pos, Move::new(from, to)).map(|(c, _)| c)
    }

    #[test]
    fn reasons() {
        assert_eq!(code(None, "h2e2"), None);
        assert_eq!(code(None, "e5e6"), Some("empty"));
        assert_eq!(code(None, "h7e7"), Some("not_your_piece"));
        assert_eq!(code(None, "a0a3"), Some("own_piece"));
        assert_eq!(code(None, "a0a5"), Some("blocked"));
        assert_eq!(code(None, "h2h7"), Some("cannon_screen"));
        assert_eq!(code(None, "h2h9"), None);
        assert_eq!(code(None, "b0a2"), None);
        assert_eq!(code(None, "b0d1"), Some("horse_leg"));
        assert_eq!(code(None, "c0a2"), None);
        assert_eq!(code(None, "a3a5"), Some("soldier_move"));
        assert_eq!(code(None, "e0e2"), Some("general_move"));
        let fen = "4k4/9/9/9/9/9/9/9/4A4/4K4 w";
        assert_eq!(code(Some(fen), "e1d2"), Some("generals_facing"));
        let check = "5k3/9/9/9/9/9/9/9/4A4/3Kr4 w";
        assert_eq!(code(Some(check), "e1f2"), Some("in_check"));
        assert_eq!(code(Some(check), "d0d1"), None);
    }
}
