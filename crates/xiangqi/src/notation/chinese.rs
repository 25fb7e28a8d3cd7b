//! Chinese notation: piece, file, direction (进 / 平 / 退), argument: `炮二平五`, `马８进７`.
//!
//! Printed with simplified characters (Red 帅 仕 相 马 车 炮 兵, Black 将 士 象 马 车 炮 卒), Chinese
//! numerals for Red and full-width digits for Black. Several pieces on one file are named with
//! 前 / 中 / 后, or 一 … 五 for four or five soldiers (in Chinese numerals for both sides, as
//! xqbase writes `一卒平５`); soldiers doubled on two files also get their file: `前兵九平八`.

use super::describe::{resolve, Action, Description, Naming, Place, Selector, Step, Written};
use super::error::NotationError;
use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;

/// Chinese numerals one to nine.
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The printed character of a piece.
fn piece_char(color: Color, kind: PieceKind) -> char {
    match (kind, color) {
        (PieceKind::General, Color::Red) => '帅',
        (PieceKind::General, Color::Black) => '将',
        (PieceKind::Advisor, Color::Red) => '仕',
        (PieceKind::Advisor, Color::Black) => '士',
        (PieceKind::Elephant, Color::Red) => '相',
        (PieceKind::Elephant, Color::Black) => '象',
        (PieceKind::Horse, _) => '马',
        (PieceKind::Chariot, _) => '车',
        (PieceKind::Cannon, _) => '炮',
        (PieceKind::Soldier, Color::Red) => '兵',
        (PieceKind::Soldier, Color::Black) => '卒',
    }
}

/// A number 1–9 as `color` writes it: Chinese for Red, full-width digits for Black.
fn number(color: Color, n: u8) -> char {
    match color {
        Color::Red => NUMERALS[usize::from(n - 1)],
        Color::Black => char::from_u32(0xFF10 + u32::from(n)).unwrap_or('?'),
    }
}

/// `m` in Chinese notation; `None` if its `from` square is empty.
pub(super) fn format(pos: &Position, m: Move) -> Option<String> {
    let Written {
        color,
        kind,
        naming,
        step,
    } = super::describe::describe(pos, m)?;
    let mut out = String::new();
    match naming {
        Naming::File(file) => {
            out.push(piece_char(color, kind));
            out.push(number(color, file));
        }
        Naming::Tandem {
            index,
            count,
            file,
            show_file,
        } => {
            let word = if count >= 4 {
                NUMERALS[usize::from(index)]
            } else if index == 0 {
                '前'
            } else if index + 1 == count {
                '后'
            } else {
                '中'
            };
            out.push(word);
            out.push(piece_char(color, kind));
            if show_file {
                out.push(number(color, file));
            }
        }
    }
    out.push(match step.action {
        Action::Forward => '进',
        Action::Back => '退',
        Action::Sideways => '平',
    });
    out.push(number(color, step.arg));
    Some(out)
}

/// One meaningful character of a Chinese move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// A piece character.
    Piece(PieceKind),
    /// A number 1–9 (Chinese numeral, ASCII or full-width digit).
    Number(u8),
    /// 前, 中 or 后 (後).
    Place(Place),
    /// 进 (進), 退 or 平.
    Action(Action),
}

/// Whether `c` is one of the Chinese notation's own characters (a piece, a numeral, a place or
/// a direction, in simplified or traditional form, full-width digits included); plain ASCII
/// digits are not, as every text has them.
pub(crate) fn is_move_character(c: char) -> bool {
    !c.is_ascii() && token(c).is_some()
}

/// The token a character stands for.
fn token(c: char) -> Option<Token> {
    let kind = match c {
        '帅' | '帥' | '将' | '將' => Some(PieceKind::General),
        '仕' | '士' => Some(PieceKind::Advisor),
        '相' | '象' => Some(PieceKind::Elephant),
        '马' | '馬' | '傌' | '㐷' => Some(PieceKind::Horse),
        '车' | '車' | '俥' | '伡' => Some(PieceKind::Chariot),
        '炮' | '砲' | '包' => Some(PieceKind::Cannon),
        '兵' | '卒' => Some(PieceKind::Soldier),
        _ => None,
    };
    if let Some(kind) = kind {
        return Some(Token::Piece(kind));
    }
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(Token::Number(i as u8 + 1));
    }
    let digit = match c {
        '1'..='9' => Some(c as u32 - '0' as u32),
        '１'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    };
    if let Some(d) = digit {
        return Some(Token::Number(d as u8));
    }
    match c {
        '前' => Some(Token::Place(Place::First)),
        '中' => Some(Token::Place(Place::Middle)),
        '后' | '後' => Some(Token::Place(Place::Last)),
        '进' | '進' => Some(Token::Action(Action::Forward)),
        '退' => Some(Token::Action(Action::Back)),
        '平' => Some(Token::Action(Action::Sideways)),
        _ => None,
    }
}

/// Reads a Chinese move as a legal move of `pos`.
///
/// Accepted shapes (`P` piece, `n` number, `w` 前/中/后, `o` ordinal 一–五, `a` direction):
/// `Pnan` (炮二平五), `wPan` (前炮平五), `Pwan` (炮前平五), `oPan` (一兵平五), `wPnan`
/// (前兵九平八), `oPnan`, and `wnan` (前九平八, a soldier).
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let malformed = |reason| NotationError::Malformed {
        text: excerpt(text),
        reason,
    };
    let mut tokens = Vec::new();
    for (i, c) in text.trim().chars().enumerate() {
        match token(c) {
            Some(t) => tokens.push(t),
            None if i < 2 && !c.is_ascii() && !c.is_whitespace() => {
                return Err(NotationError::UnknownPiece {
                    text: excerpt(text),
                    piece: c,
                })
            }
            None => {
                return Err(malformed(
                    "a character that is not part of Chinese notation",
                ))
            }
        }
    }
    use Token::{Action as A, Number as N, Piece as P, Place as W};
    let at = |place, file| Selector::Place { place, file };
    let (kind, selector, action, arg) = match tokens.as_slice() {
        &[P(kind), N(file), A(action), N(arg)] => {
            let selector = Selector::File {
                file,
                wxf_middle: false,
            };
            (kind, selector, action, arg)
        }
        &[P(kind), W(p), A(action), N(arg)] | &[W(p), P(kind), A(action), N(arg)] => {
            (kind, at(p, None), action, arg)
        }
        &[N(n), P(kind), A(action), N(arg)] if n <= 5 => (kind, Selector::Across(n), action, arg),
        &[W(p), N(file), A(action), N(arg)] => (PieceKind::Soldier, at(p, Some(file)), action, arg),
        &[W(p), P(kind), N(file), A(action), N(arg)] => (kind, at(p, Some(file)), action, arg),
        &[N(n), P(kind), N(file), A(action), N(arg)] if n <= 5 => {
            (kind, at(Place::Nth(n), Some(file)), action, arg)
        }
        _ => {
            return Err(malformed(
                "expected piece, file, direction (进/平/退), number, such as 炮二平五 or 前炮平五",
            ))
        }
    };
    let desc = Description {
        kind,
        selector,
        step: Step { action, arg },
    };
    resolve(pos, text, desc)
}
