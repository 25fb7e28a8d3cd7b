//! The repetition rules: how a cycle of moves that repeats a position is judged.
//!
//! They are the Asian Xiangqi Federation's (AXF) rules, as its rule book states them and rules on
//! its example diagrams (the English pages at `wxf.org/xq/rule/asia/` and
//! `clubxiangqi.com/rules/`); `tests/data/repetition.txt` replays 153 rulings from the rule book,
//! Daniel Tan's test suite and Fairy-Stockfish's tests. [`Position::chased_by`] finds what a
//! move chases, [`judge_repetition`] judges a cycle, and [`crate::Game`] applies the verdict at
//! the third occurrence of a position, judging every move since the first.
//!
//! What a move chases is [`Position::chased_by`]'s: the chases standing after it that did not
//! stand before, with attack, real and false protection and the exceptions defined in the
//! `chase` module's documentation.
//!
//! # Perpetual check and perpetual chase
//!
//! A side *checks perpetually* when every one of its moves in the cycle gives check (将).
//!
//! A side *chases perpetually* when one and the same enemy piece is chased by every one of its
//! moves in the cycle. The piece is followed as it moves, and any of the side's pieces may do
//! the chasing: two pieces taking turns on one piece chase it (二捉一, rule 33, diagrams
//! 81–82). One piece attacking several in turn, or several pieces taking turns on several,
//! chases none of them perpetually (一捉二, rule 32, diagrams 26–28, 76–80). A move that checks
//! chases too if it also threatens the piece; one that only checks breaks the chase, so "one
//! check one chase" (一将一捉), a check on one move and a chase of a piece the check does not
//! threaten on the next, is neither perpetual check nor perpetual chase (rule 12, diagrams 13,
//! 37, 38, 50).
//!
//! # Verdict
//!
//! - A side that checks perpetually loses, "under any circumstance" (rule 6), unless the other
//!   side checks perpetually too (rule 7), which is a draw;
//! - otherwise a side that chases perpetually loses, unless the other side chases perpetually
//!   too, which is a draw (mutual chase, diagram 48);
//! - otherwise the repetition is a draw.
//!
//! So both sides breaking the rules in the same way is a draw, and perpetual check, the graver
//! offence, loses even against a perpetual chase.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::piece::Color;
#[cfg(doc)]
use crate::position::Position;

/// What the repetition rules need to know of one ply of a repeated cycle.
pub trait CyclePly {
    /// Whether the move gave check.
    fn gave_check(&self) -> bool;
    /// The enemy pieces the move chased, by their squares after the move
    /// ([`Position::chased_by`]).
    fn chased(&self) -> Bitboard;
    /// The move itself, so that a chased piece can be followed when it moves on; `None` when the
    /// pieces cannot be told apart (then every chase counts as a chase of the same piece).
    fn played(&self) -> Option<Move>;
}

/// A ply known only by whether it gave check and whether it chased anything: the coarse form a
/// search may keep. Chases of different pieces cannot be told apart, so every chase is taken
/// to be of the same piece.
impl CyclePly for (bool, bool) {
    fn gave_check(&self) -> bool {
        self.0
    }

    fn chased(&self) -> Bitboard {
        if self.1 {
            Bitboard::FULL
        } else {
            Bitboard::EMPTY
        }
    }

    fn played(&self) -> Option<Move> {
        None
    }
}

/// How forcing one side's moves in a cycle were.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Forcing {
    /// Every move checked.
    Check,
    /// Every move chased one and the same piece.
    Chase,
    /// Neither.
    None,
}

/// Judges a repetition from its plies in order (see the module docs). `to_move` is the side to
/// move at the cycle's start (and so at its end), which tells whose move each ply was.
///
/// Used by [`crate::Game`] and by engines applying the rules inside their search; it does not
/// allocate.
///
/// ```
/// use xiangqi::{judge_repetition, Color, DrawReason, Outcome, WinReason};
/// // Plies as (gave check, chased something), Red moving first: Red chases with both its
/// // moves, Black is idle.
/// let chase = [(false, true), (false, false), (false, true), (false, false)];
/// assert_eq!(
///     judge_repetition(&chase, Color::Red),
///     Outcome::Win { winner: Color::Black, reason: WinReason::PerpetualChase }
/// );
/// // One check, one chase: neither perpetual check nor perpetual chase.
/// let mixed = [(true, false), (false, false), (false, true), (false, false)];
/// assert_eq!(judge_repetition(&mixed, Color::Red), Outcome::Draw(DrawReason::Repetition));
/// ```
pub fn judge_repetition<P: CyclePly>(cycle: &[P], to_move: Color) -> Outcome {
    let red = forcing(cycle, usize::from(to_move != Color::Red));
    let black = forcing(cycle, usize::from(to_move != Color::Black));
    let loses = |color: Color, reason| Outcome::Win {
        winner: color.other(),
        reason,
    };
    match (red, black) {
        (Forcing::Check, Forcing::Check) => Outcome::Draw(DrawReason::Repetition),
        (Forcing::Check, _) => loses(Color::Red, WinReason::PerpetualCheck),
        (_, Forcing::Check) => loses(Color::Black, WinReason::PerpetualCheck),
        (Forcing::Chase, Forcing::Chase) => Outcome::Draw(DrawReason::Repetition),
        (Forcing::Chase, _) => loses(Color::Red, WinReason::PerpetualChase),
        (_, Forcing::Chase) => loses(Color::Black, WinReason::PerpetualChase),
        (Forcing::None, Forcing::None) => Outcome::Draw(DrawReason::Repetition),
    }
}

/// How forcing the moves of the side that played plies `first`, `first + 2`, … of `cycle` were.
fn forcing<P: CyclePly>(cycle: &[P], first: usize) -> Forcing {
    let mut all_checks = true;
    // The enemy pieces chased by every move so far, followed to where they stand now; `None`
    // before the side's first move.
    let mut chased_throughout: Option<Bitboard> = None;
    for (i, ply) in cycle.iter().enumerate().skip(first) {
        if (i - first) % 2 == 0 {
            all_checks &= ply.gave_check();
            let chased = ply.chased();
            chased_throughout = Some(chased_throughout.map_or(chased, |so_far| so_far & chased));
        } else if let (Some(chased), Some(m)) = (chased_throughout.as_mut(), ply.played()) {
            // A chased piece that moves on is the same piece on its new point.
            if chased.contains(m.from()) {
                chased.remove(m.from());
                chased.insert(m.to());
            }
        }
    }
    match chased_throughout {
        None => Forcing::None,
        Some(_) if all_checks => Forcing::Check,
        Some(chased) if chased.any() => Forcing::Chase,
        Some(_) => Forcing::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    /// A ply as the tests write it: the move, whether it checked, and the squares it chased.
    struct Ply {
        mv: Move,
        check: bool,
        chased: Bitboard,
    }

    impl CyclePly for Ply {
        fn gave_check(&self) -> bool {
            self.check
        }

        fn chased(&self) -> Bitboard {
            self.chased
        }

        fn played(&self) -> Option<Move> {
            Some(self.mv)
        }
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// `"a0a1"` (idle), `"a0a1+"` (check), `"a0a1 c5 d6"` (chasing c5 and d6), `"a0a1+ c5"`.
    fn ply(text: &str) -> Ply {
        let mut words = text.split_whitespace();
        let mv = words.next().unwrap();
        let chased = words.fold(Bitboard::EMPTY, |set, s| set | Bitboard::from_square(sq(s)));
        Ply {
            mv: Move::new(sq(&mv[..2]), sq(&mv[2..4])),
            check: mv.ends_with('+'),
            chased,
        }
    }

    fn judge(plies: &[&str]) -> Outcome {
        let cycle: Vec<Ply> = plies.iter().map(|p| ply(p)).collect();
        judge_repetition(&cycle, Color::Red)
    }

    fn loses(color: Color, reason: WinReason) -> Outcome {
        Outcome::Win {
            winner: color.other(),
            reason,
        }
    }

    const DRAW: Outcome = Outcome::Draw(DrawReason::Repetition);

    #[test]
    fn a_chased_piece_is_followed_as_it_moves() {
        // Red chases the piece on c5, it steps to c6, Red chases it there, it steps back.
        let outcome = judge(&["a5b5 c5", "c5c6", "b5b6 c6", "c6c5"]);
        assert_eq!(outcome, loses(Color::Red, WinReason::PerpetualChase));
    }

    #[test]
    fn chasing_different_pieces_in_turn_is_allowed() {
        let outcome = judge(&["a5b5 c5", "i9i8", "b5a5 c6", "i8i9"]);
        assert_eq!(outcome, DRAW);
    }

    #[test]
    fn two_pieces_may_not_take_turns_on_one() {
        // The chasers differ (a5 then i5), the chased piece does not.
        let outcome = judge(&["a4a5 c5", "e9e8", "i4i5 c5", "e8e9"]);
        assert_eq!(outcome, loses(Color::Red, WinReason::PerpetualChase));
    }

    #[test]
    fn a_check_chases_only_what_it_threatens() {
        // One check one chase: a draw.
        assert_eq!(judge(&["a0a9+", "e9e8", "a9a6 i6", "e8e9"]), DRAW);
        // The check also threatens the chased piece: a perpetual chase.
        let outcome = judge(&["a0a9+ i6", "e9e8", "a9a6 i6", "e8e9"]);
        assert_eq!(outcome, loses(Color::Red, WinReason::PerpetualChase));
    }

    #[test]
    fn checking_outranks_chasing_and_equal_offences_draw() {
        let check_vs_chase = judge(&["a0a9+", "b5b6 a9", "a9a0+", "b6b5 a0"]);
        assert_eq!(check_vs_chase, loses(Color::Red, WinReason::PerpetualCheck));
        assert_eq!(judge(&["a0a9+", "e9e8+", "a9a0+", "e8e9+"]), DRAW);
        assert_eq!(judge(&["a0a1 h7", "h7h8 a1", "a1a0 h8", "h8h7 a0"]), DRAW);
    }

    #[test]
    fn the_coarse_form_cannot_tell_pieces_apart() {
        let alternating = [(false, true), (false, false), (false, true), (false, false)];
        assert_eq!(
            judge_repetition(&alternating, Color::Red),
            loses(Color::Red, WinReason::PerpetualChase)
        );
        let one_check_one_chase = [(true, false), (false, false), (false, true), (false, false)];
        assert_eq!(judge_repetition(&one_check_one_chase, Color::Red), DRAW);
    }
}
