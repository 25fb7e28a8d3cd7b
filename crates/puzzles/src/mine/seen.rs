//! Puzzles already found: the same position (or its mirror image, left and right swapped) is a
//! duplicate, and the same solution with the same material is a near-duplicate (the same
//! tactic with a pawn elsewhere).

use crate::puzzle::Puzzle;
use std::collections::HashSet;
use xiangqi::{Color, Move, PieceKind, Position};

/// What has been found so far.
#[derive(Default, Debug)]
pub struct Seen {
    positions: HashSet<u64>,
    tactics: HashSet<u64>,
}

/// The two fingerprints of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The position, the same for its mirror image.
    pub position: u64,
    /// The solution and the material, the same for the mirror image.
    pub tactic: u64,
}

impl Fingerprint {
    /// The fingerprints of the puzzle at `start` with `solution`.
    pub fn of(start: &Position, solution: &[Move]) -> Fingerprint {
        let mirrored = start.mirror_files();
        let mirror = mirrored.key() < start.key();
        let moves: Vec<u16> = solution
            .iter()
            .map(|m| {
                if mirror {
                    Move::new(m.from().flip_file(), m.to().flip_file()).bits()
                } else {
                    m.bits()
                }
            })
            .collect();
        // Bytes hashed with FNV-1a, not the standard library's hasher: ids made from them must
        // stay the same from one Rust release to the next.
        let mut bytes: Vec<u8> = moves.iter().flat_map(|m| m.to_le_bytes()).collect();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                bytes.push(start.count(color, kind) as u8);
            }
        }
        bytes.push(start.side_to_move().index() as u8);
        Fingerprint {
            position: start.key().min(mirrored.key()),
            tactic: fnv1a(&bytes),
        }
    }

    /// A short id from the fingerprint: ten lowercase hexadecimal digits.
    pub fn id(&self) -> String {
        format!(
            "{:010x}",
            (self.position ^ self.tactic.rotate_left(17)) >> 24
        )
    }
}

/// The 64-bit FNV-1a hash of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Seen {
    /// Whether a puzzle with these fingerprints was seen; remembers them either way.
    pub fn check_and_insert(&mut self, print: Fingerprint) -> bool {
        let old_position = !self.positions.insert(print.position);
        let old_tactic = !self.tactics.insert(print.tactic);
        old_position || old_tactic
    }

    /// Remembers a puzzle found before (read from the file being added to).
    pub fn remember(&mut self, puzzle: &Puzzle) {
        self.check_and_insert(Fingerprint::of(&puzzle.position, &puzzle.solution));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_image_is_the_same_puzzle() {
        let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let solution = [Move::new("a0".parse().unwrap(), "a9".parse().unwrap())];
        let mirrored = start.mirror_files();
        let mirrored_solution = [Move::new("i0".parse().unwrap(), "i9".parse().unwrap())];
        let print = Fingerprint::of(&start, &solution);
        assert_eq!(print, Fingerprint::of(&mirrored, &mirrored_solution));
        let mut seen = Seen::default();
        assert!(!seen.check_and_insert(print));
        assert!(seen.check_and_insert(Fingerprint::of(&mirrored, &mirrored_solution)));
        assert_eq!(print.id().len(), 10);
    }
}
