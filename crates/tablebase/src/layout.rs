//! Where each piece of a material set may stand, and a position's index in its table.
//!
//! The pieces take slots in a fixed order: Red's general, Black's general, then Red's pieces
//! and Black's by kind (chariots, horses, cannons, soldiers, advisors, elephants). Each slot has
//! the points its piece can ever reach (an elephant's seven, a soldier's fifty-five), and the
//! index counts through the slots' choices. Two pieces of one kind stand in ascending order;
//! other orders are no position. Red's general stands on the d or e file: a position with it on
//! the f file is read mirrored (files a–i swapped), which halves the table.

use crate::material::{Material, KINDS};
use xiangqi::fen::is_reachable;
use xiangqi::{Color, Piece, PieceKind, Position, Square};

/// The most men a table has (two generals and up to eight other pieces).
pub const MAX_MEN: usize = 10;

/// Unused entry of a slot's point-to-choice map.
const NONE: u8 = u8::MAX;

#[derive(Clone, Debug)]
struct Slot {
    piece: Piece,
    /// The points the piece may stand on, in square order.
    squares: Vec<Square>,
    /// Each point's place in `squares`, or [`NONE`].
    choice_of: [u8; 90],
    /// Whether the slot before holds the same kind and colour (the pair stands in order).
    follows_same: bool,
}

/// Pieces as a table lists them: (point, piece), the generals first.
pub type Placement = ([(Square, Piece); MAX_MEN], usize);

/// The slots of a material set and the size of its table (per side to move).
#[derive(Clone, Debug)]
pub struct Layout {
    slots: Vec<Slot>,
    size: usize,
}

impl Layout {
    /// The layout of `material`'s table.
    pub fn new(material: Material) -> Layout {
        let mut slots = Vec::new();
        let mut add = |color: Color, kind: PieceKind, follows_same: bool| {
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
            slots.push(Slot {
                piece: Piece::new(color, kind),
                squares,
                choice_of,
                follows_same,
            });
        };
        add(Color::Red, PieceKind::General, false);
        add(Color::Black, PieceKind::General, false);
        for color in Color::ALL {
            for kind in KINDS {
                for i in 0..material.army(color).count(kind) {
                    add(color, kind, i > 0);
                }
            }
        }
        let size = slots.iter().map(|s| s.squares.len()).product();
        Layout { slots, size }
    }

    /// Entries per side to move.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The pieces of entry `index`; `None` when two share a point or a pair is out of order.
    pub fn decode(&self, mut index: usize) -> Option<Placement> {
        let mut placed = [(
            Square::from_index(0).expect("a point"),
            Piece::new(Color::Red, PieceKind::General),
        ); MAX_MEN];
        let mut occupied = 0u128;
        for (i, slot) in self.slots.iter().enumerate().rev() {
            let n = slot.squares.len();
            let sq = slot.squares[index % n];
            index /= n;
            let bit = 1u128 << sq.index();
            if occupied & bit != 0 {
                return None;
            }
            occupied |= bit;
            placed[i] = (sq, slot.piece);
        }
        for i in 1..self.slots.len() {
            if self.slots[i].follows_same && placed[i].0.index() <= placed[i - 1].0.index() {
                return None;
            }
        }
        Some((placed, self.slots.len()))
    }

    /// The entry of `pos` (whose material is this layout's, with the colours swapped when
    /// `swapped`) and the side to move in the table; `None` if a piece stands where its slot
    /// has no point (it cannot, in a legal position).
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
        let mut i = 0;
        while i < self.slots.len() {
            let piece = self.slots[i].piece;
            let own = pos.squares(table_color(piece.color), piece.kind);
            let mut points = [0u8; 5];
            for (k, &sq) in own.iter().enumerate() {
                points[k] = point(sq).index() as u8;
            }
            let points = &mut points[..own.len()];
            points.sort_unstable();
            for &p in points.iter() {
                let slot = &self.slots[i];
                if slot.piece != piece {
                    return None;
                }
                let choice = slot.choice_of[usize::from(p)];
                if choice == NONE {
                    return None;
                }
                index = index * slot.squares.len() + usize::from(choice);
                i += 1;
            }
            if own.is_empty() {
                return None;
            }
        }
        Some((index, table_color(pos.side_to_move())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_that_decodes_encodes_back_to_itself() {
        let material: Material = "KRKA".parse().unwrap();
        let layout = Layout::new(material);
        assert_eq!(layout.size(), 6 * 9 * 90 * 5);
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
            // The same position with the colours swapped reads back to the same entry.
            let swapped = pos.mirror_colors();
            assert_eq!(layout.encode(&swapped, true), Some((index, Color::Black)));
        }
        assert!(positions > 10_000, "{positions}");
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
