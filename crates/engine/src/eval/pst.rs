//! Piece-square tables: a bonus per kind and point, written from Red's side (Black's points are
//! mirrored). Each table reads like the board seen by Red: the first row is rank 9 (the enemy's
//! back rank), the last row is rank 0 (Red's own back rank).

use super::params::{Pair, Weights};
use xiangqi::{Color, PieceKind, Square};

type Table = [[i16; 9]; 10];

#[rustfmt::skip]
const GENERAL_MG: Table = [
    [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    [0, 0, 0, -30, -40, -30, 0, 0, 0],
    [0, 0, 0, -12, -20, -12, 0, 0, 0],
    [0, 0, 0,   2,   6,   2, 0, 0, 0],
];
#[rustfmt::skip]
const GENERAL_EG: Table = [
    [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    [0, 0, 0, -8, -4, -8, 0, 0, 0],
    [0, 0, 0, -2,  4, -2, 0, 0, 0],
    [0, 0, 0, -4,  0, -4, 0, 0, 0],
];
#[rustfmt::skip]
const ADVISOR: Table = [
    [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    [0, 0, 0, -4, 0, -4, 0, 0, 0],
    [0, 0, 0,  0, 6,  0, 0, 0, 0],
    [0, 0, 0,  2, 0,  2, 0, 0, 0],
];
#[rustfmt::skip]
const ELEPHANT: Table = [
    [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    [0, 0, -4, 0, 0, 0, -4, 0, 0],
    [0; 9],
    [-6, 0, 0, 0, 8, 0, 0, 0, -6],
    [0; 9],
    [0, 0, 2, 0, 0, 0, 2, 0, 0],
];
#[rustfmt::skip]
const HORSE: Table = [
    [ 2,  6, 10,  8,  0,  8, 10,  6,  2],
    [ 4, 10, 24, 18,  6, 18, 24, 10,  4],
    [ 8, 18, 20, 26, 20, 26, 20, 18,  8],
    [ 6, 22, 18, 26, 22, 26, 18, 22,  6],
    [ 4, 14, 16, 20, 18, 20, 16, 14,  4],
    [ 2, 10, 14, 14, 12, 14, 14, 10,  2],
    [ 0,  4,  8,  6, 10,  6,  8,  4,  0],
    [ 2,  0,  6,  6,  2,  6,  6,  0,  2],
    [-6, -2,  2,  0, -8,  0,  2, -2, -6],
    [-8,-10, -2, -4, -6, -4, -2,-10, -8],
];
#[rustfmt::skip]
const CHARIOT: Table = [
    [ 6,  8,  6, 12, 14, 12,  6,  8,  6],
    [ 8, 12, 10, 16, 18, 16, 10, 12,  8],
    [ 4,  6,  6, 12, 12, 12,  6,  6,  4],
    [ 6, 10,  8, 12, 12, 12,  8, 10,  6],
    [ 6, 10,  8, 12, 12, 12,  8, 10,  6],
    [ 4,  8,  6, 10, 10, 10,  6,  8,  4],
    [ 0,  4,  2,  8,  8,  8,  2,  4,  0],
    [-2,  2,  0,  6,  4,  6,  0,  2, -2],
    [-4,  2, -2,  6,  0,  6, -2,  2, -4],
    [-8,  4, -2,  4,  0,  4, -2,  4, -8],
];
#[rustfmt::skip]
const CANNON: Table = [
    [ 4,  2,  0, -6, -8, -6,  0,  2,  4],
    [ 2,  2,  0, -4, -10,-4,  0,  2,  2],
    [ 2,  2,  0, -6, -4, -6,  0,  2,  2],
    [ 0,  0, -2,  2,  6,  2, -2,  0,  0],
    [ 0,  0,  0,  2,  6,  2,  0,  0,  0],
    [-2,  0,  2,  2,  6,  2,  2,  0, -2],
    [ 0,  0,  0,  2,  4,  2,  0,  0,  0],
    [ 2,  0,  4,  4, 10,  4,  4,  0,  2],
    [ 0,  2,  2,  4,  4,  4,  2,  2,  0],
    [ 0,  0,  2,  4,  4,  4,  2,  0,  0],
];
#[rustfmt::skip]
const SOLDIER_MG: Table = [
    [  0,  2,  4,  8, 10,  8,  4,  2,  0],
    [ 10, 24, 40, 60, 80, 60, 40, 24, 10],
    [ 10, 22, 34, 50, 60, 50, 34, 22, 10],
    [  8, 18, 26, 32, 38, 32, 26, 18,  8],
    [  6, 12, 16, 18, 22, 18, 16, 12,  6],
    [ -6,  0, -2,  0,  4,  0, -2,  0, -6],
    [ -8,  0, -6,  0,  2,  0, -6,  0, -8],
    [0; 9], [0; 9], [0; 9],
];
#[rustfmt::skip]
const SOLDIER_EG: Table = [
    [  0,  6, 10, 14, 16, 14, 10,  6,  0],
    [ 20, 36, 52, 70, 80, 70, 52, 36, 20],
    [ 20, 34, 46, 60, 66, 60, 46, 34, 20],
    [ 18, 28, 36, 44, 48, 44, 36, 28, 18],
    [ 14, 20, 26, 30, 32, 30, 26, 20, 14],
    [-10, 0, -6,  0, -2,  0, -6,  0,-10],
    [-12, 0, -8,  0, -4,  0, -8,  0,-12],
    [0; 9], [0; 9], [0; 9],
];

/// Material plus piece-square value of each (colour, kind, square), from that piece's owner's
/// point of view, built once at compile time from the weights and tables above.
pub struct PieceSquare {
    values: [[[Pair; 90]; 7]; 2],
}

const fn table_for(kind: PieceKind, endgame: bool) -> &'static Table {
    match kind {
        PieceKind::General => {
            if endgame {
                &GENERAL_EG
            } else {
                &GENERAL_MG
            }
        }
        PieceKind::Advisor => &ADVISOR,
        PieceKind::Elephant => &ELEPHANT,
        PieceKind::Horse => &HORSE,
        PieceKind::Chariot => &CHARIOT,
        PieceKind::Cannon => &CANNON,
        PieceKind::Soldier => {
            if endgame {
                &SOLDIER_EG
            } else {
                &SOLDIER_MG
            }
        }
    }
}

impl PieceSquare {
    /// Builds the table for the given base material values and table scales.
    pub fn new(weights: &Weights) -> PieceSquare {
        let mut values = [[[Pair { mg: 0, eg: 0 }; 90]; 7]; 2];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    // Tables are from Red's side: mirror Black's points onto Red's.
                    let own = match color {
                        Color::Red => sq,
                        Color::Black => sq.flip_rank(),
                    };
                    let row = 9 - own.rank() as usize;
                    let col = own.file() as usize;
                    let base = weights.material[kind.index()];
                    let scale = weights.pst_scale[kind.index()];
                    let [delta_mg, delta_eg] =
                        weights.pst_delta[kind.index()].map(|table| table[row][col.min(8 - col)]);
                    let mg = table_for(kind, false)[row][col] as i32 * scale.mg / 64 + delta_mg;
                    let eg = table_for(kind, true)[row][col] as i32 * scale.eg / 64 + delta_eg;
                    values[color.index()][kind.index()][sq.index()] = Pair {
                        mg: base.mg + mg,
                        eg: base.eg + eg,
                    };
                }
            }
        }
        PieceSquare { values }
    }

    /// Value of `color`'s `kind` on `sq`, for its owner.
    #[inline]
    pub fn get(&self, color: Color, kind: PieceKind, sq: Square) -> Pair {
        self.values[color.index()][kind.index()][sq.index()]
    }
}
