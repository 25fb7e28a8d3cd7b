//! Building tables: a material set's table needs the tables of every set a capture leads to,
//! so those are built first. Within a table the values are found from the mates backwards
//! (the `retro` module): a win when some move reaches a loss one ply nearer, a loss when every
//! move reaches a win and the slowest is one ply nearer. What is never decided is a draw.
//!
//! The rules decide the end: a side without a legal move has lost (mate or stalemate), and
//! with no chariot, horse, cannon or soldier left on the board the game is drawn. Perpetual
//! check and chase are not judged yet: a position held only by checking or chasing forever
//! reads as a draw.

mod retro;

use crate::layout::Layout;
use crate::material::{Material, KINDS};
use crate::value::{Code, Value, ILLEGAL};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
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

    /// Where the pieces may stand, and the entries' order.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
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
    tables: HashMap<Material, Held>,
    threads: usize,
    /// The most men (generals included) of any table held.
    most_men: usize,
}

/// A table held: built or read already, or known on disk and read when first asked for.
enum Held {
    Ready(Table),
    OnDisk {
        path: PathBuf,
        /// Read once, by the first thread that asks; `None` if the file no longer reads.
        table: OnceLock<Option<Table>>,
        /// Set once a thread of its own has been started to read it.
        loading: AtomicBool,
    },
}

impl Held {
    fn table(&self, material: Material) -> Option<&Table> {
        match self {
            Held::Ready(table) => Some(table),
            Held::OnDisk { path, table, .. } => table
                .get_or_init(|| crate::folder::read_file(path, material).ok().flatten())
                .as_ref(),
        }
    }

    /// The table if it is in memory now: `Err(())` while it is still on disk.
    fn in_memory(&self) -> Result<Option<&Table>, ()> {
        match self {
            Held::Ready(table) => Ok(Some(table)),
            Held::OnDisk { table, .. } => table.get().map(Option::as_ref).ok_or(()),
        }
    }
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

    /// The table of `material`, if held (a table on disk is read now if it was not yet).
    pub fn get(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)?.table(material)
    }

    /// Whether the table of `material` is in memory (built, or read since it was asked for).
    pub fn is_loaded(&self, material: Material) -> bool {
        match self.tables.get(&material) {
            Some(Held::Ready(_)) => true,
            Some(Held::OnDisk { table, .. }) => table.get().is_some_and(Option::is_some),
            None => false,
        }
    }

    /// The value of `pos` for its side to move, if its material's table is held.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let (material, swapped) = Material::of(pos);
        let table = self.get(material)?;
        Value::from_code(table.code(pos, swapped))
    }

    /// The value of `pos` if its table is in memory now; never reads a file, so a search can
    /// call it without waiting. `Err(material)` when the table is on disk and not read yet
    /// ([`Tables::load_in_background`] reads it).
    pub fn probe_in_memory(&self, pos: &Position) -> Result<Option<Value>, Material> {
        let (material, swapped) = Material::of(pos);
        let Some(held) = self.tables.get(&material) else {
            return Ok(None);
        };
        let table = held.in_memory().map_err(|()| material)?;
        Ok(table.and_then(|t| Value::from_code(t.code(pos, swapped))))
    }

    /// Starts reading the table of `material` on a thread of its own, unless it is in
    /// memory or already being read; [`Tables::probe_in_memory`] finds it once it is read.
    pub fn load_in_background(self: &Arc<Tables>, material: Material) {
        let Some(Held::OnDisk { loading, .. }) = self.tables.get(&material) else {
            return;
        };
        if loading.swap(true, Ordering::AcqRel) {
            return;
        }
        let tables = Arc::clone(self);
        let started = std::thread::Builder::new()
            .name(format!("read {material}"))
            .spawn(move || {
                tables.get(material);
            });
        if started.is_err() {
            // No thread to be had: read it on the next look instead of never.
            loading.store(false, Ordering::Release);
        }
    }

    /// Adds a table built or read from a file.
    pub fn insert(&mut self, table: Table) {
        self.most_men = self.most_men.max(table.material().men());
        self.tables.insert(table.material(), Held::Ready(table));
    }

    /// Adds the table of `material` in the file at `path` (checked already), to be read when
    /// first asked for: a folder of tables costs memory only for those a game reaches.
    pub(crate) fn insert_on_disk(&mut self, material: Material, path: PathBuf) {
        self.most_men = self.most_men.max(material.men());
        self.tables.insert(
            material,
            Held::OnDisk {
                path,
                table: OnceLock::new(),
                loading: AtomicBool::new(false),
            },
        );
    }

    /// Builds the table of `material` and, first, of every set a capture leads to; `progress`
    /// hears of each table as it is done.
    pub fn generate(&mut self, material: Material, progress: &mut dyn FnMut(&Table)) {
        self.generate_with_steps(material, progress, &mut |_, _| {});
    }

    /// [`Tables::generate`], with `step` hearing how each table's building goes.
    pub fn generate_with_steps(
        &mut self,
        material: Material,
        progress: &mut dyn FnMut(&Table),
        step: &mut dyn FnMut(Material, Step),
    ) {
        if self.tables.contains_key(&material) {
            return;
        }
        for sub in after_captures(material) {
            self.generate_with_steps(sub, progress, step);
        }
        let table = build(material, self, self.threads, &mut |s| step(material, s));
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

/// The practical endings of more than five men in the default set: a chariot against two
/// advisors and two elephants (车 vs 士象全), against a horse and two advisors (车 vs 马双士),
/// and a horse or a cannon with a soldier against two advisors and two elephants (马兵 vs
/// 士象全, 炮兵 vs 士象全).
pub const PRACTICAL_ENDINGS: [&str; 4] = ["KRKAABB", "KRKHAA", "KHPKAABB", "KCPKAABB"];

/// The tables `xiangqi tb generate` builds when given none: every material set of up to five
/// men, then [`PRACTICAL_ENDINGS`].
pub fn default_set() -> Vec<Material> {
    let mut sets = crate::material::every_set(5);
    sets.extend(PRACTICAL_ENDINGS.iter().map(|name| {
        name.parse::<Material>()
            .expect("a practical ending's name reads")
    }));
    sets
}

/// The material sets one capture leads to: the tables `material`'s table looks up.
pub fn after_captures(material: Material) -> Vec<Material> {
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

/// The value of the position after a capture, for the side then to move, from the smaller
/// table the capture leads to.
fn capture_code(tables: &Tables, child: &Position) -> Code {
    let (material, swapped) = Material::of(child);
    tables
        .get(material)
        .map_or(ILLEGAL, |sub| sub.code(child, swapped))
}

/// The position of entry `index` with `side` to move, if it is one.
pub(crate) fn position(layout: &Layout, side: Color, index: usize) -> Option<Position> {
    let (placed, len) = layout.decode(index)?;
    Position::from_pieces(side, &placed[..len])
}

/// How the building of a table goes, step by step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The moves of every entry of one side to move have been generated.
    Moves {
        /// The side to move.
        side: Color,
        /// Entries per side.
        entries: usize,
    },
    /// The positions at one more distance from mate have been taken back.
    Distance {
        /// The distance, in plies.
        plies: u16,
        /// Positions decided so far, both sides to move.
        decided: usize,
    },
}

fn build(material: Material, tables: &Tables, threads: usize, step: &mut dyn FnMut(Step)) -> Table {
    let layout = Layout::new(material);
    let size = layout.size();
    let mut table = Table {
        material,
        layout,
        codes: [vec![ILLEGAL; size], vec![ILLEGAL; size]],
        longest: 0,
    };
    retro::build(&mut table, tables, threads, step);
    table
}

#[cfg(test)]
mod tests;
