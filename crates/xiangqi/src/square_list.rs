//! The squares of one side's pieces of one kind, kept in order move by move.

use crate::square::Square;

/// Most pieces of one kind a side can have (its soldiers).
const CAPACITY: usize = 5;

/// The squares of one colour's pieces of one kind, lowest first: the order iterating their
/// bitboard gives, so code may walk either and see the same sequence. Walking a short array
/// is cheaper than walking the bits of a 128-bit set, which the evaluation and move generation
/// do for every kind of piece.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SquareList {
    squares: [Square; CAPACITY],
    len: u8,
}

impl SquareList {
    /// No squares.
    pub(crate) const EMPTY: SquareList = SquareList {
        squares: [Square::from_index_unchecked(0); CAPACITY],
        len: 0,
    };

    /// The squares, lowest first.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }

    /// How many squares the list holds.
    #[inline]
    pub(crate) fn len(&self) -> u8 {
        self.len
    }

    /// Adds `sq`, keeping the order. A setup with more pieces than a side can have leaves the
    /// extra ones out; such a setup is rejected anyway (see [`crate::FenError`]).
    #[inline]
    pub(crate) fn insert(&mut self, sq: Square) {
        let mut i = usize::from(self.len);
        if i == CAPACITY {
            return;
        }
        while i > 0 && self.squares[i - 1] > sq {
            self.squares[i] = self.squares[i - 1];
            i -= 1;
        }
        self.squares[i] = sq;
        self.len += 1;
    }

    /// Removes `sq`, if present, keeping the order of the rest.
    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) {
        let len = usize::from(self.len);
        let mut i = 0;
        while i < len && self.squares[i] != sq {
            i += 1;
        }
        if i == len {
            return;
        }
        while i + 1 < len {
            self.squares[i] = self.squares[i + 1];
            i += 1;
        }
        self.len -= 1;
    }

    /// Moves the entry `from` to `to`, keeping the order.
    #[inline]
    pub(crate) fn relocate(&mut self, from: Square, to: Square) {
        // Most kinds have one or two pieces: those take a compare or two.
        match self.len {
            1 => self.squares[0] = to,
            2 => {
                let [a, b] = [self.squares[0], self.squares[1]];
                let other = if a == from { b } else { a };
                self.squares[0] = to.min(other);
                self.squares[1] = to.max(other);
            }
            _ => self.relocate_among_many(from, to),
        }
    }

    fn relocate_among_many(&mut self, from: Square, to: Square) {
        let len = usize::from(self.len);
        let Some(mut i) = self.as_slice().iter().position(|&s| s == from) else {
            return;
        };
        // Slide the entry up or down to its place.
        while i + 1 < len && self.squares[i + 1] < to {
            self.squares[i] = self.squares[i + 1];
            i += 1;
        }
        while i > 0 && self.squares[i - 1] > to {
            self.squares[i] = self.squares[i - 1];
            i -= 1;
        }
        self.squares[i] = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: usize) -> Square {
        Square::from_index_unchecked(i)
    }

    fn indices(list: &SquareList) -> Vec<usize> {
        list.as_slice().iter().map(|s| s.index()).collect()
    }

    #[test]
    fn keeps_squares_in_order_through_every_change() {
        let mut list = SquareList::EMPTY;
        for i in [40, 7, 88, 7 + 9, 0] {
            list.insert(sq(i));
        }
        assert_eq!(indices(&list), [0, 7, 16, 40, 88]);
        // Full: a sixth is left out.
        list.insert(sq(50));
        assert_eq!(list.len(), 5);
        list.relocate(sq(7), sq(60));
        assert_eq!(indices(&list), [0, 16, 40, 60, 88]);
        list.relocate(sq(88), sq(1));
        assert_eq!(indices(&list), [0, 1, 16, 40, 60]);
        list.relocate(sq(16), sq(17));
        assert_eq!(indices(&list), [0, 1, 17, 40, 60]);
        list.remove(sq(40));
        list.remove(sq(33));
        assert_eq!(indices(&list), [0, 1, 17, 60]);
        list.remove(sq(0));
        list.remove(sq(60));
        assert_eq!(indices(&list), [1, 17]);
        // Two entries: either may move past the other.
        list.relocate(sq(1), sq(30));
        assert_eq!(indices(&list), [17, 30]);
        list.relocate(sq(30), sq(2));
        assert_eq!(indices(&list), [2, 17]);
        list.relocate(sq(17), sq(16));
        assert_eq!(indices(&list), [2, 16]);
        list.remove(sq(2));
        list.relocate(sq(16), sq(89));
        assert_eq!(indices(&list), [89]);
    }
}
