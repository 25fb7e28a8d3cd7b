//! Checking a built table against the rules, independently of how it was built: every stored
//! value must be what the position's moves make it, one by one, forwards — a win one ply more
//! than the fastest loss a move reaches, a loss one ply more than the slowest win when every
//! move reaches a win, a draw otherwise — and the ends what the rules say. A table that passes
//! is the table retrograde analysis must give: by induction on the distance every win and loss
//! is right, so the draws are too.

use crate::generate::position;
use crate::material::Material;
use crate::tables::Tables;
use crate::value::{Value, ILLEGAL};
use xiangqi::game::is_insufficient_material;
use xiangqi::{Color, Position};

/// A stored value that its successors contradict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{fen}: the table says {stored}, the moves say {expected}")]
pub struct Mismatch {
    /// The position.
    pub fen: String,
    /// What the table holds.
    pub stored: String,
    /// What its moves make it.
    pub expected: String,
}

/// Why a table could not be checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A value is wrong.
    #[error(transparent)]
    Mismatch(#[from] Mismatch),
    /// The table, or one a capture leads to, is not held.
    #[error("no table for {0}")]
    Missing(String),
    /// An entry that is no position holds a value, or a position holds none.
    #[error("{material} entry {index}: {what}")]
    Entry {
        /// The table.
        material: String,
        /// The entry.
        index: usize,
        /// What is wrong.
        what: &'static str,
    },
}

/// The value the moves of `pos` give it, from the values of the positions they reach;
/// `None` when one of those has no table.
pub fn from_successors(tables: &Tables, pos: &mut Position) -> Option<Value> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    if is_insufficient_material(pos) {
        return Some(Value::Draw);
    }
    let mut fastest_loss: Option<u16> = None;
    let mut slowest_win: u16 = 0;
    let mut all_win = true;
    for &m in moves.as_slice() {
        let undo = pos.make_move(m);
        let child = tables.probe(pos);
        pos.unmake_move(m, undo);
        match child? {
            Value::Loss(n) => fastest_loss = Some(fastest_loss.map_or(n, |f| f.min(n))),
            Value::Win(n) => slowest_win = slowest_win.max(n),
            Value::Draw => all_win = false,
        }
    }
    Some(match fastest_loss {
        Some(n) => Value::Win(n + 1),
        None if all_win => Value::Loss(slowest_win + 1),
        None => Value::Draw,
    })
}

/// Checks every entry of `material`'s table (held in `tables`, with the tables its captures
/// lead to) on `threads` threads. Returns the number of positions checked, or the first
/// problem found.
pub fn verify(tables: &Tables, material: Material, threads: usize) -> Result<usize, VerifyError> {
    let table = tables
        .get(material)
        .ok_or_else(|| VerifyError::Missing(material.to_string()))?;
    let size = table.size();
    let share = size.div_ceil(threads.max(1)).max(1);
    let results: Vec<Result<usize, VerifyError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..size)
            .step_by(share)
            .map(|first| {
                scope.spawn(move || {
                    let mut checked = 0;
                    for side in Color::ALL {
                        for index in first..(first + share).min(size) {
                            checked += check_entry(tables, material, side, index)?;
                        }
                    }
                    Ok(checked)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a checking thread does not panic"))
            .collect()
    });
    results.into_iter().sum()
}

/// Checks one entry: 1 if it is a position whose value is right, 0 if it is rightly none.
fn check_entry(
    tables: &Tables,
    material: Material,
    side: Color,
    index: usize,
) -> Result<usize, VerifyError> {
    let table = tables
        .get(material)
        .ok_or_else(|| VerifyError::Missing(material.to_string()))?;
    let code = table.codes()[side.index()][index];
    let entry = |what| VerifyError::Entry {
        material: material.to_string(),
        index,
        what,
    };
    let Some(mut pos) = position(table.layout(), side, index) else {
        return if code == ILLEGAL {
            Ok(0)
        } else {
            Err(entry("no position, yet it holds a value"))
        };
    };
    let stored = Value::from_code(code).ok_or_else(|| entry("a position without a value"))?;
    let expected = from_successors(tables, &mut pos)
        .ok_or_else(|| VerifyError::Missing(format!("a set a capture from {material} leads to")))?;
    if stored != expected {
        return Err(Mismatch {
            fen: pos.to_fen(),
            stored: stored.to_string(),
            expected: expected.to_string(),
        }
        .into());
    }
    Ok(1)
}
