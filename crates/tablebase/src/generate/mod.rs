//! Building tables: a material set's table needs the tables of every set a capture leads to,
//! so those are built first. Within a table the values are found from the mates backwards:
//! pass `n` decides the positions `n` plies from mate — a win when some move reaches a loss in
//! `n − 1`, a loss when every move reaches a win and the longest is `n − 1`. What no pass
//! decides is a draw.
//!
//! The rules decide the end: a side without a legal move has lost (mate or stalemate), and
//! with no chariot, horse, cannon or soldier left on the board the game is drawn. Perpetual
//! check and chase are not judged yet: a position held only by checking or chasing forever
//! reads as a draw.

use crate::layout::Layout;
use crate::material::{Material, KINDS};
use crate::value::{Code, Value, DRAW, ILLEGAL, UNKNOWN};
use std::collections::HashMap;
use xiangqi::game::is_insufficient_material;
use xiangqi::{Color, Position};

/// The table of one material set: a value for every position, Red to move and Black to move.
#[derive(Clone, Debug)]
pub struct Table {
    material: Material,
    layout: Layout,
    /// Codes by side to move (Red, Black), by entry.
    codes: [Vec<Code>; 2],
    /// The longest distance to mate in the table, in plies.
    longest: u16,
}

impl Table {
    /// The material set.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The longest distance to mate in the table, in plies.
    pub fn longest(&self) -> u16 {
        self.longest
    }

    /// Entries per side to move (positions and non-positions).
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// How many positions (of both sides to move) are wins, draws and losses for the side to
    /// move.
    pub fn counts(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for code in self.codes.iter().flatten() {
            match Value::from_code(*code) {
                Some(Value::Win(_)) => counts[0] += 1,
                Some(Value::Draw) => counts[1] += 1,
                Some(Value::Loss(_)) => counts[2] += 1,
                None => {}
            }
        }
        counts
    }

    /// The stored codes, Red to move then Black to move.
    pub(crate) fn codes(&self) -> &[Vec<Code>; 2] {
        &self.codes
    }

    /// A table from its parts (a file read back).
    pub(crate) fn from_parts(
        material: Material,
        layout: Layout,
        codes: [Vec<Code>; 2],
        longest: u16,
    ) -> Table {
        Table {
            material,
            layout,
            codes,
            longest,
        }
    }

    /// The value of `pos` (of this table's material, its colours swapped when `swapped`).
    pub fn value(&self, pos: &Position, swapped: bool) -> Option<Value> {
        Value::from_code(self.code(pos, swapped))
    }

    fn code(&self, pos: &Position, swapped: bool) -> Code {
        match self.layout.encode(pos, swapped) {
            Some((index, side)) => self.codes[side.index()][index],
            None => ILLEGAL,
        }
    }
}

/// Tables by material set, and the threads that build more.
pub struct Tables {
    tables: HashMap<Material, Table>,
    threads: usize,
    /// The most men (generals included) of any table held.
    most_men: usize,
}

impl Default for Tables {
    fn default() -> Tables {
        Tables::new()
    }
}

impl Tables {
    /// No tables yet; they will be built on every core.
    pub fn new() -> Tables {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Tables::with_threads(cores)
    }

    /// No tables yet; they will be built by `threads` threads (at least one).
    pub fn with_threads(threads: usize) -> Tables {
        Tables {
            tables: HashMap::new(),
            threads: threads.max(1),
            most_men: 0,
        }
    }

    /// How many tables are held.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table is held.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The most men, generals included, of any table held (0 with none): a position with
    /// more has no table, which is cheaper to know than its material.
    pub fn most_men(&self) -> usize {
        self.most_men
    }

    /// The material sets held, in no particular order.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.tables.keys().copied()
    }

    /// The table of `material`, if built.
    pub fn get(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The value of `pos` for its side to move, if its material's table is built.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let (material, swapped) = Material::of(pos);
        let table = self.tables.get(&material)?;
        Value::from_code(table.code(pos, swapped))
    }

    /// Adds a table read from a file.
    pub fn insert(&mut self, table: Table) {
        self.most_men = self.most_men.max(table.material().men());
        self.tables.insert(table.material(), table);
    }

    /// Builds the table of `material` and, first, of every set a capture leads to; `progress`
    /// hears of each table as it is done.
    pub fn generate(&mut self, material: Material, progress: &mut dyn FnMut(&Table)) {
        if self.tables.contains_key(&material) {
            return;
        }
        for sub in after_captures(material) {
            self.generate(sub, progress);
        }
        let table = build(material, self, self.threads);
        progress(&table);
        self.insert(table);
    }
}

/// Every material set whose table `material`'s needs, itself included, the smallest first.
pub fn needed(material: Material) -> Vec<Material> {
    let mut all = Vec::new();
    for sub in after_captures(material) {
        for m in needed(sub) {
            if !all.contains(&m) {
                all.push(m);
            }
        }
    }
    all.push(material);
    all
}

/// The material sets one capture leads to.
fn after_captures(material: Material) -> Vec<Material> {
    let mut subs = Vec::new();
    for (taken, other) in [
        (material.strong, material.weak),
        (material.weak, material.strong),
    ] {
        for kind in KINDS {
            if taken.count(kind) > 0 {
                let (sub, _) = Material::of_armies(taken.without(kind), other);
                if !subs.contains(&sub) {
                    subs.push(sub);
                }
            }
        }
    }
    subs
}

/// The value of the position after a move, for the side then to move: from this table's codes
/// after a quiet move, from a smaller table after a capture.
fn child_code(table: &Table, tables: &Tables, child: &Position, captured: bool) -> Code {
    if !captured {
        return table.code(child, false);
    }
    let (material, swapped) = Material::of(child);
    tables
        .get(material)
        .map_or(ILLEGAL, |sub| sub.code(child, swapped))
}

fn position(layout: &Layout, side: Color, index: usize) -> Option<Position> {
    let (placed, len) = layout.decode(index)?;
    Position::from_pieces(side, &placed[..len])
}

/// The positions pass `plies` decides, as (side, entry, code), found by `threads` threads
/// each taking a share of the entries. The table is only read during the pass and written
/// after it, so the result does not depend on the number of threads.
fn decide_pass(
    table: &Table,
    tables: &Tables,
    plies: u16,
    threads: usize,
) -> Vec<(usize, usize, Code)> {
    let size = table.layout.size();
    let share = size.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..size)
            .step_by(share)
            .map(|first| {
                scope.spawn(move || {
                    let mut found = Vec::new();
                    for side in Color::ALL {
                        for index in first..(first + share).min(size) {
                            if table.codes[side.index()][index] != UNKNOWN {
                                continue;
                            }
                            let mut pos =
                                position(&table.layout, side, index).expect("a decided entry");
                            if let Some(value) = decide(table, tables, &mut pos, plies) {
                                found.push((side.index(), index, value.code()));
                            }
                        }
                    }
                    found
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a generation thread does not panic"))
            .collect()
    })
}

fn build(material: Material, tables: &Tables, threads: usize) -> Table {
    let layout = Layout::new(material);
    let size = layout.size();
    let mut table = Table {
        material,
        layout,
        codes: [vec![ILLEGAL; size], vec![ILLEGAL; size]],
        longest: 0,
    };
    // The ends the rules decide.
    for side in Color::ALL {
        for index in 0..size {
            let Some(pos) = position(&table.layout, side, index) else {
                continue;
            };
            table.codes[side.index()][index] = if pos.has_no_legal_move() {
                Value::Loss(0).code()
            } else if is_insufficient_material(&pos) {
                DRAW
            } else {
                UNKNOWN
            };
        }
    }
    // A capture can lead to a mate as far away as the smaller tables' longest.
    let deepest_below = after_captures(material)
        .iter()
        .filter_map(|m| tables.get(*m))
        .map(Table::longest)
        .max()
        .unwrap_or(0);
    let mut plies: u16 = 1;
    loop {
        let decided = decide_pass(&table, tables, plies, threads);
        for &(side, index, code) in &decided {
            table.codes[side][index] = code;
        }
        if !decided.is_empty() {
            table.longest = plies;
        } else if plies > deepest_below.saturating_add(1) {
            break;
        }
        plies += 1;
    }
    for code in table.codes.iter_mut().flatten() {
        if *code == UNKNOWN {
            *code = DRAW;
        }
    }
    table
}

/// The value of `pos` if it is decided at `plies` from mate: a win when a move reaches a loss
/// `plies − 1` away, a loss when every move reaches a win and the longest is `plies − 1`.
fn decide(table: &Table, tables: &Tables, pos: &mut Position, plies: u16) -> Option<Value> {
    let mut all_win = true;
    let mut longest_win = 0;
    for m in pos.legal_moves().as_slice() {
        let undo = pos.make_move(*m);
        let code = child_code(table, tables, pos, undo.captured.is_some());
        pos.unmake_move(*m, undo);
        match Value::from_code(code) {
            Some(Value::Loss(n)) if n + 1 == plies => return Some(Value::Win(plies)),
            Some(Value::Win(n)) => longest_win = longest_win.max(n),
            _ => all_win = false,
        }
    }
    (all_win && longest_win + 1 == plies).then_some(Value::Loss(plies))
}

#[cfg(test)]
mod tests;
