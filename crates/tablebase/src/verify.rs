//! Checking a built table against the rules, independently of how it was built: every stored
//! value must be what the position's moves make it, one by one, forwards — a win one ply more
//! than the fastest loss a move reaches, a loss one ply more than the slowest win when every
//! move reaches a win — and the ends what the rules say. By induction on the distance every
//! mate stored is right, and every position with a forced mate stores one.
//!
//! The rest are draws or values by the perpetual-check rule, and their ranks are checked as a
//! certificate (see `check_rule`): a win by the rule stored is then a real one, as play that
//! follows the ranks either reaches a mate or has the loser check at every move while the
//! winner does not. That no draw could be won by the rule is not something one position's
//! moves can show; the generator's tests compare small tables with a solver written
//! independently.

use crate::generate::position;
use crate::material::Material;
use crate::table::Table;
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

/// What the moves of a position reach, as far as its value depends on them.
struct Successors {
    /// The fastest mate a move reaches for the side that moved.
    fastest_loss: Option<u16>,
    /// The slowest mate against the side that moved among its moves.
    slowest_win: u16,
    /// Every move reaches a position the other side wins by mate.
    all_win: bool,
}

/// The value the moves of `pos` give it by mate, from the values of the positions they
/// reach: a win or a loss by mate, or `Draw` for a position whose value is not a mate
/// (a draw, or a win or loss by the perpetual-check rule); `None` when one of those has no
/// table.
pub fn from_successors(tables: &Tables, pos: &mut Position) -> Option<Value> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    if is_insufficient_material(pos) {
        return Some(Value::Draw);
    }
    let mut seen = Successors {
        fastest_loss: None,
        slowest_win: 0,
        all_win: true,
    };
    for &m in moves.as_slice() {
        let undo = pos.make_move(m);
        let child = tables.probe(pos);
        pos.unmake_move(m, undo);
        match child? {
            Value::Loss(n) => seen.fastest_loss = Some(seen.fastest_loss.map_or(n, |f| f.min(n))),
            Value::Win(n) => seen.slowest_win = seen.slowest_win.max(n),
            _ => seen.all_win = false,
        }
    }
    Some(match seen.fastest_loss {
        Some(n) => Value::Win(n + 1),
        None if seen.all_win => Value::Loss(seen.slowest_win + 1),
        None => Value::Draw,
    })
}

/// Whether `stored`, a value by the perpetual-check rule or a draw of a position whose moves
/// give no mate, is what its moves make it (see the `perpetual` module of the generator): a
/// win has a move to a position lost by the rule at a lower rank (or in a smaller table); a
/// loss has every move reaching a win, by mate or by the rule at a lower rank (any rank in a
/// smaller table), but for a check from the first rank of a round ([`Table::rounds`]) by a
/// side not in check, which may reach any rank of that round; a draw has a move that does not lose and none that wins. Returns what
/// the moves say when they disagree.
fn check_rule(
    tables: &Tables,
    table: &Table,
    pos: &mut Position,
    stored: Value,
) -> Option<Result<(), String>> {
    let in_check = pos.in_check();
    let mut reaches_loss = false;
    let mut reaches_lower_loss = false;
    let mut all_lose = true;
    let mut fault: Option<String> = None;
    for &m in pos.legal_moves().as_slice() {
        let capture = pos.piece_at(m.to()).is_some();
        let undo = pos.make_move(m);
        let child = tables.probe(pos);
        let checks = pos.in_check();
        pos.unmake_move(m, undo);
        match child? {
            Value::Loss(_) => reaches_loss = true,
            Value::RuleLoss(c) => {
                reaches_loss = true;
                if let Value::RuleWin(r) = stored {
                    reaches_lower_loss |= capture || c < r;
                }
            }
            Value::RuleWin(c) => {
                if let Value::RuleLoss(r) = stored {
                    let (round, first) = table.round_of(r).unwrap_or((usize::MAX, false));
                    let same_round = table.round_of(c).is_some_and(|(k, _)| k == round);
                    let reset = first && !in_check && checks && same_round;
                    if !(capture || c < r || reset) && fault.is_none() {
                        fault = Some(format!("{m} reaches a win by rule of a rank not below"));
                    }
                }
            }
            Value::Win(_) => {}
            Value::Draw => all_lose = false,
        }
    }
    let said = match stored {
        Value::RuleWin(_) if reaches_lower_loss => Ok(()),
        Value::RuleWin(_) => Err("no move reaches a loss by rule at a lower rank".to_string()),
        _ if reaches_loss => Err("a move reaches a loss by rule: a win by rule".to_string()),
        Value::RuleLoss(_) if !all_lose => Err("a move reaches a draw".to_string()),
        Value::RuleLoss(_) => fault.map_or(Ok(()), Err),
        _ if all_lose => Err("every move reaches a win: a loss by rule".to_string()),
        _ => Ok(()),
    };
    Some(said)
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
    let missing = || VerifyError::Missing(format!("a set a capture from {material} leads to"));
    let expected = from_successors(tables, &mut pos).ok_or_else(missing)?;
    let said = if expected == Value::Draw
        && matches!(stored, Value::Draw | Value::RuleWin(_) | Value::RuleLoss(_))
    {
        check_rule(tables, table, &mut pos, stored).ok_or_else(missing)?
    } else if stored == expected {
        Ok(())
    } else {
        Err(expected.to_string())
    };
    said.map(|()| 1).map_err(|expected| {
        Mismatch {
            fen: pos.to_fen(),
            stored: stored.to_string(),
            expected,
        }
        .into()
    })
}
