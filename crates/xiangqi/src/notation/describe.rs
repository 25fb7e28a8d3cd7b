//! What the file notations (WXF and Chinese) share: files counted from the mover's right, the
//! direction and argument of a move, which piece of several on a file is meant, and finding the
//! legal move a description names.

use super::error::NotationError;
use crate::excerpt::excerpt;
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// Which way a piece moves, seen by its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    /// Toward the opponent (进, `+`).
    Forward,
    /// Toward one's own side (退, `-`).
    Back,
    /// Along the rank (平, `.`).
    Sideways,
}

/// The second half of a file-notation move: direction and argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Step {
    /// The direction.
    pub action: Action,
    /// Ranks moved for a straight move of a chariot, cannon, soldier or general; otherwise the
    /// destination file, counted from the mover's right. Always 1–9.
    pub arg: u8,
}

/// The file of `sq` numbered 1–9 from `color`'s right: Red's `i` file is 1, Black's `a` file is 1.
pub(super) fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// How far toward the opponent `sq` stands, 0–9, for `color`.
fn advance(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// The direction and argument of `m` made by a `color` `kind`.
pub(super) fn step(color: Color, kind: PieceKind, m: Move) -> Step {
    let (from, to) = (m.from(), m.to());
    let (a, b) = (advance(color, from), advance(color, to));
    let action = match b.cmp(&a) {
        std::cmp::Ordering::Greater => Action::Forward,
        std::cmp::Ordering::Less => Action::Back,
        std::cmp::Ordering::Equal => Action::Sideways,
    };
    let straight = matches!(
        kind,
        PieceKind::General | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
    );
    let arg = if straight && action != Action::Sideways {
        a.abs_diff(b)
    } else {
        file_number(color, to)
    };
    Step { action, arg }
}

/// The `color` `kind` pieces on the board file `file` (0–8), the most advanced first.
fn column(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = pos
        .pieces(color, kind)
        .filter(|sq| sq.file() == file)
        .collect();
    squares.sort_by_key(|&sq| std::cmp::Reverse(advance(color, sq)));
    squares
}

/// The board files (0–8) on which `color` has two or more `kind` pieces.
fn doubled_files(pos: &Position, color: Color, kind: PieceKind) -> Vec<u8> {
    (0..9)
        .filter(|&file| {
            pos.pieces(color, kind)
                .filter(|sq| sq.file() == file)
                .count()
                >= 2
        })
        .collect()
}

/// How a move's piece is named, as chosen by the conventions in the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Naming {
    /// By its file, 1–9 from the mover's right.
    File(u8),
    /// One of `count` pieces on a file, `index` 0 being the most advanced.
    Tandem {
        /// Position from the front, 0-based.
        index: u8,
        /// How many of the mover's pieces of this kind stand on the file (2–5).
        count: u8,
        /// The file, 1–9 from the mover's right.
        file: u8,
        /// Whether the file must be written too (soldiers doubled on two files).
        show_file: bool,
    },
}

/// What the file notations need to write a move: piece, colour, naming and step.
pub(super) struct Written {
    /// The mover's colour (numerals depend on it).
    pub color: Color,
    /// The moving piece.
    pub kind: PieceKind,
    /// How the piece is named.
    pub naming: Naming,
    /// Direction and argument.
    pub step: Step,
}

/// Describes `m` for a file notation; `None` if its `from` square is empty.
pub(super) fn describe(pos: &Position, m: Move) -> Option<Written> {
    let piece = pos.piece_at(m.from())?;
    let (color, kind) = (piece.color, piece.kind);
    let step = step(color, kind, m);
    let file = file_number(color, m.from());
    let col = column(pos, color, kind, m.from().file());
    let count = col.len() as u8;
    let index = col.iter().position(|&sq| sq == m.from()).unwrap_or(0) as u8;
    let tandem = |show_file| Naming::Tandem {
        index,
        count,
        file,
        show_file,
    };
    let naming = if count < 2 {
        Naming::File(file)
    } else {
        match kind {
            // Two on one file: one can only advance, the other only retreat, so the file and the
            // direction are enough. Only composed positions can break that; then use front/rear.
            PieceKind::Advisor | PieceKind::Elephant => {
                let same = pos
                    .legal_moves()
                    .iter()
                    .filter(|o| {
                        o.from().file() == m.from().file()
                            && pos.piece_at(o.from()) == Some(piece)
                            && self::step(color, kind, **o) == step
                    })
                    .count();
                if same > 1 {
                    tandem(false)
                } else {
                    Naming::File(file)
                }
            }
            PieceKind::Soldier => tandem(doubled_files(pos, color, kind).len() >= 2),
            _ => tandem(false),
        }
    };
    Some(Written {
        color,
        kind,
        naming,
        step,
    })
}

/// Which of several pieces on a file a text means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// The most advanced (前, `++`).
    First,
    /// The least advanced (后).
    Last,
    /// The middle one of three or five (中, or WXF's file digit).
    Middle,
    /// The `n`th from the front, 1-based (一 … 五).
    Nth(u8),
    /// WXF `+`: the front one of two or three, the second of four or five.
    WxfFront,
    /// WXF `-`: the rear one of two or three, the second-last of four or five.
    WxfRear,
}

impl Place {
    /// Whether the piece at `index` (0 = front) of `count` is meant.
    fn fits(self, index: usize, count: usize) -> bool {
        match self {
            Place::First => index == 0,
            Place::Last => index + 1 == count,
            Place::Middle => count % 2 == 1 && index == count / 2,
            Place::Nth(n) => index + 1 == n as usize,
            Place::WxfFront => index == usize::from(count >= 4),
            Place::WxfRear => index + 1 + usize::from(count >= 4) == count,
        }
    }
}

/// Which piece a text names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Selector {
    /// The piece(s) on a file (1–9 from the mover's right). With `wxf_middle`, a file holding three
    /// or five soldiers means its middle one, as WXF writes it (`P3.4`).
    File {
        /// The file.
        file: u8,
        /// Whether WXF's middle-soldier rule applies.
        wxf_middle: bool,
    },
    /// One of two or more on a file, on the given file or on any file holding two or more.
    Place {
        /// Which one.
        place: Place,
        /// The file, if the text gives it.
        file: Option<u8>,
    },
    /// xqbase's numbering (1-based) across two or more doubled files: files from the mover's
    /// right, then front to back on each (`一兵平五`). On a single doubled file this is the same
    /// as [`Place::Nth`].
    Across(u8),
}

/// A move as a file notation describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Description {
    /// The moving piece.
    pub kind: PieceKind,
    /// Which one of them.
    pub selector: Selector,
    /// Where it goes.
    pub step: Step,
}

/// Whether the `color` `kind` on `sq` is the one `selector` names.
fn selects(pos: &Position, color: Color, kind: PieceKind, sq: Square, selector: Selector) -> bool {
    let col = column(pos, color, kind, sq.file());
    let index = col.iter().position(|&s| s == sq).unwrap_or(0);
    let count = col.len();
    let file = file_number(color, sq);
    match selector {
        Selector::File {
            file: f,
            wxf_middle,
        } => {
            let middle_rule =
                wxf_middle && kind == PieceKind::Soldier && count >= 3 && count % 2 == 1;
            f == file && (!middle_rule || index == count / 2)
        }
        Selector::Place { place, file: f } => {
            count >= 2 && f.is_none_or(|f| f == file) && place.fits(index, count)
        }
        Selector::Across(n) => {
            let files = doubled_files(pos, color, kind);
            if files.len() < 2 {
                return count >= 2 && Place::Nth(n).fits(index, count);
            }
            let mut order: Vec<Square> = files
                .into_iter()
                .flat_map(|f| column(pos, color, kind, f))
                .collect();
            order.sort_by_key(|&s| file_number(color, s)); // stable: front to back kept per file
            order.get(usize::from(n).wrapping_sub(1)) == Some(&sq)
        }
    }
}

/// What a selector asks for, in words, for [`NotationError::NoSuchPiece`].
fn wanted(kind: PieceKind, selector: Selector) -> String {
    match selector {
        Selector::File { file, .. } => format!("{} on file {file}", kind.name()),
        Selector::Place { place, file } => {
            let which = match place {
                Place::First => "front".to_string(),
                Place::Last => "rear".to_string(),
                Place::Middle => "middle".to_string(),
                Place::Nth(n) => format!("number {n} (from the front)"),
                Place::WxfFront => "front (+)".to_string(),
                Place::WxfRear => "rear (-)".to_string(),
            };
            match file {
                Some(f) => format!("{which} {} on file {f}", kind.name()),
                None => format!("{which} {} of several on one file", kind.name()),
            }
        }
        Selector::Across(n) => format!("{} number {n} on its doubled files", kind.name()),
    }
}

/// The one legal move of `pos` that `desc` describes.
pub(super) fn resolve(
    pos: &Position,
    text: &str,
    desc: Description,
) -> Result<Move, NotationError> {
    let us = pos.side_to_move();
    let kind = desc.kind;
    let pieces: Vec<Square> = pos
        .pieces(us, kind)
        .filter(|&sq| selects(pos, us, kind, sq, desc.selector))
        .collect();
    if pieces.is_empty() {
        return Err(NotationError::NoSuchPiece {
            text: excerpt(text),
            color: us,
            wanted: wanted(kind, desc.selector),
        });
    }
    let legal = pos.legal_moves();
    let mut fitting = legal
        .iter()
        .filter(|m| pieces.contains(&m.from()) && step(us, kind, **m) == desc.step);
    match (fitting.next(), fitting.count()) {
        (Some(&m), 0) => Ok(m),
        (None, _) => Err(NotationError::IllegalMove {
            text: excerpt(text),
        }),
        (Some(_), more) => Err(NotationError::Ambiguous {
            text: excerpt(text),
            count: more + 1,
        }),
    }
}
