//! One table: the value of every position of a material set, Red to move and Black to move.

use crate::layout::Layout;
use crate::material::Material;
use crate::value::{Code, Conversion, Probe, Rank, Value, ILLEGAL};
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
    /// The first rank of each round of the perpetual-check rule's generation, ascending.
    pub(crate) rounds: Vec<u16>,
    /// Each win's and loss's by mate [`Conversion`] as a byte, by side to move, by entry (0
    /// for every other entry).
    pub(crate) conversions: [Vec<u8>; 2],
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

    /// How many draws (of both sides to move) the perpetual-chase rule could change
    /// ([`crate::Tables::chase_flag`]).
    pub fn chase_flags(&self) -> usize {
        self.codes
            .iter()
            .flatten()
            .filter(|&&code| code == crate::value::CHASE_DRAW)
            .count()
    }

    /// Where the rounds of the perpetual-check rule's generation begin: the first rank of each,
    /// ascending (none when the rule decides nothing in the table).
    pub fn rounds(&self) -> &[u16] {
        &self.rounds
    }

    /// The round `rank` belongs to, and whether it is the round's first rank.
    pub fn round_of(&self, rank: Rank) -> Option<(usize, bool)> {
        let after = self.rounds.partition_point(|&first| first <= rank.get());
        let round = after.checked_sub(1)?;
        Some((round, self.rounds[round] == rank.get()))
    }

    /// The longest conversion of the wins and losses by mate that come in time from a count
    /// of zero, and how many (of both sides to move) do not: wins the no-capture rule makes
    /// draws, and losses it saves.
    pub fn conversion_counts(&self) -> (u8, usize) {
        let mut longest = 0;
        let mut too_late = 0;
        for (codes, bytes) in self.codes.iter().zip(&self.conversions) {
            for (&code, &byte) in codes.iter().zip(bytes) {
                if !Value::from_code(code).is_some_and(Value::is_by_mate) {
                    continue;
                }
                match Conversion::from_byte(byte) {
                    Conversion::In(n) if Conversion::In(n).in_time(0) => longest = longest.max(n),
                    _ => too_late += 1,
                }
            }
        }
        (longest, too_late)
    }

    /// Entries per side to move (positions and non-positions).
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// How many positions (of both sides to move) are wins, draws and losses for the side to
    /// move, by mate or by the perpetual-check rule.
    pub fn counts(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for code in self.codes.iter().flatten() {
            match Value::from_code(*code) {
                Some(v) if v.is_win() => counts[0] += 1,
                Some(Value::Draw) => counts[1] += 1,
                Some(_) => counts[2] += 1,
                None => {}
            }
        }
        counts
    }

    /// How many positions (of both sides to move) the perpetual-check rule decides: won or
    /// lost by it, where they would be drawn without it.
    pub fn by_rule(&self) -> usize {
        self.codes
            .iter()
            .flatten()
            .filter(|&&code| Value::from_code(code).is_some_and(Value::is_by_rule))
            .count()
    }

    /// Where the pieces may stand, and the entries' order.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The stored codes, Red to move then Black to move.
    pub(crate) fn codes(&self) -> &[Vec<Code>; 2] {
        &self.codes
    }

    /// The stored conversions, Red to move then Black to move.
    pub(crate) fn conversions(&self) -> &[Vec<u8>; 2] {
        &self.conversions
    }

    /// A table from its parts (a file read back).
    pub(crate) fn from_parts(
        material: Material,
        layout: Layout,
        codes: [Vec<Code>; 2],
        conversions: [Vec<u8>; 2],
        longest: u16,
        rounds: Vec<u16>,
    ) -> Table {
        Table {
            material,
            layout,
            codes,
            longest,
            rounds,
            conversions,
        }
    }

    /// The value of `pos` (of this table's material, its colours swapped when `swapped`).
    pub fn value(&self, pos: &Position, swapped: bool) -> Option<Value> {
        Value::from_code(self.code(pos, swapped))
    }

    /// The value of `pos` and, for a win or loss by mate, its conversion.
    pub fn lookup(&self, pos: &Position, swapped: bool) -> Option<Probe> {
        let (index, side) = self.layout.encode(pos, swapped)?;
        let value = Value::from_code(self.codes[side.index()][index])?;
        let conversion = value
            .is_by_mate()
            .then(|| Conversion::from_byte(self.conversions[side.index()][index]));
        Some(Probe { value, conversion })
    }

    /// Whether `pos` is a draw the perpetual-chase rule could change
    /// ([`crate::Tables::chase_flag`]).
    pub fn chase_flag(&self, pos: &Position, swapped: bool) -> bool {
        self.code(pos, swapped) == crate::value::CHASE_DRAW
    }

    pub(crate) fn code(&self, pos: &Position, swapped: bool) -> Code {
        match self.layout.encode(pos, swapped) {
            Some((index, side)) => self.codes[side.index()][index],
            None => ILLEGAL,
        }
    }
}
