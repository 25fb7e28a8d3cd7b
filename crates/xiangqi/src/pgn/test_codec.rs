//! A minimal Chinese-notation codec, for tests of the PGN code only.
//!
//! Not the notation module: it knows the simplified characters of the xqbase files, Chinese
//! numerals for Red and full-width digits for Black, and 前/后 for two like pieces on one file;
//! three or more (中, soldiers on two files) it cannot write. It reads a move by writing every
//! legal move and comparing.

use super::codec::MoveCodec;
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// See the module documentation.
pub(crate) struct TestChineseCodec;

const RED_NUMBERS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMBERS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn name(color: Color, kind: PieceKind) -> char {
    let red = color == Color::Red;
    match kind {
        PieceKind::General if red => '帅',
        PieceKind::General => '将',
        PieceKind::Advisor if red => '仕',
        PieceKind::Advisor => '士',
        PieceKind::Elephant if red => '相',
        PieceKind::Elephant => '象',
        PieceKind::Horse => '马',
        PieceKind::Chariot => '车',
        PieceKind::Cannon => '炮',
        PieceKind::Soldier if red => '兵',
        PieceKind::Soldier => '卒',
    }
}

/// The number (1–9) of `n` written for `color`.
fn number(color: Color, n: u8) -> char {
    let table = if color == Color::Red {
        &RED_NUMBERS
    } else {
        &BLACK_NUMBERS
    };
    table[usize::from(n - 1)]
}

/// File number from the mover's right.
fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

impl MoveCodec for TestChineseCodec {
    fn parse(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let text: String = text
            .chars()
            .map(|c| match c {
                '1'..='9' => BLACK_NUMBERS[c as usize - '1' as usize],
                c => c,
            })
            .collect();
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| self.format(pos, m) == text)
            .ok_or_else(|| format!("no legal move is written {text}"))
    }

    fn format(&self, pos: &Position, m: Move) -> String {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_at(from) else {
            return "?".to_owned();
        };
        let color = piece.color;
        let twins: Vec<Square> = (0..10)
            .filter_map(|rank| Square::new(from.file(), rank))
            .filter(|&sq| pos.piece_at(sq) == Some(piece))
            .collect();
        // Advisors and elephants need no 前/后: the direction tells two on a file apart.
        let diagonal = matches!(
            piece.kind,
            PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor
        );
        let by_file =
            twins.len() == 1 || matches!(piece.kind, PieceKind::Elephant | PieceKind::Advisor);
        let mut out = String::new();
        match twins.len() {
            _ if by_file => {
                out.push(name(color, piece.kind));
                out.push(number(color, file_number(color, from)));
            }
            2 => {
                // `twins` is in rank order; Red's front piece has the higher rank.
                let front = if color == Color::Red {
                    twins[1]
                } else {
                    twins[0]
                };
                out.push(if from == front { '前' } else { '后' });
                out.push(name(color, piece.kind));
            }
            _ => return "?".to_owned(),
        }
        let forward = match color {
            Color::Red => to.rank() > from.rank(),
            Color::Black => to.rank() < from.rank(),
        };
        if from.rank() == to.rank() {
            out.push('平');
            out.push(number(color, file_number(color, to)));
        } else {
            out.push(if forward { '进' } else { '退' });
            let arg = if diagonal {
                file_number(color, to)
            } else {
                from.rank().abs_diff(to.rank())
            };
            out.push(number(color, arg));
        }
        out
    }
}

#[test]
fn reference_examples() {
    let pos = Position::startpos();
    let iccs = |m: Move| m.to_string();
    let parse = |p: &Position, t| iccs(TestChineseCodec.parse(p, t).unwrap());
    assert_eq!(parse(&pos, "炮二平五"), "h2e2");
    assert_eq!(parse(&pos, "马八进七"), "b0c2");
    let mut black = pos.clone();
    black.make_move(TestChineseCodec.parse(&pos, "炮二平五").unwrap());
    assert_eq!(parse(&black, "炮8平5"), "h7e7");
    assert_eq!(parse(&black, "马８进７"), "h9g7");
    let mut after = black.clone();
    after.make_move(TestChineseCodec.parse(&black, "马８进７").unwrap());
    after.make_move(TestChineseCodec.parse(&after, "马二进三").unwrap());
    after.make_move(TestChineseCodec.parse(&after, "车９平８").unwrap());
    assert_eq!(parse(&after, "车一平二"), "i0h0");
    let tandem = Position::from_fen("3k5/9/9/9/9/9/4C4/9/4C4/3AK4 w").unwrap();
    assert_eq!(parse(&tandem, "前炮进四"), "e3e7");
    assert_eq!(parse(&tandem, "后炮平六"), "e1d1");
}
