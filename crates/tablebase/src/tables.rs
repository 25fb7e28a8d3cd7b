//! The tables held: built or read already, or known on disk and read when first asked for
//! (at once, or on a thread of their own so that a search never waits).

use crate::file::MAX_TABLE_FILE_LEN;
use crate::material::Material;
use crate::table::Table;
use crate::value::{Probe, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use xiangqi::Position;

/// Tables by material set, and the threads that build more.
pub struct Tables {
    tables: HashMap<Material, Held>,
    /// Threads that build a table (`generate`).
    pub(crate) threads: usize,
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
            Held::OnDisk { path, table, .. } => {
                table.get_or_init(|| read_held(path, material)).as_ref()
            }
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

    /// Whether a table of `material` is held, in memory or on disk.
    pub fn holds(&self, material: Material) -> bool {
        self.tables.contains_key(&material)
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

    /// The value of `pos` and, for a win or loss by mate, its conversion, if its material's
    /// table is held.
    pub fn lookup(&self, pos: &Position) -> Option<Probe> {
        let (material, swapped) = Material::of(pos);
        self.get(material)?.lookup(pos, swapped)
    }

    /// Whether `pos` is a draw that the perpetual-chase rule could make a win for one side
    /// (see the `perpetual` module of the generator); `false` when no table holds it.
    pub fn chase_flag(&self, pos: &Position) -> bool {
        let (material, swapped) = Material::of(pos);
        self.get(material)
            .is_some_and(|table| table.chase_flag(pos, swapped))
    }

    /// [`Tables::lookup`] if the table is in memory now; never reads a file, so a search can
    /// call it without waiting. `Err(material)` when the table is on disk and not read yet
    /// ([`Tables::load_in_background`] reads it).
    pub fn lookup_in_memory(&self, pos: &Position) -> Result<Option<Probe>, Material> {
        let (material, swapped) = Material::of(pos);
        let Some(held) = self.tables.get(&material) else {
            return Ok(None);
        };
        let table = held.in_memory().map_err(|()| material)?;
        Ok(table.and_then(|t| t.lookup(pos, swapped)))
    }

    /// Starts reading the table of `material` on a thread of its own, unless it is in
    /// memory or already being read; [`Tables::lookup_in_memory`] finds it once it is read.
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
}

/// The table of `material` in the file at `path` (checked when the folder was read); `None`
/// if it no longer reads.
fn read_held(path: &std::path::Path, material: Material) -> Option<Table> {
    let bytes = xiangqi_files::reading::read(path, MAX_TABLE_FILE_LEN).ok()?;
    Table::from_bytes(material, &bytes).ok()
}
