//! Building tables: a material set's table needs the tables of every set a capture leads to,
//! so those are built first. Within a table the values are found from the mates backwards
//! (the `retro` module): a win when some move reaches a loss one ply nearer, a loss when every
//! move reaches a win and the slowest is one ply nearer. What is never decided is a draw.
//!
//! The rules decide the end: a side without a legal move has lost (mate or stalemate), and
//! with no chariot, horse, cannon or soldier left on the board the game is drawn. Checking
//! forever loses (the `perpetual` module): a position held only by checking forever is lost
//! by the rule. Perpetual chasing is not judged: a position held only by chasing forever
//! reads as a draw (flagged). Last, each win and loss by mate gets the distance to its next
//! capture or mate (the `conversion` module), for the 120-ply no-capture rule.

mod buchi;
mod conversion;
mod perpetual;
mod retro;

use crate::layout::Layout;
use crate::material::{Material, KINDS};
use crate::table::Table;
use crate::tables::Tables;
use crate::value::{Code, DRAW, ILLEGAL, UNKNOWN};
use xiangqi::{Color, Position};

impl Tables {
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
        if self.holds(material) {
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

/// Runs `f` on each of `0..len` on `threads` threads, the results in order.
pub(super) fn each<T: Send>(len: usize, threads: usize, f: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    let share = len.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..len)
            .step_by(share)
            .map(|first| {
                scope.spawn(move || (first..(first + share).min(len)).map(f).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a generation thread does not panic"))
            .collect()
    })
}

/// What the smaller table a capture leads to holds for the position after it.
fn capture_probe(tables: &Tables, child: &Position) -> Option<crate::value::Probe> {
    let (material, swapped) = Material::of(child);
    tables.get(material)?.lookup(child, swapped)
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
    /// A round of the perpetual-check rule's game is over (with `chases`, of the game that
    /// flags the draws the chase rule could change).
    Rule {
        /// Whether chases count like checks: the chase flag's game.
        chases: bool,
        /// The round (0: what captures into smaller tables decide).
        round: usize,
        /// Positions that game has decided so far, both sides to move.
        decided: usize,
    },
    /// The distances to conversion are known up to one more ply.
    Conversion {
        /// The distance, in plies.
        plies: u16,
        /// Positions measured so far, both sides to move.
        measured: usize,
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
        rounds: Vec::new(),
        conversions: [vec![0; size], vec![0; size]],
    };
    let mut open = retro::build(&mut table, tables, threads, step);
    // What only checking forever could hold is lost: the perpetual-check rule.
    perpetual::judge(&mut table, tables, &mut open, threads, step);
    // The rest is drawn.
    for code in table.codes.iter_mut().flatten() {
        if *code == UNKNOWN {
            *code = DRAW;
        }
    }
    // How far each mate's next capture is, for the 120-ply rule.
    conversion::measure(&mut table, tables, threads, step);
    table
}

#[cfg(test)]
mod perpetual_tests;
#[cfg(test)]
mod tests;
