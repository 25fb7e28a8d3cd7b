//! One table: the value of every position of a material set, Red to move and Black to move.

use crate::layout::Layout;
use crate::material::Material;
use crate::value::{Code, Value, ILLEGAL};
use xiangqi::Position;

/// The table of one material set: a value for every position, Red to move and Black to move.
#[derive(Clone, Debug)]
pub struct Table {
    pub(crate) material: Material,
    pub(crate) layout: Layout,
    /// Codes by side to move (Red, Black), by entry.
    pub(crate) codes: [Vec<Code>; 2],
    /// The longest distance to mate in the table, in plies.
    pub(crate) longest: u16,
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

    pub(crate) fn code(&self, pos: &Position, swapped: bool) -> Code {
        match self.layout.encode(pos, swapped) {
            Some((index, side)) => self.codes[side.index()][index],
            None => ILLEGAL,
        }
    }
}
