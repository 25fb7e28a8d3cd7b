//! Points of the board, named as in ICCS.

use std::fmt;
use std::str::FromStr;

/// Number of files (columns), `a` to `i` from Red's left.
pub const FILES: u8 = 9;
/// Number of ranks (rows), `0` (Red's back rank) to `9` (Black's back rank).
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const SQUARES: usize = 90;

/// The file and the rank of each index, read from a table rather than divided out: they are
/// asked for on every slider lookup. 256 entries, so any `u8` indexes them without a bounds
/// check.
const FILE_OF: [u8; 256] = line_of(false);
const RANK_OF: [u8; 256] = line_of(true);

const fn line_of(rank: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if rank {
            i as u8 / FILES
        } else {
            i as u8 % FILES
        };
        i += 1;
    }
    t
}

/// One of the 90 points, stored as `rank * 9 + file`.
///
/// File 0 is ICCS file `a` (Red's left), rank 0 is Red's back rank, so `Square::new(4, 0)` is `e0`,
/// where the red general starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0–8) and `rank` (0–9). Returns `None` off the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with the given index (`rank * 9 + file`), if it is below 90.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Like [`Square::from_index`] for indices known to be valid (checked in debug builds).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < SQUARES);
        Square(index as u8)
    }

    /// Index `rank * 9 + file`, in `0..90`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0–8 (`a`–`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        FILE_OF[self.0 as usize]
    }

    /// Rank 0–9, counted from Red's back rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        RANK_OF[self.0 as usize]
    }

    /// The square seen from the other side: rotated 180° (`a0` ↔ `i9`).
    #[inline]
    pub const fn rotate(self) -> Square {
        Square(89 - self.0)
    }

    /// The square with the rank mirrored (`a0` ↔ `a9`), used to swap colours.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// The square with the file mirrored (`a0` ↔ `i0`).
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && r >= 0 {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for a square name that is not a file `a`–`i` followed by a rank `0`–`9` (the name, as
/// an [`excerpt`](crate::excerpt)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name {0:?}: expected a file a-i and a rank 0-9, such as e0")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses an ICCS square name such as `e0` or `H2` (case-insensitive).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(crate::excerpt(s));
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(err());
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'0');
        Square::new(file, rank).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("E0".parse::<Square>().unwrap().index(), 4);
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn geometry() {
        let e0 = Square::new(4, 0).unwrap();
        assert_eq!(e0.rotate().to_string(), "e9");
        assert_eq!(e0.flip_rank().to_string(), "e9");
        assert_eq!(Square::new(0, 0).unwrap().flip_file().to_string(), "i0");
        assert_eq!(e0.offset(-1, 2).unwrap().to_string(), "d2");
        assert_eq!(e0.offset(0, -1), None);
    }
}
