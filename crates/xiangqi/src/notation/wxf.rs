//! WXF notation: piece letter, file, direction, argument (`C2.5`, `H8+7`, `R+.3`, `3+.4`).
//!
//! Letters `K A E H R C P` (reading also `B` and `N`, any case). Files count 1–9 from the mover's
//! right; `+` forward, `-` back, `.` (or `=`) sideways. Tandem pieces, per the WXF notation page
//! (wxf.org, "Official Xiangqi piece names and notation"): `+` / `-` replace the file of the front
//! and rear piece; of three soldiers the middle one keeps its file (`P+.4 P3.4 P-.4`); of four or
//! five the extreme ones are `++` and `--` (`++.4 P+.4 P3.4 P-.4 --.4`); with soldiers doubled on
//! two files the file digit leads: `3+.4 33.4 3-.4 7+.6 7-.6`.

use super::describe::{resolve, Action, Description, Naming, Place, Selector, Step, Written};
use super::error::NotationError;
use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;

/// The WXF letter of a kind.
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

/// `m` in WXF notation; `None` if its `from` square is empty.
pub(super) fn format(pos: &Position, m: Move) -> Option<String> {
    let Written {
        kind, naming, step, ..
    } = super::describe::describe(pos, m)?;
    let p = letter(kind);
    let digit = |n: u8| char::from(b'0' + n);
    let head: String = match naming {
        Naming::File(file) => [p, digit(file)].into_iter().collect(),
        Naming::Tandem {
            index,
            count,
            file,
            show_file,
        } => {
            let last = index + 1 == count;
            let middle = count % 2 == 1 && index == count / 2;
            if show_file {
                // At most three on a file here: two doubled files hold at most 3 + 2 soldiers.
                let sign = if index == 0 {
                    '+'
                } else if last {
                    '-'
                } else {
                    digit(file)
                };
                [digit(file), sign].into_iter().collect()
            } else if count >= 4 && index == 0 {
                "++".to_string()
            } else if count >= 4 && last {
                "--".to_string()
            } else if middle {
                [p, digit(file)].into_iter().collect()
            } else if index == u8::from(count >= 4) {
                [p, '+'].into_iter().collect()
            } else {
                [p, '-'].into_iter().collect()
            }
        }
    };
    let op = match step.action {
        Action::Forward => '+',
        Action::Back => '-',
        Action::Sideways => '.',
    };
    Some(format!("{head}{op}{}", digit(step.arg)))
}

/// Reads a WXF move as a legal move of `pos`.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let malformed = |reason| NotationError::Malformed {
        text: excerpt(text),
        reason,
    };
    // Five characters are enough to tell that a text is not four long.
    let chars: Vec<char> = text.trim().chars().take(5).collect();
    let &[c0, c1, c2, c3] = chars.as_slice() else {
        return Err(malformed(
            "a WXF move has four characters: piece, file, direction, argument (C2.5)",
        ));
    };
    let digit = |c: char| c.to_digit(10).filter(|&d| d >= 1).map(|d| d as u8);
    let (kind, selector) = if let Some(file) = digit(c0) {
        // Soldiers doubled on two files: file, then +, - or the file again for the middle one.
        let place = match c1 {
            '+' => Place::WxfFront,
            '-' => Place::WxfRear,
            c if c == c0 => Place::Middle,
            _ => {
                return Err(malformed(
                    "after a leading file digit comes +, - or the same digit",
                ))
            }
        };
        let selector = Selector::Place {
            place,
            file: Some(file),
        };
        (PieceKind::Soldier, selector)
    } else if c0 == '+' || c0 == '-' {
        if c1 != c0 {
            return Err(malformed(
                "a leading sign is doubled: ++ or -- for the end soldiers",
            ));
        }
        let place = if c0 == '+' { Place::First } else { Place::Last };
        (PieceKind::Soldier, Selector::Place { place, file: None })
    } else if c0.is_ascii_alphabetic() {
        let Some(kind) = PieceKind::from_letter(c0) else {
            return Err(NotationError::UnknownPiece {
                text: excerpt(text),
                piece: c0,
            });
        };
        let selector = match c1 {
            '+' => Selector::Place {
                place: Place::WxfFront,
                file: None,
            },
            '-' => Selector::Place {
                place: Place::WxfRear,
                file: None,
            },
            c => match digit(c) {
                Some(file) => Selector::File {
                    file,
                    wxf_middle: true,
                },
                None => {
                    return Err(malformed(
                        "the piece letter is followed by a file 1-9, + or -",
                    ))
                }
            },
        };
        (kind, selector)
    } else {
        return Err(malformed(
            "a WXF move starts with a piece letter, + or - or a file digit",
        ));
    };
    let action = match c2 {
        '+' => Action::Forward,
        '-' => Action::Back,
        '.' | '=' => Action::Sideways,
        _ => return Err(malformed("the direction is +, - or . (=)")),
    };
    let Some(arg) = digit(c3) else {
        return Err(malformed("the argument is a digit 1-9"));
    };
    let desc = Description {
        kind,
        selector,
        step: Step { action, arg },
    };
    resolve(pos, text, desc)
}
