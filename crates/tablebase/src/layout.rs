//! Where each piece of a material set may stand, and a position's index in its table.
//!
//! The pieces form groups in a fixed order: Red's general, Black's general, then Red's pieces
//! and Black's by kind (chariots, horses, cannons, soldiers, advisors, elephants). A group has
//! the points its pieces can ever reach (an elephant's seven, a soldier's fifty-five); pieces
//! of one kind are alike, so a group of two counts each pair of points once (two elephants: 21
//! sets, not 49), by the combinatorial number system. The index counts through the groups'
//! sets. Red's general stands on the d or e file: a position with it on the f file is read
//! mirrored (files a–i swapped), which leaves 6 of its 9 points.

use crate::material::{Material, KINDS};
use xiangqi::fen::is_reachable;
use xiangqi::{Color, Piece, PieceKind, Position, Square};

/// The most men a table has (two generals and up to eight other pieces).
pub const MAX_MEN: usize = 10;

/// Unused entry of a group's point-to-choice map.
const NONE: u8 = u8::MAX;

/// The pieces of one kind and colour (up to five soldiers), which stand on distinct points in
/// any order: the group counts each set of points once.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    /// How many pieces.
    count: usize,
    /// The points the pieces may stand on, in square order.
    squares: Vec<Square>,
    /// Each point's place in `squares`, or [`NONE`].
    choice_of: [u8; 90],
    /// The group's number of sets: `squares.len()` choose `count`.
    sets: usize,
}

/// `n` choose `k`.
fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

impl Group {
    /// The rank of a set of choices (ascending, distinct) among all the group's sets: the
    /// combinatorial number system, Σ C(cᵢ, i + 1).
    fn rank(choices: &[usize]) -> usize {
        choices
            .iter()
            .enumerate()
            .map(|(i, &c)| choose(c, i + 1))
            .sum()
    }

    /// The choices (ascending) of the set of rank `rank`: the largest first, each the
    /// greatest `c` with C(c, i + 1) ≤ what is left.
    fn unrank(&self, mut rank: usize, out: &mut [usize]) {
        let mut top = self.squares.len();
        for i in (0..self.count).rev() {
            let mut c = top - 1;
            while choose(c, i + 1) > rank {
                c -= 1;
            }
            out[i] = c;
            rank -= choose(c, i + 1);
            top = c;
        }
    }
}

/// Pieces as a table lists them: (point, piece), the generals first.
pub type Placement = ([(Square, Piece); MAX_MEN], usize);

/// The groups of a material set and the size of its table (per side to move).
#[derive(Clone, Debug)]
pub struct Layout {
    groups: Vec<Group>,
    size: usize,
}

impl Layout {
    /// The layout of `material`'s table.
    pub fn new(material: Material) -> Layout {
        let mut groups = Vec::new();
        let mut add = |color: Color, kind: PieceKind, count: usize| {
            let squares: Vec<Square> = Square::all()
                .filter(|&sq| is_reachable(color, kind, sq))
                .filter(|sq| {
                    // Red's general on the d or e file: the f file is the mirror of the d.
                    !(color == Color::Red && kind == PieceKind::General && sq.file() == 5)
                })
                .collect();
            let mut choice_of = [NONE; 90];
            for (i, sq) in squares.iter().enumerate() {
                choice_of[sq.index()] = i as u8;
            }
            groups.push(Group {
                piece: Piece::new(color, kind),
                count,
                sets: choose(squares.len(), count),
                squares,
                choice_of,
            });
        };
        add(Color::Red, PieceKind::General, 1);
        add(Color::Black, PieceKind::General, 1);
        for color in Color::ALL {
            for kind in KINDS {
                let count = usize::from(material.army(color).count(kind));
                if count > 0 {
                    add(color, kind, count);
                }
            }
        }
        let size = groups.iter().map(|g| g.sets).product();
        Layout { groups, size }
    }

    /// Entries per side to move.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The pieces of entry `index`; `None` when two share a point.
    pub fn decode(&self, mut index: usize) -> Option<Placement> {
        let mut placed = [(
            Square::from_index(0).expect("a point"),
            Piece::new(Color::Red, PieceKind::General),
        ); MAX_MEN];
        let mut len: usize = self.groups.iter().map(|g| g.count).sum();
        let mut occupied = 0u128;
        let mut choices = [0usize; 5];
        for group in self.groups.iter().rev() {
            group.unrank(index % group.sets, &mut choices[..group.count]);
            index /= group.sets;
            for &c in choices[..group.count].iter().rev() {
                let sq = group.squares[c];
                let bit = 1u128 << sq.index();
                if occupied & bit != 0 {
                    return None;
                }
                occupied |= bit;
                len -= 1;
                placed[len] = (sq, group.piece);
            }
        }
        Some((placed, self.groups.iter().map(|g| g.count).sum()))
    }

    /// The entry of `pos` (whose material is this layout's, with the colours swapped when
    /// `swapped`) and the side to move in the table; `None` if a piece stands where its group
    /// has no point (it cannot, in a legal position) or the material differs.
    pub fn encode(&self, pos: &Position, swapped: bool) -> Option<(usize, Color)> {
        let view = |sq: Square| if swapped { sq.flip_rank() } else { sq };
        let table_color = |c: Color| if swapped { c.other() } else { c };
        let red_general = view(pos.general(table_color(Color::Red)));
        let mirror = red_general.file() == 5;
        let point = |sq: Square| {
            let sq = view(sq);
            if mirror {
                sq.flip_file()
            } else {
                sq
            }
        };
        let mut index = 0usize;
        for group in &self.groups {
            let own = pos.squares(table_color(group.piece.color), group.piece.kind);
            if own.len() != group.count {
                return None;
            }
            let mut choices = [0usize; 5];
            for (k, &sq) in own.iter().enumerate() {
                let choice = group.choice_of[point(sq).index()];
                if choice == NONE {
                    return None;
                }
                choices[k] = usize::from(choice);
            }
            let choices = &mut choices[..own.len()];
            choices.sort_unstable();
            index = index * group.sets + Group::rank(choices);
        }
        Some((index, table_color(pos.side_to_move())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry of `name` that decodes to a position encodes back to itself, also with
    /// the colours swapped; returns how many positions there were.
    fn round_trip(name: &str) -> usize {
        let layout = Layout::new(name.parse().unwrap());
        let mut positions = 0;
        for index in 0..layout.size() {
            let Some((placed, len)) = layout.decode(index) else {
                continue;
            };
            let Some(pos) = Position::from_pieces(Color::Black, &placed[..len]) else {
                continue;
            };
            positions += 1;
            assert_eq!(layout.encode(&pos, false), Some((index, Color::Black)));
            let swapped = pos.mirror_colors();
            assert_eq!(layout.encode(&swapped, true), Some((index, Color::Black)));
        }
        positions
    }

    #[test]
    fn every_entry_that_decodes_encodes_back_to_itself() {
        assert_eq!(Layout::new("KRKA".parse().unwrap()).size(), 6 * 9 * 90 * 5);
        assert!(round_trip("KRKA") > 10_000);
        // Two soldiers count each pair of points once: 55 choose 2.
        assert_eq!(
            Layout::new("KPPKA".parse().unwrap()).size(),
            6 * 9 * 1485 * 5
        );
        let positions = round_trip("KPPKA");
        assert!(positions > 200_000, "{positions}");
    }

    #[test]
    fn every_set_of_points_has_its_own_rank() {
        for (points, count) in [(55, 3), (90, 2), (7, 2), (5, 1), (55, 5)] {
            let group = Group {
                piece: Piece::new(Color::Red, PieceKind::Soldier),
                count,
                squares: Square::all().take(points).collect(),
                choice_of: [NONE; 90],
                sets: choose(points, count),
            };
            let mut seen = vec![false; group.sets];
            let step = (group.sets / 20_000).max(1);
            for rank in (0..group.sets).step_by(step) {
                let mut choices = [0; 5];
                group.unrank(rank, &mut choices[..count]);
                let choices = &choices[..count];
                assert!(choices.windows(2).all(|w| w[0] < w[1]), "{choices:?}");
                assert!(choices.iter().all(|&c| c < points));
                assert_eq!(Group::rank(choices), rank);
                assert!(!seen[rank]);
                seen[rank] = true;
            }
        }
        assert_eq!(choose(55, 5), 3_478_761);
    }

    #[test]
    fn a_general_on_the_f_file_is_read_mirrored_and_a_pair_stands_in_order() {
        let material: Material = "KRRK".parse().unwrap();
        let layout = Layout::new(material);
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1").unwrap();
        let mirrored = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R4K2R w - - 0 1").unwrap();
        assert_eq!(layout.encode(&pos, false), layout.encode(&mirrored, false));
        let (index, _) = layout.encode(&pos, false).unwrap();
        let (placed, len) = layout.decode(index).unwrap();
        assert_eq!(len, 4);
        assert!(placed[2].0.index() < placed[3].0.index());
    }
}
