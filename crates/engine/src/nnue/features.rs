//! The network's inputs: one for each piece on its square, as one side sees the board; in a
//! network with king buckets, one such set for each square of the side's own general in its
//! palace, of which the square the general stands on is the one in use.

use xiangqi::square::SQUARES;
use xiangqi::{Color, Piece, Square};

/// Inputs per side: whose piece (own or opponent's) × 7 kinds × 90 squares.
pub const INPUTS: usize = 2 * 7 * SQUARES;
/// Squares of a palace: the king buckets of a network that has them.
pub const KING_BUCKETS: usize = 9;
/// Inputs per side of a network with king buckets: [`INPUTS`] for each king bucket.
pub const BUCKETED_INPUTS: usize = KING_BUCKETS * INPUTS;

/// The king bucket of `side`, whose general stands on `general`: the palace square as `side`
/// sees the board (ranks mirrored for Black, as in [`index`]), `rank × 3 + file − 3`, so d0 is
/// 0, e0 1, f0 2, … f2 8.
#[inline]
pub fn king_bucket(side: Color, general: Square) -> usize {
    let sq = match side {
        Color::Red => general,
        Color::Black => general.flip_rank(),
    };
    debug_assert!(
        (3..=5).contains(&sq.file()) && sq.rank() <= 2,
        "a general in its palace"
    );
    usize::from(sq.rank().min(2)) * 3 + usize::from(sq.file().clamp(3, 5)) - 3
}

/// The input for `piece` on `sq` as `side` sees the board in a network with king buckets, when
/// `side`'s general stands on `general`: the bucket's set, then [`index`] within it.
#[inline]
pub fn bucketed_index(side: Color, piece: Piece, sq: Square, general: Square) -> usize {
    king_bucket(side, general) * INPUTS + index(side, piece, sq)
}

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
    fn each_palace_square_is_a_king_bucket_of_its_own_for_both_sides() {
        let mut red = Vec::new();
        let mut black = Vec::new();
        for rank in 0..3 {
            for file in 3..6 {
                red.push(king_bucket(Color::Red, Square::new(file, rank).unwrap()));
                black.push(king_bucket(
                    Color::Black,
                    Square::new(file, 9 - rank).unwrap(),
                ));
            }
        }
        assert_eq!(red, (0..KING_BUCKETS).collect::<Vec<_>>());
        assert_eq!(black, red, "Black's palace, seen from Black's side");
        let e0 = Square::new(4, 0).unwrap();
        let red_chariot = Piece::new(Color::Red, PieceKind::Chariot);
        assert_eq!(
            bucketed_index(Color::Red, red_chariot, e0, Square::new(5, 2).unwrap()),
            8 * INPUTS + index(Color::Red, red_chariot, e0)
        );
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
