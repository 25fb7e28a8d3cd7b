//! Checking a built table against the rules, independently of how it was built: every stored
//! value must be what the position's moves make it, one by one, forwards — a win one ply more
//! than the fastest loss a move reaches, a loss one ply more than the slowest win when every
//! move reaches a win — and the ends what the rules say. By induction on the distance every
//! mate stored is right, and every position with a forced mate stores one.
//!
//! Each win and loss by mate's distance to conversion is checked the same way, against its
//! moves' (see the generator's `conversion` module).
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
use crate::value::{Conversion, Value, ILLEGAL};
use xiangqi::game::is_insufficient_material;
use xiangqi::{Color, Move, Position};

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

/// One legal move of a position and the value of the position it reaches (for the side then
/// to move).
struct Child {
    mv: Move,
    capture: bool,
    checks: bool,
    value: Value,
    /// For a win or loss by mate, its conversion.
    conversion: Option<Conversion>,
}

/// Every legal move of `pos` with what it reaches; `None` when a position it reaches has no
/// table.
fn children(tables: &Tables, pos: &mut Position) -> Option<Vec<Child>> {
    let moves = pos.legal_moves();
    let mut found = Vec::with_capacity(moves.len());
    for &mv in moves.as_slice() {
        let capture = pos.piece_at(mv.to()).is_some();
        let undo = pos.make_move(mv);
        let probe = tables.lookup(pos);
        let checks = pos.in_check();
        pos.unmake_move(mv, undo);
        let probe = probe?;
        found.push(Child {
            mv,
            capture,
            checks,
            value: probe.value,
            conversion: probe.conversion,
        });
    }
    Some(found)
}

/// The value the moves of `pos` give it by mate, from the values of the positions they
/// reach: a win or a loss by mate, or `Draw` for a position whose value is not a mate
/// (a draw, or a win or loss by the perpetual-check rule); `None` when one of those has no
/// table.
pub fn from_successors(tables: &Tables, pos: &mut Position) -> Option<Value> {
    let children = children(tables, pos)?;
    Some(by_mate(pos, &children))
}

/// [`from_successors`], from the moves' `children`.
fn by_mate(pos: &Position, children: &[Child]) -> Value {
    if children.is_empty() {
        return Value::Loss(0);
    }
    if is_insufficient_material(pos) {
        return Value::Draw;
    }
    let mut fastest_loss: Option<u16> = None;
    let mut slowest_win: u16 = 0;
    let mut all_win = true;
    for child in children {
        match child.value {
            Value::Loss(n) => fastest_loss = Some(fastest_loss.map_or(n, |f| f.min(n))),
            Value::Win(n) => slowest_win = slowest_win.max(n),
            _ => all_win = false,
        }
    }
    match fastest_loss {
        Some(n) => Value::Win(n + 1),
        None if all_win => Value::Loss(slowest_win + 1),
        None => Value::Draw,
    }
}

/// The conversion the moves (`children`) give a position won or lost by mate (`value`): a
/// win converts 1 ply after its fastest quiet move into a loss, or in 1 by a capture into a
/// loss that converts in time from zero; a loss 1 ply after its slowest move, a capture
/// counting 1 if the win it reaches converts in time from zero and never if not (see the
/// generator's `conversion` module).
fn conversion_by(value: Value, children: &[Child]) -> Conversion {
    let by_move = |child: &Child| -> Option<Conversion> {
        let wanted = match value {
            Value::Win(_) => matches!(child.value, Value::Loss(_)),
            _ => matches!(child.value, Value::Win(_)),
        };
        let conversion = child.conversion.filter(|_| wanted)?;
        Some(if child.capture {
            if conversion.in_time(0) {
                Conversion::In(1)
            } else {
                Conversion::Never
            }
        } else {
            conversion.one_more()
        })
    };
    let plies = |c: Conversion| match c {
        Conversion::In(n) => u16::from(n),
        Conversion::Never => u16::MAX,
    };
    match value {
        Value::Win(_) => children
            .iter()
            .filter_map(by_move)
            .filter(|&c| c != Conversion::Never)
            .min_by_key(|&c| plies(c))
            .unwrap_or(Conversion::Never),
        _ => children
            .iter()
            .map(|child| by_move(child).unwrap_or(Conversion::Never))
            .max_by_key(|&c| plies(c))
            .unwrap_or(Conversion::In(0)),
    }
}

/// Whether `stored`, a value by the perpetual-check rule or a draw of a position whose moves
/// give no mate, is what its moves (`children`) make it (see the `perpetual` module of the
/// generator): a win has a move to a position lost by the rule at a lower rank (or in a
/// smaller table); a loss has every move reaching a win, by mate or by the rule at a lower
/// rank (any rank in a smaller table), but for a check from the first rank of a round
/// ([`Table::rounds`]) by a side not in check, which may reach any rank of that round; a draw
/// has a move that does not lose and none that wins. Returns what the moves say when they
/// disagree.
fn check_rule(
    table: &Table,
    in_check: bool,
    children: &[Child],
    stored: Value,
) -> Result<(), String> {
    let mut reaches_loss = false;
    let mut reaches_lower_loss = false;
    let mut all_lose = true;
    let mut fault: Option<String> = None;
    for child in children {
        match child.value {
            Value::Loss(_) => reaches_loss = true,
            Value::RuleLoss(c) => {
                reaches_loss = true;
                if let Value::RuleWin(r) = stored {
                    reaches_lower_loss |= child.capture || c < r;
                }
            }
            Value::RuleWin(c) => {
                if let Value::RuleLoss(r) = stored {
                    let (round, first) = table.round_of(r).unwrap_or((usize::MAX, false));
                    let same_round = table.round_of(c).is_some_and(|(k, _)| k == round);
                    let reset = first && !in_check && child.checks && same_round;
                    if !(child.capture || c < r || reset) && fault.is_none() {
                        fault = Some(format!(
                            "{} reaches a win by rule of a rank not below",
                            child.mv
                        ));
                    }
                }
            }
            Value::Win(_) => {}
            Value::Draw => all_lose = false,
        }
    }
    match stored {
        Value::RuleWin(_) if reaches_lower_loss => Ok(()),
        Value::RuleWin(_) => Err("no move reaches a loss by rule at a lower rank".to_string()),
        _ if reaches_loss => Err("a move reaches a loss by rule: a win by rule".to_string()),
        Value::RuleLoss(_) if !all_lose => Err("a move reaches a draw".to_string()),
        Value::RuleLoss(_) => fault.map_or(Ok(()), Err),
        _ if all_lose => Err("every move reaches a win: a loss by rule".to_string()),
        _ => Ok(()),
    }
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
    let children = children(tables, &mut pos).ok_or_else(missing)?;
    let expected = by_mate(&pos, &children);
    let said = if expected == Value::Draw
        && matches!(stored, Value::Draw | Value::RuleWin(_) | Value::RuleLoss(_))
    {
        check_rule(table, pos.in_check(), &children, stored)
    } else if stored != expected {
        Err(expected.to_string())
    } else {
        let conversion = Conversion::from_byte(table.conversions()[side.index()][index]);
        let moves_say = conversion_by(stored, &children);
        if conversion == moves_say {
            Ok(())
        } else {
            let stored = format!("{stored} {conversion}");
            return Err(Mismatch {
                fen: pos.to_fen(),
                stored,
                expected: format!("{expected} {moves_say}"),
            }
            .into());
        }
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
