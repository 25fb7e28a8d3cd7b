//! A material set as the endgame literature writes it: each side from its general, the
//! stronger side first (`KRKAABB`: general and chariot against general, two advisors and two
//! elephants). Letters: R chariot, H horse, C cannon, P soldier, A advisor, B elephant.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use xiangqi::{Color, PieceKind, Position};

/// The kinds a side may have besides its general, in the order names list them.
pub const KINDS: [PieceKind; 6] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// The most of each kind a side has in a game.
fn most(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Soldier => 5,
        PieceKind::General => 1,
        _ => 2,
    }
}

fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::Chariot => 'R',
        PieceKind::Horse => 'H',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'B',
        PieceKind::General => 'K',
    }
}

/// Exchange values in tenths of a soldier, to tell the stronger side.
fn worth(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Chariot => 90,
        PieceKind::Horse => 40,
        PieceKind::Cannon => 45,
        PieceKind::Soldier => 10,
        PieceKind::Advisor | PieceKind::Elephant => 20,
        PieceKind::General => 0,
    }
}

/// One side's pieces besides its general: how many of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Army {
    counts: [u8; 7],
}

impl Army {
    /// How many pieces of `kind` (1 for the general).
    pub fn count(self, kind: PieceKind) -> u8 {
        if kind == PieceKind::General {
            1
        } else {
            self.counts[kind.index()]
        }
    }

    /// The army with one piece of `kind` fewer.
    pub fn without(self, kind: PieceKind) -> Army {
        let mut counts = self.counts;
        counts[kind.index()] = counts[kind.index()].saturating_sub(1);
        Army { counts }
    }

    /// The pieces of `pos`'s side `color`.
    pub fn of(pos: &Position, color: Color) -> Army {
        let mut counts = [0; 7];
        for kind in KINDS {
            counts[kind.index()] = pos.count(color, kind) as u8;
        }
        Army { counts }
    }

    fn worth(self, attackers_only: bool) -> u32 {
        KINDS
            .iter()
            .filter(|k| !attackers_only || k.is_attacker())
            .map(|&k| worth(k) * u32::from(self.count(k)))
            .sum()
    }

    /// Pieces besides the general.
    pub fn len(self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// Whether the general stands alone.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The army's name (`KAABB`) as letters in a fixed buffer, and its length: the search
    /// compares names at every probe, so they are not made into strings.
    fn name(self) -> ([u8; NAME_LEN], usize) {
        let mut name = [0; NAME_LEN];
        name[0] = b'K';
        let mut len = 1;
        for kind in KINDS {
            for _ in 0..self.count(kind) {
                if len < NAME_LEN {
                    name[len] = letter(kind) as u8;
                    len += 1;
                }
            }
        }
        (name, len)
    }
}

/// Room for an army's name: a side has its general and fifteen pieces at most (sixteen
/// letters), and this leaves room to spare.
const NAME_LEN: usize = 24;

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, len) = self.name();
        // Every letter is ASCII.
        f.write_str(std::str::from_utf8(&name[..len]).map_err(|_| fmt::Error)?)
    }
}

/// A material set: the stronger side's army, then the other's. A table of it serves both
/// colours: the stronger side is Red in the table, and a position with Black stronger is read
/// with the colours swapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    /// The stronger side (Red in the table).
    pub strong: Army,
    /// The other side (Black in the table).
    pub weak: Army,
}

/// Orders armies by the worth of their attacking pieces (those that can cross the river),
/// then by all their worth, then by name, so that each pair has one way round and the
/// attacker comes first, as the literature writes it (`KHPKAABB`).
fn compare(a: Army, b: Army) -> Ordering {
    a.worth(true)
        .cmp(&b.worth(true))
        .then_with(|| a.worth(false).cmp(&b.worth(false)))
        .then_with(|| {
            let (a, a_len) = a.name();
            let (b, b_len) = b.name();
            a[..a_len].cmp(&b[..b_len])
        })
}

impl Material {
    /// The material set of two armies, the stronger first; `true` when `b` is the stronger
    /// (so that a position with `a` as Red is read with the colours swapped).
    pub fn of_armies(a: Army, b: Army) -> (Material, bool) {
        if compare(a, b) == Ordering::Less {
            (Material { strong: b, weak: a }, true)
        } else {
            (Material { strong: a, weak: b }, false)
        }
    }

    /// The material set of a position, and whether its colours are swapped in the table.
    pub fn of(pos: &Position) -> (Material, bool) {
        Material::of_armies(Army::of(pos, Color::Red), Army::of(pos, Color::Black))
    }

    /// Pieces on the board, the generals included.
    pub fn men(self) -> usize {
        2 + self.strong.len() + self.weak.len()
    }

    /// The army of the table's `color`.
    pub fn army(self, color: Color) -> Army {
        match color {
            Color::Red => self.strong,
            Color::Black => self.weak,
        }
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.strong, self.weak)
    }
}

/// Why a material name does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    /// Not two armies, each starting with `K`.
    #[error("{0:?}: write each side from its general, the stronger first, e.g. KRKAABB")]
    Shape(String),
    /// A letter that is no piece.
    #[error("{0:?}: pieces are R (chariot), H (horse), C (cannon), P (soldier), A (advisor), B (elephant)")]
    Letter(char),
    /// More of a kind than a side has.
    #[error("{count} {kind}s: a side has at most {most}")]
    TooMany {
        /// The kind.
        kind: &'static str,
        /// How many were written.
        count: u8,
        /// How many a side has.
        most: u8,
    },
    /// The weaker side written first.
    #[error("{given}: the stronger side comes first ({canonical})")]
    Order {
        /// As written.
        given: String,
        /// As it should be.
        canonical: String,
    },
}

/// Every army of exactly `pieces` pieces besides the general, each kind at most as many
/// times as a side has it.
fn armies(pieces: usize) -> Vec<Army> {
    let mut all = vec![(Army::default(), 0usize)];
    for kind in KINDS {
        all = all
            .into_iter()
            .flat_map(|(army, placed)| {
                (0..=most(kind) as usize)
                    .take_while(move |n| placed + n <= pieces)
                    .map(move |n| {
                        let mut counts = army.counts;
                        counts[kind.index()] = n as u8;
                        (Army { counts }, placed + n)
                    })
            })
            .collect();
    }
    all.into_iter()
        .filter(|&(_, placed)| placed == pieces)
        .map(|(army, _)| army)
        .collect()
}

/// Every material set of at most `men` men, generals included, each once, the fewest men
/// first and then by name.
pub fn every_set(men: usize) -> Vec<Material> {
    let mut sets = Vec::new();
    for total in 0..=men.saturating_sub(2) {
        for first in 0..=total {
            for a in armies(first) {
                for b in armies(total - first) {
                    let (material, _) = Material::of_armies(a, b);
                    if !sets.contains(&material) {
                        sets.push(material);
                    }
                }
            }
        }
    }
    sets.sort_by_cached_key(|m| (m.men(), m.to_string()));
    sets
}

fn read_army(text: &str) -> Result<Army, MaterialError> {
    let mut counts = [0u8; 7];
    for c in text.chars() {
        let kind = KINDS
            .into_iter()
            .find(|&k| letter(k) == c)
            .ok_or(MaterialError::Letter(c))?;
        counts[kind.index()] += 1;
        if counts[kind.index()] > most(kind) {
            return Err(MaterialError::TooMany {
                kind: kind.name(),
                count: counts[kind.index()],
                most: most(kind),
            });
        }
    }
    Ok(Army { counts })
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let shape = || MaterialError::Shape(text.to_string());
        let rest = text.strip_prefix('K').ok_or_else(shape)?;
        let (first, second) = rest.split_once('K').ok_or_else(shape)?;
        let (a, b) = (read_army(first)?, read_army(second)?);
        let (material, swapped) = Material::of_armies(a, b);
        if swapped {
            return Err(MaterialError::Order {
                given: text.to_string(),
                canonical: material.to_string(),
            });
        }
        Ok(material)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_print_back() {
        for name in ["KRK", "KRKAABB", "KHPKAABB", "KRPKR", "KCAK", "KK", "KRKR"] {
            let m: Material = name.parse().unwrap();
            assert_eq!(m.to_string(), name);
        }
        let m: Material = "KRKAABB".parse().unwrap();
        assert_eq!(m.men(), 7);
        assert_eq!(m.strong.count(PieceKind::Chariot), 1);
        assert_eq!(m.weak.count(PieceKind::Elephant), 2);
    }

    #[test]
    fn every_set_of_up_to_five_men_is_listed_once() {
        let sets = every_set(5);
        // Two men: 1 set; three: 6; four: 21 with both pieces on one side and 21 pairs of
        // one each; five: 51 with three on one side (56 choices of three kinds, less the five
        // triples of a kind a side has two of) and 21 · 6 with two against one.
        assert_eq!(every_set(2).len(), 1);
        assert_eq!(every_set(3).len(), 1 + 6);
        assert_eq!(every_set(4).len(), 1 + 6 + 42);
        let names: Vec<String> = sets.iter().map(|m| m.to_string()).collect();
        for name in ["KK", "KRK", "KRKR", "KHKA", "KRPKR", "KAABK", "KCCPK"] {
            assert!(names.contains(&name.to_string()), "{name}");
        }
        assert!(sets.iter().all(|m| m.men() <= 5));
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        // Each reads back as written: every name is the stronger side first.
        for name in &names {
            assert_eq!(&name.parse::<Material>().unwrap().to_string(), name);
        }
        assert_eq!(sets.len(), 1 + 6 + 42 + 51 + 126);
    }

    #[test]
    fn bad_names_say_why() {
        assert!(matches!(
            "RK".parse::<Material>(),
            Err(MaterialError::Shape(_))
        ));
        assert!(matches!(
            "KR".parse::<Material>(),
            Err(MaterialError::Shape(_))
        ));
        assert_eq!("KQK".parse::<Material>(), Err(MaterialError::Letter('Q')));
        assert!(matches!(
            "KRRRK".parse::<Material>(),
            Err(MaterialError::TooMany { count: 3, .. })
        ));
        assert_eq!(
            "KAABBKR".parse::<Material>(),
            Err(MaterialError::Order {
                given: "KAABBKR".into(),
                canonical: "KRKAABB".into()
            })
        );
    }
}
