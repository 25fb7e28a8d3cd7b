//! Search scores: centi-soldiers, with mate scores near the ends of the range.

/// Deepest ply the search can reach (search plus quiescence).
pub const MAX_PLY: usize = 120;
/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Score for giving mate right now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at least this large (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a draw.
pub const DRAW: i32 = 0;

/// Score for mating in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score for being mated in `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Converts a score from root-relative to node-relative for storing in the table: a mate is
/// stored as its distance from this node, so it stays right when found again by another path.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The scale of the winning chance: a side ahead by this many centi-soldiers wins about three
/// games in four (the review, the puzzle generator and the page's evaluation bar use this curve).
pub const CHANCE_SCALE: f64 = 250.0;

/// The winning chance, 0 to 1, of a side with evaluation `score` (a mate score gives 0 or 1).
pub fn winning_chance(score: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / CHANCE_SCALE).exp())
}

/// A score as the protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printed {
    /// Centi-soldiers.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Converts a search score to centipawns or moves to mate.
pub fn printed(score: i32) -> Printed {
    if score >= MATE_BOUND {
        Printed::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Printed::Mate(-(MATE + score) / 2)
    } else {
        Printed::Cp(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_and_print() {
        for ply in 0..50 {
            for score in [mate_in(7), mated_in(8), 123, -45] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
        assert_eq!(printed(mate_in(1)), Printed::Mate(1));
        assert_eq!(printed(mate_in(3)), Printed::Mate(2));
        assert_eq!(printed(mated_in(2)), Printed::Mate(-1));
        assert_eq!(printed(mated_in(0)), Printed::Mate(0));
        assert_eq!(printed(37), Printed::Cp(37));
    }
}
