//! The network's inputs: one for each piece on its square, as one side sees the board.

use xiangqi::square::SQUARES;
use xiangqi::{Color, Piece, Square};

/// Inputs per side: whose piece (own or opponent's) × 7 kinds × 90 squares.
pub const INPUTS: usize = 2 * 7 * SQUARES;

/// The input for `piece` on `sq` as `side` sees the board: the index
/// `(owner × 7 + kind) × 90 + square`, where `owner` is 0 for `side`'s own pieces and 1 for the
/// opponent's, `kind` counts general, advisor, elephant, horse, chariot, cannon, soldier from 0,
/// and `square` is `rank × 9 + file` with the rank mirrored (`9 − rank`) when `side` is Black.
/// Mirroring the ranks (not rotating the board) keeps each file where it is.
#[inline]
pub fn index(side: Color, piece: Piece, sq: Square) -> usize {
    let owner = usize::from(piece.color != side);
    let square = match side {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    (owner * 7 + piece.kind.index()) * SQUARES + square.index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::PieceKind;

    #[test]
    fn each_side_sees_its_own_pieces_from_its_own_back_rank() {
        let e0 = Square::new(4, 0).unwrap();
        let e9 = Square::new(4, 9).unwrap();
        let red_general = Piece::new(Color::Red, PieceKind::General);
        let black_general = Piece::new(Color::Black, PieceKind::General);
        assert_eq!(index(Color::Red, red_general, e0), 4);
        assert_eq!(index(Color::Black, black_general, e9), 4);
        assert_eq!(index(Color::Red, black_general, e9), 7 * 90 + 85);
        assert_eq!(index(Color::Black, red_general, e0), 7 * 90 + 85);
    }

    #[test]
    fn every_piece_on_every_square_has_its_own_input() {
        for side in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let i = index(side, Piece::new(color, kind), sq);
                        assert!(!seen[i], "input {i} twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
