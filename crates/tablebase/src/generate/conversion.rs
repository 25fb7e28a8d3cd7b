//! The distance to conversion of every win and loss by mate: how many plies of best play to
//! the next capture or mate, the winner hurrying and the loser putting it off. The 120-ply
//! rule draws a game with no capture for that long, so a win is only a win while its
//! conversion comes before the count reaches the limit ([`Conversion::in_time`]).
//!
//! It is a second retrograde analysis, over the wins and losses by mate alone (a loss by mate
//! has every move reaching a win by mate, and a win by mate one reaching a loss):
//!
//! - **Ends.** A side mated has conversion 0. A capture ends the count, so a winner's capture
//!   into a smaller table's loss is a conversion in 1 ply — if that loss's own conversion comes
//!   in time from a count of zero, the count the capture starts. A loser's capture into such a
//!   win is likewise a conversion in 1; into a win whose conversion does not come in time, it
//!   escapes: the game is drawn by the rule, and the position's conversion is never.
//! - **Backwards.** A win is 1 ply more than its fastest quiet move into a loss; a loss,
//!   whose quiet moves all reach wins, is 1 more than its slowest, once all are known.
//!
//! What is never reached is never: a win where the loser can put the capture off for ever.
//! A win by the perpetual-check rule gets no distance, and a winner's move into one (which a
//! win by mate may also have) is not followed: the distance is of the mate.

use super::retro::{predecessors_of, schedule, Decided};
use super::{capture_probe, each};
use crate::table::Table;
use crate::tables::Tables;
use crate::value::{Conversion, Value};
use xiangqi::Color;

/// Not measured yet.
const UNSET: u16 = u16::MAX;
/// A loss with a capture that escapes into a win the no-capture rule draws.
const ESCAPES: u8 = u8::MAX;

/// What the ends give one win or loss by mate.
#[derive(Clone, Copy)]
enum Start {
    /// Not a win or loss by mate.
    None,
    /// Its conversion is known: this many plies.
    Known(u16),
    /// A win, waiting for a quiet move into a loss.
    Win,
    /// A loss, waiting for this many quiet moves into wins (or [`ESCAPES`]).
    Loss(u8),
}

/// Measures the conversion of every win and loss by mate of `table` (its values final, the
/// smaller tables' conversions known) and stores it.
pub(super) fn measure(
    table: &mut Table,
    tables: &Tables,
    threads: usize,
    step: &mut dyn FnMut(super::Step),
) {
    let size = table.layout.size();
    let mut plies: [Vec<u16>; 2] = [vec![UNSET; size], vec![UNSET; size]];
    let mut waiting: [Vec<u8>; 2] = [vec![0; size], vec![0; size]];
    let mut by_distance: Vec<Vec<Decided>> = Vec::new();
    for side in Color::ALL {
        let starts = each(size, threads, &|index| start(table, tables, side, index));
        for (index, start) in starts.into_iter().enumerate() {
            match start {
                Start::Known(n) => {
                    plies[side.index()][index] = n;
                    schedule(&mut by_distance, n, decided(side, index));
                }
                Start::Loss(quiet) => waiting[side.index()][index] = quiet,
                Start::None | Start::Win => {}
            }
        }
    }
    let mut distance = 0;
    let mut measured = 0;
    while distance < by_distance.len() {
        let frontier = std::mem::take(&mut by_distance[distance]);
        measured += frontier.len();
        step(super::Step::Conversion {
            plies: distance as u16,
            measured,
        });
        let next = distance as u16 + 1;
        let (losses, wins): (Vec<Decided>, Vec<Decided>) = frontier
            .iter()
            .partition(|d| kind(table, d.side, d.index as usize) == Kind::Loss);
        for (lost, part) in [(true, losses), (false, wins)] {
            for (side, index) in predecessors_of(&table.layout, &part, threads) {
                let i = index as usize;
                // Only wins and losses by mate are measured: a move into a stalemate may
                // come from a draw by material, a move into a win from anything.
                let wanted = if lost { Kind::Win } else { Kind::Loss };
                if plies[side.index()][i] != UNSET || kind(table, side, i) != wanted {
                    continue;
                }
                // A win's first quiet move into a loss found is its fastest; a loss waits
                // until its last quiet move into a win is found, the slowest.
                if !lost {
                    let left = &mut waiting[side.index()][i];
                    if *left == ESCAPES {
                        continue;
                    }
                    *left -= 1;
                    if *left > 0 {
                        continue;
                    }
                }
                plies[side.index()][i] = next;
                schedule(&mut by_distance, next, decided(side, i));
            }
        }
        distance += 1;
    }
    for side in Color::ALL {
        let s = side.index();
        for ((byte, &code), &n) in table.conversions[s]
            .iter_mut()
            .zip(&table.codes[s])
            .zip(&plies[s])
        {
            *byte = if Value::from_code(code).is_some_and(Value::is_by_mate) {
                Conversion::plies(n).byte()
            } else {
                0
            };
        }
    }
}

fn decided(side: Color, index: usize) -> Decided {
    Decided {
        side,
        index: index as u32,
        tentative: false,
    }
}

/// Which values the distance is measured for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Win,
    Loss,
    Other,
}

/// Whether entry `index` of `side` is a win or a loss by mate.
fn kind(table: &Table, side: Color, index: usize) -> Kind {
    match Value::from_code(table.codes[side.index()][index]) {
        Some(Value::Win(_)) => Kind::Win,
        Some(Value::Loss(_)) => Kind::Loss,
        _ => Kind::Other,
    }
}

/// What the ends give entry `index` of `side`: its moves counted, its captures looked up.
fn start(table: &Table, tables: &Tables, side: Color, index: usize) -> Start {
    let lost = match kind(table, side, index) {
        Kind::Win => false,
        Kind::Loss => true,
        Kind::Other => return Start::None,
    };
    let mut pos = super::position(&table.layout, side, index).expect("a value is a position");
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Start::Known(0);
    }
    let mut quiet = 0u8;
    let mut converts = false;
    for &m in moves.as_slice() {
        if pos.piece_at(m.to()).is_none() {
            quiet += 1;
            continue;
        }
        let undo = pos.make_move(m);
        let after = capture_probe(tables, &pos);
        pos.unmake_move(m, undo);
        // A capture starts the count again: it converts if the value it reaches converts in
        // time from zero.
        let in_time = after.is_some_and(|p| p.conversion.is_some_and(|c| c.in_time(0)));
        match after.map(|p| p.value) {
            Some(Value::Loss(_)) if !lost && in_time => return Start::Known(1),
            Some(Value::Win(_)) if lost && in_time => converts = true,
            // The loser escapes into a win the no-capture rule draws.
            _ if lost => return Start::Loss(ESCAPES),
            _ => {}
        }
    }
    match (lost, quiet) {
        (false, _) => Start::Win,
        (true, 0) => Start::Known(u16::from(converts)),
        (true, n) => {
            assert!(n < ESCAPES, "fewer than 255 quiet moves");
            Start::Loss(n)
        }
    }
}
