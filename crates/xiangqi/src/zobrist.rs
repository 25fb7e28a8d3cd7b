//! Zobrist keys: a random 64-bit number per (piece, square) and one for the side to move.

use crate::piece::{Color, Piece};
use crate::square::{Square, SQUARES};

/// SplitMix64: a small, well-mixed generator, good enough for hash keys and usable in `const`.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

static PIECE_SQUARE: [[u64; SQUARES]; 14] = {
    let mut t = [[0u64; SQUARES]; 14];
    let mut state = 0x5851_4951_2026_0001u64;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARES {
            let (next, value) = splitmix(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

/// Key XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0xA5C3_96E1_0F2B_7D45;

/// Key for the side to move: zero for Red.
#[inline]
pub fn side_key(color: Color) -> u64 {
    match color {
        Color::Red => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}
